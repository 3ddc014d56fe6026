// The lesson as a newcomer meets it: the decisive step says its verdict under the chosen
// policy, a policy switch keeps the step, Back returns to the view before, the sandbox's
// own work survives a look at another scenario, and the sandbox builds the paused writer
// exactly (Prepare, then Send prepared after the pause).
'use strict';
const {
  test, expect, shot, button, openApp, openPreset, selectPolicy, selectScenario, picker, inFlightButton,
} = require('./helpers');

const narration = (page) => page.getByRole('region', { name: 'Narration' });

async function stepTo(page, n) {
  for (let i = 0; i < n; i++) await button(page, 'Step forward').click();
  await expect(narration(page).locator('.entry')).toContainText(`Script step ${n} of`);
}

test('paused-writer: the decisive step says its verdict, and a policy switch keeps the step', async ({ page, pageErrors }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openPreset(page, 'paused-writer', 'unfenced');
  await stepTo(page, 10);
  const verdict = narration(page).locator('.verdict');
  await expect(verdict.first()).toContainText(/^Verdict: /);
  await expect(verdict.filter({ hasText: /41/ })).toContainText(/accept/i);
  await expect(narration(page).locator('.verdict.broken')).toContainText(/stale overwrite/i);
  await shot(page, 'lesson-verdict-unfenced-1280');

  // the same step under highest-seen: the stale write is refused, nothing is broken
  await selectPolicy(page, 'highest-seen');
  await expect(narration(page).locator('.entry')).toContainText('Script step 10 of');
  await expect(verdict.filter({ hasText: /41/ })).toContainText(/reject/i);
  await expect(narration(page).locator('.verdict.broken')).toHaveCount(0);
  await shot(page, 'lesson-verdict-highest-seen-1280');

  // Back returns to the view before: unfenced, at the same step
  await page.goBack();
  await expect(picker(page, 'Receiver policy')).toHaveValue('unfenced');
  await expect(narration(page).locator('.entry')).toContainText('Script step 10 of');
  await expect(narration(page).locator('.verdict.broken')).toHaveCount(1);
  // and forward again
  await page.goForward();
  await expect(picker(page, 'Receiver policy')).toHaveValue('highest-seen');
  await expect(narration(page).locator('.entry')).toContainText('Script step 10 of');

  // another scenario, then Back: the paused writer at step 10 again
  await selectScenario(page, 'sandbox');
  await expect(picker(page, 'Scenario')).toHaveValue('sandbox');
  await page.goBack();
  await expect(picker(page, 'Scenario')).toHaveValue('paused-writer');
  await expect(narration(page).locator('.entry')).toContainText('Script step 10 of');
  expect(pageErrors).toEqual([]);
});

test('sandbox: the actions survive a look at another scenario', async ({ page, pageErrors }) => {
  await openPreset(page, 'sandbox');
  await button(page, 'Acquire A').click();
  await button(page, 'Advance 1 tick').click();
  await selectScenario(page, 'paused-writer');
  await expect(narration(page).locator('.notice')).toContainText('are kept');
  await selectScenario(page, 'sandbox');
  await expect(narration(page).locator('.notice')).toContainText('is back as you left it, at step 2');
  await expect(narration(page).locator('.entry')).toContainText('Your action, step 2');
  expect(pageErrors).toEqual([]);
});

