// Links: "Copy link" puts the whole view in the URL hash; opening it elsewhere gives the
// same world at the same step; a broken link says so and keeps the page usable.
'use strict';
const { test, expect, shot, button, openApp, openPreset, eventLog, logLines, sandboxSession } = require('./helpers');

const inspector = (page) => page.locator('section.inspector');

test('a copied link reopens the sandbox session at the same step', async ({ page, context, pageErrors }) => {
  await sandboxSession(page);
  await button(page, 'Advance 5 ticks').click();
  await button(page, 'Step back').click(); // the link keeps the current step, not the last
  await button(page, 'Copy link').click();
  const field = page.getByRole('textbox', { name: 'Link to this view' });
  await expect(field).toBeVisible();
  const href = await field.inputValue();
  expect(href).toMatch(/#v1\./);
  expect(new URL(href).hash.length).toBeLessThan(2000);
  expect(page.url()).toBe(href); // the address bar holds it too
  const lines = await logLines(page);
  const state = await inspector(page).innerText();
  await shot(page, 'link-copied-1280');

  const other = await context.newPage();
  await other.goto(href);
  await expect(button(other, 'Step forward')).toBeVisible({ timeout: 20_000 });
  await expect(eventLog(other)).toContainText(/A\s+pauses/);
  expect(await logLines(other)).toEqual(lines);
  expect(await inspector(other).innerText()).toEqual(state);
  await expect(other.getByText(/Opened a link/)).toBeVisible();
  await shot(other, 'link-opened-1280');

  // Back goes to the view before the link was set; forward returns to it.
  await button(page, 'Step forward').click();
  await button(page, 'Copy link').click();
  const second = await field.inputValue();
  expect(second).not.toBe(href);
  await page.goBack();
  await expect.poll(() => page.url()).toBe(href);
  await expect.poll(async () => (await logLines(page)).length).toBe(lines.length);
  await page.goForward();
  await expect.poll(() => page.url()).toBe(second);
  expect(pageErrors).toEqual([]);
});

test('a truncated link shows a message and the default scenario', async ({ page, pageErrors }) => {
  await openPreset(page, 'sandbox');
  await button(page, 'Acquire A').click();
  await button(page, 'Copy link').click();
  const href = await page.getByRole('textbox', { name: 'Link to this view' }).inputValue();
  const cut = href.slice(0, href.indexOf('#') + Math.floor((href.length - href.indexOf('#')) / 2));
  const fresh = await page.context().newPage();
  await fresh.goto(cut);
  await expect(button(fresh, 'Step forward')).toBeVisible({ timeout: 20_000 });
  await expect(fresh.getByText(/This link could not be opened/)).toBeVisible();
  await expect(fresh.getByRole('combobox', { name: /^Scenario\b/ }).first()).toHaveValue('paused-writer');
  await shot(fresh, 'link-truncated-1280');
  // A future version is named as such.
  await fresh.goto('/#v9.AAAA');
  await fresh.reload();
  await expect(button(fresh, 'Step forward')).toBeVisible({ timeout: 20_000 });
  await expect(fresh.getByText(/This link could not be opened/)).toBeVisible();
  expect(pageErrors).toEqual([]);
});
