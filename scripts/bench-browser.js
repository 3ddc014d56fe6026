#!/usr/bin/env node
// Browser benchmark for the built app in dist/ (build it first: `make build`).
//
//   node scripts/bench-browser.js [--dist dist] [--events 10000] [--runs 5] [--no-doc]
//   node scripts/bench-browser.js --doc-from summary.json   # rewrite the doc section only
//
// Reports, beside the budgets:
//   (a) transfer size: gzip (zlib level 9) of every .html/.js/.wasm/.css in dist/;
//   (b) time from navigation start to the first interactive render: performance.now()
//       (whose origin is the navigation start) when the "Step forward" button first exists
//       and is enabled, polled every animation frame; median of --runs fresh pages;
//   (c) the time of one step once the sandbox run holds --events events: the events are
//       made through the app's own buttons (writes by every worker, ticks), then one
//       "Step back" and one "Advance 1 tick" are timed from the click to the DOM update
//       (script) and to the next frame (frame, the figure held to the budget).
// Prints a JSON summary and replaces the "## Browser" section of docs/performance.md
// (other sections are left as they are).
//
// Uses the system Chromium (/usr/bin/chromium) through playwright-core; never downloads a
// browser. Serves dist/ with scripts/serve-static.js on 127.0.0.1 only.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const zlib = require('zlib');
const { spawn } = require('child_process');

const ROOT = path.join(__dirname, '..');
const BUDGET = { gzipKB: 250, interactiveMs: 500, stepMs: 16 };
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