test('sandbox: every in-flight button has a name of its own', async ({ page, pageErrors }) => {
  await openPreset(page, 'sandbox');
  await button(page, 'Acquire A').click();
  await button(page, 'Acquire B').click();
  const names = await page.getByRole('region', { name: 'In flight' }).getByRole('button')
    .evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')));
  expect(names.length).toBe(8);
  expect(new Set(names).size, names.join('\n')).toBe(names.length);
  await expect(inFlightButton(page, 'Deliver', /acquire store-lock \(#1\) to coordinator, message #\d+ from A/)).toHaveCount(1);
  await expect(inFlightButton(page, 'Deliver', /acquire store-lock \(#1\) to coordinator, message #\d+ from B/)).toHaveCount(1);
  expect(pageErrors).toEqual([]);
});

test('sandbox: Prepare, then a pause, builds the paused writer exactly', async ({ page, pageErrors }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openPreset(page, 'sandbox', 'highest-seen');
  const worker = (n) => page.locator('fieldset.worker', { has: page.locator('legend', { hasText: `Worker ${n}` }) });
  const prepare = (n) => button(page, `Prepare ${n}: build a write to store with the token held now, not sent yet`);

  // with no lease, a write carries no token, and the page says why
  await expect(worker('C').locator('legend')).toContainText('no lease: its writes carry no token');
  await prepare('C').click();
  await expect(narration(page).locator('.say')).toContainText('C holds no lease, so C1 carries no token');
  await expect(button(page, 'Send prepared C')).toBeEnabled();

  // A acquires token 1, prepares its write (capturing token 1) and is paused before sending
  await button(page, 'Acquire A').click();
  await button(page, 'Advance 1 tick').click();
  await button(page, 'Advance 1 tick').click();
  await expect(worker('A').locator('legend')).toContainText('believes it holds token 1');
  await prepare('A').click();
  await button(page, 'Pause A').click();
  // past the TTL: the coordinator expires A's lease; B gets token 2 and writes
  await button(page, 'Advance 5 ticks').click();
  await button(page, 'Advance 5 ticks').click();
  await button(page, 'Acquire B').click();
  await button(page, 'Advance 1 tick').click();
  await button(page, 'Advance 1 tick').click();
  await expect(worker('B').locator('legend')).toContainText('believes it holds token 2');
  await button(page, 'Write B').click();
  await button(page, 'Advance 1 tick').click();
  // A resumes where it stopped: it sends the write it prepared, still carrying token 1
  // its button says so: Resume and send
  await expect(button(page, 'Resume A')).toHaveCount(0);
  await button(page, 'Resume and send A: it carries on where it stopped, sending its prepared write').click();
  await expect(inFlightButton(page, 'Deliver', /write A1 \(token 1\)/)).toHaveCount(1);
  await expect(button(page, 'Send prepared A')).toBeDisabled();
  await inFlightButton(page, 'Deliver', /write A1 \(token 1\)/).click();
  // the store saw token 2 first: A's token 1 is refused as stale, and nothing is broken
  await expect(narration(page).locator('.verdict')).toContainText(/reject/i);
  await expect(narration(page).locator('.verdict.broken')).toHaveCount(0);
  await shot(page, 'lesson-sandbox-paused-writer-1280');
  expect(pageErrors).toEqual([]);
});

// The views a newcomer meets first, at a phone's width and a laptop's, at the step that
// decides the story: no sideways scrolling, the verdict on screen. The screenshots are the
// ones to look at after any change to the page (target/screenshots/look-*.png).
for (const width of [360, 1280]) {
  for (const [id, policy, step] of [['paused-writer', 'unfenced', 10], ['delayed-before-new', 'highest-seen', 7]]) {
    test(`look at ${id} under ${policy} at ${width} px`, async ({ page, pageErrors }) => {
      await page.setViewportSize({ width, height: 800 });
      await openPreset(page, id, policy);
      await stepTo(page, step);
      await expect(narration(page).locator('.verdict').first()).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, 'the page does not scroll sideways').toBeLessThanOrEqual(0);
      await shot(page, `look-${id}-${width}`);
      expect(pageErrors).toEqual([]);
    });
  }
}

// The first screen shows the scenario's question, the playback bar and the timeline, on a
// phone as on a laptop; on a phone the page's tools follow the main view, in the document too.
for (const [width, height] of [[360, 740], [1280, 800]]) {
  test(`the first screen at ${width}×${height} holds the question, the bar and the timeline`, async ({ page, pageErrors }) => {
    await page.setViewportSize({ width, height });
    await openApp(page);
    const box = async (sel) => page.locator(sel).first().boundingBox();
    const question = await box('.picker .summary');
    const bar = await box('.playbar');
    const timeline = await box('.timeline');
    expect(question.y + question.height).toBeLessThanOrEqual(height);
    expect(bar.y + bar.height).toBeLessThanOrEqual(height);
    expect(timeline.y + 120, 'at least the first lanes of the timeline').toBeLessThanOrEqual(height);
    if (width < 760) {
      const after = await page.evaluate(() => {
        const main = document.querySelector('main');
        const tools = document.querySelector('.page-tools');
        return !!tools && !!(main.compareDocumentPosition(tools) & Node.DOCUMENT_POSITION_FOLLOWING);
      });
      expect(after, 'the tools come after the main view').toBe(true);
      // A long question is cut to four lines; the button shows it whole.
      const more = button(page, 'Read it all');
      await expect(more).toHaveAttribute('aria-expanded', 'false');
      await more.click();
      await expect(button(page, 'Less')).toHaveAttribute('aria-expanded', 'true');
      expect((await box('.picker .summary')).height).toBeGreaterThan(question.height + 40);
    } else {
      await expect(button(page, 'Read it all')).toBeHidden();
    }
    await expect(button(page, 'Copy link')).toHaveCount(1);
    expect(pageErrors).toEqual([]);
  });
}

// A question longer than four lines of a laptop's picker (coordinator-restore's, seven) is
// cut to four there too, so the timeline starts higher; "Read it all" shows it whole.
test('at 1280×800 a seven-line question is cut to four, and shown whole on demand', async ({ page, pageErrors }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/?preset=coordinator-restore');
  const summary = page.locator('.picker .summary');
  const lines = async () => page.evaluate(() => {
    const p = document.querySelector('.picker .summary');
    return Math.round(p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight));
  });
  await expect(summary).toContainText('coordinator');
  expect(await lines()).toBe(4);
  await button(page, 'Read it all').click();
  await expect(button(page, 'Less')).toHaveAttribute('aria-expanded', 'true');
  expect(await lines()).toBeGreaterThan(5);
  const timeline = await page.locator('.timeline').first().boundingBox();
  await button(page, 'Less').click();
  expect((await page.locator('.timeline').first().boundingBox()).y).toBeLessThan(timeline.y - 40);
  expect(pageErrors).toEqual([]);
});

test('keyboard only: pick a policy, step to the verdict, and back to the start', async ({ page, pageErrors }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await expect(button(page, 'Step forward')).toBeVisible({ timeout: 20_000 });
  // Tab reaches the scenario picker first, then the policy picker; arrows choose in a select
  await page.keyboard.press('Tab');
  await expect(picker(page, 'Scenario')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(picker(page, 'Receiver policy')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(picker(page, 'Receiver policy')).toHaveValue('unfenced');
  // Arrows in a select are the select's; from a button they step the story
  await page.keyboard.press('Tab');
  await expect(button(page, 'Copy link')).toBeFocused();
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
  await expect(narration(page).locator('.entry')).toContainText('Script step 10 of');
  await expect(narration(page).locator('.verdict.broken')).toContainText(/stale overwrite/i);
  await page.keyboard.press('Home');
  await expect(narration(page).locator('.entry')).toContainText('The start');
  expect(pageErrors).toEqual([]);
});
