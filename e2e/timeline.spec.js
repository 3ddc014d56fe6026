// The timeline as a newcomer meets it: focusing or clicking a violation or a verdict shows
// its explanation in words under the diagram, and the labels drawn by the browser's own fonts
// do not print over each other (the layout estimates text widths; this measures them).
'use strict';
const { test, expect, openPreset, playToEnd } = require('./helpers');

const timeline = (page) => page.getByRole('region', { name: 'Timeline' });
const explanation = (page) => timeline(page).locator('.tl-explain');

test('focusing or clicking the violation shows why, in words', async ({ page, pageErrors }) => {
  await openPreset(page, 'paused-writer', 'unfenced');
  await playToEnd(page);

  const marker = timeline(page).getByRole('img', { name: /^Violation at report/ });
  await expect(marker).toHaveCount(1);
  const why = await marker.getAttribute('aria-label');
  expect(why).toMatch(/stale overwrite/);
  await expect(explanation(page)).not.toHaveText(why);

  // by keyboard: tab to it
  await marker.focus();
  await expect(marker).toBeFocused();
  await expect(explanation(page)).toBeVisible();
  await expect(explanation(page)).toHaveText(why);

  // leaving it hides it; a click shows it again
  await page.getByRole('button', { name: 'Step back', exact: true }).focus();
  await expect(explanation(page)).not.toHaveText(why);
  await marker.click();
  await expect(explanation(page)).toHaveText(why);
  expect(pageErrors).toEqual([]);
});

test('focusing a verdict shows its outcome and reason', async ({ page, pageErrors }) => {
  await openPreset(page, 'paused-writer', 'highest-seen');
  await playToEnd(page);
  const rejected = timeline(page).getByRole('img', { name: /^✗ rejected: stale/ });
  await expect(rejected).toHaveCount(1);
  await rejected.focus();
  await expect(explanation(page)).toContainText('rejected: stale — request A-stale with token 41');
  expect(pageErrors).toEqual([]);
});

/** The boxes of the timeline's labels as the browser draws them, and pairs that overlap. */
async function collisions(page) {
  return timeline(page).locator('svg.tl-svg').evaluate((svg) => {
    const sel = '.arrow-label, .pending-label, .mark-label, .bar-text, .band-text, .v-line, .overlap text';
    const boxes = [...svg.querySelectorAll(sel)].map((t) => {
      const b = t.getBBox();
      return { text: t.textContent, x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height };
    });
    const width = Number(svg.getAttribute('width'));
    const out = [];
    // The font's box includes room above and below the letters: 2 px of it may touch.
    const slack = 2;
    boxes.forEach((a, i) => {
      if (a.x0 < 0 || a.x1 > width) out.push(`outside: ${a.text}`);
      for (const b of boxes.slice(i + 1)) {
        if (a.x0 < b.x1 - 1 && b.x0 < a.x1 - 1 && a.y0 < b.y1 - slack && b.y0 < a.y1 - slack) {
          out.push(`${a.text} × ${b.text}`);
        }
      }
    });
    return { count: boxes.length, out };
  });
}

