// A panic inside the app must not leave a blank page: #panic forces one after mount.
'use strict';
const { test, expect, shot } = require('./helpers');

test('a forced panic shows the error panel with the message', async ({ page }) => {
  const consoleErrors = [];
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  await page.goto('/#panic');
  const panel = page.locator('#error-panel');
  await expect(panel).toBeVisible({ timeout: 20_000 });
  const text = (await panel.innerText()).trim();
  expect(text.length, 'the panel says something').toBeGreaterThan(10);
  expect(text).toMatch(/panic/i);
  await shot(page, 'panic');
});
