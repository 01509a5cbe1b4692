// The placement panel in the real browser: colocated against disaggregated prefill/decode. The
// expected numbers are computed here from the formulas the README states, not read from the app.
const { test, expect } = require('@playwright/test');
const { openApp, num, queryValue, urlSettled, commitNumber, expectNoBadNumbers } = require('./helpers');

// Llama 3.1 8B on one H100 SXM (BF16): params, layers, heads, head dim, KV bytes per token.
const PARAMS = 8.03e9;
const LAYERS = 32;
const HEADS = 32;
const HEAD_DIM = 128;
const KV_PER_TOKEN = 2 * LAYERS * 8 * HEAD_DIM * 2;
const H100 = { bw: 3.35e12, bf16: 989e12, link: 450e9 };

/** A prompt's prefill in s, compute-bound: (2 x params x P + causal attention FLOPs) / peak. */
function prefillS(prompt) {
  const attention = LAYERS * (prompt * (prompt + 1) / 2) * HEADS * 2 * (2 * HEAD_DIM);
  return (2 * PARAMS * prompt + attention) / H100.bf16;
}

/** One prefill instance's highest rate with mean TTFT (M/D/1 wait + prefill + transfer) on target. */
function prefillRate(prompt, ttftS, linkBytesPerS) {
  const d = prefillS(prompt);
  const slack = ttftS - d - (prompt * KV_PER_TOKEN) / linkBytesPerS;
  return (2 * slack) / (d * (d + 2 * slack));
}

/** The numbers of the comparison table's row `id` (chunked, unchunked, disagg). */
async function row(page, id) {
  const cells = await page.locator(`#placement-table tr[data-placement="${id}"] td`).allInnerTexts();
  const [rate, gpus, perGpu, tpot, ttft, binds] = cells;
  return { rate: num(rate), gpus: num(gpus), perGpu: num(perGpu), tpot: num(tpot), ttft: num(ttft), binds };
}

function near(actual, expected, rel) {
  expect(Math.abs(actual - expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(rel * Math.abs(expected));
}

test('the panel opens on demand and compares four placements on the worked example', async ({ page }) => {
  await openApp(page);
  await expect(page.locator('#placement-table')).toHaveCount(0);
  await page.locator('#placement-open').click();
  await expect(page.locator('#placement-table tbody tr')).toHaveCount(4);
  // A decode instance runs the knee, 64: 64 / (256 x step(64)) with step(64) memory-bound.
  const step64 = (PARAMS * 2 + 64 * 2048 * KV_PER_TOKEN) / H100.bw;
  const disagg = await row(page, 'disagg');
  expect(disagg.gpus).toBe(2);
  near(disagg.rate, Math.min(64 / (256 * step64), prefillRate(2048, 2, H100.link)), 0.01);
  near(disagg.perGpu, disagg.rate / 2, 0.01);
  expect(disagg.binds).toBe('the decode side');
  const chunked = await row(page, 'chunked');
  const unchunked = await row(page, 'unchunked');
  // Sharing steps with prefill cannot beat the knee's prefill-free 25.2 req/s; whole prompts cost most.
  expect(chunked.rate).toBeLessThan(64 / (256 * step64));
  expect(unchunked.rate).toBeLessThan(chunked.rate);
  expect(unchunked.binds).toBe('the TPOT target');
  // The best split up to 8 GPUs a side serves at least as much per GPU as the 1 : 1 split.
  const bestSplit = await row(page, 'best');
  expect(bestSplit.perGpu).toBeGreaterThanOrEqual(disagg.perGpu);
  expect(bestSplit.gpus).toBeLessThanOrEqual(16);
  const best = Math.max(chunked.perGpu, unchunked.perGpu, disagg.perGpu, bestSplit.perGpu);
  const finding = await page.locator('#placement-finding').innerText();
  expect(num(finding.match(/serves the most: ([\d.,]+) req\/s per GPU/)[1])).toBe(best);
  await expect(page.locator('#placement-link')).toContainText('450 GB/s per direction');
  await expectNoBadNumbers(page);
});

test('a prefill-heavy split is bound by its prefill side, and more prefill instances move it', async ({ page }) => {
  await openApp(page, '?ctx=8192&out=128&ttft=500&tpot=20&place=disagg');
  await expect(page.locator('#placement-table')).toBeVisible();
  const one = await row(page, 'disagg');
  near(one.rate, prefillRate(8192, 0.5, H100.link), 0.01);
  expect(one.binds).toBe('the prefill side');
  await expect(page.locator('#placement-table tr.chosen')).toHaveAttribute('data-placement', 'disagg');
  await commitNumber(page, 'xp', '3');
  await expect(page.locator('#placement-table tr[data-placement="disagg"] td').nth(1)).toHaveText('4');
  const three = await row(page, 'disagg');
  near(three.rate, 3 * prefillRate(8192, 0.5, H100.link), 0.01);
  await urlSettled(page);
  expect(queryValue(page, 'place')).toBe('disagg');
  expect(queryValue(page, 'xp')).toBe('3');
});

test('a network link slows the transfer, and the link round-trips through the URL', async ({ page }) => {
  await openApp(page, '?ctx=8192&out=128&ttft=500&tpot=20&place=disagg');
  await page.locator('#xfer-link').selectOption('net');
  await expect(page.locator('#placement-link')).toContainText('a chosen link of 50 GB/s');
  await commitNumber(page, 'xfer', '5');
  await expect(page.locator('#placement-link')).toContainText('a chosen link of 5 GB/s');
  const slow = await row(page, 'disagg');
  near(slow.rate, prefillRate(8192, 0.5, 5e9), 0.01);
  await urlSettled(page);
  expect(queryValue(page, 'xfer')).toBe('5');
  await page.reload();
  await expect(page.locator('#placement-link')).toContainText('a chosen link of 5 GB/s');
  near((await row(page, 'disagg')).rate, slow.rate, 1e-9);
});

test('bad placement values show a notice each and fall back', async ({ page }) => {
  await openApp(page, '?place=split&tpd=3');
  await expect(page.locator('#notices')).toContainText('place=“split” is not one of colo, disagg; using colo.');
  await expect(page.locator('#notices')).toContainText('tpd=“3” is not one of 1, 2, 4, 8; using 1.');
  await expect(page.locator('#placement-table')).toHaveCount(0);
});
