// Play / Pause and Speed: the one timer steps the script, Pause stops it where it is, and
// playing to the end stops by itself with the outcome in the log.
'use strict';
const { test, expect, button, openPreset, chooseOption, eventLog } = require('./helpers');

const stepLabel = (page) => page.locator('label[for="scrub"]');

test('Play runs the script at the chosen speed; Pause stops it in place', async ({ page, pageErrors }) => {
  await openPreset(page, 'paused-writer');
  await chooseOption(page.getByLabel('Speed', { exact: true }), '200', ['Very fast']);
  const scrub = page.getByLabel('Scrub', { exact: true });

  await button(page, 'Play').click();
  await expect(button(page, 'Pause')).toBeVisible();
  await expect.poll(async () => Number(await scrub.inputValue()), { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
  await button(page, 'Pause').click();
  await expect(button(page, 'Play')).toBeVisible();
  const stoppedAt = await scrub.inputValue();
  await page.waitForTimeout(700); // more than three steps at this speed
  expect(await scrub.inputValue(), 'paused: no more steps').toEqual(stoppedAt);

  // play on to the end: it stops by itself
  await button(page, 'Play').click();
  await expect(button(page, 'Step forward')).toBeDisabled({ timeout: 10_000 });
  await expect(button(page, 'Play')).toBeVisible();
  await expect(eventLog(page)).toContainText('rejects: stale');
  await expect(stepLabel(page)).toContainText(/Step (\d+) of \1/);
  expect(pageErrors).toEqual([]);
});
