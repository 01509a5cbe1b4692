// What-if scenarios in the real browser: model, GPU, precision and tensor parallelism, the TTFT
// target, realistic mode, the interactivity chart, the capacity plan, custom specs and the URL.
// Expected numbers are computed here from the formulas the README states, not read from the app.
const { test, expect } = require('@playwright/test');
const {
  openApp, canvasImage, tableRows, rowFor, CHART_IDS, waitForAllCharts, chartImages, tableHeaders,
  rowByHeader, rowsByHeader, num, queryPairs, queryValue, expectNoBadNumbers, pressOn, commitNumber, urlSettled,
  showPanel,
} = require('./helpers');

// Llama 3.1 8B: 8.03e9 params; KV per token 2 x 32 layers x 8 KV heads x 128 x bytes.
const L8_PARAMS = 8.03e9;
const L8_KV_PER_TOKEN_BF16 = 2 * 32 * 8 * 128 * 2; // 131,072 B
const SEED_CTX = 2048;
const SEED_OUT = 256;
const H100_BW = 3.35e12;
const H200_BW = 4.8e12;
const STEP = 'Step time (ms)';
const GOODPUT = 'Goodput (req/s)';
const TTFT = 'TTFT (ms)';
const WEIGHTS = 'Weights read (GB/GPU)';

/** Memory-bound step in ms: (weight bytes per GPU + batch x KV bytes per sequence per GPU) / bandwidth. */
function memoryStepMs(weightBytes, batch, kvBytesPerSeq, bandwidth) {
  return ((weightBytes + batch * kvBytesPerSeq) / bandwidth) * 1e3;
}

/** The seed's step time in ms (Llama 3.1 8B, BF16 weights and KV, one H100 SXM). */
function seedStepMs(batch) {
  return memoryStepMs(L8_PARAMS * 2, batch, SEED_CTX * L8_KV_PER_TOKEN_BF16, H100_BW);
}

/** Little's law: requests/s for `batch` sequences each producing `out` tokens at `stepMs` per token. */
function reqPerS(batch, out, stepMs) {
  return batch / (out * stepMs * 1e-3);
}

/** Every canvas must come to differ from `before` (a map of data URLs by canvas id). */
async function expectChartsChanged(page, before, ids = CHART_IDS) {
  for (const id of ids) {
    await expect.poll(() => canvasImage(page, id), { message: `${id} should be redrawn` }).not.toBe(before[id]);
  }
}

// ---------------------------------------------------------------------------------------------
// 1. Model, GPU, weight precision and TP each change the table, all three charts and the URL.

const SWITCHES = [
  {
    name: 'the model (Qwen3 30B-A3B, an MoE)',
    key: 'model', value: 'qwen3-30b-a3b',
    act: (page) => page.locator('#model').selectOption('qwen3-30b-a3b'),
    // Batch 1 reads the dense part plus top-k experts: the active 3.35e9 params x 2 B.
    check: async (page) => expect(num((await rowByHeader(page, 1))[WEIGHTS])).toBeCloseTo(3.35e9 * 2 / 1e9, 2),
  },
  {
    name: 'the model (Llama 3.1 70B at TP 2)',
    start: '?tp=2',
    key: 'model', value: 'llama-3.1-70b',
    act: (page) => page.locator('#model').selectOption('llama-3.1-70b'),
    // 70.55e9 params x 2 B split over 2 GPUs.
    check: async (page) => expect(num((await rowByHeader(page, 1))[WEIGHTS])).toBeCloseTo(70.55e9 * 2 / 2 / 1e9, 2),
  },
  {
    name: 'the GPU (H200 SXM)',
    key: 'gpu', value: 'h200-sxm',
    act: (page) => page.locator('#gpu').selectOption('h200-sxm'),
    check: async (page) => expect(num((await rowByHeader(page, 64))[STEP]))
      .toBeCloseTo(memoryStepMs(L8_PARAMS * 2, 64, SEED_CTX * L8_KV_PER_TOKEN_BF16, H200_BW), 2),
  },
  {
    name: 'the weight precision (FP8)',
    key: 'w', value: 'fp8',
    act: async (page) => {
      await pressOn(page, 'w', 'ArrowRight');
      await expect(page.locator('#w-value')).toHaveText('FP8');
    },
    check: async (page) => {
      expect(num((await rowByHeader(page, 64))[STEP]))
        .toBeCloseTo(memoryStepMs(L8_PARAMS * 1, 64, SEED_CTX * L8_KV_PER_TOKEN_BF16, H100_BW), 2);
      expect(num((await rowByHeader(page, 1))[WEIGHTS])).toBeCloseTo(8.03, 2);
    },
  },
  {
    name: 'tensor parallelism (2 GPUs)',
    key: 'tp', value: '2',
    act: (page) => page.locator('#tp').selectOption('2'),
    check: async (page) => {
      await expect(page.locator('#batch-table thead th')).toHaveCount(12);
      expect(num((await rowByHeader(page, 1))[WEIGHTS])).toBeCloseTo(8.03, 2);
      // Weights and KV (8 KV heads) split over 2 GPUs, plus two ring all-reduces per layer of
      // 2(TP-1)/TP x B x hidden x 2 B each over 450 GB/s: 4.96 + 0.07 = 5.04 ms at batch 64.
      const memory = memoryStepMs(L8_PARAMS * 2 / 2, 64, SEED_CTX * L8_KV_PER_TOKEN_BF16 / 2, H100_BW);
      const allReduce = 2 * 32 * (2 * (2 - 1) / 2) * 64 * 4096 * 2 / 450e9 * 1e3;
      expect(num((await rowByHeader(page, 64))[STEP])).toBeCloseTo(memory + allReduce, 2);
    },
  },
];

