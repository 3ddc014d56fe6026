// Embed mode (docs/embedding.md): `?embed&…` shows the timeline, the controls and the
// narration at any width from 320 px; the Embed dialog's snippet reopens the view; the app
// works in an iframe on another origin and inside the guide (target/site/).
'use strict';
const {
  test, expect, shot, button, openPreset, svgStrings, picker, fetchedNames,
} = require('./helpers');

const PORT = Number(process.env.E2E_PORT || 8081);
const APP = `http://127.0.0.1:${PORT}/`;
const GUIDE = `http://127.0.0.1:${PORT + 1}/`;
const OTHER_SITE = `http://127.0.0.1:${PORT + 2}/`;

/** Step a page or frame to the end of its script (Step forward until it is disabled). */
async function stepToEnd(where) {
  const fwd = button(where, 'Step forward');
  for (let i = 0; i < 200 && (await fwd.isEnabled()); i++) await fwd.click();
  await expect(fwd).toBeDisabled();
}

/** The paused writer's outcome under a fence: A's 41 refused as stale, B's 42 accepted. */
async function expectFencedVerdicts(where) {
  const svg = await svgStrings(where);
  expect(svg.some((s) => /✗/.test(s) && /41/.test(s) && /stale/i.test(s)), `✗ 41 stale in ${JSON.stringify(svg)}`).toBe(true);
  expect(svg.some((s) => /✓/.test(s) && /42/.test(s)), '✓ 42').toBe(true);
}

