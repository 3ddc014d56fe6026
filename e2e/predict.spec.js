// Predict mode (issue 17): stepping forward stops before each verdict and asks what the
// resource will do; the answer runs the step and the narration says whether it was right
// and why; at the end, the score with a button to each step missed. In the app, by keyboard
// alone, in embed mode (`?embed&predict`), and in a link. Screenshots at 360 and 1280 px in
// both themes: target/screenshots/predict-*.png.
'use strict';
const { test, expect, shot, shotOf, button, openApp, openPreset } = require('./helpers');

const narration = (page) => page.getByRole('region', { name: 'Narration' });
const predictPanel = (page) => page.getByRole('region', { name: 'Predict the verdict' });
const toggle = (page) => page.getByRole('checkbox', { name: /^Predict mode/ });

/** Step forward until predict mode asks (Step forward is disabled while it does). */
async function stepToQuestion(page, step) {
  const fwd = button(page, 'Step forward');
  for (let i = 0; i < 30 && (await fwd.isEnabled()); i++) await fwd.click();
  await expect(predictPanel(page).locator('.question')).toContainText(`Before step ${step}:`);
  await expect(fwd).toBeDisabled();
  await expect(button(page, 'Jump to end')).toBeDisabled();
}

test('app: a right and a wrong prediction, the score, and a button back to the step missed', async ({ page, pageErrors }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openPreset(page, 'paused-writer', 'highest-seen');
  await toggle(page).check();

  // B's write is decided in step 8: the run stops before it.
  await stepToQuestion(page, 8);
  await expect(predictPanel(page).locator('.question')).toContainText('Under highest-seen, report is about to decide B\'s write “B\'s report”, carrying token 42');
  // a store with a fence: no business rule, no duplicate to answer
  await expect(button(page, 'Rejected: Business rule')).toHaveCount(0);
  await button(page, 'Accepted').click();
  await expect(narration(page).locator('.entry')).toContainText('Script step 8 of');
  await expect(narration(page).locator('.prediction.right')).toContainText('Right: report accepted B\'s write “B\'s report”.');

  // A's stale write: said accepted, refused as stale.
  await stepToQuestion(page, 10);
  await expect(predictPanel(page).locator('.question')).toContainText('A\'s write “A\'s report”, carrying token 41');
  await button(page, 'Accepted').click();
  const wrong = narration(page).locator('.prediction.wrong');
  await expect(wrong).toContainText('Wrong: you said accepted; report rejected A\'s write “A\'s report”: stale token.');
  await expect(wrong).toContainText('already seen 42, newer than 41');
  // said inside the narration's live region, so a screen reader hears it
  await expect(page.locator('[aria-live] .prediction.wrong')).toHaveCount(1);

  // The end: the score, and a button to the step missed that moves the cursor there.
  await button(page, 'Step forward').click();
  await expect(button(page, 'Step forward')).toBeDisabled();
  await expect(predictPanel(page).locator('.score')).toHaveText('Run over: you predicted 1 of 2 verdicts right.');
  const missed = predictPanel(page).getByRole('button', { name: /^Step 10: you said accepted/ });
  await expect(missed).toHaveCount(1);
  await missed.click();
  await expect(page.getByLabel('Scrub', { exact: true })).toHaveValue('10');
  await expect(narration(page).locator('.prediction.wrong')).toContainText('Wrong: you said accepted');
  await expect(missed).toHaveAttribute('aria-current', 'step');

  // The link carries the answers: a fresh page opens the same score at the same step.
  await button(page, 'Copy link').click();
  const hash = await page.evaluate(() => location.hash);
  expect(hash).toMatch(/~predict=8a,10a$/);
  const other = await page.context().newPage();
  await other.goto('/' + hash);
  await expect(button(other, 'Step forward')).toBeVisible({ timeout: 20_000 });
  await expect(toggle(other)).toBeChecked();
  await expect(narration(other).locator('.prediction.wrong')).toContainText('Wrong: you said accepted');
  await expect(predictPanel(other).locator('.score')).toHaveText('So far you predicted 1 of 2 verdicts right.');
  await other.close();

  // Off again: stepping runs on without asking.
  await toggle(page).uncheck();
  await expect(predictPanel(page)).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

test('keyboard only: the question takes the focus, a letter answers, focus goes on to Step forward', async ({ page, pageErrors }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openApp(page);
  // Tab to the Predict mode switch and turn it on with Space.
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    if (await toggle(page).evaluate((el) => el === document.activeElement)) break;
  }
  await expect(toggle(page)).toBeFocused();
  await page.keyboard.press('Space');
  await expect(toggle(page)).toBeChecked();
  // Back to Step forward (past the slider and Jump to end), and step with Enter.
  const fwd = button(page, 'Step forward');
  for (let i = 0; i < 5 && !(await fwd.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Shift+Tab');
  }
  await expect(fwd).toBeFocused();
  for (let i = 0; i < 7; i++) await page.keyboard.press('Enter');
  // The question appears and takes the focus to its first answer.
  await expect(predictPanel(page).locator('.question')).toContainText('Before step 8:');
  await expect(button(page, 'Accepted')).toBeFocused();
  await expect(button(page, 'Accepted')).toHaveAttribute('aria-keyshortcuts', 'A');
  await page.keyboard.press('a');
  await expect(narration(page).locator('.prediction.right')).toContainText('Right: report accepted B\'s write “B\'s report”.');
  await expect(fwd).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(button(page, 'Accepted')).toBeFocused();
  await expect(button(page, 'Rejected: Stale token')).toHaveAttribute('aria-keyshortcuts', 'S');
  await page.keyboard.press('s');
  await expect(narration(page).locator('.prediction.right')).toContainText('Right: report rejected A\'s write “A\'s report”: stale token.');
  await expect(fwd).toBeFocused();
  await page.keyboard.press('End');
  await expect(predictPanel(page).locator('.score')).toHaveText('Run over: you predicted 2 of 2 verdicts right.');
  await expect(predictPanel(page).getByRole('button')).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

test('embed: ?embed&predict asks in the frame, the same way', async ({ page, pageErrors }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto('/?embed&preset=delayed-before-new&policy=highest-seen&predict');
  await expect(button(page, 'Step forward')).toBeVisible({ timeout: 20_000 });
  await expect(toggle(page)).toBeChecked();
  // The expected outcome would give the answers away: it waits for the end.
  await expect(narration(page).locator('.outcome')).toHaveCount(0);
  await stepToQuestion(page, 7);
  await expect(predictPanel(page).locator('.question')).toContainText('A\'s write “A\'s report”, carrying token 41');
  await button(page, 'Rejected: Stale token').click();
  const wrong = narration(page).locator('.prediction.wrong');
  await expect(wrong).toContainText('Wrong: you said rejected: stale token; report accepted A\'s write “A\'s report”.');
  await expect(wrong).toContainText('has not heard of any token newer than 41');
  await stepToQuestion(page, 9);
  await button(page, 'Accepted').click();
  await button(page, 'Step forward').click();
  await expect(button(page, 'Step forward')).toBeDisabled();
  await expect(predictPanel(page).locator('.score')).toHaveText('Run over: you predicted 1 of 2 verdicts right.');
  await expect(narration(page).locator('.outcome')).toHaveCount(1);
  await predictPanel(page).getByRole('button', { name: /^Step 7:/ }).click();
  await expect(page.getByLabel('Scrub', { exact: true })).toHaveValue('7');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
  expect(pageErrors).toEqual([]);
});

// The three moments to look at, at a phone's width and a laptop's, in both themes.
for (const scheme of ['light', 'dark']) {
  for (const width of [360, 1280]) {
    test(`screenshots: predict mode at ${width} px, ${scheme}`, async ({ page, pageErrors }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 900 });
      await openPreset(page, 'paused-writer', 'highest-seen');
      await toggle(page).check();
      await stepToQuestion(page, 8);
      await button(page, 'Accepted').click();
      await stepToQuestion(page, 10);
      await predictPanel(page).scrollIntoViewIfNeeded();
      const story = page.locator('.story').first();
      await shot(page, `predict-question-${width}-${scheme}`);
      await shotOf(story, `predict-question-${width}-${scheme}-story`);
      await button(page, 'Accepted').click();
      await expect(narration(page).locator('.prediction.wrong')).toBeVisible();
      await shot(page, `predict-wrong-${width}-${scheme}`);
      await shotOf(story, `predict-wrong-${width}-${scheme}-story`);
      await button(page, 'Step forward').click();
      await expect(predictPanel(page).locator('.score')).toContainText('Run over');
      await shot(page, `predict-score-${width}-${scheme}`);
      await shotOf(story, `predict-score-${width}-${scheme}-story`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
      expect(pageErrors).toEqual([]);
    });
  }
}