for (const s of SWITCHES) {
  test(`switching ${s.name} changes the table, all three charts and the URL`, async ({ page }) => {
    const errors = await openApp(page, s.start || '');
    await waitForAllCharts(page);
    await urlSettled(page);
    expect(queryValue(page, s.key)).not.toBe(s.value);
    const rowsBefore = await tableRows(page);
    const imagesBefore = await chartImages(page);

    await s.act(page);

    await expect.poll(() => queryValue(page, s.key)).toBe(s.value);
    await expect.poll(() => tableRows(page)).not.toEqual(rowsBefore);
    await s.check(page);
    await expectChartsChanged(page, imagesBefore);
    await waitForAllCharts(page);
    await expectNoBadNumbers(page);
    expect(errors).toEqual([]);
  });
}

// ---------------------------------------------------------------------------------------------
// 2. Numbers checked against the formulas.

test('Llama 3.1 8B on H200 with FP8 weights: step at batch 64 from the roofline', async ({ page }) => {
  const errors = await openApp(page, '?model=llama-3.1-8b&gpu=h200-sxm&w=fp8');
  await expect(page.locator('#w-value')).toHaveText('FP8');
  await expect(page.locator('#gpu')).toHaveValue('h200-sxm');
  // (8.03e9 x 1 B + 64 x 2,048 x 131,072 B) / 4.8 TB/s = 5.25 ms.
  const expected = (8.03e9 * 1 + 64 * 2048 * 131072) / 4.8e12 * 1e3;
  expect(num((await rowByHeader(page, 64))[STEP])).toBeCloseTo(expected, 2);
  // Per operator: the GEMMs cost max(weights / bandwidth, 2 x params x B / FP8 peak), attention
  // max(KV / bandwidth, its FLOPs / peak); past B ~ 206 the GEMMs turn compute-bound on FP8.
  const perOperatorMs = (b) => {
    const gemm = Math.max(8.03e9 / 4.8e12, (2 * 8.03e9 * b) / 1979e12);
    const attentionFlop = b * 2048 * 32 * 32 * 2 * (128 + 128);
    const attention = Math.max((b * 2048 * 131072) / 4.8e12, attentionFlop / 1979e12);
    return (gemm + attention) * 1e3;
  };
  for (const row of await rowsByHeader(page)) {
    const b = num(row.Batch);
    expect(num(row[STEP]), `batch ${b}`).toBeCloseTo(perOperatorMs(b), 2);
    expect(num(row[WEIGHTS]), `batch ${b}`).toBeCloseTo(8.03, 2);
  }
  await expectNoBadNumbers(page);
  expect(errors).toEqual([]);
});

test('Qwen3 30B-A3B on H100: small batches read only the active experts (the MoE effect)', async ({ page }) => {
  const errors = await openApp(page, '?model=qwen3-30b-a3b&gpu=h100-sxm');
  // Uniform routing: dense part + per-expert params x E x (1 - (1 - k/E)^B), per-expert params =
  // (total - active) / (E - k); 2 bytes per BF16 parameter.
  const [total, active, E, k] = [30.53e9, 3.35e9, 128, 8];
  const perExpert = (total - active) / (E - k);
  const dense = active - k * perExpert;
  const readGb = (b) => (dense + perExpert * E * (1 - (1 - k / E) ** b)) * 2 / 1e9;
  const w1 = num((await rowByHeader(page, 1))[WEIGHTS]);
  const w128 = num((await rowByHeader(page, 128))[WEIGHTS]);
  expect(w1).toBeCloseTo(6.70, 2);
  expect(w1).toBeCloseTo(readGb(1), 2);
  expect(Math.abs(w128 - readGb(128))).toBeLessThanOrEqual(0.006);
  expect(w128).toBeGreaterThan(60);
  expect(w128).toBeLessThanOrEqual(total * 2 / 1e9);
  expect(w128 / w1).toBeGreaterThan(9);
  // Every listed batch follows the same curve, and the reads never fall as the batch grows.
  let previous = 0;
  for (const row of await rowsByHeader(page)) {
    const gb = num(row[WEIGHTS]);
    expect(Math.abs(gb - readGb(num(row.Batch))), `batch ${row.Batch}`).toBeLessThanOrEqual(0.006);
    expect(gb).toBeGreaterThanOrEqual(previous);
    previous = gb;
  }
  await expectNoBadNumbers(page);
  expect(errors).toEqual([]);
});

