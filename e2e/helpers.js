// Shared helpers for the Playwright specs in e2e/.
//
// The specs drive the app only through its accessible names (roles and labels), the way
// a keyboard or screen-reader user would, so a spec that passes also says the controls
// are reachable. Every test records every request its browser context makes; a request to
// anything but 127.0.0.1 (or a data:/blob: URL) fails the test.
'use strict';
const fs = require('fs');
const path = require('path');
const base = require('@playwright/test');

const ROOT = path.join(__dirname, '..');
const SHOTS = path.join(ROOT, 'target', 'screenshots');
const REQUEST_LOG = path.join(ROOT, 'target', 'e2e-requests');

/** Preset id -> title, read from presets/*.json (the same files the app embeds). */
function presetTitles() {
  const dir = path.join(ROOT, 'presets');
  const out = {};
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    try {
      const p = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
      out[p.id] = p.title;
    } catch (_) {
      // a preset being written right now; the app is the judge of which presets exist
    }
  }
  return out;
}

/** Whether a request URL stays on this machine's loopback address. */
function isLocal(url) {
  let u;
  try {
    u = new URL(url);
  } catch (_) {
    return false;
  }
  if (u.protocol === 'data:' || u.protocol === 'blob:' || u.protocol === 'about:') return true;
  return u.hostname === '127.0.0.1';
}

const test = base.test.extend({
  // Every request of the test's browser context (pages, workers, redirects).
  requests: [
    async ({ context }, use, testInfo) => {
      const urls = [];
      context.on('request', (r) => urls.push(r.url()));
      await use(urls);
      // one file per test, target/e2e-requests/<test>.txt, for a look after the run
      fs.mkdirSync(REQUEST_LOG, { recursive: true });
      const name = testInfo.titlePath.join(' ').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 120);
      fs.writeFileSync(path.join(REQUEST_LOG, `${name}.txt`), urls.map((u) => `${u}\n`).join(''));
      const away = urls.filter((u) => !isLocal(u));
      base.expect(away, 'requests that left 127.0.0.1').toEqual([]);
    },
    { auto: true },
  ],
  // Whatever the app's Content-Security-Policy refused, in any frame of any page of the
  // test (scripts/csp.js): every test fails on one, as on a request that leaves 127.0.0.1.
  cspViolations: [
    async ({ context }, use) => {
      const violations = [];
      await context.exposeBinding('__fencingLabCsp', (_source, v) => violations.push(v));
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => {
          window.__fencingLabCsp(`${e.violatedDirective} refused ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`);
        });
      });
      await use(violations);
      base.expect(violations, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
  // Uncaught exceptions in the page. Specs that expect none assert it is empty.
  pageErrors: [
    async ({ page }, use) => {
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e && e.message ? e.message : e)));
      await use(errors);
    },
    { auto: true },
  ],
});
const expect = base.expect;

/** Screenshot of the whole page into target/screenshots/<name>.png. */
async function shot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Screenshot of one element (a panel) into target/screenshots/<name>.png. */
async function shotOf(locator, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  await locator.screenshot({ path: file });
  return file;
}

/**
 * A <select> by its label. A label wrapping the select puts the selected option's text in
 * the accessible name ("Scenario Sandbox"), so the name is matched as a prefix.
 */
const picker = (page, label) =>
  page.getByRole('combobox', { name: new RegExp(`^${label}\\b`) }).first();

const button = (page, name) => page.getByRole('button', { name, exact: true });

