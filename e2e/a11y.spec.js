// Accessibility: axe-core (a devDependency, injected from node_modules — no request leaves
// the machine) in every view of the app: the main page, the sandbox, each tool section open
// (and the explorer and the lab run), both dialogs, and embed mode. No violation of impact
// critical, serious or moderate is allowed; failures are printed with their elements.
// The experimental rule label-content-name-mismatch runs too: a button's accessible name
// must contain its visible text (WCAG 2.5.3, "label in name"). Every view is checked in both
// themes (static/palette.css): as it opens, light, and again under prefers-color-scheme
// dark — colour contrast is one of the rules.
'use strict';
const { test, expect, shot, button, openApp, openPreset, sandboxSession, openTool } = require('./helpers');

const BLOCKING = ['critical', 'serious', 'moderate'];
const AXE_SOURCE = require('fs').readFileSync(require.resolve('axe-core'), 'utf8');

/** Run axe on the page; returns the blocking violations as readable lines. */
async function axeViolations(page) {
  // Evaluated by the test driver, not added as a <script>: the app's CSP (rightly) refuses
  // an inline script, and every test fails on a CSP violation.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, {
      resultTypes: ['violations'],
      rules: { 'label-content-name-mismatch': { enabled: true } },
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')} — ${n.failureSummary.replace(/\s+/g, ' ')}`),
    }));
  });
  return violations
    .filter((v) => BLOCKING.includes(v.impact))
    .map((v) => `${v.impact} ${v.id} (${v.help}), ${v.nodes.length}×:\n  ${v.nodes.join('\n  ')}`);
}

async function expectClean(page, view) {
  const found = await axeViolations(page);
  expect(found, `axe in ${view}:\n${found.join('\n')}`).toEqual([]);
}

