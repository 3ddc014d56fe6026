// Dark mode: the page follows prefers-color-scheme (static/palette.css sets every colour again
// in its dark block), and an exported SVG or PNG is the same light drawing on its own opaque
// background whichever theme the page was in, so it reads on a light or a dark slide.
// Screenshots of both themes at 360 and 1280 px go to target/screenshots/theme-*.png; axe
// checks contrast in both themes (e2e/a11y.spec.js).
'use strict';
const fs = require('fs');
const {
  test, expect, shot, shotOf, button, openApp, openPreset, playToEnd, openTool,
} = require('./helpers');

/** The page's computed background and text colours and its used colour scheme. */
const looks = (page) =>
  page.evaluate(() => {
    const body = getComputedStyle(document.body);
    const panel = document.querySelector('.panel');
    return {
      scheme: getComputedStyle(document.documentElement).colorScheme,
      bg: body.backgroundColor,
      fg: body.color,
      panel: panel && getComputedStyle(panel).backgroundColor,
      dark: matchMedia('(prefers-color-scheme: dark)').matches,
    };
  });

async function download(page, name, control = button(page, name)) {
  const [dl] = await Promise.all([page.waitForEvent('download'), control.click()]);
  return fs.readFileSync(await dl.path());
}

for (const scheme of ['light', 'dark']) {
  test.describe(`${scheme} theme`, () => {
    test.use({ colorScheme: scheme });

    test(`the page in the ${scheme} theme at 360 and 1280 px`, async ({ page, pageErrors }) => {
      test.setTimeout(60_000);
      await openPreset(page, 'paused-writer');
      const seen = await looks(page);
      expect(seen.dark).toBe(scheme === 'dark');
      expect(seen.scheme).toBe('light dark');
      if (scheme === 'dark') {
        expect(seen.bg).toBe('rgb(13, 17, 23)');
        expect(seen.fg).toBe('rgb(230, 237, 243)');
        expect(seen.panel).toBe('rgb(22, 27, 34)');
      } else {
        expect(seen.bg).toBe('rgb(243, 245, 247)');
        expect(seen.fg).toBe('rgb(31, 35, 40)');
        expect(seen.panel).toBe('rgb(255, 255, 255)');
      }
      // Native controls follow: a select's own colours come from the theme.
      const select = await page.getByRole('combobox', { name: /^Scenario\b/ }).first()
        .evaluate((s) => getComputedStyle(s).backgroundColor);
      expect(select).toBe(seen.panel);
      await playToEnd(page);
      for (const [width, height] of [[1280, 800], [360, 740]]) {
        await page.setViewportSize({ width, height });
        // The event log scrolls to its newest line as the page lays out again.
        await page.waitForTimeout(300);
        await shot(page, `theme-${scheme}-${width}`);
        await shotOf(page.locator('.tl-wrap'), `theme-${scheme}-timeline-${width}`);
        // The first screenful, and the panels under it, as seen (a full page at 360 px is
        // too tall to read at a glance).
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: `target/screenshots/theme-${scheme}-${width}-first.png` });
        await shotOf(page.locator('.hands'), `theme-${scheme}-hands-${width}`);
      }
      // The focus ring on a button.
      await page.setViewportSize({ width: 1280, height: 800 });
      await button(page, 'Step back').focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      await shotOf(page.locator('.controls'), `theme-${scheme}-focus`);
      expect(pageErrors).toEqual([]);
    });

    test(`dialogs and the lab in the ${scheme} theme`, async ({ page, pageErrors }) => {
      test.setTimeout(60_000);
      await page.setViewportSize({ width: 1280, height: 800 });
      await openApp(page);
      await button(page, 'Embed').click();
      await expect(page.getByRole('dialog', { name: 'Embed this view' })).toBeVisible();
      await shot(page, `theme-${scheme}-embed-dialog`);
      await button(page.getByRole('dialog'), 'Close').click();
      await button(page, 'Keyboard shortcuts').click();
      await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
      await page.setViewportSize({ width: 360, height: 740 });
      await shot(page, `theme-${scheme}-shortcuts-360`);
      await page.keyboard.press('Escape');
      await page.setViewportSize({ width: 1280, height: 800 });

      await openPreset(page, 'paused-writer');
      await page.getByRole('heading', { name: 'Lease-duration lab' }).click();
      const runs = page.getByRole('spinbutton', { name: 'Runs per TTL' });
      await runs.fill('3');
      await runs.press('Tab');
      await button(page, 'Run').click();
      const lab = page.locator('details.lab');
      await expect(lab.getByRole('status')).toContainText('Done', { timeout: 30_000 });
      await shotOf(lab, `theme-${scheme}-lab`);
      // A chart's export is the light drawing too, on its own white background.
      const chart = (await download(page, 'Export SVG', lab.getByRole('button', { name: 'Export SVG' }).first())).toString('utf8');
      const chartStyle = chart.match(/<style>([\s\S]*?)<\/style>/)[1];
      // (As the browser gives the rules back, a space around each part.)
      expect(chartStyle).toMatch(/\.lp-bg \{ fill: #(fff|ffffff); \}/);
      expect(chartStyle).toMatch(/\.lp \{ fill: #1f2328;/);
      expect(chartStyle).not.toContain('var(');
      const explore = await openTool(page, 'Explore every order');
      await button(explore, 'Explore').click();
      await expect(page.getByRole('region', { name: 'Exploration report' }))
        .toHaveAttribute('data-complete', 'true', { timeout: 60_000 });
      await shotOf(explore, `theme-${scheme}-explore`);
      expect(pageErrors).toEqual([]);
    });

    test(`embed mode in the ${scheme} theme`, async ({ page, pageErrors }) => {
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto('/?embed&preset=paused-writer&step=8');
        await expect(button(page, 'Step forward')).toBeVisible({ timeout: 20_000 });
        await shot(page, `theme-${scheme}-embed-${width}`);
      }
      expect(pageErrors).toEqual([]);
    });
  });
}

/** Export SVG and PNG of paused-writer at its end, in the given theme. */
async function exportIn(browser, scheme) {
  const context = await browser.newContext({ colorScheme: scheme });
  const page = await context.newPage();
  try {
    await openPreset(page, 'paused-writer');
    await playToEnd(page);
    return { svg: (await download(page, 'Export SVG')).toString('utf8'), png: await download(page, 'Export PNG') };
  } finally {
    await context.close();
  }
}

test('an export is the light drawing on its own opaque background in either theme', async ({ page, browser }) => {
  test.setTimeout(60_000);
  const light = await exportIn(browser, 'light');
  const dark = await exportIn(browser, 'dark');
  // The same file from either theme: the light palette, written out.
  expect(dark.svg).toBe(light.svg);
  const style = dark.svg.match(/<style>([\s\S]*?)<\/style>/)[1];
  expect(style).not.toContain('var(');
  expect(style).not.toContain('prefers-color-scheme');
  expect(style).toMatch(/\.tl-svg text \{[^}]*fill: #1f2328/);
  expect(style, 'the document paints its own white background').toMatch(/\.gutter-bg\{fill:#(fff|ffffff);/);
  for (const darkValue of ['#e6edf3', '#161b22', '#0d1117']) expect(style).not.toContain(darkValue);

  // Drawn on a dark and on a light page, the SVG and the PNG look the same: every corner
  // and the middle of the PNG opaque; the SVG's own background covers what is behind it.
  const svgUrl = `data:image/svg+xml;base64,${Buffer.from(dark.svg).toString('base64')}`;
  const pngUrl = `data:image/png;base64,${dark.png.toString('base64')}`;
  const seen = {};
  for (const [name, bg] of [['dark', '#0d1117'], ['light', '#ffffff']]) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.setContent(
      `<body style="margin:0;padding:24px;background:${bg}"><img id="svg" src="${svgUrl}"><br><img id="png" src="${pngUrl}" width="${1280 - 48}"></body>`,
    );
    await page.waitForFunction(() => [...document.images].every((i) => i.complete && i.naturalWidth > 0));
    seen[name] = await page.evaluate(() => {
      const pixels = (img) => {
        const c = document.createElement('canvas');
        c.width = img.naturalWidth;
        c.height = img.naturalHeight;
        const ctx = c.getContext('2d');
        ctx.drawImage(img, 0, 0);
        const at = (x, y) => [...ctx.getImageData(x, y, 1, 1).data];
        const [w, h] = [c.width - 1, c.height - 1];
        return [at(0, 0), at(w, 0), at(0, h), at(w, h), at(w >> 1, h >> 1)];
      };
      return { svg: pixels(document.getElementById('svg')), png: pixels(document.getElementById('png')) };
    });
    await shot(page, `theme-export-on-${name}`);
  }
  // The corners are the frame's light grey border (--border, #d0d7de), opaque.
  for (const p of [...seen.dark.png, ...seen.dark.svg]) expect(p[3], `a pixel ${p}`).toBe(255);
  expect(seen.dark.png[0]).toEqual([208, 215, 222, 255]);
  expect(seen.dark).toEqual(seen.light);
});
