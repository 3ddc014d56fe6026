// The lease-duration lab: open it, run a small sweep (and cancel a big one), read the four
// charts and the banner (no TTL is safe without fencing; marks where stale writes were seen,
// never a safe threshold), export a chart as SVG, and open the run behind a point in the
// main timeline, narrated as that run.
'use strict';
const fs = require('fs');
const { test, expect, shot, button, openApp, picker, svgStrings, parseSvgFile, fetchedNames } = require('./helpers');

const TITLES = [
  'Time to takeover after a crash',
  'False expirations',
  'Renewal traffic per minute',
  'Stale and superseded writes: without fencing vs with it',
];
const BANNER_LEAD =
  'No TTL is safe without fencing: a longer lease makes stale writes rarer and takeover slower; it never rules them out.';

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

test('the lab plots four charts against TTL and says no TTL is safe without fencing', async ({ page, pageErrors }) => {
  await runLab(page, 3);
  for (const title of TITLES) {
    await expect(lab(page).getByRole('heading', { level: 3, name: title })).toBeVisible();
  }
  const stale = chart(page, TITLES[3]);
  // The banner: no safe threshold, only where this sweep saw stale writes get through.
  const banner = stale.locator('.lab-banner');
  await expect(banner).toContainText(BANNER_LEAD);
  await expect(banner).toContainText(/This sweep observed stale writes through the unfenced copy at TTL \d+/);
  await expect(banner).toContainText(/real pauses and delays have no such cap\.$/);
  await expect(stale).not.toContainText('Unsafe');
  await expect(stale.locator('text', { hasText: /^No TTL is safe without fencing$/ })).toBeVisible();
  await expect(stale.locator('text', { hasText: /^stale writes seen at TTL \d+/ })).toBeVisible();
  // Every TTL is a focusable point on each series, the fenced copy's superseded writes too.
  await expect(stale.getByRole('button', { name: /^TTL \d+: .* old-owner writes? accepted without fencing$/ })).toHaveCount(10);
  await expect(stale.getByRole('button', { name: /^TTL \d+: .* superseded writes? accepted with fencing$/ })).toHaveCount(10);
  await expect(stale.getByRole('button', { name: /^TTL \d+: .* rejected with fencing$/ })).toHaveCount(10);
  // At short leases the fenced copy (highest-seen) still applied a superseded write.
  const superseded = await stale
    .getByRole('button', { name: /superseded writes? accepted with fencing$/ })
    .evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')));
  expect(superseded.some((l) => /^TTL [2-9]: (?!0 )[\d.]+ superseded/.test(l)), JSON.stringify(superseded)).toBe(true);
  // Renewal traffic falls as the lease grows.
  const traffic = await chart(page, TITLES[2])
    .getByRole('button', { name: /renewals and re-acquires per minute$/ })
    .evaluateAll((bs) => bs.map((b) => Number(/: ([\d.]+) /.exec(b.getAttribute('aria-label'))[1])));
  expect(traffic).toHaveLength(10);
  for (let i = 1; i < traffic.length; i++) expect(traffic[i], JSON.stringify(traffic)).toBeLessThanOrEqual(traffic[i - 1]);
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
  const parsed = await parseSvgFile(page, text);
  const svg = { errors: parsed.errors, name: parsed.root, ns: parsed.ns, title: parsed.title, texts: parsed.texts };
  expect(svg.errors).toBe(0);
  expect(svg).toMatchObject({ name: 'svg', ns: 'http://www.w3.org/2000/svg', title: TITLES[3] });
  expect(svg.texts).toContain('No TTL is safe without fencing');
  expect(svg.texts.some((t) => /^stale writes seen at TTL \d+/.test(t))).toBe(true);
  expect(svg.texts.some((t) => t.includes('Unsafe'))).toBe(false);
  // The charts' stylesheet, read from the page, with its colours written out.
  const style = text.match(/<style>([\s\S]*?)<\/style>/)[1];
  expect(style).not.toContain('var(');
  expect(style).toMatch(/\.lp-bad \{[^}]*stroke: #cf222e/);

  await page.setViewportSize({ width: 1280, height: 900 });
  await lab(page).scrollIntoViewIfNeeded();
  await shot(page, 'lab-plots-1280');
  await page.setViewportSize({ width: 360, height: 800 });
  await shot(page, 'lab-plots-360');
  expect(pageErrors).toEqual([]);
});

test('a point opens the run behind it in the main timeline, narrated as that run', async ({ page, pageErrors }) => {
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
  const violation = async (where) => (await svgStrings(page)).some((s) => new RegExp(`^Violation at ${where}`).test(s));
  await expect.poll(() => violation('(fenced|unfenced)')).toBe(true);
  // The narration tells this run, not the blank Sandbox's invitation.
  const narration = page.getByRole('region', { name: 'Narration' });
  await expect(narration).toContainText(/a superseded write \([AB]\d+ wrote under grant #\d+|lets a stale write overwrite/);
  await expect(narration).not.toContainText('Sandbox: build a story from nothing');
  await expect(narration).toContainText(/Script step \d+ of \d+/);
  await expect(page.locator('p.summary')).toContainText('In all:');
  await shot(page, 'lab-run-opened-1280');
  // The old owner's writes to the two copies travel apart: a step or two on, the unfenced
  // copy's is told too.
  for (let i = 0; i < 3 && !(await violation('unfenced')); i++) await button(page, 'Step forward').click();
  await expect.poll(() => violation('unfenced')).toBe(true);
  await expect(narration).toContainText(/The unfenced copy (applies a superseded write|lets a stale write overwrite)/);
  // A normal run: step through it. Its first step names the TTL, the run and its seed.
  await expect(button(page, 'Step back')).toBeEnabled();
  await button(page, 'Step back').click();
  await button(page, 'Back to start').click();
  await button(page, 'Step forward').click();
  await expect(narration).toContainText(new RegExp(`Lease lab, TTL 4 s, run ${k} \\(seed \\d+\\): A and B share one 4-second lease`));
  await expect(narration).not.toContainText('Sandbox');
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

/** The tools module's files the page fetches. */
const toolsFetches = (page) => fetchedNames(page, (name) => name.startsWith('fencing-lab-tools'));

test('the lab loads when first opened: Loading…, once, and a failure keeps the run and can be retried', async ({ page, pageErrors }) => {
  const fetched = toolsFetches(page);
  let fail = 'script';
  let release;
  const held = new Promise((r) => (release = r));
  await page.route('**/fencing-lab-tools.js', (route) => (fail === 'script' ? route.abort() : route.continue()));
  await page.route('**/fencing-lab-tools_bg.wasm', async (route) => {
    if (fail === 'module') return route.abort();
    await held;
    await route.continue();
  });
  await openApp(page);
  expect(fetched, 'not in the first load').toEqual([]);
  await button(page, 'Step forward').click();
  await button(page, 'Step forward').click();
  const step = await page.getByText(/^Step \d+ of \d+/).first().textContent();

  // A failure to load: said in the section, and the run is as it was.
  const heading = page.getByRole('heading', { name: 'Lease-duration lab' });
  await heading.click();
  await expect(lab(page).getByRole('alert')).toContainText(
    'The lease-duration lab could not be loaded: its script could not be fetched. Your run is as it was',
  );
  await expect(page.getByText(/^Step \d+ of \d+/).first()).toHaveText(step);
  await shot(page, 'lab-load-failed-1280');

  // Closed and opened again, it tries again; its module can fail too, and be tried again.
  fail = 'module';
  await heading.click();
  await heading.click();
  await expect(lab(page).getByRole('alert')).toContainText('could not be loaded: its module could not be fetched or started');
  // "Loading…" while the module comes, then the lab.
  fail = null;
  await heading.click();
  await heading.click();
  await expect(lab(page).getByRole('status').first()).toHaveText('Loading the lease-duration lab…');
  await expect(lab(page).getByRole('alert')).toHaveCount(0);
  release();
  await expect(page.getByRole('spinbutton', { name: 'Runs per TTL' })).toBeVisible();
  await expect(lab(page).getByText('Loading the lease-duration lab…')).toHaveCount(0);

  // A second opening shows the same lab, without fetching anything again.
  await heading.click();
  await heading.click();
  await expect(page.getByRole('spinbutton', { name: 'Runs per TTL' })).toBeVisible();
  expect(fetched.filter((f) => f.endsWith('.wasm')), 'one failed fetch, one that came').toEqual(['fencing-lab-tools_bg.wasm', 'fencing-lab-tools_bg.wasm']);
  expect(pageErrors).toEqual([]);
});

test("the lab's module handles its own events, never the page's", async ({ page, pageErrors }) => {
  await openApp(page);
  await button(page, 'Step forward').click();
  // What the page shows: any of its handlers running would change one of these.
  const look = () => page.evaluate(() => ({
    url: location.href,
    step: document.querySelector('.step-of, [class*=step]')?.textContent ?? '',
    log: document.querySelector('[role=log]')?.innerText ?? '',
    picker: [...document.querySelectorAll('.picker select')].map((s) => s.value),
    error: document.querySelector('.error-bar')?.innerText ?? '',
    notice: document.querySelector('.notice')?.innerText ?? '',
    dialogs: document.querySelectorAll('[role=dialog]').length,
    details: [...document.querySelectorAll('details')].map((d) => d.open),
  }));
  await page.getByRole('heading', { name: 'Lease-duration lab' }).click();
  const n = page.getByRole('spinbutton', { name: 'Runs per TTL' });
  await expect(n).toBeVisible();
  const before = await look();
  // Every kind of event the lab listens to: input, change, submit, click, keydown.
  await n.fill('2');
  await n.press('Tab');
  for (const slider of await lab(page).getByRole('slider').all()) {
    await slider.focus();
    await slider.press('ArrowRight');
  }
  await button(page, 'Run').click();
  await expect(lab(page).getByRole('status')).toContainText('Done', { timeout: 20_000 });
  const point = lab(page).locator('[data-pt]').first();
  await point.click();
  await point.press('Enter');
  await lab(page).getByRole('combobox').first().selectOption({ index: 1 });
  const after = await look();
  expect(after).toEqual(before);
  expect(pageErrors).toEqual([]);
});
