// Branches: acting after stepping back forks the run, and the steps it replaced are kept.
// The bar's Branch select switches between them, the compare view sets two side by side,
// and a copied link carries the whole tree.
'use strict';
const { test, expect, shot, button, openPreset, openTool } = require('./helpers');

const stepLabel = (page) => page.locator('.playbar .scrub label');
const branchSelect = (page) => page.getByRole('combobox', { name: 'Branch' });

test('a fork keeps the old branch: switch back, compare the two, share both in a link', async ({ page, context, pageErrors }) => {
  await openPreset(page, 'paused-writer');
  await expect(branchSelect(page)).toHaveCount(0); // nothing to switch between yet
  await button(page, 'Jump to end').click();
  const whole = await stepLabel(page).innerText();
  const last = Number(/Step (\d+)/.exec(whole)[1]);
  await button(page, 'Back to start').click();
  for (let i = 0; i < 3; i += 1) await button(page, 'Step forward').click();
  await expect(stepLabel(page)).toContainText('Step 3 ');

  // Act in the past: the sandbox forks the run.
  const sandbox = page.locator('details.sandbox');
  if ((await sandbox.getAttribute('open')) === null) await sandbox.locator('summary').click();
  await button(page, 'Advance 1 tick').click();
  await expect(page.getByRole('status').filter({ hasText: 'forked at step 3' })).toContainText('kept as branch 1');
  await expect(branchSelect(page)).toBeVisible();
  await expect(branchSelect(page).locator('option')).toHaveCount(2);
  await expect(branchSelect(page)).toHaveValue('2');
  await expect(stepLabel(page)).toContainText('Step 4');
  await shot(page, 'branches-forked-1280');

  // Back to branch 1: every step it had, where it was left.
  await branchSelect(page).selectOption('1');
  await expect(branchSelect(page)).toHaveValue('1');
  await expect(stepLabel(page)).toContainText('Step 3 ');
  await button(page, 'Jump to end').click();
  await expect(stepLabel(page)).toContainText(`Step ${last} `);

  // Compare branch 1 (shown) with branch 2.
  const compare = await openTool(page, 'Compare policies');
  await compare.getByRole('combobox', { name: 'Compare with' }).selectOption('branch:2');
  await expect(compare.locator('.compare-result')).toContainText('on branch 2');
  await expect(compare.getByRole('heading', { name: /^Branch 2/ })).toBeVisible();
  await shot(page, 'branches-compared-1280');

  // A link opens both branches, the same one shown.
  await button(page, 'Copy link').click();
  const href = await page.getByRole('textbox', { name: 'Link to this view' }).inputValue();
  const other = await context.newPage();
  await other.goto(href);
  await expect(button(other, 'Step forward')).toBeVisible({ timeout: 20_000 });
  await expect(other.getByText(/It keeps 2 branches; this is branch 1\./)).toBeVisible();
  await expect(branchSelect(other)).toHaveValue('1');
  await expect(stepLabel(other)).toContainText(`Step ${last} `);
  await branchSelect(other).selectOption('2');
  await expect(stepLabel(other)).toContainText('Step 4');
  expect(pageErrors).toEqual([]);
});

test('Reload scenario keeps a run the user acted in as a branch', async ({ page, pageErrors }) => {
  await openPreset(page, 'paused-writer');
  await button(page, 'Step forward').click();
  const sandbox = page.locator('details.sandbox');
  if ((await sandbox.getAttribute('open')) === null) await sandbox.locator('summary').click();
  await button(page, 'Advance 1 tick').click();
  await expect(page.getByText(/You took over from the script at step 1/)).toBeVisible();
  await button(page, 'Reload scenario').click();
  await expect(page.getByText(/Started over: your run is kept as branch 1/)).toBeVisible();
  await expect(stepLabel(page)).toContainText('Step 0 ');
  await branchSelect(page).selectOption('1');
  await expect(stepLabel(page)).toContainText('Step 2');
  expect(pageErrors).toEqual([]);
});