function parseArgs(argv) {
  const o = { dist: path.join(ROOT, 'dist'), events: 10000, runs: 5, doc: true, port: 0 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--dist') o.dist = path.resolve(argv[++i]);
    else if (a === '--events') o.events = Number(argv[++i]);
    else if (a === '--runs') o.runs = Number(argv[++i]);
    else if (a === '--port') o.port = Number(argv[++i]);
    else if (a === '--no-doc') o.doc = false;
    else if (a === '--doc-from') o.docFrom = path.resolve(argv[++i]);
    else if (a === '-h' || a === '--help') {
      console.log('usage: bench-browser.js [--dist DIR] [--events N] [--runs N] [--port P] [--no-doc]');
      console.log('       bench-browser.js --doc-from RESULT.json   (rewrite the doc section from a saved summary)');
      process.exit(0);
    } else {
      console.error(`bench-browser: unknown argument ${a}`);
      process.exit(2);
    }
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

function walk(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

function sizes(dist) {
  const files = walk(dist).filter((f) => /\.(html|js|wasm|css)$/.test(f));
  const rows = files.map((f) => {
    const buf = fs.readFileSync(f);
    return {
      file: path.relative(dist, f),
      raw: buf.length,
      gzip: zlib.gzipSync(buf, { level: 9 }).length,
    };
  });
  rows.sort((a, b) => b.gzip - a.gzip);
  const total = rows.reduce((s, r) => ({ raw: s.raw + r.raw, gzip: s.gzip + r.gzip }), { raw: 0, gzip: 0 });
  return { files: rows, total };
}

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
  const L = [];
  L.push('## Browser');
  L.push('');
  L.push(`Measured by \`node scripts/bench-browser.js\` (run by \`make bench\`) on ${r.date}: ${r.machine.nproc} cores, ${r.machine.cpu}, ${r.machine.memGB} GB, ${r.machine.platform}; headless Chromium ${r.chromium}, serving \`dist/\` from 127.0.0.1. Load average when the run started: ${(r.machine.loadavg || []).join(', ') || 'unknown'}. The times move a lot with the machine's other load (on a shared 2-core machine, repeated runs differed by up to 2×); the sizes do not.`);
  L.push('');
  L.push('| measure | figure | budget | |');
  L.push('|---|---|---|---|');
  L.push(`| transfer size, gzip -9 of html + js + wasm + css | ${kb(r.size.total.gzip)} KB (${kb(r.size.total.raw)} KB raw) | ≤ ${BUDGET.gzipKB} KB | ${ok(r.size.total.gzip / 1024, BUDGET.gzipKB)} |`);
  L.push(`| navigation to first interactive render (median of ${r.interactive.runs}) | ${r.interactive.medianMs} ms | ≤ ${BUDGET.interactiveMs} ms | ${ok(r.interactive.medianMs, BUDGET.interactiveMs)} |`);
  for (const [name, s] of Object.entries(r.step.steps)) {
    L.push(`| one “${name}” at ${r.step.eventsAtMeasure} events, click to next frame (DOM updated after ${s.scriptMs} ms) | ${s.frameMs} ms | ≤ ${BUDGET.stepMs} ms | ${ok(s.frameMs, BUDGET.stepMs)} |`);
  }
  L.push('');
  L.push('Files (gzip -9 / raw):');
  L.push('');
  for (const f of r.size.files) L.push(`- \`${f.file}\`: ${kb(f.gzip)} KB / ${kb(f.raw)} KB`);
  L.push('');
  L.push(`How: (a) zlib level 9 over each file of \`dist/\`; (b) \`performance.now()\` (origin: navigation start) at the first animation frame where the “Step forward” button exists and is enabled, in a fresh browser context each run; (c) the sandbox run is grown to ${r.step.target} events through the app's own buttons (${r.step.grown.workers.map((w) => `Write ${w}`).join(', ')}, Renew/Acquire A, Advance 1 tick; ${r.step.grown.clicks} clicks in ${round(r.step.grown.ms / 1000, 0)} s; the count is the event log's lines), then each step is clicked five times and the median kept: from the click to the DOM mutation (script) and to the end of the next animation frame (frame).`);
  L.push('');
  return L.join('\n');
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

// ---------- main ----------

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (o.docFrom) {
    const saved = JSON.parse(fs.readFileSync(o.docFrom, 'utf8'));
    console.error(`bench-browser: wrote the Browser section of ${path.relative(ROOT, writeDoc(saved))}`);
    return;
  }
  if (!fs.existsSync(path.join(o.dist, 'index.html'))) {
    console.error(`bench-browser: ${o.dist}/index.html not found; build first (make build)`);
    process.exit(1);
  }
  const size = sizes(o.dist);
  const { child, url } = await serve(o.dist, o.port);
  const chromium = loadChromium();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  try {
    const runs = [];
    for (let i = 0; i < o.runs; i++) runs.push(await timeToInteractive(browser, url));
    const offsite = runs.flatMap((r) => r.offsite);
    const step = await stepBench(browser, url, o.events);
    step.target = o.events;
    const result = {
      date: new Date().toISOString().slice(0, 10),
      machine: machine(),
      chromium: chromiumVersion(browser),
      size,
      interactive: {
        runs: runs.length,
        medianMs: round(median(runs.map((r) => r.interactive))),
        samplesMs: runs.map((r) => round(r.interactive)),
        domContentLoadedMs: round(median(runs.map((r) => r.domContentLoaded || 0))),
      },
      step,
      offsiteRequests: offsite,
      budget: BUDGET,
    };
    const verdict = {
      gzipKB: { value: round(size.total.gzip / 1024), budget: BUDGET.gzipKB, ok: size.total.gzip / 1024 <= BUDGET.gzipKB },
      interactiveMs: { value: result.interactive.medianMs, budget: BUDGET.interactiveMs, ok: result.interactive.medianMs <= BUDGET.interactiveMs },
    };
    for (const [name, s] of Object.entries(step.steps)) {
      verdict[`step ${name} ms`] = { value: s.frameMs, budget: BUDGET.stepMs, ok: s.frameMs <= BUDGET.stepMs, events: step.eventsAtMeasure };
    }
    result.verdict = verdict;
    console.log(JSON.stringify(result, null, 2));
    if (offsite.length) console.error(`bench-browser: requests left 127.0.0.1: ${offsite.join(' ')}`);
    if (step.eventsAtMeasure < o.events) {
      console.error(`bench-browser: the sandbox reached only ${step.eventsAtMeasure} of ${o.events} events`);
    }
    if (o.doc) console.error(`bench-browser: wrote the Browser section of ${path.relative(ROOT, writeDoc(result))}`);
  } finally {
    await browser.close();
    child.kill('SIGTERM');
  }
}

main().catch((e) => {
  console.error(`bench-browser: ${e && e.stack ? e.stack : e}`);
  process.exit(1);
});