// ---------------------------------------------------------------------------------------------
// 3. Tensor parallelism: when the weights do not fit, and the one-click fix.

/** As openApp for a configuration with no table: collects console errors, waits for the message. */
async function openWithoutTable(page, query) {
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(`index.html${query}`);
  await expect(page.locator('#no-table')).toBeVisible();
  return errors;
}

test('Llama 3.1 70B on one H100: no table, the headline asks for TP 2, and the button sets it', async ({ page }) => {
  const errors = await openWithoutTable(page, '?model=llama-3.1-70b&gpu=h100-sxm&tp=1&tpot=50');
  await expect(page.locator('#no-table')).toBeVisible();
  await expect(page.locator('#batch-table')).toHaveCount(0);
  // 70.55e9 x 2 B = 141.10 GB against 90% of 80 GB = 72 GB per GPU: 2 GPUs.
  const headline = page.locator('#headline');
  await expect(headline).toContainText('141.10 GB of weights');
  await expect(headline).toContainText('72.00 GB usable');
  await expect(headline).toContainText('needs at least 2 GPUs');
  await expect(headline).toContainText('tensor parallelism to 2');
  await showPanel(page, 'capacity');
  await expect(page.locator('#capacity-none')).toBeVisible();
  await expectNoBadNumbers(page);

  await page.locator('#use-tp').click();
  await expect(page.locator('#tp')).toHaveValue('2');
  await expect.poll(() => queryValue(page, 'tp')).toBe('2');
  await expect(page.locator('#no-table')).toHaveCount(0);
  await expect(page.locator('#batch-table tbody tr').first()).toBeVisible();
  const headers = await tableHeaders(page);
  expect(headers).toContain('Tokens/s per GPU');
  expect(headers).toContain('Goodput per GPU (req/s)');
  expect(headers.indexOf('Goodput per GPU (req/s)')).toBe(headers.length - 3);
  await waitForAllCharts(page);

  // Per-GPU columns are the replica's numbers over 2 GPUs; check them against Little's law from the
  // printed step time, in every row that meets both targets.
  // Rows past the KV pool cannot run: no goodput, whatever their step time.
  const pool = num(await page.locator('#batch-table tr.kv-pool th').textContent());
  const all = await rowsByHeader(page);
  for (const r of all.filter((r) => num(r.Batch) > pool)) expect(r[GOODPUT], `batch ${r.Batch}`).toBe('0');
  const meeting = all.filter((r) => r['Meets TPOT'] === 'yes' && r['Meets TTFT'] === 'yes' && num(r.Batch) <= pool);
  expect(meeting.length).toBeGreaterThan(0);
  for (const r of meeting) {
    const b = num(r.Batch);
    const goodput = reqPerS(b, SEED_OUT, num(r[STEP]));
    expect(Math.abs(num(r[GOODPUT]) - goodput), `batch ${b} goodput`).toBeLessThanOrEqual(0.06);
    expect(Math.abs(num(r['Goodput per GPU (req/s)']) - goodput / 2), `batch ${b} per GPU`).toBeLessThanOrEqual(0.06);
    expect(Math.abs(num(r['Goodput per GPU (req/s)']) - num(r[GOODPUT]) / 2), `batch ${b}`).toBeLessThanOrEqual(0.08);
    expect(Math.abs(num(r['Tokens/s per GPU']) - num(r['Tokens/s']) / 2), `batch ${b} tokens`).toBeLessThanOrEqual(1);
    expect(num(r[WEIGHTS])).toBeCloseTo(70.55, 2);
  }
  await expectNoBadNumbers(page);
  expect(errors).toEqual([]);
});

