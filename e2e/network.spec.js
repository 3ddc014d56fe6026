// Nothing the app does reaches beyond this machine: every request of a session that opens
// every preset and plays it to its end goes to 127.0.0.1 (or is a data:/blob: URL).
// (Every other test checks its own requests too, through the `requests` fixture.)
'use strict';
const { test, expect, openApp, picker, chooseOption, playToEnd, isLocal } = require('./helpers');

test('no request leaves 127.0.0.1 while every preset is played', async ({ page, requests }) => {
  test.setTimeout(120_000);
  await openApp(page);
  const select = picker(page, 'Scenario');
  await expect(select).toBeVisible();
  const values = await select.locator('option').evaluateAll((os) => os.map((o) => o.value));
  expect(values.length, 'the Scenario picker lists the presets').toBeGreaterThan(5);
  for (const v of values) {
    await chooseOption(select, v);
    // Shown once its file is here (the page fetches all but two presets when first opened).
    await expect(page.locator('.picker')).toHaveAttribute('data-scenario', v);
    await playToEnd(page);
  }
  expect(requests.length, 'the app was loaded over the network').toBeGreaterThan(0);
  const hosts = [...new Set(requests.map((u) => { try { return new URL(u).host || new URL(u).protocol; } catch (_) { return u; } }))];
  expect(requests.filter((u) => !isLocal(u)), `hosts seen: ${hosts.join(', ')}`).toEqual([]);
});
