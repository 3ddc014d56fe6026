// The explorer in the page: every order of the paused writer within bounds, the broken
// invariant's shortest counterexample loaded into the timeline, cancel on a big preset; the
// search in its Web Worker (Cancel terminates it, the page keeps its frames, the figures are
// the command line's, the worker found under a sub-path and in a frame on another origin);
// and the compare view of two receiver policies side by side.
'use strict';
const fs = require('fs');
const path = require('path');
const {
  test, expect, shot, shotOf, button, openPreset, eventLog, logLines, svgStrings, openTool,
} = require('./helpers');

const PORT = Number(process.env.E2E_PORT || 8081);
const GUIDE = `http://127.0.0.1:${PORT + 1}/`;
const OTHER_SITE = `http://127.0.0.1:${PORT + 2}/`;
// The panel's figures per preset, as the native search gives them (tests/explore_page.rs).
const NATIVE = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'tests', 'fixtures', 'explore-page.json'), 'utf8'));
const WORKER = /\/explorer-worker-loader\.js$/;

const report = (page) => page.getByRole('region', { name: 'Exploration report' });

/** Explore, wait for the report, return the list of broken invariants. */
async function explore(page, section) {
  await button(section, 'Explore').click();
  await expect(report(page)).toBeVisible({ timeout: 60_000 });
  await expect(report(page)).toHaveAttribute('data-complete', 'true');
  return report(page).locator('li.broken .inv-name').allInnerTexts();
}

test('paused-writer: unfenced breaks stale_overwrite; its counterexample loads into the timeline', async ({ page, pageErrors }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openPreset(page, 'paused-writer', 'unfenced');
  const section = await openTool(page, 'Explore every order');
  await expect(section.getByText('Pauses', { exact: true })).toBeVisible();
  await expect(section.getByText('Distinct states, at most')).toBeVisible();
  // nothing is computed before the button
  await expect(page.getByRole('progressbar', { name: 'Exploration progress' })).toHaveCount(0);

  const broken = await explore(page, section);
  expect(broken).toContain('Stale overwrite');
  const bar = page.getByRole('progressbar', { name: 'Exploration progress' });
  await expect(bar).toBeVisible();
  // a finished search fills its bar
  const [value, max] = await bar.evaluate((p) => [p.value, p.max]);
  expect(value).toBeGreaterThan(0);
  expect(value).toEqual(max);
  await expect(section.getByText(/^[\d,]+ states, [\d,]+ distinct$/)).toBeVisible();
  await expect(report(page)).toContainText('Time taken');
  const rate = Number(await report(page).getAttribute('data-states-per-sec'));
  expect(rate).toBeGreaterThan(0);
  await expect(report(page).locator('li.broken', { hasText: 'Stale overwrite' })).toContainText('Shortest counterexample: 12 actions.');
  await shot(page, 'explore-report-1280');

  await button(page, 'Load counterexample for stale overwrite').click();
  await expect(page.getByText(/Loaded the shortest run that breaks “stale overwrite”/)).toBeVisible();
  // the page goes to the timeline, where the loaded run is, not left at the tool
  await expect(page.locator('#timeline-h')).toBeInViewport();
  // the last step is the violation: in the event log's current step and on the timeline
  await expect(eventLog(page).locator('li.recent.ev-violation')).toContainText('VIOLATION stale_overwrite');
  const svg = await svgStrings(page);
  expect(svg.some((s) => /stale_overwrite|stale overwrite/i.test(s)), JSON.stringify(svg)).toBe(true);
  // it is a normal run: step back leaves the violation, forward returns to it
  await button(page, 'Step back').click();
  await expect(eventLog(page).locator('li.recent.ev-violation')).toHaveCount(0);
  await button(page, 'Step forward').click();
  await expect(eventLog(page).locator('li.recent.ev-violation')).toHaveCount(1);
  // and Copy link carries it
  await button(page, 'Copy link').click();
  const href = await page.getByRole('textbox', { name: 'Link to this view' }).inputValue();
  const lines = await logLines(page);
  const other = await page.context().newPage();
  await other.goto(href);
  await expect(button(other, 'Step forward')).toBeVisible({ timeout: 20_000 });
  await expect(eventLog(other)).toContainText('VIOLATION stale_overwrite');
  expect(await logLines(other)).toEqual(lines);
  await shot(page, 'explore-loaded-1280');
  expect(pageErrors).toEqual([]);
});