test('Llama 3.1 405B in BF16 on eight H100s: more than TP 8 offers, no table and no nonsense', async ({ page }) => {
  const errors = await openWithoutTable(page, '?model=llama-3.1-405b&gpu=h100-sxm&tp=8&w=bf16');
  await expect(page.locator('#no-table')).toBeVisible();
  // 405.85e9 x 2 B = 811.70 GB / 72 GB = 11.3 -> 12 GPUs.
  await expect(page.locator('#headline')).toContainText('811.70 GB of weights');
  await expect(page.locator('#headline')).toContainText('needs at least 12 GPUs');
  await expect(page.locator('#headline')).toContainText('more than tensor parallelism 8');
  await expect(page.locator('#batch-table')).toHaveCount(0);
  await expect(page.locator('tr[data-batch]')).toHaveCount(0);
  await expect(page.locator('#use-tp')).toHaveCount(0);
  await showPanel(page, 'capacity');
  await expect(page.locator('#capacity-none')).toBeVisible();
  await expect(page.locator('#notices')).toHaveCount(0);
  await expectNoBadNumbers(page);
  expect(errors).toEqual([]);
});

// ---------------------------------------------------------------------------------------------
// 4. The TTFT target.

test('a 10 ms TTFT target: nothing meets it, and TTFT is the step plus one constant prefill', async ({ page }) => {
  const errors = await openApp(page);
  await pressOn(page, 'ttft', 'Home');
  await expect(page.locator('#ttft-value')).toHaveText('10 ms');
  await expect.poll(() => queryValue(page, 'ttft')).toBe('10');
  await expect(page.locator('#headline')).toContainText('No batch meets the 10 ms TTFT target');
  const rows = await rowsByHeader(page);
  expect(rows.length).toBeGreaterThanOrEqual(7);
  for (const r of rows) {
    expect(r['Meets TTFT'], `batch ${r.Batch}`).toBe('no');
    expect(r[GOODPUT], `batch ${r.Batch}`).toBe('0');
  }
  // Prefill alone of the 1,920-token prompt (2,048 of context less 256 / 2): (2 x 8.03e9 x 1,920 +
  // causal attention 2 x 2 x 32 layers x 4,096 x 1,920^2 / 2) / 989 TFLOP/s, compute bound;
  // TTFT(B) = step(B) + prefill.
  const prompt = SEED_CTX - 128;
  const prefillMs = (2 * L8_PARAMS * prompt + 2 * 32 * 4096 * prompt ** 2) / 989e12 * 1e3;
  const [first] = rows;
  for (const r of rows) {
    const dTtft = num(r[TTFT]) - num(first[TTFT]);
    const dStep = num(r[STEP]) - num(first[STEP]);
    expect(Math.abs(dTtft - dStep), `batch ${r.Batch}`).toBeLessThanOrEqual(0.02);
    expect(Math.abs(num(r[TTFT]) - num(r[STEP]) - prefillMs), `batch ${r.Batch}`).toBeLessThanOrEqual(0.02);
    expect(num(r[TTFT])).toBeGreaterThan(10);
  }
  await showPanel(page, 'capacity');
  await expect(page.locator('#capacity-none')).toBeVisible();
  await expectNoBadNumbers(page);
  expect(errors).toEqual([]);
});

// ---------------------------------------------------------------------------------------------
// 5. Realistic mode.

