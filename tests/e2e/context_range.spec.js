// The workload as users state it: a prompt slider (tokens in) beside the output slider, the context
// derived from them by one rule shown once under them (prompt + output / 2), `in` and `out` in the
// URL. The prompt slider's range ends where the context reaches the model's maximum, so no part of
// it sits past what the model accepts.
const { test, expect } = require('@playwright/test');
const { openApp, pressOn, urlSettled, queryValue } = require('./helpers');

test('the prompt slider ends where the context reaches the model maximum and every step moves the value', async ({ page }) => {
  await openApp(page);
  await pressOn(page, 'in', 'End');
  // 131,072 of context less 256 / 2.
  await expect(page.locator('#in-value')).toHaveText('130,944 tokens');
  await expect(page.locator('#context-rule')).toHaveText('(context 131,072 = 130,944 in + 256 out ÷ 2)');
  const max = Number(await page.locator('#in').getAttribute('max'));
  await pressOn(page, 'in', 'ArrowLeft');
  await expect(page.locator('#in-value')).not.toHaveText('130,944 tokens');
  expect(Number(await page.locator('#in').inputValue())).toBe(max - 1);
  await page.selectOption('#model', 'gemma-2-9b');
  await pressOn(page, 'in', 'End');
  await expect(page.locator('#in-value')).toHaveText('8,064 tokens');
  expect(Number(await page.locator('#in').getAttribute('max'))).toBeLessThan(max);
});

test('a prompt and an output typed exactly give the context by the stated rule and the URL keeps in and out', async ({ page }) => {
  await openApp(page);
  await expect(page.locator('#context-rule')).toHaveText('(context 2,048 = 1,920 in + 256 out ÷ 2)');
  for (const [id, value] of [['in', '2048'], ['out', '300']]) {
    await page.locator(`#${id}-exact`).fill(value);
    await page.locator(`#${id}-exact`).press('Enter');
  }
  await expect(page.locator('#context-rule')).toHaveText('(context 2,198 = 2,048 in + 300 out ÷ 2)');
  await urlSettled(page);
  expect([queryValue(page, 'in'), queryValue(page, 'out'), queryValue(page, 'ctx')]).toEqual(['2048', '300', null]);
  // The batch table reads the derived context: its caption names it.
  await expect(page.locator('#batch-table caption')).toContainText('2,198');
  // An old link's ctx still opens its context.
  await openApp(page, '?ctx=4096&out=256');
  await expect(page.locator('#in-value')).toHaveText('3,968 tokens');
  await expect(page.locator('#context-rule')).toContainText('context 4,096 =');
});
