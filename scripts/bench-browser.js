#!/usr/bin/env node
// Browser benchmark for the built app in dist/ (build it first: `make build`).
//
//   node scripts/bench-browser.js [--dist dist] [--events 10000] [--runs 5] [--no-doc]
//                                 [--only size,interactive,step,explorer] [--presets id,id]
//                                 [--state FILE] [--fresh]
//   node scripts/bench-browser.js --doc-from summary.json[,more.json]   # rewrite the doc section only
//
// Reports, beside the budgets:
//   (a) size: transfer size, gzip (zlib level 9) of every .html/.js/.wasm/.css in dist/: the
//       first load, and apart from it what is loaded on demand (the explorer's worker);
//   (b) interactive: time from navigation start to the first interactive render:
//       performance.now() (whose origin is the navigation start) when the "Step forward"
//       button first exists and is enabled, polled every animation frame; median of --runs
//       fresh pages;
//   (c) step: the time of one step once the sandbox run holds --events events: the events
//       are made through the app's own buttons (writes by every worker, ticks), then one
//       "Step back", "Step forward" and "Advance 1 tick" are timed from the click to the DOM
//       update (script) and to the next frame (frame, the figure held to the budget);
//   (d) explorer: for every preset in the Scenario picker (--presets to pick some), loaded
//       by the picker so under its default receiver choice, the explorer panel's "Explore"
//       button is pressed and its report read when it appears: states explored, distinct
//       states, the time it shows (the search's time in the explorer's Web Worker), its
//       data-states-per-sec and data-complete, plus the wall time from the click to the report
//       (the worker's start included) and the longest frame gap meanwhile.
//
// --only runs some parts (the 10,000-event step part takes minutes). Each part records
// when it ran and the load average then. Results are merged into a state file
// (target/bench-browser.json; --state to choose, --fresh to start empty), so a partial
// run keeps the other parts' last figures, and the "## Browser" section of
// docs/performance.md is rewritten from the merged figures, naming the run of each part
// (other sections are left as they are). Prints the merged JSON summary.
//
// Uses the system Chromium (/usr/bin/chromium) through playwright-core; never downloads a
// browser. Serves dist/ with scripts/serve-static.js on 127.0.0.1 only.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const zlib = require('zlib');
const { spawn } = require('child_process');
const { CHROMIUM_PATH, CHROMIUM_ARGS } = require('./chromium');

const ROOT = path.join(__dirname, '..');
const BUDGET = { gzipKB: 250, interactiveMs: 500, stepMs: 16, exploreMs: 1000 };
const PARTS = ['size', 'interactive', 'step', 'explorer'];

function parseArgs(argv) {
  const o = {
    dist: path.join(ROOT, 'dist'),
    events: 10000,
    runs: 5,
    doc: true,
    port: 0,
    only: PARTS,
    presets: null,
    state: path.join(ROOT, 'target', 'bench-browser.json'),
    fresh: false,
  };
  const list = (v) => String(v || '').split(',').map((x) => x.trim()).filter(Boolean);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--dist') o.dist = path.resolve(argv[++i]);
    else if (a === '--events') o.events = Number(argv[++i]);
    else if (a === '--runs') o.runs = Number(argv[++i]);
    else if (a === '--port') o.port = Number(argv[++i]);
    else if (a === '--no-doc') o.doc = false;
    else if (a === '--only') o.only = list(argv[++i]);
    else if (a === '--presets') o.presets = list(argv[++i]);
    else if (a === '--state') o.state = path.resolve(argv[++i]);
    else if (a === '--fresh') o.fresh = true;
    else if (a === '--doc-from') o.docFrom = list(argv[++i]).map((f) => path.resolve(f));
    else if (a === '-h' || a === '--help') {
      console.log('usage: bench-browser.js [--dist DIR] [--events N] [--runs N] [--port P] [--no-doc]');
      console.log(`                        [--only ${PARTS.join(',')}] [--presets ID,ID] [--state FILE] [--fresh]`);
      console.log('       bench-browser.js --doc-from RESULT.json[,MORE.json]   (rewrite the doc section from saved summaries)');
      process.exit(0);
    } else {
      console.error(`bench-browser: unknown argument ${a}`);
      process.exit(2);
    }
  }
  const bad = o.only.filter((p) => !PARTS.includes(p));
  if (bad.length || !o.only.length) {
    console.error(`bench-browser: --only takes some of ${PARTS.join(',')}`);
    process.exit(2);
  }
  return o;
}