test('realistic mode lowers the knee and adds the overhead; choosing the ideal roofline again restores the seed exactly', async ({ page }) => {
  const errors = await openApp(page);
  const seedRows = await tableRows(page);
  const imagesBefore = await chartImages(page);
  await urlSettled(page);
  expect(queryValue(page, 'mbu')).toBeNull();

  await page.selectOption('#calib', 'custom');
  await expect.poll(() => queryValue(page, 'mbu')).toBe('80');
  await urlSettled(page);
  expect(queryValue(page, 'overhead')).toBe('1');
  await expect(page.locator('#mbu-value')).toHaveText('80%');
  await expect(page.locator('#overhead-value')).toHaveText('1 ms');
  await expectChartsChanged(page, imagesBefore, ['chart-rate', 'chart-step']);

  // Knee: ((10 - 1) ms x 3.35 TB/s x 0.8 - 16.06 GB) / (2,048 x 128 KiB) = 30.0 -> 30.
  const kvPerSeq = SEED_CTX * L8_KV_PER_TOKEN_BF16;
  const knee = Math.floor(((10 - 1) * 1e-3 * H100_BW * 0.8 - L8_PARAMS * 2) / kvPerSeq);
  expect(knee).toBe(30);
  await expect(page.locator('#batch-table tr.knee th')).toHaveText(String(knee));
  const step64 = (L8_PARAMS * 2 + 64 * kvPerSeq) / (H100_BW * 0.8) * 1e3 + 1;
  const row64 = await rowByHeader(page, 64);
  expect(num(row64[STEP])).toBeCloseTo(step64, 2);
  expect(row64['Meets TPOT']).toBe('no');
  expect(row64[GOODPUT]).toBe('0');
  await expect(page.locator('#batch-table')).toContainText('realistic calibration');
  await expectNoBadNumbers(page);

  await page.selectOption('#calib', 'ideal');
  await expect.poll(() => tableRows(page)).toEqual(seedRows);
  await expect(page.locator('#batch-table tr.knee th')).toHaveText('64');
  await expect.poll(() => queryValue(page, 'mbu')).toBeNull();
  await urlSettled(page);
  expect(queryValue(page, 'overhead')).toBeNull();
  await expect(page.locator('#mbu')).toHaveCount(0);

  // At 100% MBU and no overhead realistic mode is the ideal roofline: the seed's numbers again.
  await page.selectOption('#calib', 'custom');
  await expect(page.locator('#batch-table tr.knee th')).toHaveText('30');
  await pressOn(page, 'mbu', 'End');
  await pressOn(page, 'overhead', 'Home');
  await expect(page.locator('#mbu-value')).toHaveText('100%');
  await expect(page.locator('#overhead-value')).toHaveText('0 ms');
  await expect.poll(() => queryValue(page, 'overhead')).toBe('0');
  await urlSettled(page);
  expect(queryValue(page, 'mbu')).toBe('100');
  await expect(page.locator('#batch-table tr.knee th')).toHaveText('64');
  expect((await rowByHeader(page, 64))[STEP]).toBe('9.92');
  expect(num((await rowByHeader(page, 64))[STEP])).toBeCloseTo(seedStepMs(64), 2);
  expect((await tableRows(page)).map((r) => r.slice(0, -1))).toEqual(seedRows.map((r) => r.slice(0, -1)));
  await expectNoBadNumbers(page);
  expect(errors).toEqual([]);
});

// ---------------------------------------------------------------------------------------------
// 6. The interactivity chart.

test('the interactivity chart draws, follows the TPOT target and says so in its text', async ({ page }) => {
  const errors = await openApp(page);
  await waitForAllCharts(page);
  const chart = page.locator('#chart-interactivity');
  await expect(chart).toHaveAttribute('role', 'img');
  await expect(chart).toHaveAttribute('aria-label', /the TPOT target of 10 ms is 100 tokens\/s per user/);
  await expect(chart).toHaveAttribute('aria-label', /The knee is batch 64: each user gets/);
  const before = await canvasImage(page, 'chart-interactivity');

  await page.locator('#tpot-exact').fill('20');
  await page.locator('#tpot-exact').press('Enter');
  await expect(page.locator('#tpot-value')).toHaveText('20 ms');
  await expect.poll(() => queryValue(page, 'tpot')).toBe('20');
  await expect.poll(() => canvasImage(page, 'chart-interactivity')).not.toBe(before);
  await waitForAllCharts(page);
  await expect(chart).toHaveAttribute('aria-label', /the TPOT target of 20 ms is 50 tokens\/s per user/);
  // Knee at 20 ms: (20 ms x 3.35 TB/s - 16.06 GB) / 268.4 MB = 189.8 -> 189.
  const knee = Math.floor((20e-3 * H100_BW - L8_PARAMS * 2) / (SEED_CTX * L8_KV_PER_TOKEN_BF16));
  await expect(chart).toHaveAttribute('aria-label', new RegExp(`The knee is batch ${knee}: each user gets`));
  await expect(page.locator('#batch-table tr.knee th')).toHaveText(String(knee));
  await expectNoBadNumbers(page);
  expect(errors).toEqual([]);
});

// ---------------------------------------------------------------------------------------------
// 7. The capacity plan.

/** Replicas from "⌈100.00 ÷ 25.2⌉ = 4". */
async function planReplicas(page) {
  const text = await page.locator('#plan-replicas').textContent();
  const m = text.match(/=\s*([\d,]+)\s*$/);
  expect(m, `replicas in "${text}"`).not.toBeNull();
  return num(m[1]);
}

/** The plan's replica rate as printed (its first number) and its value. */
async function replicaRate(page) {
  const text = await page.locator('#plan-replica').textContent();
  const printed = text.match(/^([0-9.,]+) req\/s/)[1];
  return [printed, num(printed)];
}