for (const width of [320, 1024]) {
  test(`embed mode at ${width} px: timeline, controls and narration only, nothing cut off`, async ({ page, pageErrors }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/?embed&preset=paused-writer&policy=highest-seen');
    await expect(button(page, 'Step forward')).toBeVisible({ timeout: 20_000 });
    // the full app's furniture is left out
    await expect(picker(page, 'Scenario')).toHaveCount(0);
    await expect(page.getByRole('log', { name: 'Event log' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Embed', exact: true })).toHaveCount(0);
    await expect(page.locator('svg.tl-svg').first()).toBeVisible();
    await stepToEnd(page);
    await expectFencedVerdicts(page);
    const narration = page.getByRole('region', { name: 'Narration' });
    await expect(narration).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'no sideways scrolling of the page').toBeLessThanOrEqual(0);
    await shot(page, `embed-${width}`);
    expect(pageErrors).toEqual([]);
  });
}

test('embed options choose the step and the sandbox; bad ones are named and the rest apply', async ({ page, pageErrors }) => {
  await page.setViewportSize({ width: 1024, height: 800 });
  await page.goto('/?embed&preset=delayed-before-new&step=2&sandbox');
  await expect(button(page, 'Step forward')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByLabel('Scrub', { exact: true })).toHaveValue('2');
  await expect(page.getByRole('region', { name: 'In flight' })).toBeVisible();
  await expect(button(page, 'Pause A')).toBeVisible();
  await shot(page, 'embed-sandbox');

  await page.goto('/?embed&preset=nope&step=x&autoplay=0');
  await expect(button(page, 'Step forward')).toBeVisible({ timeout: 20_000 });
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('no scenario named “nope”');
  await expect(alert).toContainText('the step is not a number');
  await expect(page.getByLabel('Scrub', { exact: true })).toHaveValue('0');
  await expect(page.getByRole('region', { name: 'In flight' })).toHaveCount(0);
  await button(page, 'Step forward').click();
  await expect(page.getByLabel('Scrub', { exact: true })).toHaveValue('1');
  await shot(page, 'embed-bad-options');
  expect(pageErrors).toEqual([]);
});

test('the Embed dialog gives a snippet that reopens this view', async ({ page, context, pageErrors }) => {
  await openPreset(page, 'delayed-before-new');
  for (let i = 0; i < 3; i++) await button(page, 'Step forward').click();
  await button(page, 'Embed').click();
  const dialog = page.getByRole('dialog', { name: 'Embed this view' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Show the sandbox buttons').check();
  const html = await dialog.getByLabel('Embed snippet').inputValue();
  expect(html).toMatch(/^<iframe src="[^"]*\?embed&amp;preset=delayed-before-new&amp;policy=[^"]*&amp;step=3&amp;sandbox"/);
  expect(html).toContain('sandbox="allow-scripts allow-same-origin"');
  await shot(page, 'embed-dialog');
  // A modal: Tab wraps around its controls, and no key steps the run behind the backdrop.
  await dialog.getByRole('button', { name: 'Close' }).focus();
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Play automatically'), 'Tab from the last control wraps to the first').toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByLabel('Scrub', { exact: true })).toHaveValue('3');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(button(page, 'Embed'), 'focus goes back to the button').toBeFocused();

  // The snippet, pasted into a page on another origin, shows the same step.
  const src = html.match(/src="([^"]*)"/)[1].replace(/&amp;/g, '&');
  const host = await context.newPage();
  await host.goto(`${OTHER_SITE}?app=${encodeURIComponent(src)}&height=900`);
  const frame = host.frameLocator('iframe');
  await expect(button(frame, 'Step forward')).toBeVisible({ timeout: 20_000 });
  await expect(frame.getByLabel('Scrub', { exact: true })).toHaveValue('3');
  await expect(frame.getByRole('region', { name: 'In flight' })).toBeVisible();
  expect(pageErrors).toEqual([]);
});

test('an iframe on another origin: steps to the verdict, no cookies, no storage, no navigation', async ({ page, context, pageErrors }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  const app = `${APP}?embed&preset=paused-writer&policy=highest-seen`;
  const hostUrl = `${OTHER_SITE}?app=${encodeURIComponent(app)}`;
  await page.goto(hostUrl);
  const handle = await page.locator('iframe').elementHandle();
  const frame = await handle.contentFrame();
  await expect(button(frame, 'Step forward')).toBeVisible({ timeout: 20_000 });
  expect(new URL(frame.url()).origin).not.toEqual(new URL(page.url()).origin);
  // loading the frame takes neither the reader's focus nor the frame's scroll position
  expect(await page.evaluate(() => document.activeElement.tagName)).toEqual('BODY');
  expect(await frame.evaluate(() => [document.activeElement.tagName, window.scrollY])).toEqual(['BODY', 0]);

  // keyboard inside the frame: the arrow key steps
  await button(frame, 'Step forward').focus();
  await page.keyboard.press('ArrowRight');
  await expect(frame.getByLabel('Scrub', { exact: true })).toHaveValue('1');
  await stepToEnd(frame);
  await expectFencedVerdicts(frame);

  const used = await frame.evaluate(() => ({
    cookie: document.cookie,
    local: localStorage.length,
    session: sessionStorage.length,
  }));
  expect(used).toEqual({ cookie: '', local: 0, session: 0 });
  expect((await context.cookies()).length, 'no cookies').toBe(0);
  expect(page.url(), 'the top page never navigates').toEqual(hostUrl);
  expect(context.pages().length, 'no popups').toBe(1);
  await shot(page, 'embed-other-origin');
  expect(pageErrors).toEqual([]);
});

test('the guide embeds the presets: a page\'s frame steps to its verdict', async ({ page, pageErrors }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${GUIDE}leases-are-not-a-stop-mechanism.html`);
  await expect(page.getByRole('heading', { name: 'Leases are not a stop mechanism' })).toBeVisible();
  const iframe = page.locator('iframe[src*="preset=paused-writer&policy=highest-seen"]').first();
  await iframe.scrollIntoViewIfNeeded(); // the guide's frames load lazily
  const frame = await (await iframe.elementHandle()).contentFrame();
  await expect(button(frame, 'Step forward')).toBeVisible({ timeout: 20_000 });
  // The page's main example is in predict mode: it stops before each verdict to ask.
  const fwd = button(frame, 'Step forward');
  for (const answer of ['Accepted', 'Rejected: Stale token']) {
    for (let i = 0; i < 30 && (await fwd.isEnabled()); i++) await fwd.click();
    await button(frame, answer).click();
  }
  await stepToEnd(frame);
  await expectFencedVerdicts(frame);
  await expect(frame.getByRole('region', { name: 'Predict the verdict' }).locator('.score'))
    .toHaveText('Run over: you predicted 2 of 2 verdicts right.');
  await shot(page, 'guide-page');
  expect(pageErrors).toEqual([]);
});

test('on a phone a guide frame fits the screen, its playback bar and timeline in view together', async ({ page, pageErrors }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`${GUIDE}leases-are-not-a-stop-mechanism.html`);
  const iframe = page.locator('iframe.fencing-lab').first();
  await iframe.scrollIntoViewIfNeeded();
  const box = await iframe.boundingBox();
  expect(box.height).toBeLessThan(740); // its height attribute says 1096
  const frame = await (await iframe.elementHandle()).contentFrame();
  const fwd = button(frame, 'Step forward');
  await expect(fwd).toBeVisible({ timeout: 20_000 });
  // Scrolled down inside the frame, the bar stays at its top, above the timeline's lanes.
  await frame.evaluate(() => window.scrollTo(0, 200));
  const inFrame = await frame.evaluate(() => {
    const r = (s) => document.querySelector(s).getBoundingClientRect();
    return { bar: r('.playbar'), timeline: r('.timeline'), height: window.innerHeight };
  });
  expect(inFrame.bar.top).toBeGreaterThanOrEqual(0);
  expect(inFrame.bar.bottom).toBeLessThanOrEqual(inFrame.height);
  expect(inFrame.timeline.bottom).toBeGreaterThan(inFrame.bar.bottom + 150);
  await fwd.click();
  await shot(page, 'guide-frame-360');
  expect(pageErrors).toEqual([]);
});

test('every guide page has its frames, and each opens its preset without an error', async ({ page }) => {
  // One page per frame, a few dozen frames: more than the default 30 s on a loaded machine.
  test.setTimeout(120_000);
  await page.goto(`${GUIDE}index.html`);
  const pages = await page.locator('nav a[href$=".html"]').evaluateAll((as) => [...new Set(as.map((a) => a.href))]);
  expect(pages.length).toBeGreaterThanOrEqual(8);
  let frames = 0;
  for (const url of pages) {
    await page.goto(url);
    for (const src of await page.locator('iframe.fencing-lab').evaluateAll((fs) => fs.map((f) => f.src))) {
      frames++;
      const probe = await page.context().newPage();
      await probe.goto(src);
      await expect(button(probe, 'Step forward'), src).toBeVisible({ timeout: 20_000 });
      await expect(probe.getByRole('alert'), `${src}: its options are valid`).toHaveCount(0);
      await probe.close();
    }
  }
  expect(frames, 'the guide embeds presets').toBeGreaterThanOrEqual(8);
});

test('the Embed dialog links to the embedding guide, served beside the app and in the guide', async ({ page, pageErrors }) => {
  // The app on its own: docs/embedding.md, copied beside index.html by the build.
  for (const [at, href, text] of [
    [APP, 'embedding.md', '# Embedding Fencing Lab'],
    [`${GUIDE}app/index.html`, '../embedding.html', 'Embedding Fencing Lab'],
  ]) {
    await page.goto(at);
    await expect(button(page, 'Step forward')).toBeVisible({ timeout: 20_000 });
    await button(page, 'Embed').click();
    const link = page.getByRole('dialog', { name: 'Embed this view' }).getByRole('link', { name: 'Embedding Fencing Lab' });
    await expect(link).toHaveAttribute('href', href);
    const res = await page.request.get(new URL(href, page.url()).href);
    expect(res.status(), `${href} from ${at}`).toBe(200);
    expect(await res.text()).toContain(text);
  }
  expect(pageErrors).toEqual([]);
});

test('the full app opens the view its address names without embed (a hand-written link)', async ({ page, pageErrors }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/?preset=coordinator-restore&policy=unfenced&step=3');
  await expect(button(page, 'Step forward')).toBeVisible({ timeout: 20_000 });
  // the full app, not an embed: the scenario picker is there, and shows what the address named
  await expect(picker(page, 'Scenario')).toHaveCount(1);
  await expect(picker(page, 'Scenario')).toHaveValue('coordinator-restore');
  await expect(picker(page, 'Receiver policy')).toHaveValue('unfenced');
  const narration = page.getByRole('region', { name: 'Narration' });
  await expect(narration).toContainText('Script step 3 of');
  expect(pageErrors).toEqual([]);
});

/** The WASM modules a page fetches, by file name. */
const wasmFetches = (page) => fetchedNames(page, (name) => name.endsWith('.wasm'));

test('an embed loads its own module, without the full page; the app loads the app', async ({ page, context, pageErrors }) => {
  const embedded = wasmFetches(page);
  await page.goto('/?embed&preset=paused-writer&predict');
  await expect(button(page, 'Step forward')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('checkbox', { name: /Predict mode/ })).toBeChecked();
  await stepToEnd(page);
  expect(embedded, 'only embed mode\'s module').toEqual(['fencing-lab-embed_bg.wasm']);

  // `embed=0` is the full page, as `EmbedOptions::parse` reads it.
  const full = await context.newPage();
  const loaded = wasmFetches(full);
  await full.goto('/?embed=0&preset=paused-writer');
  await expect(picker(full, 'Scenario')).toBeVisible({ timeout: 20_000 });
  expect(loaded).toHaveLength(1);
  expect(loaded[0]).toMatch(/^fencing-lab-[0-9a-f]+_bg\.wasm$/);
  // A panic in the embed's module shows the error panel, as in the app's.
  const broken = await context.newPage();
  await broken.goto('/?embed&panic');
  await expect(broken.locator('#error-panel')).toBeVisible({ timeout: 20_000 });
  expect(pageErrors).toEqual([]);
});