function loadChromium() {
  for (const mod of ['playwright-core', '@playwright/test']) {
    try {
      return require(mod).chromium;
    } catch (_) {
      // try the next
    }
  }
  console.error('bench-browser: needs playwright-core or @playwright/test (npm ci)');
  process.exit(1);
}

// ---------- (a) sizes ----------

const { sizes } = require('./size-check');

// ---------- server ----------

function serve(dist, port) {
  return new Promise((resolve, reject) => {
    const p = port || 18000 + Math.floor(Math.random() * 2000);
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'serve-static.js'), dist, '--host', '127.0.0.1', '--port', String(p), '--quiet'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      if (String(d).includes('serving')) resolve({ child, url: `http://127.0.0.1:${p}/` });
    });
    child.on('exit', (code) => reject(new Error(`serve-static exited ${code}: ${err}`)));
  });
}

// ---------- in-page helpers (serialised into the page) ----------

// Find a button by its accessible name as the specs do (aria-label, else its text).
const FIND_BUTTON = `
  window.__benchButton = (name) => [...document.querySelectorAll('button')].find(
    (b) => (b.getAttribute('aria-label') || b.textContent || '').trim() === name);
  window.__benchEventCount = () => {
    const log = document.querySelector('[role="log"]');
    // The log shows its newest lines only; it says how many events there are.
    return log ? Number(log.dataset.events || 0) : 0;
  };
`;

async function timeToInteractive(browser, url) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  const offsite = [];
  page.on('request', (r) => {
    if (!r.url().startsWith('http://127.0.0.1') && !/^(data|blob):/.test(r.url())) offsite.push(r.url());
  });
  await page.goto(url, { waitUntil: 'commit' });
  const handle = await page.waitForFunction(
    () => {
      const b = [...document.querySelectorAll('button')].find(
        (b) => (b.getAttribute('aria-label') || b.textContent || '').trim() === 'Step forward',
      );
      return b && !b.disabled ? performance.now() : false;
    },
    null,
    { polling: 'raf', timeout: 30000 },
  );
  const interactive = await handle.jsonValue();
  const nav = await page.evaluate(() => {
    const n = performance.getEntriesByType('navigation')[0];
    return n ? { domContentLoaded: n.domContentLoadedEventEnd, load: n.loadEventEnd } : {};
  });
  await ctx.close();
  return { interactive, ...nav, offsite };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (x, d = 1) => (x == null ? null : Math.round(x * 10 ** d) / 10 ** d);

// Click a button inside the page and time it: to the DOM update (MutationObserver) and to
// the next frame (a rAF then a macrotask, i.e. after style, layout and paint).
async function timeClick(page, name) {
  return page.evaluate(async (name) => {
    const b = window.__benchButton(name);
    if (!b || b.disabled) return null;
    const done = new Promise((resolve) => {
      const t0 = performance.now();
      let script = null;
      const mo = new MutationObserver(() => {
        if (script === null) script = performance.now() - t0;
      });
      mo.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      b.click();
      requestAnimationFrame(() =>
        setTimeout(() => {
          mo.disconnect();
          resolve({ script, frame: performance.now() - t0 });
        }, 0),
      );
    });
    return done;
  }, name);
}

