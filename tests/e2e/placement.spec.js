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

/** The page's percentile: p90 over log-normal lengths with a 50% spread (the simulator's defaults). */
const Z90 = 1.2815515655446004;
const CV = 0.5;

/** p90 of an M/G/1 wait under the exponential tail P(W > w) = rho exp(-rho w / E[W]). */
function waitP90(rate, service) {
  const rho = rate * service;
  if (rho >= 1) return Infinity;
  const mean = (rho * service * (1 + CV * CV)) / (2 * (1 - rho));
  return rho <= 0.1 ? 0 : (mean / rho) * Math.log(rho / 0.1);
}

/** One prefill instance's highest rate with p90 TTFT (wait + prefill + transfer) on target, by bisection. */
function prefillRate(prompt, ttftS, linkBytesPerS) {
  const d = prefillS(prompt);
  const ttft = (r) => waitP90(r, d) + d + (prompt * KV_PER_TOKEN) / linkBytesPerS;
  let [lo, hi] = [0, 1 / d];
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (ttft(mid) <= ttftS) lo = mid; else hi = mid;
  }
  return lo;
}

/** A decode instance's rate at the largest batch whose p90 step (the batch's spread of sqrt(2b/3)
 * sequences, each one KV read) meets the TPOT target, memory-bound, at `ctx` tokens of context. */
function decodeRate(ctx, out, tpotS) {
  const step = (b) => (PARAMS * 2 + b * ctx * KV_PER_TOKEN) / H100.bw;
  const slope = (ctx * KV_PER_TOKEN) / H100.bw;
  let b = 1;
  while (step(b + 1) + Z90 * slope * Math.sqrt((2 * (b + 1)) / 3) <= tpotS) b += 1;
  return b / (out * step(b));
}

/** The numbers of the comparison table's row `id` (chunked, unchunked, disagg). */
async function row(page, id) {
  const cells = await page.locator(`#placement-table tr[data-placement="${id}"] td`).allInnerTexts();
  const [rate, gpus, perGpu, forLoad, tpot, ttft, binds] = cells;
  return { rate: num(rate), gpus: num(gpus), perGpu: num(perGpu), forLoad: num(forLoad), tpot: num(tpot), ttft: num(ttft), binds };
}

function near(actual, expected, rel) {
  expect(Math.abs(actual - expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(rel * Math.abs(expected));
}

test('the panel opens on demand and compares four placements on the worked example', async ({ page }) => {
  await openApp(page);
  await expect(page.locator('#placement-table')).toHaveCount(0);
  await page.locator('#placement-open').click();
  await expect(page.locator('#placement-table tbody tr')).toHaveCount(4);
  // A decode instance runs the largest batch whose p90 step meets 10 ms (below the mean knee, 64);
  // the prefill instance's prompts are 1,920 tokens (2,048 of context less 256 / 2).
  const step64 = (PARAMS * 2 + 64 * 2048 * KV_PER_TOKEN) / H100.bw;
  const disagg = await row(page, 'disagg');
  expect(disagg.gpus).toBe(2);
  near(disagg.rate, Math.min(decodeRate(2048, 256, 0.010), prefillRate(1920, 2, H100.link)), 0.01);
  near(disagg.perGpu, disagg.rate / 2, 0.01);
  // GPUs for the capacity plan's 100 req/s: ceil(100 / rate) x 2.
  expect(disagg.forLoad).toBe(Math.ceil(100 / disagg.rate) * 2);
  expect(disagg.binds).toBe('the decode side');
  const chunked = await row(page, 'chunked');
  const unchunked = await row(page, 'unchunked');
  // Sharing steps with prefill cannot beat the knee's prefill-free 25.2 req/s; whole prompts cost most.
  expect(chunked.rate).toBeLessThan(64 / (256 * step64));
  expect(unchunked.rate).toBeLessThan(chunked.rate);
  expect(unchunked.binds).toBe('the TPOT target');
  await expect(page.locator('#placement-table thead')).toContainText('p90 TTFT (ms)');
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
  near(one.rate, prefillRate(8128, 0.5, H100.link), 0.01);
  expect(one.binds).toBe('the prefill side');
  await expect(page.locator('#placement-table tr.chosen')).toHaveAttribute('data-placement', 'disagg');
  await commitNumber(page, 'xp', '3');
  await expect(page.locator('#placement-table tr[data-placement="disagg"] td').nth(1)).toHaveText('4');
  const three = await row(page, 'disagg');
  near(three.rate, 3 * prefillRate(8128, 0.5, H100.link), 0.01);
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
  near(slow.rate, prefillRate(8128, 0.5, 5e9), 0.01);
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