for (const [id, policy] of [['paused-writer', 'highest-seen'], ['paused-writer', 'unfenced'], ['delayed-before-new', null]]) {
  test(`${id}${policy ? ` (${policy})` : ''}: no label prints over another at any step`, async ({ page, pageErrors }) => {
    await openPreset(page, id, policy || undefined);
    const fwd = page.getByRole('button', { name: 'Step forward', exact: true });
    const seen = [];
    for (let i = 0; i < 60; i++) {
      const { count, out } = await collisions(page);
      if (i > 3) expect(count, 'labels to measure').toBeGreaterThan(3);
      seen.push(...out.map((c) => `step ${i}: ${c}`));
      if (!(await fwd.isEnabled())) break;
      await fwd.click();
    }
    expect(seen).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
}

// The compact drawing a phone gets (issue 31), measured in the browser's own fonts as above.
for (const id of ['paused-writer', 'coordinator-restore']) {
  test(`${id} at 360 px (compact): no label prints over another at any step`, async ({ page, pageErrors }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await openPreset(page, id);
    const fwd = page.getByRole('button', { name: 'Step forward', exact: true });
    const seen = [];
    for (let i = 0; i < 60; i++) {
      const { out } = await collisions(page);
      seen.push(...out.map((c) => `step ${i}: ${c}`));
      if (!(await fwd.isEnabled())) break;
      await fwd.click();
    }
    // Drawn compact: a verdict's words are not under it.
    await expect(timeline(page).locator('.v-line')).toHaveCount(0);
    expect(seen).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
}

/** How many step bands lie whole inside the diagram's scroll window, as the browser lays
 *  them out (the view follows the present: the current step is the last band). */
async function wholeSteps(page) {
  return page.locator('.tl-scroll').first().evaluate((el) => {
    const view = el.getBoundingClientRect();
    const left = view.left + el.clientLeft;
    const right = left + el.clientWidth;
    const bands = [...el.querySelectorAll('g.steps .step-band rect')].map((r) => r.getBoundingClientRect());
    return {
      whole: bands.filter((b) => b.left >= left - 0.5 && b.right <= right + 0.5).length,
      bands: bands.length,
      view: el.clientWidth,
    };
  });
}

// Issue 31: on a 360-px phone the diagram's view is about 250 px wide, and the full drawing
// showed 0-2 whole steps of a story at once. Drawn compact there (layout::Spacing::Compact),
// the current step and the two before it are in view together, in the app and embedded.
for (const [id, steps] of [['paused-writer', [6, 11]], ['coordinator-restore', [3, 9]], ['check-then-write-race', [6, 12]]]) {
  test(`${id}: a 360-px phone shows three whole steps around the present`, async ({ page, pageErrors }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    for (const step of steps) {
      for (const query of [`?preset=${id}&step=${step}`, `?embed&preset=${id}&step=${step}`]) {
        await page.goto(`/${query}`);
        await expect(page.locator('g.steps rect.current')).toHaveCount(1);
        await expect
          .poll(async () => (await wholeSteps(page)).whole, { message: `whole steps in view at ${query}` })
          .toBeGreaterThanOrEqual(3);
        // The verdicts' words, not drawn under them there, are still their names and what
        // focusing one shows.
        const verdict = timeline(page).getByRole('img', { name: /^[✓✗↺?] / }).last();
        if ((await verdict.count()) > 0) {
          const name = await verdict.getAttribute('aria-label');
          await verdict.focus();
          await expect(explanation(page)).toHaveText(name);
        }
      }
    }
    expect(pageErrors).toEqual([]);
  });
}

// The guide's frames on a phone are narrower still (320 px inside the guide's margins; the
// diagram's view 216 px): the one that tells coordinator-restore, whose steps are each a
// whole lease, at its third step and at its end.
test('a guide page\'s frame on a 360-px phone shows three whole steps', async ({ page, pageErrors }) => {
  const guide = `http://127.0.0.1:${Number(process.env.E2E_PORT || 8081) + 1}/`;
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`${guide}the-issuer-is-part-of-the-trust-boundary.html`);
  const iframe = page.locator('iframe[src$="preset=coordinator-restore"]');
  await iframe.scrollIntoViewIfNeeded(); // the guide's frames load lazily
  const frame = await (await iframe.elementHandle()).contentFrame();
  const fwd = frame.getByRole('button', { name: 'Step forward', exact: true });
  await expect(fwd).toBeVisible({ timeout: 20_000 });
  for (let i = 0; i < 3; i++) await fwd.click();
  await expect(frame.locator('g.steps rect.current')).toHaveCount(1);
  await expect.poll(async () => (await wholeSteps(frame)).whole, { message: 'whole steps at step 3' }).toBeGreaterThanOrEqual(3);
  await frame.getByRole('button', { name: 'Jump to end', exact: true }).click();
  await expect(fwd).toBeDisabled();
  await expect.poll(async () => (await wholeSteps(frame)).whole, { message: 'whole steps at the end' }).toBeGreaterThanOrEqual(3);
  expect((await wholeSteps(frame)).view, 'the frame\'s view').toBeLessThan(230);
  expect(pageErrors).toEqual([]);
});
