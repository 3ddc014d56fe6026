// The main scenario, a paused writer coming back, under two receiver policies, and the
// finished run photographed at desktop and phone widths.
'use strict';
const fs = require('fs');
const path = require('path');
const {
  test, expect, shot, openPreset, playToEnd, eventLog, logLines, svgStrings,
} = require('./helpers');

const pausedWriter = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'presets', 'paused-writer.json'), 'utf8'));

test.describe('paused-writer', () => {
  test('highest-seen: A\'s token 41 is rejected as stale at the resource', async ({ page, pageErrors }) => {
    await openPreset(page, 'paused-writer', 'highest-seen');
    await playToEnd(page);

    const log = eventLog(page);
    await expect(log).toContainText('rejects: stale');
    const lines = await logLines(page);
    const rejected = lines.filter((l) => /rejects: stale/.test(l));
    expect(rejected.length, 'exactly one stale rejection').toBe(1);
    expect(rejected[0]).toMatch(/report/);
    expect(rejected[0]).toMatch(/\[token 41\]/);
    expect(rejected[0]).toMatch(/highest 42/);
    // B's write with 42 was accepted before it, and nothing was violated
    const accepted = lines.findIndex((l) => /report\s+accepts/.test(l) && /\[token 42\]/.test(l));
    expect(accepted, 'B\'s write (token 42) accepted').toBeGreaterThanOrEqual(0);
    expect(accepted).toBeLessThan(lines.indexOf(rejected[0]));
    expect(lines.filter((l) => /VIOLATION/.test(l))).toEqual([]);

    // the timeline draws the verdicts on the resource lane: ✗ 41 (stale) and ✓ 42
    const svg = await svgStrings(page);
    expect(svg.some((s) => /✗/.test(s) && /41/.test(s)), `a ✗ 41 verdict in ${JSON.stringify(svg)}`).toBe(true);
    expect(svg.some((s) => /stale/i.test(s)), 'the verdict names its reason').toBe(true);
    expect(svg.some((s) => /✓/.test(s) && /42/.test(s)), 'a ✓ 42 verdict').toBe(true);

    // the narration is a live region and tells the last step of the story
    const narration = page.getByRole('region', { name: 'Narration' });
    await expect(narration).toHaveAttribute('aria-live', /polite|assertive/);
    await expect(narration).toContainText(pausedWriter.script[pausedWriter.script.length - 1].say);
    await expect(narration).toContainText(pausedWriter.variants.find((v) => v.name === 'highest-seen').outcome);

    await shot(page, 'paused-writer-highest-seen');
    expect(pageErrors).toEqual([]);
  });

  test('unfenced: the stale write is accepted and the overwrite is marked', async ({ page, pageErrors }) => {
    await openPreset(page, 'paused-writer', 'unfenced');
    await playToEnd(page);

    await expect(eventLog(page)).toContainText('VIOLATION stale_overwrite');
    const lines = await logLines(page);
    expect(lines.filter((l) => /rejects:/.test(l)), 'nothing rejected without a fence').toEqual([]);
    expect(lines.some((l) => /report\s+accepts/.test(l) && /\[token 41\]/.test(l)), 'A\'s 41 accepted').toBe(true);

    // the violation has its own marker on the timeline, with an accessible label
    const svg = await svgStrings(page);
    expect(
      svg.some((s) => /violation|stale[ _-]overwrite/i.test(s)),
      `a labelled violation marker in ${JSON.stringify(svg)}`,
    ).toBe(true);
    expect(svg.some((s) => /✗/.test(s)), 'no rejected verdict under unfenced').toBe(false);

    await shot(page, 'paused-writer-unfenced');
    expect(pageErrors).toEqual([]);
  });
});

test.describe('layout', () => {
  for (const [name, width, height] of [['desktop-1280', 1280, 800], ['mobile-360', 360, 740]]) {
    test(`paused-writer at its end, ${width} px wide`, async ({ page, pageErrors }) => {
      await page.setViewportSize({ width, height });
      await openPreset(page, 'paused-writer');
      await playToEnd(page);
      await expect(eventLog(page)).toContainText('rejects: stale');
      await shot(page, name);
      // the page itself must not scroll sideways (a wide timeline may scroll inside its own box)
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, 'horizontal overflow of the page in px').toBeLessThanOrEqual(1);
      expect(pageErrors).toEqual([]);
    });
  }
});
