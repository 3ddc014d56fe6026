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
