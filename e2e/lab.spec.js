// The lease-duration lab: open it, run a small sweep (and cancel a big one), read the four
// charts and the marked breaking point, export a chart as SVG, and open the run behind a
// point in the main timeline.
'use strict';
const fs = require('fs');
const { test, expect, shot, button, openApp, picker, svgStrings } = require('./helpers');

const TITLES = [
  'Time to takeover after a crash',
  'False expirations',
  'Renewal messages per minute',
  'Stale writes: without fencing vs with it',
];

const lab = (page) => page.locator('details.lab');
const chart = (page, title) => lab(page).getByRole('figure', { name: title });

/** Open the lab, set N runs per TTL, press Run and wait until the sweep is done. */
async function runLab(page, runs) {
  await openApp(page);
  await page.getByRole('heading', { name: 'Lease-duration lab' }).click();
  const n = page.getByRole('spinbutton', { name: 'Runs per TTL' });
  await n.fill(String(runs));
  await n.press('Tab');
  await expect(lab(page).getByText(`${runs} seeded runs at each TTL`)).toBeVisible();
  await button(page, 'Run').click();
  await expect(lab(page).getByRole('status')).toContainText('Done: 10 TTLs', { timeout: 20_000 });
}

test('the lab plots four charts against TTL and marks where safety breaks', async ({ page, pageErrors }) => {
  await runLab(page, 3);
  for (const title of TITLES) {
    await expect(lab(page).getByRole('heading', { level: 3, name: title })).toBeVisible();
  }
  const stale = chart(page, TITLES[3]);
  await expect(stale.locator('text', { hasText: /^Unsafe without fencing: TTL ≤ \d+$/ })).toBeVisible();
  // Every TTL is a focusable point on each series.
  await expect(stale.getByRole('button', { name: /^TTL \d+: .* accepted without fencing$/ })).toHaveCount(10);
  await expect(stale.getByRole('button', { name: /^TTL \d+: .* rejected with fencing$/ })).toHaveCount(10);
  await expect(chart(page, TITLES[1]).getByRole('button', { name: /^TTL 2: [\d.]+ false expirations?$/ })).toHaveCount(1);
  // A series is a line, not a filled polygon (its colour class also colours the points).
  const fills = await lab(page).locator('path.lp-line').evaluateAll((ps) => ps.map((p) => getComputedStyle(p).fill));
  expect(fills.length).toBeGreaterThanOrEqual(4);
  expect(fills.every((f) => f === 'none'), JSON.stringify(fills)).toBe(true);

  // Export: a download of a standalone SVG document.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    stale.getByRole('button', { name: `Export SVG: ${TITLES[3]}` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('fencing-lab-stale-writes.svg');
  const text = fs.readFileSync(await download.path(), 'utf8');
  const svg = await page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
    const root = doc.documentElement;
    return {
      errors: doc.getElementsByTagName('parsererror').length,
      name: root.localName,
      ns: root.namespaceURI,
      title: root.querySelector('title') && root.querySelector('title').textContent,
      texts: [...root.querySelectorAll('text')].map((e) => e.textContent),
    };
  }, text);
  expect(svg.errors).toBe(0);
  expect(svg).toMatchObject({ name: 'svg', ns: 'http://www.w3.org/2000/svg', title: TITLES[3] });
  expect(svg.texts.some((t) => /^Unsafe without fencing: TTL ≤ \d+$/.test(t))).toBe(true);

  await page.setViewportSize({ width: 1280, height: 900 });
  await lab(page).scrollIntoViewIfNeeded();
  await shot(page, 'lab-plots-1280');
  await page.setViewportSize({ width: 360, height: 800 });
  await shot(page, 'lab-plots-360');
  expect(pageErrors).toEqual([]);
});

test('a point opens the run behind it in the main timeline', async ({ page, pageErrors }) => {
  await runLab(page, 3);
  const stale = chart(page, TITLES[3]);
  // The shortest lease a worker can hold over this network (a 2-tick lease runs out before
  // its grant arrives): some run there let a stale write through the unfenced copy.
  const point = stale.getByRole('button', { name: /^TTL 4: .* accepted without fencing$/ });
  await point.focus();
  await page.keyboard.press('Enter');
  const pick = stale.getByRole('group', { name: 'Selected point' });
  await expect(pick).toContainText(/TTL 4: .* accepted without fencing \(mean of 3 runs\)/);
  const runs = pick.getByRole('combobox', { name: /^Run behind this point/ });
  await expect(runs.locator('option')).toHaveCount(3);
  const chosen = await runs.inputValue();
  await shot(page, 'lab-point-selected-1280');
  await pick.getByRole('button', { name: 'Open run' }).click();

  await expect(picker(page, 'Scenario')).toHaveValue(`lab-ttl4-run${chosen}`);
  const k = Number(chosen) + 1;
  await expect(page.getByText(new RegExp(`Opened “Lease lab: TTL 4, run ${k}” at step \\d+, its first violation`))).toBeVisible();
  await expect(page.getByRole('region', { name: 'Timeline' })).toContainText('unfenced');
  await expect.poll(async () => (await svgStrings(page)).some((s) => /^Violation at unfenced/.test(s))).toBe(true);
  // A normal run: step through it.
  await expect(button(page, 'Step back')).toBeEnabled();
  await button(page, 'Step back').click();
  await shot(page, 'lab-run-opened-1280');
  expect(pageErrors).toEqual([]);
});

test('a long sweep shows its progress and can be cancelled', async ({ page, pageErrors }) => {
  await openApp(page);
  await page.getByRole('heading', { name: 'Lease-duration lab' }).click();
  const n = page.getByRole('spinbutton', { name: 'Runs per TTL' });
  await n.fill('100');
  await n.press('Tab');
  await button(page, 'Run').click();
  const bar = page.getByRole('progressbar', { name: 'Lab progress' });
  await expect(bar).toBeVisible();
  // The page answers while it computes: the main timeline still steps.
  await button(page, 'Step forward').click();
  await expect.poll(async () => Number(await bar.getAttribute('value'))).toBeGreaterThan(0);
  await button(page, 'Cancel').click();
  await expect(bar).toHaveCount(0);
  await expect(lab(page).getByRole('status')).toContainText(/^Cancelled after \d+ of 1000 runs\.$/);
  await expect(button(page, 'Cancel')).toBeDisabled();
  expect(pageErrors).toEqual([]);
});
