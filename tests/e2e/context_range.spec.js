// The context slider's range follows the model's maximum context: its last step is that maximum, so
// no part of the slider sits past what the model accepts (before, Llama 3.1 8B's last quarter was dead).
const { test, expect } = require('@playwright/test');
const { openApp, pressOn } = require('./helpers');

test('the context slider ends at the model maximum and every step moves the value', async ({ page }) => {
  await openApp(page);
  await pressOn(page, 'in', 'End');
  await expect(page.locator('#in-value')).toHaveText('131,072 tokens');
  const max = Number(await page.locator('#in').getAttribute('max'));
  await pressOn(page, 'in', 'ArrowLeft');
  await expect(page.locator('#in-value')).not.toHaveText('131,072 tokens');
  expect(Number(await page.locator('#in').inputValue())).toBe(max - 1);
  await page.selectOption('#model', 'gemma-2-9b');
  await pressOn(page, 'in', 'End');
  await expect(page.locator('#in-value')).toHaveText('8,192 tokens');
  expect(Number(await page.locator('#in').getAttribute('max'))).toBeLessThan(max);
});
