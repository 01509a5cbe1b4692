// The sliders' exact-value boxes: every numeric slider has a labelled number box on its row; a value
// typed and committed (Enter or change) is set exactly (out=300, between the slider's stops 256 and
// 320) into the URL, the read-out and the table's caption; out-of-range or fractional counts are
// clamped or rejected with a notice and the box shows the value used; typing in a box is typing
// (digits do not load lessons), while a focused slider keeps its arrow keys.
const { test, expect } = require('@playwright/test');
const { openApp } = require('./helpers');

const param = (page, key) => new URL(page.url()).searchParams.get(key);

/** Types `text` into slider `id`'s box and commits it with Enter. */
async function commit(page, id, text) {
  const box = page.locator(`#${id}-exact`);
  await box.fill(text);
  await box.press('Enter');
}

test('typing 300 into the output box sets 300 tokens in the URL, read-out, slider text and caption', async ({ page }) => {
  const errors = await openApp(page);
  await expect(page.locator('#out-exact')).toHaveValue('256');
  await commit(page, 'out', '300');
  await expect.poll(() => param(page, 'out')).toBe('300');
  await expect(page.locator('#out-value')).toHaveText('300 tokens');
  await expect(page.locator('#out')).toHaveAttribute('aria-valuetext', '300 tokens');
  await expect(page.locator('#batch-table caption')).toContainText('300 output tokens');
  await expect(page.locator('#out-exact')).toHaveValue('300');
  await expect(page.locator('.field-message')).toHaveCount(0);
  // The slider sits at the nearest stop (320) while the state keeps 300, and a reload keeps 300.
  const stop = await page.locator('#out').evaluate((el) => Number(el.value));
  await page.reload();
  await expect(page.locator('#out-exact')).toHaveValue('300');
  await expect(page.locator('#out-value')).toHaveText('300 tokens');
  expect(await page.locator('#out').evaluate((el) => Number(el.value))).toBe(stop);
  expect(errors).toEqual([]);
});

test('every numeric slider has an exact-value box on its own row, labelled after the slider', async ({ page }) => {
  const errors = await openApp(page, '?calib=custom&spec=head');
  const sliders = await page.locator('input[type=range]').evaluateAll((els) => els.map((el) => el.id));
  const numeric = sliders.filter((id) => !['w', 'kv'].includes(id));
  expect(numeric).toEqual(expect.arrayContaining(
    ['mbu', 'overhead', 'util', 'in', 'out', 'prefix', 'hit', 'tpot', 'ttft', 'headcost', 'k', 'accept']));
  for (const id of numeric) {
    const box = page.locator(`#${id}-exact`);
    await expect(box, id).toHaveAttribute('type', 'number');
    // Labelled "<slider label> (exact value)"; the label alone, exactly, still names the slider.
    const label = await page.locator(`label[for="${id}"]`).textContent();
    await expect(page.getByRole('spinbutton', { name: `${label} (exact value)`, exact: true }), id).toHaveId(`${id}-exact`);
    await expect(page.getByLabel(label, { exact: true }), id).toHaveId(id);
    // Same row: the box's vertical middle lies within the slider's box.
    const [s, b] = await Promise.all([page.locator(`#${id}`).boundingBox(), box.boundingBox()]);
    const middle = b.y + b.height / 2;
    expect(middle, id).toBeGreaterThan(s.y);
    expect(middle, id).toBeLessThan(s.y + s.height);
  }
  expect(errors).toEqual([]);
});

test('a typed value past the range is clamped with a notice and the box shows the value used', async ({ page }) => {
  const errors = await openApp(page);
  await commit(page, 'out', '20000');
  await expect.poll(() => param(page, 'out')).toBe('16384');
  await expect(page.locator('#out-exact')).toHaveValue('16384');
  await expect(page.locator('#out-exact ~ [role=alert].field-message'))
    .toHaveText('out=20000 is outside 1–16384 tokens; using 16384 tokens.');
  // The prompt's top is where the context reaches the model's maximum (beside 16,384 out:
  // 131,072 - 8,192), and the notice says why.
  await commit(page, 'in', '500000');
  await expect.poll(() => param(page, 'in')).toBe('122880');
  await expect(page.locator('#in-exact')).toHaveValue('122880');
  await expect(page.locator('#in-exact ~ [role=alert].field-message')).toContainText('the most Llama 3.1 8B accepts');
  // A fractional count is rejected: the value stays, the box shows it, a notice says why.
  await commit(page, 'out', '300.5');
  await expect(page.locator('#out-exact')).toHaveValue('16384');
  await expect(page.locator('#out-exact ~ [role=alert].field-message')).toContainText('is not a whole number of tokens');
  expect(param(page, 'out')).toBe('16384');
  // The next good value clears the notice.
  await commit(page, 'out', '300');
  await expect.poll(() => param(page, 'out')).toBe('300');
  await expect(page.locator('#out-exact ~ .field-message')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('decimals go into continuous fields: TPOT 12.5 ms and TTFT 333.5 ms', async ({ page }) => {
  const errors = await openApp(page);
  await commit(page, 'tpot', '12.5');
  await expect.poll(() => param(page, 'tpot')).toBe('12.5');
  await expect(page.locator('#tpot-value')).toHaveText('12.5 ms');
  await commit(page, 'ttft', '333.5');
  await expect.poll(() => param(page, 'ttft')).toBe('333.5');
  await expect(page.locator('#ttft-value')).toHaveText('333.5 ms');
  expect(errors).toEqual([]);
});

test('digits, Backspace and arrows in a box are typing; a focused slider keeps its arrows', async ({ page }) => {
  const errors = await openApp(page);
  const box = page.locator('#out-exact');
  await box.fill('');
  // 3 and 5 would load lessons outside a field.
  await page.keyboard.type('3555');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('ArrowUp');
  await expect(box).toHaveValue('356');
  await page.keyboard.press('Enter');
  await expect.poll(() => param(page, 'out')).toBe('356');
  expect(param(page, 'lesson')).toBeNull();
  await expect(page.locator('#out-value')).toHaveText('356 tokens');
  // The slider's arrow steps to the stop after the one nearest 356 (384): 448.
  await page.locator('#out').focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => param(page, 'out')).toBe('448');
  await expect(box).toHaveValue('448');
  expect(errors).toEqual([]);
});
