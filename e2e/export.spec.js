// Export and import: the timeline as SVG and PNG, the run as a scenario file that imports
// back as the same world at the same step (by picker or by drop), and bad files refused with
// the JSON path of the problem while the run stays as it was.
'use strict';
const fs = require('fs');
const path = require('path');
const {
  test, expect, shot, button, openApp, openPreset, playToEnd, eventLog, logLines, sandboxSession, parseSvgFile,
} = require('./helpers');

const status = (page) => page.getByRole('region', { name: 'Export and import' }).getByRole('status');
const inspector = (page) => page.locator('section.inspector');
const importInput = (page) => page.getByLabel('Import JSON');

/** Click an export button and return the download's file name and bytes. */
async function download(page, name) {
  const [dl] = await Promise.all([page.waitForEvent('download'), button(page, name).click()]);
  const file = await dl.path();
  return { name: dl.suggestedFilename(), bytes: fs.readFileSync(file) };
}

/** An exported SVG, parsed (see helpers' parseSvgFile): `texts` are those of text and title. */
async function parseSvg(page, text) {
  const p = await parseSvgFile(page, text);
  return { ...p, texts: p.all };
}

test('Export SVG and PNG of paused-writer at its end', async ({ page, pageErrors }) => {
  await openPreset(page, 'paused-writer');
  await playToEnd(page);
  const svg = await download(page, 'Export SVG');
  expect(svg.name).toMatch(/^fencing-lab-paused-writer-step\d+\.svg$/);
  await expect(status(page)).toHaveText(`Exported ${svg.name}.`);
  const parsed = await parseSvg(page, svg.bytes.toString('utf8'));
  expect(parsed.root).toBe('svg');
  expect(parsed.errors).toBe(0);
  expect(parsed.texts).toContain('A paused writer comes back');
  expect(parsed.texts, 'the stale write rejected at the end').toContain('rejected: stale');
  expect(parsed.texts.some((t) => t.includes('A-stale'))).toBe(true);
  // It carries the page's own timeline stylesheet, read from the page, every colour written
  // out: a viewer without the page's custom properties draws it the same.
  const style = svg.bytes.toString('utf8').match(/<style>([\s\S]*?)<\/style>/)[1];
  expect(style).not.toContain('var(');
  expect(style).toMatch(/\.arrow\.k-write line \{[^}]*stroke: #0550ae/);
  expect(style).toContain('.doc .doc-title');
  // The light theme only, on the document's own white background (e2e/theme.spec.js: the
  // same file from a page in the dark theme).
  expect(style).not.toContain('prefers-color-scheme');
  expect(style).toMatch(/\.gutter-bg\{fill:#(fff|ffffff);/);

  const png = await download(page, 'Export PNG');
  expect(png.name).toBe(svg.name.replace(/\.svg$/, '.png'));
  expect([...png.bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  // IHDR width: the SVG drawn at twice its size.
  expect(png.bytes.readUInt32BE(16)).toBe(parsed.width * 2);
  await expect(status(page)).toHaveText(`Exported ${png.name}.`);

  for (const [width, height] of [[1280, 800], [360, 740]]) {
    await page.setViewportSize({ width, height });
    await page.getByRole('region', { name: 'Export and import' }).scrollIntoViewIfNeeded();
    await shot(page, `export-${width}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `horizontal overflow at ${width} px`).toBeLessThanOrEqual(1);
  }
  expect(pageErrors).toEqual([]);
});

test('Export JSON of a sandbox run imports as the same run, by picker and by drop', async ({ page, context, pageErrors }) => {
  await sandboxSession(page);
  await button(page, 'Step back').click(); // the file keeps the current step, not the last
  const lines = await logLines(page);
  const state = await inspector(page).innerText();
  const file = await download(page, 'Export JSON');
  expect(file.name).toMatch(/^fencing-lab-sandbox-step4\.json$/);
  const scenario = JSON.parse(file.bytes.toString('utf8'));
  expect(scenario.version).toBe(1);
  expect(scenario.open_at).toBe(4);
  expect(scenario.script).toHaveLength(5);
  // The command line reads the same file (tests/cli.rs); keep it for a look.
  fs.mkdirSync(path.join(__dirname, '..', 'target'), { recursive: true });
  fs.writeFileSync(path.join(__dirname, '..', 'target', 'e2e-export.json'), file.bytes);

  const picked = await context.newPage();
  await openApp(picked);
  await importInput(picked).setInputFiles({ name: file.name, mimeType: 'application/json', buffer: file.bytes });
  await expect(status(picked)).toHaveText(/^Imported “Sandbox.*\(exported\)”, at step 4\.$/);
  await expect(eventLog(picked)).toContainText(/sends write A1/);
  expect(await logLines(picked)).toEqual(lines);
  expect(await inspector(picked).innerText()).toEqual(state);
  await button(picked, 'Step forward').click(); // the step stepped back over is still there
  await expect(eventLog(picked)).toContainText(/A\s+pauses/);
  await shot(picked, 'export-imported-1280');

  const dropped = await context.newPage();
  await openApp(dropped);
  const transfer = await dropped.evaluateHandle((text) => {
    const t = new DataTransfer();
    t.items.add(new File([text], 'run.json', { type: 'application/json' }));
    return t;
  }, file.bytes.toString('utf8'));
  await dropped.dispatchEvent('main', 'drop', { dataTransfer: transfer });
  await expect(status(dropped)).toHaveText(/^Imported .*, at step 4\.$/);
  expect(await logLines(dropped)).toEqual(lines);
  expect(pageErrors).toEqual([]);
});

test('a bad file is refused with the path of the problem, and the run is kept', async ({ page, pageErrors }) => {
  await openPreset(page, 'paused-writer');
  for (let i = 0; i < 3; i++) await button(page, 'Step forward').click();
  const lines = await logLines(page);
  const scenarioPicker = page.getByRole('combobox', { name: /^Scenario\b/ }).first();

  await importInput(page).setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{ not json') });
  await expect(status(page)).toHaveText(/^Not imported: key must be a string at line 1 column 3\. The current run was kept\.$/);
  expect(await logLines(page)).toEqual(lines);

  const preset = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'presets', 'paused-writer.json'), 'utf8'));
  preset.script[2].do[0].do = 'explode';
  await importInput(page).setInputFiles({ name: 'wrong.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(preset)) });
  await expect(status(page)).toContainText('script[2].do[0]: unknown variant `explode`');
  await expect(status(page)).toContainText('The current run was kept.');
  expect(await logLines(page)).toEqual(lines);
  await expect(scenarioPicker).toHaveValue('paused-writer');
  // Still the same run: it goes on from where it was.
  await button(page, 'Step forward').click();
  expect((await logLines(page)).length).toBeGreaterThan(lines.length);
  await shot(page, 'export-refused-1280');
  expect(pageErrors).toEqual([]);
});

test('downloads work inside a sandboxed iframe that allows them, with no popup or navigation', async ({ page, context, baseURL, pageErrors }) => {
  await page.setContent(
    `<iframe sandbox="allow-scripts allow-same-origin allow-downloads" src="${baseURL}" width="1200" height="800" title="Fencing Lab"></iframe>`,
  );
  const app = page.frameLocator('iframe');
  const named = (name) => app.getByRole('button', { name, exact: true });
  await expect(named('Step forward')).toBeVisible({ timeout: 20_000 });
  await named('Step forward').click();
  for (const [name, check] of [
    ['Export JSON', (b) => expect(JSON.parse(b.toString('utf8')).open_at).toBe(1)],
    ['Export PNG', (b) => expect(b.subarray(1, 4).toString('latin1')).toBe('PNG')],
  ]) {
    const [dl] = await Promise.all([page.waitForEvent('download'), named(name).click()]);
    check(fs.readFileSync(await dl.path()));
  }
  expect(page.url()).toBe('about:blank');
  expect(context.pages()).toHaveLength(1);
  expect(pageErrors).toEqual([]);
});