test('the capacity plan follows the load, the price and the targets', async ({ page }) => {
  // Free power (kwh=0): the GPU-hours' arithmetic alone; energy.spec.js checks the energy's share.
  const errors = await openApp(page, '?kwh=0');
  await showPanel(page, 'capacity');
  // The replica runs the chunked colocated steady state at the page's p90, prefill included (the
  // native tests hold it against the simulator); the decode-only knee, 64 / (256 x 9.92 ms) =
  // 25.2 req/s, is printed beside it as the lower bound on GPUs it is.
  const knee = reqPerS(64, SEED_OUT, seedStepMs(64));
  const [printed, rate] = await replicaRate(page);
  expect(rate).toBeGreaterThan(0.4 * knee);
  expect(rate).toBeLessThan(knee);
  await expect(page.locator('#plan-replica')).toContainText('with chunked prefill, 512-token steps (1 GPU): p90 TTFT');
  await expect(page.locator('#plan-decode-only')).toContainText('25.2 req/s a replica at the knee, 4 GPUs');
  // The H100 SXM's sourced price, not one flat price.
  await expect(page.locator('#price')).toHaveValue('2.95');
  await expect(page.locator('#plan-price-source')).toContainText('H100 SXM price:');
  const costMtok = (gpus, price, load) => (gpus * price) / (load * SEED_OUT * 3600) * 1e6;
  const replicas = Math.ceil(100 / rate);
  await expect(page.locator('#plan-replicas')).toHaveText(`⌈100.00 ÷ ${printed}⌉ = ${replicas}`);
  await expect(page.locator('#plan-gpus')).toHaveText(String(replicas));
  await expect(page.locator('#plan-cost-hour')).toHaveText(`${replicas} × $2.95 = $${(replicas * 2.95).toFixed(2)}`);
  await expect(page.locator('#plan-cost-mtok')).toHaveText(`$${costMtok(replicas, 2.95, 100).toFixed(3)}`);

  await commitNumber(page, 'rate', '250');
  const more = Math.ceil(250 / rate);
  await expect(page.locator('#plan-replicas')).toHaveText(`⌈250.00 ÷ ${printed}⌉ = ${more}`);
  await expect(page.locator('#plan-gpus')).toHaveText(String(more));
  await expect(page.locator('#plan-cost-mtok')).toHaveText(`$${costMtok(more, 2.95, 250).toFixed(3)}`);
  await expect.poll(() => queryValue(page, 'rate')).toBe('250');

  // Editing the price edits the GPU's entry in the search's price list.
  await commitNumber(page, 'price', '4');
  await expect(page.locator('#plan-cost-hour')).toHaveText(`${more} × $4.00 = $${(more * 4).toFixed(2)}`);
  await expect.poll(() => queryValue(page, 'prices')).toBe('h100-sxm:4');

  // A 1 ms TPOT target: no rate meets it, so there is no plan.
  await pressOn(page, 'tpot', 'Home');
  await expect(page.locator('#tpot-value')).toHaveText('1 ms');
  await expect(page.locator('#capacity-none')).toBeVisible();
  await expect(page.locator('#plan-replicas')).toHaveCount(0);
  await expectNoBadNumbers(page);
  expect(errors).toEqual([]);
});

test('with TP 2 the plan counts two GPUs per replica', async ({ page }) => {
  const errors = await openApp(page, '?model=llama-3.1-70b&tpot=50&tp=2');
  await showPanel(page, 'capacity');
  await expect(page.locator('#plan-replica')).toContainText('(2 GPUs)');
  const [, rate] = await replicaRate(page);
  const replicas = Math.ceil(100 / rate);
  await expect(page.locator('#plan-gpus')).toHaveText(String(2 * replicas).replace(/\B(?=(\d{3})+(?!\d))/g, ','));
  await expectNoBadNumbers(page);
  expect(errors).toEqual([]);
});

test('a bad load typed into the plan shows a message under the box and a clamped value', async ({ page }) => {
  const errors = await openApp(page);
  await showPanel(page, 'capacity');
  const [printed, rate] = await replicaRate(page);
  await commitNumber(page, 'rate', '-5');
  const message = page.locator('.control:has(#rate) .field-message');
  await expect(message).toBeVisible();
  await expect(message).toHaveAttribute('role', 'alert');
  await expect(message).toContainText('rate=-5');
  await expect(message).toContainText('using 0.01');
  await expect(page.locator('#rate')).toHaveValue('0.01');
  await expect.poll(() => queryValue(page, 'rate')).toBe('0.01');
  await expect(page.locator('#plan-replicas')).toHaveText(`⌈0.01 ÷ ${printed}⌉ = 1`);
  await expect(page.locator('#plan-gpus')).toHaveText('1');
  await expectNoBadNumbers(page);

  // A good value clears the message.
  await commitNumber(page, 'rate', '100');
  await expect(message).toHaveCount(0);
  await expect(page.locator('#plan-replicas')).toHaveText(`⌈100.00 ÷ ${printed}⌉ = ${Math.ceil(100 / rate)}`);
  expect(errors).toEqual([]);
});

// ---------------------------------------------------------------------------------------------
// 8. Custom model and GPU.

