// Speculative decoding: each control (drafter, draft model, k, acceptance, head cost) changes the URL,
// the batch table, the derivation and the crossover readout; a link opens the state it names.
const { test, expect } = require('@playwright/test');
const { openApp, rowByHeader, queryValue, pressOn, urlSettled, showPanel } = require('./helpers');

const knee = (page) => page.locator('#batch-table tr.knee th');
const readout = (page) => page.locator('#spec-readout');

test('choosing a draft model moves the knee, fills the readout and writes spec= and draft=', async ({ page }) => {
  const errors = await openApp(page);
  await expect(knee(page)).toHaveText('64');
  await expect(readout(page)).toHaveCount(0);
  await page.selectOption('#spec', 'draft');
  await expect(knee(page)).toHaveText('102');
  await expect(readout(page)).toContainText('2.77 tokens per sequence per step');
  await expect(readout(page)).toContainText('Knee 102 with speculation, 64 without; KV pool 159 sequences (208 without)');
  await expect(readout(page)).toContainText('It pays at every batch');
  await expect(page.locator('#spec-table-note')).toContainText('(draft + verify) / E');
  // The step column is the time per token; the whole draft-and-verify step stands beside it, as lesson 8 says.
  const row = await rowByHeader(page, 102);
  expect(row['Time per token (ms)']).toBe('9.95');
  expect(row['Draft + verify step (ms)']).toBe('27.58');
  expect(row['Step time (ms)']).toBeUndefined();
  expect(row['Goodput (req/s)']).toBe('40.1');
  await urlSettled(page);
  expect([queryValue(page, 'spec'), queryValue(page, 'draft'), queryValue(page, 'k'), queryValue(page, 'accept')])
    .toEqual(['draft', 'llama-3.2-1b', '4', '0.7']);
  await page.selectOption('#draft', 'llama-3.2-3b');
  await expect.poll(() => queryValue(page, 'draft')).toBe('llama-3.2-3b');
  await expect(readout(page)).not.toContainText('Knee 102 with speculation');
  await page.selectOption('#spec', 'off');
  await expect(knee(page)).toHaveText('64');
  await expect.poll(() => queryValue(page, 'spec')).toBe(null);
  expect(errors).toEqual([]);
});

test('the k and acceptance sliders change E, the table and the URL from the keyboard', async ({ page }) => {
  const errors = await openApp(page, '?spec=draft&draft=llama-3.2-1b&k=4&accept=0.7');
  await expect(readout(page)).toContainText('2.77 tokens per sequence per step');
  await pressOn(page, 'accept', 'ArrowRight');
  await expect(page.locator('#accept-value')).toHaveText('0.71');
  await expect.poll(() => queryValue(page, 'accept')).toBe('0.71');
  // E = (1 - 0.71^5) / 0.29
  await expect(readout(page)).toContainText(`${((1 - 0.71 ** 5) / 0.29).toFixed(2)} tokens per sequence per step`);
  await pressOn(page, 'k', 'ArrowLeft');
  await expect(page.locator('#k-value')).toHaveText('3 tokens');
  await expect.poll(() => queryValue(page, 'k')).toBe('3');
  await expect(readout(page)).toContainText(`${((1 - 0.71 ** 4) / 0.29).toFixed(2)} tokens per sequence per step`);
  await expect(page.locator('#k')).toHaveAccessibleName(/Draft tokens/);
  await expect(page.locator('#accept')).toHaveAccessibleName(/Acceptance/);
  expect(errors).toEqual([]);
});

test('a draft head has a cost slider, and a short context shows where speculation stops paying', async ({ page }) => {
  const errors = await openApp(page, '?ctx=256&spec=draft&draft=llama-3.2-1b&k=4&accept=0.7');
  await expect(readout(page)).toContainText('It stops paying at batch 141');
  await page.selectOption('#spec', 'head');
  await expect(page.locator('#headcost')).toBeVisible();
  await expect.poll(() => queryValue(page, 'headcost')).toBe('1');
  const before = await readout(page).textContent();
  await pressOn(page, 'headcost', 'End');
  await expect(page.locator('#headcost-value')).toHaveText('4 layers');
  await expect.poll(() => queryValue(page, 'headcost')).toBe('4');
  await expect(readout(page)).not.toHaveText(before);
  expect(errors).toEqual([]);
});

test('the derivation prints E, the draft, the verify step, TPOT and the crossover', async ({ page }) => {
  const errors = await openApp(page, '?spec=draft&draft=llama-3.2-1b&k=4&accept=0.7');
  await showPanel(page, 'derivation');
  await expect(page.locator('#derivation [data-line="spec-e"] .result')).toHaveText('2.77 tokens');
  await expect(page.locator('#derivation [data-line="spec-e"] .numbers')).toHaveText('(1 − 0.7^5) / (1 − 0.7)');
  await expect(page.locator('#derivation [data-line="spec-tpot"] .result')).toHaveText('9.95 ms');
  await expect(page.locator('#derivation [data-line="spec-pool"] .result')).toHaveText('159 sequences');
  await expect(page.locator('#derivation [data-line="spec-goodput"] .result')).toHaveText('40.1 req/s');
  await expect(page.locator('#derivation [data-line="spec-crossover"] .result')).toHaveText('none');
  await pressOn(page, 'k', 'ArrowRight');
  await expect(page.locator('#derivation [data-line="spec-e"] .numbers')).toHaveText('(1 − 0.7^6) / (1 − 0.7)');
  expect(errors).toEqual([]);
});

test('bad speculation values show a notice each and fall back', async ({ page }) => {
  const errors = await openApp(page, '?spec=maybe&k=12&accept=x');
  await expect(page.locator('#notices li[data-key="spec"]')).toContainText('spec=“maybe” is not one of off, draft, head; using off.');
  await expect(page.locator('#notices li[data-key="k"]')).toContainText('using 8 tokens');
  await expect(page.locator('#notices li[data-key="accept"]')).toContainText('using 0.7');
  await expect(knee(page)).toHaveText('64');
  const draft = await openApp(page, '?spec=draft&draft=gpt-9');
  await expect(page.locator('#notices li[data-key="draft"]')).toContainText('Unknown draft model “gpt-9”; drafting with Llama 3.2 1B.');
  expect([...errors, ...draft]).toEqual([]);
});

test('lesson 8 by key loads the draft and its readout', async ({ page }) => {
  const errors = await openApp(page);
  await page.keyboard.press('8');
  await expect(page.locator('#lesson-caption')).toContainText('Lesson 8: Speculative decoding.');
  await expect(knee(page)).toHaveText('102');
  await expect(readout(page)).toContainText('Knee 102 with speculation, 64 without');
  await expect.poll(() => queryValue(page, 'lesson')).toBe('8');
  expect(errors).toEqual([]);
});