// Grow the sandbox run to `target` events with the app's own buttons, clicking inside the
// page (no round trip per click). Returns the count reached and how long it took.
async function growSandbox(page, target) {
  return page.evaluate(async (target) => {
    const settle = () => new Promise((r) => setTimeout(r, 0));
    const click = async (name) => {
      const b = window.__benchButton(name);
      if (b && !b.disabled) {
        b.click();
        await settle();
        return true;
      }
      return false;
    };
    const workers = ['A', 'B', 'C'].filter((w) => window.__benchButton(`Write ${w}`));
    const t0 = performance.now();
    await click('Acquire A');
    await click('Advance 1 tick');
    await click('Advance 1 tick');
    let n = window.__benchEventCount();
    let clicks = 0;
    let stalled = 0;
    while (n < target && performance.now() - t0 < 15 * 60 * 1000) {
      for (const w of workers) clicks += (await click(`Write ${w}`)) ? 1 : 0;
      if (!(await click('Renew A'))) await click('Acquire A');
      clicks += 1;
      await click('Advance 1 tick');
      await click('Advance 1 tick');
      clicks += 2;
      const m = window.__benchEventCount();
      stalled = m === n ? stalled + 1 : 0;
      if (stalled > 20) break; // the log stopped growing (capped, or the buttons refuse)
      n = m;
    }
    return { events: window.__benchEventCount(), clicks, ms: performance.now() - t0, workers };
  }, target);
}

async function stepBench(browser, url, target) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  await page.goto(url);
  await page.waitForFunction(() => document.querySelectorAll('button').length > 0, null, { timeout: 30000 });
  await page.evaluate(FIND_BUTTON);
  // the sandbox preset
  const picked = await page.evaluate(() => {
    const label = [...document.querySelectorAll('label')].find((l) => l.textContent.trim() === 'Scenario');
    const sel = (label && (label.control || document.getElementById(label.htmlFor))) ||
      document.querySelector('select[aria-label="Scenario"]') || document.querySelector('select');
    if (!sel) return null;
    const opt = [...sel.options].find((o) => o.value === 'sandbox' || /sandbox/i.test(o.textContent));
    if (!opt) return null;
    sel.value = opt.value;
    sel.dispatchEvent(new Event('change', { bubbles: true }));
    sel.dispatchEvent(new Event('input', { bubbles: true }));
    return opt.value;
  });
  if (!picked) throw new Error('no sandbox in the Scenario picker');
  await page.waitForFunction(() => window.__benchButton('Advance 1 tick'), null, { timeout: 10000 });
  const grown = await growSandbox(page, target);
  const samples = { 'Step back': [], 'Step forward': [], 'Advance 1 tick': [] };
  for (let i = 0; i < 5; i++) {
    for (const name of ['Step back', 'Step forward']) {
      const t = await timeClick(page, name);
      if (t) samples[name].push(t);
    }
  }
  for (let i = 0; i < 5; i++) {
    const t = await timeClick(page, 'Advance 1 tick');
    if (t) samples['Advance 1 tick'].push(t);
  }
  const summary = {};
  for (const [k, v] of Object.entries(samples)) {
    if (v.length) {
      summary[k] = {
        frameMs: round(median(v.map((x) => x.frame))),
        scriptMs: round(median(v.filter((x) => x.script !== null).map((x) => x.script))),
        samples: v.length,
      };
    }
  }
  const events = await page.evaluate(() => window.__benchEventCount());
  await ctx.close();
  return { grown, eventsAtMeasure: events, steps: summary };
}

// ---------- (d) the explorer, in the page ----------