const SEED_MODEL_FIELDS = {
  m_params: '8.03', m_active: '8.03', m_layers: '32', m_hidden: '4096', m_heads: '32', m_kv_heads: '8',
  m_head_dim: '128', m_experts: '0', m_top_k: '1', m_window: '0', m_swa_layers: '0', m_max_ctx: '131072',
};
const H100_GPU_FIELDS = { g_hbm: '80', g_bw: '3.35', g_bf16: '989', g_fp8: '1979', g_fp4: '0', g_link: '450' };

test('custom model and GPU start from the preset, edit the numbers, and survive a reload', async ({ page }) => {
  const errors = await openApp(page);
  const seedRows = await tableRows(page);

  await page.locator('#model').selectOption('custom');
  await expect(page.locator('#m_params')).toBeVisible();
  await expect.poll(() => queryValue(page, 'model')).toBe('custom');
  expect(await tableRows(page)).toEqual(seedRows);
  for (const [key, value] of Object.entries(SEED_MODEL_FIELDS)) {
    await urlSettled(page);
    expect(queryValue(page, key), key).toBe(value);
    await expect(page.locator(`#${key}`), key).toHaveValue(value);
  }

  const kvPerSeq = SEED_CTX * L8_KV_PER_TOKEN_BF16;
  const step1Before = num((await rowByHeader(page, 1))[STEP]);
  await commitNumber(page, 'm_params', '16.06');
  await expect.poll(() => queryValue(page, 'm_params')).toBe('16.06');
  await expect.poll(async () => num((await rowByHeader(page, 1))[STEP])).not.toBe(step1Before);
  const step1 = num((await rowByHeader(page, 1))[STEP]);
  // Twice the parameters adds 8.03e9 x 2 B = 16.06 GB per step: 16.06e9 / 3.35e12 s = 4.79 ms.
  expect(step1).toBeCloseTo(memoryStepMs(16.06e9 * 2, 1, kvPerSeq, H100_BW), 2);
  expect(Math.abs(step1 - step1Before - 16.06e9 / H100_BW * 1e3)).toBeLessThanOrEqual(0.011);
  expect(num((await rowByHeader(page, 1))[WEIGHTS])).toBeCloseTo(32.12, 2);
  await expectNoBadNumbers(page);

  const modelRows = await tableRows(page);
  await page.locator('#gpu').selectOption('custom');
  await expect(page.locator('#g_bw')).toBeVisible();
  await expect.poll(() => queryValue(page, 'gpu')).toBe('custom');
  expect(await tableRows(page)).toEqual(modelRows);
  for (const [key, value] of Object.entries(H100_GPU_FIELDS)) {
    await urlSettled(page);
    expect(queryValue(page, key), key).toBe(value);
    await expect(page.locator(`#${key}`), key).toHaveValue(value);
  }
  await commitNumber(page, 'g_bw', '6.7');
  await expect.poll(() => queryValue(page, 'g_bw')).toBe('6.7');
  await expect.poll(async () => num((await rowByHeader(page, 1))[STEP])).not.toBe(step1);
  const step1Fast = num((await rowByHeader(page, 1))[STEP]);
  // Memory bound at batch 1: twice the bandwidth, half the step.
  expect(step1Fast).toBeCloseTo(memoryStepMs(16.06e9 * 2, 1, kvPerSeq, 6.7e12), 2);
  expect(Math.abs(step1Fast - step1 / 2)).toBeLessThanOrEqual(0.01);
  await expectNoBadNumbers(page);

  const rowsBefore = await tableRows(page);
  await urlSettled(page);
  const urlBefore = page.url();
  await page.reload();
  await expect(page.locator('#batch-table tbody tr').first()).toBeVisible();
  await waitForAllCharts(page);
  expect(await tableRows(page)).toEqual(rowsBefore);
  expect(page.url()).toBe(urlBefore);
  await expect(page.locator('#model')).toHaveValue('custom');
  await expect(page.locator('#gpu')).toHaveValue('custom');
  await expect(page.locator('#m_params')).toHaveValue('16.06');
  await expect(page.locator('#g_bw')).toHaveValue('6.7');
  await expect(page.locator('#notices')).toHaveCount(0);
  expect(errors).toEqual([]);
});

// ---------------------------------------------------------------------------------------------
// 9. URL round trips.