test('paused-writer: under highest-seen stale_overwrite holds', async ({ page, pageErrors }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await openPreset(page, 'paused-writer', 'highest-seen');
  const section = await openTool(page, 'Explore every order');
  const broken = await explore(page, section);
  expect(broken).not.toContain('Stale overwrite');
  await expect(report(page).locator('li.held', { hasText: 'Stale overwrite' })).toContainText('held');
  await expect(button(page, 'Load counterexample for stale overwrite')).toHaveCount(0);
  // "held" means something: the search did reach a stale refusal, and can show it
  const milestones = report(page).locator('ul.milestones');
  await expect(milestones.locator('li', { hasText: 'A stale token refused' })).toContainText('✓ reached');
  await shot(page, 'explore-report-360');
  await shotOf(section, 'explore-panel-360');
  await button(page, 'Load the run that reaches a stale token refused').click();
  await expect(page.getByText(/Loaded the shortest run that reaches “a stale token refused”/)).toBeVisible();
  await expect(eventLog(page)).toContainText(/rejected.*stale|stale.*rejected/i);
  // another policy discards the report, in the section as the reader left it: still open,
  // a new search offered
  await openPreset(page, 'paused-writer', 'highest-seen');
  const again = await openTool(page, 'Explore every order');
  await explore(page, again);
  await page.getByRole('combobox', { name: /^Receiver policy\b/ }).selectOption('unfenced');
  await expect(report(page)).toHaveCount(0);
  await expect(again).toHaveAttribute('open', '');
  await expect(button(again, 'Explore')).toBeEnabled();
  expect(pageErrors).toEqual([]);
});

test('cancel stops a big search and marks its figures incomplete', async ({ page, pageErrors }) => {
  // cross-object-token has the most states of the presets: it runs into the state bound
  await openPreset(page, 'cross-object-token');
  const section = await openTool(page, 'Explore every order');
  await button(section, 'Explore').click();
  await expect(button(section, 'Explore')).toBeDisabled();
  // the page stays responsive while it runs: the progress text moves on
  const count = section.locator('.explore-count');
  await expect(count).toHaveText(/[1-9][\d,]* distinct/);
  const first = await count.innerText();
  await expect.poll(() => count.innerText()).not.toBe(first);
  await button(section, 'Cancel').click();
  await expect(section.getByRole('status')).toContainText(/Cancelled after \d+ ms/);
  await expect(section.getByRole('status')).toContainText('incomplete');
  await expect(report(page)).toHaveAttribute('data-complete', 'false');
  await expect(report(page).locator('li.held')).toHaveCount(0); // nothing shown to hold
  await shotOf(section, 'explore-cancelled-1280');
  const stopped = await count.innerText();
  await page.waitForTimeout(300);
  expect(await count.innerText()).toBe(stopped);
  await expect(button(section, 'Explore')).toBeEnabled();
  await expect(button(section, 'Cancel')).toBeDisabled();
  expect(pageErrors).toEqual([]);
});