// Every preset in the Scenario picker (in the picker's order), loaded by the picker, so under
// its default receiver choice; the explorer panel opened, "Explore" clicked, and the panel's
// report read once it appears (the report is drawn only when the search has stopped).
async function explorerBench(browser, url, filter) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector('#scenario-select option'), null, { timeout: 30000 });
  await page.evaluate(FIND_BUTTON);
  const scenario = page.getByRole('combobox', { name: 'Scenario', exact: true });
  const presets = await scenario.evaluate((sel) => [...sel.options].map((o) => ({ id: o.value, title: o.textContent.trim() })));
  const rows = [];
  for (const p of presets) {
    if (filter && !filter.includes(p.id)) continue;
    await scenario.selectOption(p.id);
    await page.waitForFunction(
      // Shown once its file is here (the page fetches all but two presets when first opened).
      (id) => document.querySelector(`.picker[data-scenario="${id}"][aria-busy="false"]`) && !document.querySelector('.explore-report'),
      p.id,
      { timeout: 10000 },
    );
    const policy = await page.evaluate(() => {
      const s = document.querySelector('#policy-select');
      return s ? s.value : null;
    });
    // Open the panel as a reader would (its summary), then press its "Explore" button.
    await page.evaluate(() => {
      const d = document.querySelector('details.explorer');
      if (d && !d.open) d.querySelector('summary').click();
    });
    const explore = page.locator('details.explorer').getByRole('button', { name: 'Explore', exact: true });
    await explore.waitFor({ state: 'visible', timeout: 10000 });
    const timed = await page.evaluate(
      (limitMs) =>
        new Promise((resolve) => {
          const b = [...document.querySelectorAll('details.explorer button')].find((x) => x.textContent.trim() === 'Explore');
          if (!b || b.disabled) return resolve({ error: 'no enabled Explore button' });
          const long = [];
          let po = null;
          try {
            po = new PerformanceObserver((l) => long.push(...l.getEntries().map((e) => e.duration)));
            po.observe({ type: 'longtask' });
          } catch (_) {
            po = null;
          }
          let frames = 0;
          let worstFrame = 0;
          let last = performance.now();
          let stop = false;
          const raf = () => {
            const t = performance.now();
            worstFrame = Math.max(worstFrame, t - last);
            last = t;
            frames++;
            if (!stop) requestAnimationFrame(raf);
          };
          const t0 = performance.now();
          requestAnimationFrame(raf);
          b.click();
          const check = () => {
            const rep = document.querySelector('section.explore-report');
            const ms = performance.now() - t0;
            if (rep || ms > limitMs) {
              stop = true;
              if (po) po.disconnect();
              const figures = {};
              if (rep) {
                for (const div of rep.querySelectorAll('dl.figures > div')) {
                  figures[div.querySelector('dt').textContent.trim()] = div.querySelector('dd').textContent.trim();
                }
              }
              const status = document.querySelector('.explore-status');
              resolve({
                wallMs: ms,
                timedOut: !rep,
                figures,
                statesPerSec: rep ? Number(rep.dataset.statesPerSec) : null,
                complete: rep ? rep.dataset.complete === 'true' : null,
                status: status ? status.textContent.trim() : null,
                broken: rep
                  ? [...rep.querySelectorAll('ul.invariants li.broken code')].map((c) => c.textContent.trim())
                  : [],
                frames,
                worstFrameMs: worstFrame,
                longTasks: long.length,
                longestTaskMs: long.length ? Math.max(...long) : 0,
              });
            } else {
              // A MutationObserver would also do; polling keeps the page's own work unhindered.
              setTimeout(check, 20);
            }
          };
          setTimeout(check, 20);
        }),
      10 * 60 * 1000,
    );
    const num = (s) => (s == null ? null : Number(String(s).replace(/[^0-9]/g, '')));
    const row = {
      id: p.id,
      title: p.title,
      policy,
      states: num(timed.figures['States explored']),
      distinct: num(timed.figures['Distinct']),
      terminal: num(timed.figures['Terminal']),
      elapsedMs: num(timed.figures['Time taken']),
      statesPerSec: timed.statesPerSec,
      complete: timed.complete,
      status: timed.status,
      broken: timed.broken,
      wallMs: round(timed.wallMs),
      frames: timed.frames,
      worstFrameMs: round(timed.worstFrameMs),
      longTasks: timed.longTasks,
      longestTaskMs: round(timed.longestTaskMs),
      timedOut: timed.timedOut,
    };
    if (timed.error) row.error = timed.error;
    console.error(
      `bench-browser: explore ${p.id} (${policy}): ${row.states} states, ${row.distinct} distinct, ${row.elapsedMs} ms, ${row.statesPerSec} states/s, complete ${row.complete}`,
    );
    rows.push(row);
  }
  await ctx.close();
  const sum = (k) => rows.reduce((s, r) => s + (r[k] || 0), 0);
  return {
    presets: rows,
    total: { states: sum('states'), distinct: sum('distinct'), elapsedMs: sum('elapsedMs'), statesPerSec: round((sum('states') * 1000) / Math.max(1, sum('elapsedMs')), 0) },
  };
}

// ---------- docs/performance.md ----------

