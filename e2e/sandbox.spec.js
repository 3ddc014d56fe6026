// The sandbox story: pause a worker, let its lease expire, acquire with another, deliver
// the two in-flight writes in the reverse order of sending, and read the verdicts.
'use strict';
const {
  test, expect, shot, button, openPreset, eventLog, logLines, svgStrings, inFlightButton,
} = require('./helpers');

async function advance(page, ticks) {
  for (; ticks >= 5; ticks -= 5) await button(page, 'Advance 5 ticks').click();
  for (; ticks > 0; ticks -= 1) await button(page, 'Advance 1 tick').click();
}

const tokenOf = (name) => {
  const m = /\(token ([^)]+)\)/.exec(name);
  return m ? m[1] : null;
};

test('sandbox: a paused writer\'s held write delivered after the new owner\'s is rejected', async ({ page, pageErrors }) => {
  await openPreset(page, 'sandbox');
  const log = eventLog(page);

  // A acquires; the grant reaches it two ticks later
  await button(page, 'Acquire A').click();
  await advance(page, 2);
  await expect(log).toContainText(/A\s+holds/);

  // A writes; the network holds the write; A is paused (stop-the-world)
  await button(page, 'Write A').click();
  const holdA = inFlightButton(page, 'Hold', /write A\S*/);
  await expect(holdA).toHaveCount(1);
  const aName = await holdA.getAttribute('aria-label') || await holdA.innerText();
  await holdA.click();
  await expect(log).toContainText(/holds the message/);
  // a held message offers Release, not a Hold that does nothing
  await expect(inFlightButton(page, 'Hold', /write A\S*/)).toHaveCount(0);
  await expect(inFlightButton(page, 'Release', /write A\S*/)).toHaveCount(1);
  await button(page, 'Pause A').click();
  await expect(log).toContainText(/A\s+pauses/);

  // past the TTL (10 ticks): the coordinator expires A's lease; A cannot notice
  await advance(page, 10);
  await expect(log).toContainText(/expires A's lease/);

  // B acquires and writes; both writes are now in flight
  await button(page, 'Acquire B').click();
  await advance(page, 2);
  await expect(log).toContainText(/B\s+holds/);
  await button(page, 'Write B').click();
  const deliverA = inFlightButton(page, 'Deliver', /write A\S*/);
  const deliverB = inFlightButton(page, 'Deliver', /write B\S*/);
  await expect(deliverA).toHaveCount(1);
  await expect(deliverB).toHaveCount(1);
  const tokA = tokenOf(await deliverA.getAttribute('aria-label') || await deliverA.innerText());
  const tokB = tokenOf(await deliverB.getAttribute('aria-label') || await deliverB.innerText());
  expect(tokA, `A's token in “${aName}”`).not.toBeNull();
  expect(tokB).not.toBeNull();
  expect(tokA).not.toEqual(tokB);

  // reverse order of sending: B's first, then A's
  await deliverB.click();
  await expect(deliverB).toHaveCount(0);
  await deliverA.click();
  await expect(deliverA).toHaveCount(0);

  const lines = await logLines(page);
  const acceptB = lines.findIndex((l) => /store\s+accepts/.test(l) && l.includes(`[token ${tokB}]`));
  const rejectA = lines.findIndex((l) => /store\s+rejects: stale/.test(l) && l.includes(`[token ${tokA}]`));
  expect(acceptB, `B's write accepted in:\n${lines.join('\n')}`).toBeGreaterThanOrEqual(0);
  expect(rejectA, `A's write rejected stale in:\n${lines.join('\n')}`).toBeGreaterThan(acceptB);
  expect(lines[rejectA]).toContain(`highest ${tokB}`);
  expect(lines.filter((l) => /VIOLATION/.test(l))).toEqual([]);

  const svg = await svgStrings(page);
  expect(svg.some((s) => /✓/.test(s) && s.includes(tokB)), `✓ ${tokB} in ${JSON.stringify(svg)}`).toBe(true);
  expect(svg.some((s) => /✗/.test(s) && s.includes(tokA)), `✗ ${tokA}`).toBe(true);

  await shot(page, 'sandbox-reverse-delivery');
  expect(pageErrors).toEqual([]);
});