test('the search runs in a Web Worker: Cancel terminates it at once', async ({ page, pageErrors }) => {
  // When the page asks for the worker's end: what the app controls. The browser's tearing
  // the worker down after that took 1.0–1.1 s at times on this 2-core machine, with the
  // page's own part done in the click.
  await page.addInitScript(() => {
    const terminate = Worker.prototype.terminate;
    Worker.prototype.terminate = function () {
      window.__terminatedAt = Date.now();
      return terminate.call(this);
    };
  });
  await openPreset(page, 'renewal-failure');
  const section = await openTool(page, 'Explore every order');
  // no worker before a search: its files are not part of the first load
  expect(page.workers()).toHaveLength(0);
  const started = page.waitForEvent('worker');
  await button(section, 'Explore').click();
  const worker = await started;
  expect(worker.url()).toMatch(WORKER);
  // When the worker closed, taken as it closes: not after the polls of the checks below.
  const closed = new Promise((resolve) => worker.on('close', () => resolve(Date.now())));
  const count = section.locator('.explore-count');
  await expect(count).toHaveText(/[1-9]\d{0,2},\d{3} distinct/); // some thousands: well under way
  // Timed from the click reaching the page, not from Playwright's own actionability checks
  // before it (a 2-core machine under load spends tens of ms there: 1,003 ms once).
  await page.evaluate(() => document.addEventListener('click', (e) => {
    if (e.target.closest('button') && e.target.closest('button').textContent.trim() === 'Cancel') window.__cancelAt = Date.now();
  }, true));
  await button(section, 'Cancel').click();
  const t0 = await page.evaluate(() => window.__cancelAt);
  expect(t0, 'the click reached the page').toBeGreaterThan(0);
  const terminatedAt = await page.evaluate(() => window.__terminatedAt);
  expect(terminatedAt - t0, 'the click itself terminates the worker').toBeLessThan(100);
  await expect(section.getByRole('status')).toContainText(/Cancelled after \d+ ms/, { timeout: 1_000 });
  const closedAt = await Promise.race([closed, page.waitForTimeout(3_000).then(() => { throw new Error('the worker was not terminated'); })]);
  expect(closedAt - t0, 'and the browser has ended it within two seconds').toBeLessThan(2_000);
  expect(page.workers()).toHaveLength(0);
  await expect(report(page)).toHaveAttribute('data-complete', 'false');
  await expect(section.getByRole('status')).toContainText('incomplete');
  // a new search starts a new worker, which runs to the end and is let go
  const again = page.waitForEvent('worker');
  await openPreset(page, 'paused-writer');
  const section2 = await openTool(page, 'Explore every order');
  await button(section2, 'Explore').click();
  const second = await again;
  const done = new Promise((resolve) => second.on('close', resolve));
  await expect(report(page)).toHaveAttribute('data-complete', 'true', { timeout: 60_000 });
  await done; // a finished search's worker is terminated too: its memory goes back
  expect(pageErrors).toEqual([]);
});

test('the page keeps drawing frames while a big preset is searched', async ({ page, pageErrors }) => {
  await openPreset(page, 'coordinator-restart');
  const section = await openTool(page, 'Explore every order');
  await expect(button(section, 'Explore')).toBeEnabled();
  // every gap between two animation frames from the click to the report
  const gaps = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const b = [...document.querySelectorAll('details.explorer button')].find((x) => x.textContent.trim() === 'Explore');
        const out = [];
        let last = performance.now();
        const t0 = last;
        const frame = () => {
          const t = performance.now();
          out.push(t - last);
          last = t;
          if (document.querySelector('section.explore-report') || t - t0 > 60_000) resolve(out);
          else requestAnimationFrame(frame);
        };
        b.click();
        requestAnimationFrame(frame);
      }),
  );
  await expect(report(page)).toHaveAttribute('data-complete', 'true');
  const sorted = [...gaps].sort((a, b) => a - b);
  const p95 = sorted[Math.floor(sorted.length * 0.95)];
  const worst = sorted[sorted.length - 1];
  console.log(`explorer: ${gaps.length} frames during the search; gaps p95 ${p95.toFixed(1)} ms, worst ${worst.toFixed(1)} ms`);
  expect(gaps.length, 'the search took many frames').toBeGreaterThan(20);
  expect(p95, 'frames keep coming while the worker searches').toBeLessThan(50);
  expect(worst, 'no long stall of the page').toBeLessThan(150);
  expect(pageErrors).toEqual([]);
});