function machine() {
  const cpus = os.cpus();
  let model = cpus.length ? cpus[0].model : 'unknown';
  try {
    const m = /model name\s*:\s*(.*)/.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) model = m[1].trim();
  } catch (_) {
    // not Linux
  }
  let nproc = cpus.length;
  if (typeof os.availableParallelism === 'function') nproc = os.availableParallelism();
  return {
    nproc,
    cpu: model,
    memGB: round(os.totalmem() / 2 ** 30, 1),
    platform: `${os.platform()} ${os.release()}`,
    loadavg: os.loadavg().map((x) => round(x, 2)),
  };
}

function chromiumVersion(browser) {
  try {
    return browser.version();
  } catch (_) {
    return 'unknown';
  }
}

function kb(n) {
  return (n / 1024).toFixed(1);
}

function section(r) {
  const ok = (v, max) => (v == null ? 'n/a' : v <= max ? 'within' : '**over**');
  const P = r.parts || {};
  const m = r.machine;
  const runOf = (part) => {
    const x = P[part] && P[part].run;
    return x ? `run of ${x.date} ${x.time} UTC, load ${x.loadavg.join(', ')}` : 'not run';
  };
  const L = [];
  L.push('## Browser');
  L.push('');
  L.push(`Measured by \`node scripts/bench-browser.js\` (run by \`make bench\`; \`--only\` runs some parts): ${m.nproc} cores, ${m.cpu}, ${m.memGB} GB, ${m.platform}; headless Chromium ${r.chromium}, serving \`dist/\` from 127.0.0.1. Each part says which run it comes from and the load average (1, 5, 15 min) when that part started. The times move a lot with the machine's other load (on a shared 2-core machine, repeated runs differed by up to 2×); the sizes do not.`);
  L.push('');
  L.push('| measure | figure | budget | | run |');
  L.push('|---|---|---|---|---|');
  if (P.size) {
    L.push(`| first load, gzip -9 of html + js + wasm + css | ${kb(P.size.total.gzip)} KB (${kb(P.size.total.raw)} KB raw) | ≤ ${BUDGET.gzipKB} KB | ${ok(P.size.total.gzip / 1024, BUDGET.gzipKB)} | ${runOf('size')} |`);
    if (P.size.onDemand && P.size.onDemand.length) {
      L.push(`| loaded on demand (the explorer's worker, when a search starts), gzip -9 | ${kb(P.size.onDemandTotal.gzip)} KB (${kb(P.size.onDemandTotal.raw)} KB raw) | | | ${runOf('size')} |`);
    }
  }
  if (P.interactive) {
    L.push(`| navigation to first interactive render (median of ${P.interactive.runs}; samples ${P.interactive.samplesMs.join(', ')} ms) | ${P.interactive.medianMs} ms | ≤ ${BUDGET.interactiveMs} ms | ${ok(P.interactive.medianMs, BUDGET.interactiveMs)} | ${runOf('interactive')} |`);
  }
  if (P.step) {
    for (const [name, s] of Object.entries(P.step.steps)) {
      L.push(`| one “${name}” at ${P.step.eventsAtMeasure} events, click to next frame (DOM updated after ${s.scriptMs} ms) | ${s.frameMs} ms | ≤ ${BUDGET.stepMs} ms | ${ok(s.frameMs, BUDGET.stepMs)} | ${runOf('step')} |`);
    }
  }
  if (P.explorer) {
    const e = P.explorer;
    const all = e.presets.every((x) => x.complete && x.elapsedMs < BUDGET.exploreMs);
    const under = e.presets.filter((x) => x.complete && x.elapsedMs < BUDGET.exploreMs).length;
    L.push(`| explorer: presets fully explored in under 1 s in the page | ${under} of ${e.presets.length} | all | ${all ? 'met' : '**not met**'} | ${runOf('explorer')} |`);
  }
  L.push('');
  if (P.size) {
    L.push('Files (gzip -9 / raw):');
    L.push('');
    for (const f of P.size.files) L.push(`- \`${f.file}\`: ${kb(f.gzip)} KB / ${kb(f.raw)} KB`);
    for (const f of P.size.onDemand || []) L.push(`- \`${f.file}\` (loaded on demand): ${kb(f.gzip)} KB / ${kb(f.raw)} KB`);
    L.push('');
  }
  if (P.explorer) {
    L.push(`Explorer, in the page (${runOf('explorer')}): every preset of the Scenario picker, in its order, under the receiver choice the picker loads with it; the panel's bounds (\`view::explore::bounds\`: the preset's \`Bounds::for_scenario\`, at most 50,000 distinct states). The search runs in the explorer's Web Worker (\`view::search\`). “ms” is the panel's “Time taken”, the worker's own time for the search; “states/s” its \`data-states-per-sec\` (states explored, not distinct, per second of that time); “wall” from the click to the report drawn (starting the worker and loading its WASM included); “worst gap” the longest time between two animation frames meanwhile.`);
    L.push('');
    L.push('| preset | choice | states explored | distinct | ms | states/s | complete | < 1 s and complete | wall ms | worst gap ms |');
    L.push('|---|---|---|---|---|---|---|---|---|---|');
    for (const x of P.explorer.presets) {
      const good = x.complete && x.elapsedMs < BUDGET.exploreMs;
      L.push(`| \`${x.id}\` | ${x.policy} | ${fmt(x.states)} | ${fmt(x.distinct)} | ${fmt(x.elapsedMs)} | ${fmt(x.statesPerSec)} | ${x.complete ? 'yes' : x.timedOut ? '**timed out**' : '**no: bound**'} | ${good ? 'yes' : '**no**'} | ${fmt(x.wallMs)} | ${x.worstFrameMs} |`);
    }
    const t = P.explorer.total;
    L.push(`| all | | ${fmt(t.states)} | ${fmt(t.distinct)} | ${fmt(t.elapsedMs)} | ${fmt(t.statesPerSec)} | | | | |`);
    L.push('');
  }
  const how = [];
  if (P.size) how.push('(a) zlib level 9 over each file of `dist/`, the first load being index.html and the files it names (`scripts/size-check.js`)');
  if (P.interactive) how.push('(b) `performance.now()` (origin: navigation start) at the first animation frame where the “Step forward” button exists and is enabled, in a fresh browser context each run');
  if (P.step) {
    const g = P.step.grown;
    how.push(`(c) the sandbox run is grown to ${P.step.target} events through the app's own buttons (${g.workers.map((w) => `Write ${w}`).join(', ')}, Renew/Acquire A, Advance 1 tick; ${g.clicks} clicks in ${round(g.ms / 1000, 0)} s; the count is the event log's lines), then each step is clicked five times and the median kept: from the click to the DOM mutation (script) and to the end of the next animation frame (frame)`);
  }
  if (P.explorer) how.push('(d) the “Scenario” select set to each preset, the “Explore every order” panel opened, its “Explore” button clicked, and the figures read from the “Exploration report” it draws when the search stops');
  if (how.length) {
    L.push(`How: ${how.join('; ')}.`);
    L.push('');
  }
  return L.join('\n');
}