/** Every view's checks; `suffix` names the screenshots of a second theme apart. */
function views(suffix) {
  for (const width of [1280, 360]) {
    test(`axe at ${width} px: the main page, at the start and mid-run`, async ({ page, pageErrors }) => {
      await page.setViewportSize({ width, height: 800 });
      await openApp(page);
      // The theme under test is the one the page sees.
      const dark = await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches);
      expect(dark).toBe(suffix === '-dark');
      await expectClean(page, 'the main page at step 0');
      for (let i = 0; i < 4; i++) await button(page, 'Step forward').click();
      await expectClean(page, 'the main page at step 4');
      expect(pageErrors).toEqual([]);
    });

    test(`axe at ${width} px: the sandbox, blank and with a session`, async ({ page, pageErrors }) => {
      await page.setViewportSize({ width, height: 800 });
      await openPreset(page, 'sandbox');
      await expectClean(page, 'the blank sandbox');
      await sandboxSession(page);
      await expectClean(page, 'a sandbox session');
      expect(pageErrors).toEqual([]);
    });
  }

  test('axe: compare, explore (run) and the lab open', async ({ page, pageErrors }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    await openPreset(page, 'paused-writer');
    const compare = await openTool(page, 'Compare policies');
    await expect(compare.getByRole('status')).toContainText('differ');
    await expectClean(page, 'Compare open');

    const explore = await openTool(page, 'Explore every order');
    await expectClean(page, 'Explore open');
    await button(explore, 'Explore').click();
    const report = page.getByRole('region', { name: 'Exploration report' });
    await expect(report).toHaveAttribute('data-complete', 'true', { timeout: 60_000 });
    await expectClean(page, 'Explore run');

    await page.getByRole('heading', { name: 'Lease-duration lab' }).click();
    const runs = page.getByRole('spinbutton', { name: 'Runs per TTL' });
    await expect(runs).toBeVisible();
    await expectClean(page, 'the lab open');
    await runs.fill('3');
    await runs.press('Tab');
    await button(page, 'Run').click();
    await expect(page.locator('details.lab').getByRole('status')).toContainText('Done', { timeout: 30_000 });
    await expectClean(page, 'the lab run');
    expect(pageErrors).toEqual([]);
  });

  test('axe: the Embed dialog and the shortcuts dialog', async ({ page, pageErrors }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openApp(page);
    await button(page, 'Embed').click();
    const dialog = page.getByRole('dialog', { name: 'Embed this view' });
    await expect(dialog).toBeVisible();
    await expectClean(page, 'the Embed dialog');
    await button(dialog, 'Close').click();
    await button(page, 'Keyboard shortcuts').click();
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    await expectClean(page, 'the shortcuts dialog');
    expect(pageErrors).toEqual([]);
  });

  for (const query of ['?embed&preset=paused-writer', '?embed&preset=sandbox&sandbox', '?embed&preset=paused-writer&predict&step=7']) {
    test(`axe: embed mode (${query}): one main landmark and an h1`, async ({ page, pageErrors }) => {
      await page.setViewportSize({ width: 1024, height: 800 });
      await page.goto('/' + query);
      await expect(button(page, 'Step forward')).toBeVisible({ timeout: 20_000 });
      await expect(page.getByRole('main')).toHaveCount(1);
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
      await expectClean(page, `embed mode ${query}`);
      expect(pageErrors).toEqual([]);
    });
  }

  test('axe: predict mode, a question, a wrong answer and the score', async ({ page, pageErrors }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openApp(page);
    await page.getByRole('checkbox', { name: /^Predict mode/ }).check();
    for (let i = 0; i < 7; i++) await button(page, 'Step forward').click();
    await expect(button(page, 'Accepted')).toBeVisible();
    await expectClean(page, 'predict mode, asking');
    await button(page, 'Accepted').click();
    await button(page, 'Step forward').click();
    await button(page, 'Accepted').click();
    await expect(page.locator('.prediction.wrong')).toBeVisible();
    await expectClean(page, 'predict mode, a wrong answer');
    await button(page, 'Step forward').click();
    await expect(page.locator('.predict .score')).toContainText('Run over');
    await expectClean(page, 'predict mode, the score');
    expect(pageErrors).toEqual([]);
  });

  // Errors are at the top of the page or the frame, in the first screenful at any width, and
  // announced (role=alert).
  for (const [width, height] of [[1280, 800], [360, 740]]) {
    test(`errors at the top at ${width} px: a broken link and bad embed options`, async ({ page, pageErrors }) => {
      await page.setViewportSize({ width, height });
      await page.goto('/#v1garbage');
      await expect(button(page, 'Step forward')).toBeVisible({ timeout: 20_000 });
      const alert = page.getByRole('alert');
      await expect(alert).toContainText('This link could not be opened');
      let box = await alert.boundingBox();
      expect(box.y, `the link's message at y=${box.y}`).toBeLessThan(200);
      await shot(page, `error-link-${width}${suffix}`);
      // Scrolled down, the message stays in view.
      await page.mouse.wheel(0, 1500);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      box = await alert.boundingBox();
      expect(box.y, 'sticky at the top').toBeLessThan(40);
      await expectClean(page, 'the page with an error');
      await button(alert, 'Dismiss').click();
      await expect(page.getByRole('alert')).toHaveCount(0);

      await page.goto('/?embed&preset=nope&step=x');
      await expect(button(page, 'Step forward')).toBeVisible({ timeout: 20_000 });
      const bad = page.getByRole('alert');
      await expect(bad).toContainText('This embed\'s options are not all valid');
      box = await bad.boundingBox();
      expect(box.y, `the embed's message at y=${box.y}`).toBeLessThan(200);
      await expectClean(page, 'embed mode with an error');
      await shot(page, `error-embed-${width}${suffix}`);
      expect(pageErrors).toEqual([]);
    });
  }
}

views('');
test.describe('dark theme', () => {
  test.use({ colorScheme: 'dark' });
  views('-dark');
});
