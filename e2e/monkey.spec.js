// A monkey: seeded random clicks on every enabled button, choices in every select, shortcut
// keys and open/close of every tool, at a laptop's width and a phone's. Whatever it does,
// the page must throw nothing, log no error, never show the panic panel, its JS heap must
// stay within a bound of where it started, and the WASM module's memory (which only ever
// grows, so its size is the run's peak) within a bound of its own.
//
// MONKEY_ACTIONS sets how many actions per width (1,000 in `make test`; the 10,000:
// `MONKEY_ACTIONS=10000 npx playwright test e2e/monkey.spec.js`). MONKEY_SEED changes the seed.
'use strict';
const { test, expect, button } = require('./helpers');
const { longRun } = require('./fixtures/long-run');

const ACTIONS = Number(process.env.MONKEY_ACTIONS || 1000);
const SEED = Number(process.env.MONKEY_SEED || 20261204);
// Heap growth allowed over the run: the run's own frames grow with every action taken.
const HEAP_GROWTH_MB = 16;
// The model's and the app's own memory (WASM linear memory) at the end: its peak.
const WASM_MEMORY_MB = 128;

// Buttons the monkey leaves alone: ones that open a file chooser or leave the page, and
// long searches (the explorer and the lab have tests of their own; here they would only
// make the run slow).
const SKIP = /^(Import JSON|Explore|Run)$/;

async function monkey(page, seed, n) {
  return page.evaluate(async ({ seed, n, skip }) => {
    let s = seed >>> 0;
    const rand = () => {
      // mulberry32
      s = (s + 0x6d2b79f5) >>> 0;
      let t = s;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = (xs) => xs[Math.floor(rand() * xs.length)];
    const skipRe = new RegExp(skip);
    const keys = ['ArrowRight', 'ArrowRight', 'ArrowLeft', 'Home', 'End', ' ', '?', 'Escape'];
    const done = { clicks: 0, selects: 0, keys: 0, tools: 0 };
    for (let i = 0; i < n; i++) {
      const r = rand();
      if (r < 0.6) {
        const bs = [...document.querySelectorAll('button:not([disabled])')]
          .filter((b) => b.offsetParent !== null && !skipRe.test(b.textContent.trim()));
        if (bs.length) {
          pick(bs).click();
          done.clicks++;
        }
      } else if (r < 0.72) {
        const sels = [...document.querySelectorAll('select:not([disabled])')].filter((x) => x.offsetParent !== null);
        if (sels.length) {
          const sel = pick(sels);
          const opts = [...sel.options].filter((o) => !o.disabled);
          if (opts.length) {
            sel.value = pick(opts).value;
            sel.dispatchEvent(new Event('change', { bubbles: true }));
            done.selects++;
          }
        }
      } else if (r < 0.95) {
        document.activeElement && document.activeElement.blur && document.activeElement.blur();
        document.dispatchEvent(new KeyboardEvent('keydown', { key: pick(keys), bubbles: true, cancelable: true }));
        done.keys++;
      } else {
        const ds = [...document.querySelectorAll('details')];
        if (ds.length) {
          const d = pick(ds);
          d.open = !d.open;
          done.tools++;
        }
      }
      // Let the page render between actions, as between a person's clicks.
      await new Promise((res) => setTimeout(res, 0));
      const panel = document.getElementById('error-panel');
      if (panel && !panel.hidden) return { ...done, panicAt: i, panic: panel.textContent.trim().slice(0, 300) };
    }
    return done;
  }, { seed, n, skip: SKIP.source });
}

for (const width of [1280, 360]) {
  test(`monkey at ${width} px: ${ACTIONS} random actions, no error, bounded heap`, async ({ page, pageErrors }) => {
    test.setTimeout(60_000 + ACTIONS * 60);
    const consoleErrors = [];
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    // A download (Export) or a dialog must not stall the run.
    page.on('dialog', (d) => d.dismiss());
    await page.setViewportSize({ width, height: 800 });
    // trunk's loader announces the instance; keep its memory to read the size from.
    await page.addInitScript(() => {
      addEventListener('TrunkApplicationStarted', (e) => { window.__wasmMemory = e.detail.wasm.memory; });
    });
    await page.goto('/');
    await expect(button(page, 'Step forward')).toBeVisible({ timeout: 20_000 });
    const heap = () => page.evaluate(() => (performance.memory ? performance.memory.usedJSHeapSize : 0));
    const wasmMemory = () => page.evaluate(() => window.__wasmMemory.buffer.byteLength);
    const before = await heap();
    const wasmBefore = await wasmMemory();
    const done = await monkey(page, SEED + width, ACTIONS);
    expect(done.panicAt, `the panic panel appeared after action ${done.panicAt}: ${done.panic}`).toBeUndefined();
    expect(done.clicks, JSON.stringify(done)).toBeGreaterThan(ACTIONS / 3);
    await expect(page.locator('#error-panel')).toBeHidden();
    // Still alive: the page answers a step.
    await expect(page.getByRole('region', { name: 'Narration' })).toBeVisible();
    const after = await heap();
    const wasmAfter = await wasmMemory();
    const mb = (b) => (b / 1048576).toFixed(1);
    console.log(`monkey at ${width} px: ${JSON.stringify(done)}; JS heap ${mb(before)} → ${mb(after)} MB; WASM memory ${mb(wasmBefore)} → ${mb(wasmAfter)} MB`);
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect((after - before) / 1048576, `JS heap ${before} → ${after} bytes`).toBeLessThan(HEAP_GROWTH_MB);
    expect(wasmAfter / 1048576, `WASM memory ${wasmBefore} → ${wasmAfter} bytes`).toBeLessThan(WASM_MEMORY_MB);
  });
}

// A run of about 10,000 events, imported and played to its end: the app keeps a snapshot per
// step, so this is where memory would grow with the run's square if frames were not shared.
test('a 10,000-event run played to its end keeps the heap and WASM memory bounded', async ({ page, pageErrors }) => {
  test.setTimeout(120_000);
  await page.addInitScript(() => {
    addEventListener('TrunkApplicationStarted', (e) => { window.__wasmMemory = e.detail.wasm.memory; });
  });
  await page.goto('/');
  await expect(button(page, 'Step forward')).toBeVisible({ timeout: 20_000 });
  const mb = (b) => (b / 1048576).toFixed(1);
  const measure = () => page.evaluate(() => ({ heap: performance.memory.usedJSHeapSize, wasm: window.__wasmMemory.buffer.byteLength }));
  const before = await measure();
  const file = Buffer.from(JSON.stringify(longRun(1000)));
  await page.getByLabel('Import JSON').setInputFiles({ name: 'long-run.json', mimeType: 'application/json', buffer: file });
  await expect(page.locator('#scenario-select')).toHaveValue(/long-run/);
  const t0 = Date.now();
  await button(page, 'Jump to end').click();
  await expect(button(page, 'Step forward')).toBeDisabled({ timeout: 60_000 });
  const ms = Date.now() - t0;
  const events = Number(await page.getByRole('log', { name: 'Event log' }).getAttribute('data-events'));
  const after = await measure();
  console.log(`long run: ${events} events in ${ms} ms; JS heap ${mb(before.heap)} → ${mb(after.heap)} MB; WASM memory ${mb(before.wasm)} → ${mb(after.wasm)} MB`);
  expect(events).toBeGreaterThanOrEqual(10_000);
  expect(pageErrors).toEqual([]);
  expect((after.heap - before.heap) / 1048576).toBeLessThan(HEAP_GROWTH_MB);
  expect(after.wasm / 1048576).toBeLessThan(WASM_MEMORY_MB);
});