function fmt(n) {
  return n == null ? '–' : Number(n).toLocaleString('en-US');
}

function writeDoc(r) {
  const file = path.join(ROOT, 'docs', 'performance.md');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let doc = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Performance\n\n';
  const sec = section(r);
  const re = /^## Browser\b[\s\S]*?(?=^## |(?![\s\S]))/m;
  if (re.test(doc)) doc = doc.replace(re, sec + '\n');
  else doc = doc.replace(/\s*$/, '\n\n') + sec;
  fs.writeFileSync(file, doc.replace(/\n{3,}/g, '\n\n').replace(/\s*$/, '\n'));
  return file;
}

// Later summaries win, part by part.
function merge(...rs) {
  const out = { parts: {} };
  for (const r of rs) {
    if (!r || !r.parts) continue;
    Object.assign(out.parts, r.parts);
    for (const k of ['machine', 'chromium', 'budget']) if (r[k]) out[k] = r[k];
  }
  return out;
}

function runMeta() {
  const d = new Date().toISOString();
  return { date: d.slice(0, 10), time: d.slice(11, 16), loadavg: os.loadavg().map((x) => round(x, 2)) };
}

function verdicts(r) {
  const P = r.parts;
  const v = {};
  if (P.size) v.gzipKB = { value: round(P.size.total.gzip / 1024), budget: BUDGET.gzipKB, ok: P.size.total.gzip / 1024 <= BUDGET.gzipKB };
  if (P.interactive) v.interactiveMs = { value: P.interactive.medianMs, budget: BUDGET.interactiveMs, ok: P.interactive.medianMs <= BUDGET.interactiveMs };
  if (P.step) {
    for (const [name, s] of Object.entries(P.step.steps)) {
      v[`step ${name} ms`] = { value: s.frameMs, budget: BUDGET.stepMs, ok: s.frameMs <= BUDGET.stepMs, events: P.step.eventsAtMeasure };
    }
  }
  if (P.explorer) {
    for (const x of P.explorer.presets) {
      v[`explore ${x.id} ms`] = { value: x.elapsedMs, budget: BUDGET.exploreMs, complete: x.complete, ok: !!x.complete && x.elapsedMs < BUDGET.exploreMs };
    }
  }
  return v;
}