for (const want of NATIVE.presets) {
  test(`${want.id}: the page's figures are the command line's`, async ({ page, pageErrors }) => {
    await openPreset(page, want.id);
    await expect(page.getByRole('combobox', { name: /^Receiver policy\b/ })).toHaveValue(want.choice);
    const section = await openTool(page, 'Explore every order');
    await button(section, 'Explore').click();
    await expect(report(page)).toBeVisible({ timeout: 60_000 });
    const figure = async (name) => Number((await report(page).locator(`dt:text-is("${name}") + dd`).innerText()).replace(/,/g, ''));
    expect({
      states: await figure('States explored'),
      distinct: await figure('Distinct'),
      terminal: await figure('Terminal'),
      complete: (await report(page).getAttribute('data-complete')) === 'true',
      // the ids, which each name in words carries as its title
      broken: await report(page).locator('ul.invariants:not(.milestones) li.broken .inv-name').evaluateAll((els) => els.map((e) => e.title)),
    }).toEqual({ states: want.states, distinct: want.distinct, terminal: want.terminal, complete: want.complete, broken: want.broken });
    expect(pageErrors).toEqual([]);
  });
}

test('the app in the guide\'s folder, in a frame on another origin, finds its worker', async ({ page, pageErrors }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const app = `${GUIDE}app/index.html`;
  await page.goto(`${OTHER_SITE}?app=${encodeURIComponent(app)}&height=1600`);
  const frame = page.frameLocator('iframe');
  await expect(button(frame, 'Step forward')).toBeVisible({ timeout: 20_000 });
  const section = frame.locator('details.tool', { has: frame.locator('summary', { hasText: 'Explore every order' }) });
  await section.locator('summary').click();
  const started = page.waitForEvent('worker');
  await button(section, 'Explore').click();
  const worker = await started;
  expect(worker.url()).toEqual(`${GUIDE}app/explorer-worker-loader.js`);
  const rep = frame.getByRole('region', { name: 'Exploration report' });
  await expect(rep).toHaveAttribute('data-complete', 'true', { timeout: 60_000 });
  await expect(rep.locator('li.broken .inv-name')).toContainText(['Superseded write']);
  expect(pageErrors).toEqual([]);
});

for (const width of [1280, 360]) {
  test(`compare at ${width} px: highest-seen and unfenced part at step 10, where A's stale write arrives`, async ({ page, pageErrors }) => {
    await page.setViewportSize({ width, height: 900 });
    await openPreset(page, 'paused-writer');
    const section = await openTool(page, 'Compare policies');
    const pick = section.getByRole('combobox', { name: 'Compare with' });
    // every choice but the current one (comparing a run with itself shows nothing)
    const offered = await pick.locator('option').evaluateAll((os) => os.map((o) => o.value));
    expect(offered).not.toContain('highest-seen');
    expect(offered).toContain('unfenced');
    await pick.selectOption('unfenced');
    const result = section.getByRole('status');
    await expect(result).toContainText('The runs first differ at step 10: under highest-seen, report rejects: stale');
    await expect(result).toContainText('under unfenced, report accepts');
    // two diagrams, named by their headings; at step 0 the difference is still ahead
    const a = section.getByRole('group', { name: 'This run — highest-seen' });
    const b = section.getByRole('group', { name: 'The same steps — unfenced' });
    await expect(a).toBeVisible();
    await expect(b).toBeVisible();
    await expect(result).toContainText('Step forward to step 10 to see it');
    // the main controls move the current step in both, at the same x
    const now = (g) => g.locator('.step.current').evaluate((r) => Number(r.getAttribute('x')));
    const moved = [];
    for (let i = 0; i < 2; i++) {
      await button(page, 'Step forward').click();
      await expect(section.locator('#cmp-a-desc')).toContainText(`up to step ${i + 1} `);
      await expect(section.locator('#cmp-b-desc')).toContainText(`up to step ${i + 1} `);
      expect(await now(a)).toEqual(await now(b));
      moved.push(await now(a));
    }
    expect(moved[1], 'the highlight moved right').toBeGreaterThan(moved[0]);
    // mid-run: the runs agree up to here, and the sentence says they part later
    await expect(result).toContainText('Up to this step (step 2) the runs do not differ, but they do later.');
    await button(page, 'Jump to end').click();
    await expect(result).not.toContainText('Step forward to step');
    for (const g of [a, b]) await expect(g.locator('.step.diverge')).toHaveCount(1);
    await expect(a.locator('.violation')).toHaveCount(0);
    await expect(b.locator('.violation')).toHaveCount(1);
    await expect(a.locator('.v-rejected')).toHaveCount(1);
    // aligned: the marked step is at the same x in both
    const x = (g) => g.locator('.step.diverge').evaluate((r) => [r.getAttribute('x'), r.getAttribute('width')]);
    expect(await x(a)).toEqual(await x(b));
    // and scrolled into view in both, even on a phone
    for (const g of [a, b]) {
      const seen = await g.locator('.diverge-label').evaluate((t) => {
        const box = t.closest('.tl-scroll');
        const x = Number(t.getAttribute('x'));
        return x >= box.scrollLeft && x <= box.scrollLeft + box.clientWidth;
      });
      expect(seen, 'the marked step is scrolled into view').toBe(true);
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'the page does not scroll sideways').toBeLessThanOrEqual(0);
    await shotOf(section, `compare-${width}`);
    expect(pageErrors).toEqual([]);
  });
}