test('a URL with every key opens exactly that state and writes back exactly those keys', async ({ page }) => {
  // The canonical form: tokens in (8,192 of context less 512 / 2) and the GPU's price in `prices`.
  const query = '?model=qwen3-30b-a3b&gpu=h200-sxm&w=fp8&kv=fp4&tp=4&in=7936&out=512&tpot=25&ttft=800'
    + '&util=85&mbu=70&overhead=1.5&rate=42.5&prices=h200-sxm%3A3.1';
  const errors = await openApp(page, query);
  await expect(page.locator('#model')).toHaveValue('qwen3-30b-a3b');
  await expect(page.locator('#gpu')).toHaveValue('h200-sxm');
  await expect(page.locator('#tp')).toHaveValue('4');
  await expect(page.locator('#w-value')).toHaveText('FP8');
  await expect(page.locator('#kv-value')).toHaveText('FP4');
  await expect(page.locator('#in-value')).toHaveText('7,936 tokens');
  await expect(page.locator('#context-rule')).toContainText('context 8,192 =');
  await expect(page.locator('#out-value')).toHaveText('512 tokens');
  await expect(page.locator('#tpot-value')).toHaveText('25 ms');
  await expect(page.locator('#ttft-value')).toHaveText('800 ms');
  await expect(page.locator('#util-value')).toHaveText('85%');
  await expect(page.locator('#calib')).toHaveValue('custom');
  await expect(page.locator('#mbu-value')).toHaveText('70%');
  await expect(page.locator('#overhead-value')).toHaveText('1.5 ms');
  await showPanel(page, 'capacity');
  await expect(page.locator('#rate')).toHaveValue('42.5');
  await expect(page.locator('#price')).toHaveValue('3.1');
  await expect(page.locator('#notices')).toHaveCount(0);
  await expect(page.locator('#batch-table caption')).toContainText('realistic calibration');
  await urlSettled(page);
  expect(queryPairs(page)).toEqual(Array.from(new URLSearchParams(query).entries()));
  await expectNoBadNumbers(page);
  expect(errors).toEqual([]);
});

test('a URL with a custom model and GPU opens those numbers and writes back exactly those keys', async ({ page }) => {
  const query = '?model=custom&m_params=20&m_active=5&m_layers=40&m_hidden=5120&m_heads=40&m_kv_heads=8'
    + '&m_head_dim=128&m_experts=64&m_top_k=4&m_window=4096&m_swa_layers=20&m_max_ctx=65536'
    + '&gpu=custom&g_hbm=96&g_bw=4&g_bf16=1000&g_fp8=2000&g_fp4=0&g_link=400'
    + '&w=bf16&kv=fp8&tp=2&in=4032&out=128&tpot=30&ttft=3000&util=80&rate=10&price=2';
  const errors = await openApp(page, query);
  const params = new URLSearchParams(query);
  for (const [key, value] of params) {
    if (key.startsWith('m_') || key.startsWith('g_')) {
      await expect(page.locator(`#${key}`), key).toHaveValue(value);
    }
  }
  await expect(page.locator('#notices')).toHaveCount(0);
  await urlSettled(page);
  expect(queryPairs(page)).toEqual(Array.from(params.entries()));
  await expectNoBadNumbers(page);
  expect(errors).toEqual([]);
});

// ---------------------------------------------------------------------------------------------
// Text alternatives and printed arithmetic agree with what can run.

test('chart descriptions and the capacity arithmetic follow the batch that can actually run', async ({ page }) => {
  // One H100 holds the 70B weights but no sequence of KV: nothing fits.
  const errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  await page.goto('index.html?model=llama-3.1-70b&gpu=h100-sxm&tp=1&tpot=50');
  await expect(page.locator('#no-table')).toBeVisible();
  for (const id of ['chart-rate', 'chart-step', 'chart-interactivity']) {
    await expect(page.locator(`#${id}`)).toHaveAttribute('aria-label', /Nothing fits: the KV pool holds no sequence/);
  }
  // At TP 2 the KV pool (4 sequences) binds before the 50 ms knee.
  await page.goto('index.html?model=llama-3.1-70b&gpu=h100-sxm&tp=2&tpot=50');
  const pool = await page.locator('#batch-table tr.kv-pool th').textContent();
  await expect(page.locator('#chart-interactivity'))
    .toHaveAttribute('aria-label', new RegExp(`The KV pool, batch ${pool}, is the largest that runs`));
  // The knee a server reaches is the pool itself; the TPOT knee past it is not marked.
  await expect(page.locator('#batch-table tr.knee td.note')).toHaveText('knee and KV-pool limit');
  // The printed divisor has enough digits that the quotient comes out as shown.
  await showPanel(page, 'capacity');
  const text = await page.locator('#plan-replicas').textContent();
  const [, rate, perReplica, replicas] = text.match(/⌈([\d.,]+) ÷ ([\d.,]+)⌉ = (\d+)/);
  expect(Math.ceil(Number(rate.replace(/,/g, '')) / Number(perReplica.replace(/,/g, '')))).toBe(Number(replicas));
  expect(perReplica).toMatch(/^0\.\d{3}$/);
  expect(errors).toEqual([]);
});