// ---------- main ----------

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (o.docFrom) {
    const saved = merge(...o.docFrom.map((f) => JSON.parse(fs.readFileSync(f, 'utf8'))));
    console.error(`bench-browser: wrote the Browser section of ${path.relative(ROOT, writeDoc(saved))}`);
    return;
  }
  if (!fs.existsSync(path.join(o.dist, 'index.html'))) {
    console.error(`bench-browser: ${o.dist}/index.html not found; build first (make build)`);
    process.exit(1);
  }
  const want = (p) => o.only.includes(p);
  const parts = {};
  if (want('size')) parts.size = { run: runMeta(), ...sizes(o.dist) };
  const needBrowser = o.only.some((p) => p !== 'size');
  let browser = null;
  let server = null;
  let chromiumV = null;
  const offsite = [];
  try {
    if (needBrowser) {
      server = await serve(o.dist, o.port);
      const chromium = loadChromium();
      browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
      chromiumV = chromiumVersion(browser);
    }
    if (want('interactive')) {
      const run = runMeta();
      const runs = [];
      for (let i = 0; i < o.runs; i++) runs.push(await timeToInteractive(browser, server.url));
      offsite.push(...runs.flatMap((x) => x.offsite));
      parts.interactive = {
        run,
        runs: runs.length,
        medianMs: round(median(runs.map((x) => x.interactive))),
        samplesMs: runs.map((x) => round(x.interactive)),
        domContentLoadedMs: round(median(runs.map((x) => x.domContentLoaded || 0))),
      };
    }
    if (want('explorer')) {
      const run = runMeta();
      parts.explorer = { run, ...(await explorerBench(browser, server.url, o.presets)) };
    }
    if (want('step')) {
      const run = runMeta();
      const step = await stepBench(browser, server.url, o.events);
      parts.step = { run, target: o.events, ...step };
      if (step.eventsAtMeasure < o.events) {
        console.error(`bench-browser: the sandbox reached only ${step.eventsAtMeasure} of ${o.events} events`);
      }
    }
  } finally {
    if (browser) await browser.close();
    if (server) server.child.kill('SIGTERM');
  }
  const fresh = { machine: machine(), parts, budget: BUDGET };
  if (chromiumV) fresh.chromium = chromiumV;
  let previous = null;
  if (!o.fresh && fs.existsSync(o.state)) {
    try {
      previous = JSON.parse(fs.readFileSync(o.state, 'utf8'));
    } catch (_) {
      previous = null;
    }
  }
  const result = merge(previous, fresh);
  if (!result.chromium) result.chromium = 'unknown';
  result.offsiteRequests = offsite;
  result.verdict = verdicts(result);
  fs.mkdirSync(path.dirname(o.state), { recursive: true });
  fs.writeFileSync(o.state, JSON.stringify(result, null, 2) + '\n');
  console.log(JSON.stringify(result, null, 2));
  if (offsite.length) console.error(`bench-browser: requests left 127.0.0.1: ${offsite.join(' ')}`);
  if (o.doc) console.error(`bench-browser: wrote the Browser section of ${path.relative(ROOT, writeDoc(result))}`);
}

main().catch((e) => {
  console.error(`bench-browser: ${e && e.stack ? e.stack : e}`);
  process.exit(1);
});