/** Load the app and wait until the WASM has mounted and the stepping controls exist. */
async function openApp(page, hash = '') {
  await page.goto('/' + hash);
  await expect(button(page, 'Step forward')).toBeVisible({ timeout: 20_000 });
  // A preset the link or the address names may still be on its way (src/presets.rs).
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/**
 * Choose an <option> by value, exact text, or text prefix — option values are meant to
 * be ids (`paused-writer`, `unfenced`), but a title or a longer label is accepted too.
 */
async function chooseOption(select, wanted, alsoText = []) {
  await select.locator('option').first().waitFor({ state: 'attached' });
  const options = await select.locator('option').evaluateAll((os) =>
    os.map((o) => ({ value: o.value, text: (o.textContent || '').trim() })),
  );
  const texts = [wanted, ...alsoText].filter(Boolean);
  const hit =
    options.find((o) => o.value === wanted) ||
    options.find((o) => texts.includes(o.text)) ||
    options.find((o) => texts.some((t) => o.text.startsWith(t))) ||
    options.find((o) => texts.some((t) => o.text.toLowerCase().includes(t.toLowerCase())));
  if (!hit) {
    throw new Error(
      `no option for “${wanted}” in ${JSON.stringify(options.map((o) => `${o.value}=${o.text}`))}`,
    );
  }
  await select.selectOption(hit.value);
  return hit;
}

/** Select a preset by id in the Scenario picker (falls back to its title). */
async function selectScenario(page, id) {
  const title = presetTitles()[id];
  const hit = await chooseOption(picker(page, 'Scenario'), id, [title]);
  // Shown once its file is here (the page fetches all but two presets when first opened).
  await expect(page.locator('.picker')).toHaveAttribute('data-scenario', hit.value);
  // the app resets to the preset's start: stepping back is impossible there
  await expect(button(page, 'Step forward')).toBeVisible();
  return hit;
}

/** Select a receiver policy (variant name) in the Receiver policy picker. */
async function selectPolicy(page, name) {
  return chooseOption(picker(page, 'Receiver policy'), name);
}

/** Open the app on a preset, optionally under a receiver policy. */
async function openPreset(page, id, policy) {
  await openApp(page);
  await selectScenario(page, id);
  if (policy) await selectPolicy(page, policy);
}

/** Play the script to its end: Jump to end, then Step forward until it is disabled. */
async function playToEnd(page) {
  const jump = button(page, 'Jump to end');
  if ((await jump.count()) > 0 && (await jump.isEnabled())) await jump.click();
  const fwd = button(page, 'Step forward');
  for (let i = 0; i < 200 && (await fwd.isEnabled()); i++) await fwd.click();
  await expect(fwd).toBeDisabled();
}

/** The names of the files `page` fetches from now on that pass `keep`, in order (a live list). */
function fetchedNames(page, keep) {
  const seen = [];
  page.on('request', (r) => {
    const name = new URL(r.url()).pathname.split('/').pop();
    if (keep(name)) seen.push(name);
  });
  return seen;
}

/** A short sandbox session: A acquires, time passes, A writes, then A pauses. */
async function sandboxSession(page) {
  await openPreset(page, 'sandbox');
  for (const name of ['Acquire A', 'Advance 1 tick', 'Advance 1 tick', 'Write A', 'Pause A']) {
    await button(page, name).click();
  }
}

const eventLog = (page) => page.getByRole('log', { name: 'Event log' });

/** The event log as lines of text. */
async function logLines(page) {
  const text = await eventLog(page).innerText();
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

/**
 * What the timeline SVGs say: the text of every <text>, every aria-label and every <title>,
 * one entry per element, so a verdict drawn as "✗ 41 stale" (or split across tspans, or
 * given as a label) can be matched as one string.
 */
async function svgStrings(page) {
  return page.evaluate(() => {
    const out = [];
    for (const svg of document.querySelectorAll('svg')) {
      for (const el of svg.querySelectorAll('*')) {
        const tag = el.tagName.toLowerCase();
        if (tag === 'text' || tag === 'title' || tag === 'desc') {
          const t = (el.textContent || '').replace(/\s+/g, ' ').trim();
          if (t) out.push(t);
        }
        const label = el.getAttribute('aria-label');
        if (label) out.push(label.replace(/\s+/g, ' ').trim());
      }
      const own = svg.getAttribute('aria-label');
      if (own) out.push(own);
    }
    return out;
  });
}

/**
 * Parse an exported SVG file's text with the browser's own XML parser, in a blank page of
 * its own (a document parsed in the app's page would fall under the app's CSP, which refuses
 * the file's inline <style>). Root name and namespace, parse errors, the <title>, the texts
 * of <text> elements (`texts`) and of <text> and <title> (`all`), and the width.
 */
async function parseSvgFile(page, text) {
  const blank = await page.context().newPage();
  try {
    return await blank.evaluate((t) => {
      const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
      const root = doc.documentElement;
      const title = root.querySelector('title');
      return {
        root: root.localName,
        ns: root.namespaceURI,
        errors: doc.getElementsByTagName('parsererror').length,
        title: title && title.textContent,
        texts: [...root.querySelectorAll('text')].map((e) => e.textContent),
        all: [...root.querySelectorAll('text, title')].map((e) => e.textContent.trim()),
        width: Number(root.getAttribute('width')),
      };
    }, text);
  } finally {
    await blank.close();
  }
}

/** Open a `<details class="tool">` section by its summary text; returns the section. */
async function openTool(page, summary) {
  const section = page.locator('details.tool', { has: page.locator('summary', { hasText: summary }) });
  await section.locator('summary').click();
  await expect(section).toHaveAttribute('open', '');
  return section;
}

/** Buttons in the "In flight" region whose names start with `verb` and match `what`. */
function inFlightButton(page, verb, what) {
  const region = page.getByRole('region', { name: 'In flight' });
  const src = what instanceof RegExp ? what.source : what.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return region.getByRole('button', { name: new RegExp(`^${verb} ${src}`) });
}

module.exports = {
  test,
  expect,
  shot,
  shotOf,
  button,
  picker,
  openApp,
  openPreset,
  selectScenario,
  selectPolicy,
  chooseOption,
  playToEnd,
  sandboxSession,
  eventLog,
  logLines,
  svgStrings,
  inFlightButton,
  openTool,
  parseSvgFile,
  presetTitles,
  isLocal,
  fetchedNames,
  REQUEST_LOG,
};
