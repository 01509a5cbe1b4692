// Prefix caching in the browser: the shared-prefix slider and the hit-rate slider each change the
// URL, the batch table's TTFT (the mean over hits and misses) and the KV pool readout (the pool row
// and the note under the table). Expected numbers are computed here from the README's formulas.
const { test, expect } = require('@playwright/test');
const { openApp, rowByHeader, num, queryValue, urlSettled, pressOn, expectNoBadNumbers } = require('./helpers');

// Llama 3.1 8B on one H100 SXM, BF16: 8.03e9 params, 32 layers, 32 heads x 128 dims, KV per token
// 2 x 32 x 8 x 128 x 2 B; 3.35 TB/s, 989 TFLOP/s, 80 GB at 90%.
const PARAMS = 8.03e9;
const LAYERS = 32;
const KV_PER_TOKEN = 2 * 32 * 8 * 128 * 2;
const FLOP_PER_PAIR = 32 * 2 * 256;
const BW = 3.35e12;
const PEAK = 989e12;
const CTX = 2048;
/** The prompt: 2,048 of context less 256 / 2; the shared prefix is part of it. */
const PROMPT = 1920;
const FREE = 80e9 * 0.9 - PARAMS * 2;
const TTFT_MEAN = 'TTFT, mean (ms)';

const pairs = (p) => (p * (p + 1)) / 2;
/** One decode step at batch b, in s: memory-bound weights + KV. */
const stepS = (b) => (PARAMS * 2 + b * CTX * KV_PER_TOKEN) / BW;
/** Prefill of the last prompt - cached tokens over the prompt, in s (per-operator roofline). */
function prefillS(cached) {
  const n = PROMPT - cached;
  const gemm = Math.max((PARAMS * 2) / BW, (2 * PARAMS * n) / PEAK);
  const attention = Math.max((cached * KV_PER_TOKEN) / BW, (LAYERS * (pairs(PROMPT) - pairs(cached)) * FLOP_PER_PAIR) / PEAK);
  return gemm + attention;
}
/** Mean TTFT at batch b in ms for a hit rate h on `cached` tokens. */
const meanTtftMs = (b, h, cached) => (stepS(b) + h * prefillS(cached) + (1 - h) * prefillS(0)) * 1e3;
/** Pool sequences: (free - cached x KV) / ((ctx - h x cached) x KV). */
const poolSeqs = (h, cached) => Math.floor((FREE - cached * KV_PER_TOKEN) / ((CTX - h * cached) * KV_PER_TOKEN));

async function poolBatch(page) {
  return Number(await page.locator('#batch-table tr.kv-pool').getAttribute('data-batch'));
}

/** After a move of slider `id`: its readout shows `shown`, the URL's `id` key is `value`, and the KV
 * pool and batch 64's mean TTFT are the formulas' for hit rate h on `cached` tokens. */
async function expectMoved(page, id, shown, value, h, cached) {
  await expect(page.locator(`#${id}-value`)).toHaveText(shown);
  await urlSettled(page);
  expect(queryValue(page, id)).toBe(value);
  await expect.poll(() => poolBatch(page)).toBe(poolSeqs(h, cached));
  const row = await rowByHeader(page, 64);
  expect(num(row[TTFT_MEAN])).toBeCloseTo(meanTtftMs(64, h, cached), 1);
}

test('the shared-prefix slider changes the URL, the mean TTFT and the KV pool', async ({ page }) => {
  const errors = await openApp(page, '?hit=50');
  await expect(page.locator('#prefix-value')).toHaveText('none');
  const before = await rowByHeader(page, 64);
  expect(num(before['TTFT (ms)'])).toBeCloseTo(meanTtftMs(64, 0, 0), 1);
  expect(await poolBatch(page)).toBe(208);
  await expect(page.locator('#prefix-note')).toHaveCount(0);

  // End: the whole prompt; its last token is still computed (1,919 cached).
  await pressOn(page, 'prefix', 'End');
  await expectMoved(page, 'prefix', '1,920 tokens', '1920', 0.5, 1919);
  await expect(page.locator('#prefix-note')).toContainText(`KV pool: ${poolSeqs(0.5, 1919)} sequences`);
  await expect(page.locator('#prefix-note')).toContainText('checks the miss');

  // Two steps down the stops: 1,536 tokens.
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expectMoved(page, 'prefix', '1,536 tokens', '1536', 0.5, 1536);
  await expectNoBadNumbers(page);
  expect(errors).toEqual([]);
});

test('the hit-rate slider changes the URL, the mean TTFT and the KV pool', async ({ page }) => {
  const errors = await openApp(page, '?prefix=1024');
  await expect(page.locator('#hit-value')).toHaveText('0%');
  expect(await poolBatch(page)).toBe(208);

  await pressOn(page, 'hit', 'End');
  await expectMoved(page, 'hit', '100%', '100', 1, 1024);
  expect(queryValue(page, 'prefix')).toBe('1024');
  await expect(page.locator('#prefix-note')).toContainText('checks the hit, since every request hits');

  // Page Down on a range input moves it by a tenth of its range: 90%.
  await page.keyboard.press('PageDown');
  await expectMoved(page, 'hit', '90%', '90', 0.9, 1024);
  await expect(page.locator('#prefix-note')).toContainText('checks the miss');
  await expectNoBadNumbers(page);
  expect(errors).toEqual([]);
});

test('both controls are labelled and a link past the prompt is clamped with a notice', async ({ page }) => {
  await openApp(page, '?prefix=5000&hit=50');
  // The shared prefix is part of the prompt: 1,920 tokens in.
  await expect(page.getByLabel('Shared prefix', { exact: true })).toHaveAttribute('aria-valuetext', '1,920 tokens');
  await expect(page.getByLabel('Prefix cache hit rate', { exact: true })).toHaveAttribute('aria-valuetext', '50%');
  await expect(page.locator('body')).toContainText('the prompt length; using 1920 tokens');
  await urlSettled(page);
  expect(queryValue(page, 'prefix')).toBe('1920');
});
