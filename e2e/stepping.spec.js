// Step back is exact: stepping forward and back again restores the page as it was, text,
// diagram and scrubber alike, both in a script and after the user's own actions.
'use strict';
const { test, expect, shot, button, openPreset, eventLog } = require('./helpers');

/** Everything the page shows about the state: visible text, the diagrams, the scrubber. */
async function snapshot(page) {
  return page.evaluate(() => {
    const scrub = document.querySelector('input[type="range"]');
    return {
      text: document.body.innerText,
      svg: [...document.querySelectorAll('svg')].map((s) => s.outerHTML),
      scrub: scrub ? scrub.value : null,
    };
  });
}

test('paused-writer: two steps forward and two back restore step k exactly', async ({ page, pageErrors }) => {
  await openPreset(page, 'paused-writer');
  const fwd = button(page, 'Step forward');
  const back = button(page, 'Step back');
  // a freshly chosen preset starts at step 0, where going back is impossible
  const toStart = button(page, 'Back to start');
  if (await toStart.isEnabled()) await toStart.click();
  await expect(toStart).toBeDisabled();
  await expect(back).toBeDisabled();
  for (let i = 0; i < 4; i++) await fwd.click();
  const logAtK = await eventLog(page).innerText();
  const atK = await snapshot(page);

  await fwd.click();
  await fwd.click();
  const later = await snapshot(page);
  expect(later.text, 'two steps forward change what is shown').not.toEqual(atK.text);

  await back.click();
  await back.click();
  expect(await eventLog(page).innerText()).toEqual(logAtK);
  const again = await snapshot(page);
  expect(again.text).toEqual(atK.text);
  expect(again.scrub).toEqual(atK.scrub);
  expect(again.svg).toEqual(atK.svg);

  // the Scrub slider goes to the same place
  const scrub = page.getByLabel('Scrub', { exact: true });
  if (atK.scrub !== null) {
    await scrub.fill(String(Number(atK.scrub) + 2));
    expect((await snapshot(page)).text).toEqual(later.text);
    await scrub.fill(atK.scrub);
    expect((await snapshot(page)).text).toEqual(atK.text);
  }
  await shot(page, 'step-back');
  expect(pageErrors).toEqual([]);
});

test('sandbox: step back undoes the user\'s own actions exactly', async ({ page, pageErrors }) => {
  await openPreset(page, 'sandbox');
  await button(page, 'Acquire A').click();
  await button(page, 'Advance 1 tick').click();
  const atK = await snapshot(page);
  await button(page, 'Advance 1 tick').click();
  await button(page, 'Advance 5 ticks').click();
  expect((await snapshot(page)).text).not.toEqual(atK.text);
  await button(page, 'Step back').click();
  await button(page, 'Step back').click();
  const again = await snapshot(page);
  expect(again.text).toEqual(atK.text);
  expect(again.svg).toEqual(atK.svg);
  expect(pageErrors).toEqual([]);
});
