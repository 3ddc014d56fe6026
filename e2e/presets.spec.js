// Presets load when first opened: the first load carries two (the one the page opens with
// and the sandbox) and a catalog of the rest; a pick, a link or an embed that names another
// fetches its file once, shows "Loading…" while it comes, and a failure to load says so and
// keeps the run on screen (src/presets.rs, ui::hooks::use_preset_loader).
'use strict';
const { test, expect, button, openApp, picker, selectScenario, eventLog, logLines, shot, presetTitles } = require('./helpers');

/** The preset files the page fetched, in order (`presets/ID.json` → ID). */
function presetFetches(page) {
  const seen = [];
  page.on('request', (r) => {
    const m = /\/presets\/([a-z0-9-]+)\.json$/.exec(new URL(r.url()).pathname);
    if (m) seen.push(m[1]);
  });
  return seen;
}

const shown = (page) => page.locator('.picker');

test('the first load fetches no preset; a pick fetches its own once, and Back returns', async ({ page, pageErrors }) => {
  const fetched = presetFetches(page);
  await openApp(page);
  await expect(shown(page)).toHaveAttribute('data-scenario', 'paused-writer');
  // The picker lists every preset, fetched or not.
  const values = await picker(page, 'Scenario').locator('option').evaluateAll((os) => os.map((o) => o.value));
  expect(values).toContain('happy-takeover');
  expect(values).toContain('redis-incr-token');
  expect(fetched, 'the first load fetches no preset file').toEqual([]);

  await selectScenario(page, 'happy-takeover');
  await expect(page.locator('#scenario-summary')).toContainText('Nothing goes wrong');
  await selectScenario(page, 'sandbox');
  await selectScenario(page, 'happy-takeover');
  expect(fetched, 'fetched once, and the sandbox is in the first load').toEqual(['happy-takeover']);
  await button(page, 'Step forward').click();
  await expect(eventLog(page)).toContainText('acquire');

  // Each pick was a step in the history, the one that waited for its file too.
  for (const id of ['sandbox', 'happy-takeover', 'paused-writer']) {
    await page.goBack();
    await expect(shown(page)).toHaveAttribute('data-scenario', id);
  }
  expect(pageErrors).toEqual([]);
});

test('a preset on its way says so, and the run stays until it is here', async ({ page, pageErrors }) => {
  let release;
  const held = new Promise((r) => (release = r));
  await page.route('**/presets/multi-object.json', async (route) => {
    await held;
    await route.continue();
  });
  await openApp(page);
  await button(page, 'Step forward').click();
  await button(page, 'Step forward').click();
  const lines = await logLines(page);
  await picker(page, 'Scenario').selectOption('multi-object');
  await expect(shown(page)).toHaveAttribute('aria-busy', 'true');
  await expect(page.getByText(/^Loading “.+”…$/)).toBeVisible();
  await expect(picker(page, 'Scenario'), 'the pick stays shown while it loads').toHaveValue('multi-object');
  await shot(page, 'preset-loading-1280');
  expect(await logLines(page), 'the run on screen is kept while it loads').toEqual(lines);
  release();
  await expect(shown(page)).toHaveAttribute('data-scenario', 'multi-object');
  await expect(shown(page)).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByText(/^Loading “/)).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

test('a preset that cannot be loaded is an error that keeps the run, and can be asked for again', async ({ page, pageErrors }) => {
  let fail = true;
  await page.route('**/presets/outbox.json', (route) => (fail ? route.abort() : route.continue()));
  await page.route('**/presets/stripe-idempotency.json', (route) =>
    route.fulfill({ status: 404, body: 'not here' }),
  );
  await page.route('**/presets/omitted-token.json', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: '{"version": 1, "id": "omitted-token"' }),
  );
  await openApp(page);
  await button(page, 'Step forward').click();
  const lines = await logLines(page);
  const alert = page.getByRole('alert');

  await picker(page, 'Scenario').selectOption('outbox');
  await expect(alert).toContainText(/could not be loaded: the network did not answer\. You are still looking at/);
  await expect(shown(page)).toHaveAttribute('data-scenario', 'paused-writer');
  await expect(shown(page)).toHaveAttribute('aria-busy', 'false');
  await expect(picker(page, 'Scenario')).toHaveValue('paused-writer');
  expect(await logLines(page), 'the run is kept').toEqual(lines);
  await shot(page, 'preset-load-failed-1280');

  await picker(page, 'Scenario').selectOption('stripe-idempotency');
  await expect(alert).toContainText('could not be loaded: the server answered 404');
  await picker(page, 'Scenario').selectOption('omitted-token');
  await expect(alert).toContainText('could not be loaded: its file is not a scenario');
  expect(await logLines(page)).toEqual(lines);

  // The network is back: the same pick loads.
  fail = false;
  await selectScenario(page, 'outbox');
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

test('a link and an embed that name a preset not in the first load open it', async ({ page, context, pageErrors }) => {
  await openApp(page);
  await selectScenario(page, 'renewal-failure');
  for (let i = 0; i < 3; i++) await button(page, 'Step forward').click();
  await button(page, 'Copy link').click();
  const href = await page.getByRole('textbox', { name: 'Link to this view' }).inputValue();
  const lines = await logLines(page);

  const other = await context.newPage();
  const fetched = presetFetches(other);
  await other.goto(href);
  await expect(button(other, 'Step forward')).toBeVisible({ timeout: 20_000 });
  await expect(shown(other)).toHaveAttribute('data-scenario', 'renewal-failure');
  expect(await logLines(other)).toEqual(lines);
  await expect(other.getByText(/Opened a link/)).toBeVisible();
  expect(fetched).toEqual(['renewal-failure']);

  // An embed, and the full app's own `?preset=…&step=…`: the options wait for the file.
  const embed = await context.newPage();
  await embed.goto('/?embed&preset=clock-drift-expiry&step=2');
  await expect(embed.getByRole('heading', { level: 1 })).toHaveText(`Fencing Lab: ${presetTitles()['clock-drift-expiry']}`);
  await expect(embed.locator('main.embed')).toHaveAttribute('aria-busy', 'false');
  await expect(embed.getByRole('alert')).toHaveCount(0);
  await other.goto('/?preset=coordinator-restore&step=3');
  await expect(shown(other)).toHaveAttribute('data-scenario', 'coordinator-restore');
  expect(pageErrors).toEqual([]);
});
