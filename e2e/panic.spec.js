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

// A WebAssembly fault (out of memory, say) is no panic: no hook sees it. `?trap` faults on
// purpose at the first long piece of work; the panel says what was being done and offers
// the run the reader had, and never a page that silently starts over.
test('a WebAssembly fault shows the error panel, what was being done, and the run before it', async ({ page, pageErrors }) => {
  await page.goto('/?trap');
  const fwd = page.getByRole('button', { name: 'Step forward', exact: true });
  await expect(fwd).toBeVisible({ timeout: 20_000 });
  for (let i = 0; i < 3; i++) await fwd.click();
  await page.getByRole('button', { name: 'Jump to end', exact: true }).click();
  const panel = page.locator('#error-panel');
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('while jumping to the end of the run');
  await expect(panel).toContainText(/WebAssembly/);
  await shot(page, 'trap');
  const reopen = panel.getByRole('link', { name: 'Reopen the run you had before' });
  await expect(reopen).toHaveAttribute('href', /#v1\./);
  await reopen.click();
  await expect(fwd).toBeVisible({ timeout: 20_000 });
  await expect(panel).toBeHidden();
  await expect(page.getByRole('region', { name: 'Narration' })).toContainText('Script step 3 of');
  expect(pageErrors.filter((e) => !/unreachable|RuntimeError/i.test(String(e)))).toEqual([]);
});