test('sandbox: explore from the step on screen; the counterexample loads with the steps before it', async ({ page, pageErrors }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openPreset(page, 'sandbox', 'unfenced');
  // A acquires and is told: it holds the lock at step 3
  await button(page, 'Acquire A').click();
  await button(page, 'Advance 1 tick').click();
  await button(page, 'Advance 1 tick').click();
  const section = await openTool(page, 'Explore every order');
  await expect(section).toContainText('From step 3 (t=2)');
  await expect(section).toContainText('what you could do with the buttons');
  await expect(section.getByText("Workers' own moves", { exact: true })).toBeVisible();
  const broken = await explore(page, section);
  expect(broken).toContain('Stale overwrite');
  await expect(section.getByRole('status')).toContainText('Every order from step 3 within the bounds was explored.');
  const distinct = await report(page).locator('dt:text-is("Distinct") + dd').innerText();
  expect(Number(distinct.replace(/,/g, ''))).toBeGreaterThan(1000);
  await shotOf(section, 'explore-from-here-sandbox-1280');
  await button(page, 'Load counterexample for stale overwrite').click();
  await expect(page.getByText(/Loaded the shortest run that breaks “stale overwrite”: \d+ steps/)).toBeVisible();
  await expect(eventLog(page)).toContainText('VIOLATION stale_overwrite');
  // the user's own first steps are the loaded run's first steps
  const lines = await logLines(page);
  expect(lines.findIndex((l) => /A\b.*acquire/i.test(l))).toBeGreaterThanOrEqual(0);
  expect(pageErrors).toEqual([]);
});

test('paused-writer: explore from a later step of the script', async ({ page, pageErrors }) => {
  await openPreset(page, 'paused-writer', 'unfenced');
  for (let i = 0; i < 3; i++) await button(page, 'Step forward').click();
  const section = await openTool(page, 'Explore every order');
  await button(section, 'Explore from step 3').click();
  await expect(report(page)).toBeVisible({ timeout: 60_000 });
  await expect(report(page)).toHaveAttribute('data-complete', 'true');
  await expect(section).toContainText('every order of the rest of the script');
  expect(await report(page).locator('li.broken .inv-name').allInnerTexts()).toContain('Stale overwrite');
  await button(page, 'Load counterexample for stale overwrite').click();
  await expect(eventLog(page)).toContainText('VIOLATION stale_overwrite');
  expect(pageErrors).toEqual([]);
});
