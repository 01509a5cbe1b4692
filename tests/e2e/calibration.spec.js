// The calibration control in the real browser: the four cost models, the engine, the `calib` and
// `engine` keys, the accuracy and transfer lines. Expected step times are computed here from the
// shipped profile's constants (src/core/calibration/profile.rs) and the README's formula.
const { test, expect } = require('@playwright/test');
const { openApp, tableRows, rowByHeader, num, queryValue, urlSettled, expectNoBadNumbers } = require('./helpers');
const { logChartText, chartText } = require('./chart_text');

const { RANGES_BY_STACK, VLLM_RUNS, measuredStepMs } = require('./profile');
const STEP = 'Step time (ms)';

test('the default page is the ideal roofline and says how accurate the measured profile is', async ({ page }) => {
  await openApp(page);
  await expect(page.locator('#calib')).toHaveValue('ideal');
  expect(VLLM_RUNS).toBe(4);
  await expect(page.locator('#calib-accuracy')).toContainText(
    new RegExp(`Measured engines \\(vLLM\\): median TPOT error [\\d.]+% \\(worst [\\d.]+%\\) on its ${VLLM_RUNS} published runs; likely range here -[\\d.]+% to \\+[\\d.]+% \\(fitted\\)`));
  await expect(page.locator('#batch-table tr.knee th')).toHaveText('64');
  await expect(page.locator('#batch-table caption')).toContainText('ideal roofline: step times are lower bounds no engine reaches');
});

test('measured engines price the fixed costs, follow the engine and return to the worked example', async ({ page }) => {
  const errors = await openApp(page);
  const seedRows = await tableRows(page);
  await page.selectOption('#calib', 'measured');
  await expect.poll(() => queryValue(page, 'calib')).toBe('measured');
  await urlSettled(page);
  expect(queryValue(page, 'engine')).toBe('vllm');
  const vllm64 = num((await rowByHeader(page, 64))[STEP]);
  expect(Math.abs(vllm64 / measuredStepMs(64, 0) - 1)).toBeLessThan(0.01);
  await expect(page.locator('#batch-table caption')).toContainText('measured-engines calibration (vLLM)');
  await expectNoBadNumbers(page);

  await page.selectOption('#engine', 'sglang');
  await expect.poll(() => queryValue(page, 'engine')).toBe('sglang');
  await expect.poll(async () => num((await rowByHeader(page, 64))[STEP])).toBeCloseTo(measuredStepMs(64, 1), 1);

  await page.selectOption('#calib', 'ideal');
  await expect.poll(() => tableRows(page)).toEqual(seedRows);
  await expect.poll(() => queryValue(page, 'calib')).toBeNull();
  expect(errors).toEqual([]);
});

test('calib=measured on a GPU the data do not cover says it is not measured and prices it from priors', async ({ page }) => {
  await openApp(page, '?calib=measured&engine=trtllm&gpu=l40s');
  await expect(page.locator('#calib')).toHaveValue('measured');
  await expect(page.locator('#engine')).toHaveValue('trtllm');
  await expect(page.locator('#calib-provenance')).toContainText('Not measured: no published run on a GPU of the L40S');
  await expect(page.locator('#calib-provenance')).toContainText('published priors');
  await expect(page.locator('#calib-accuracy')).toContainText('(not measured). No published run of TensorRT-LLM on a GPU like the L40S');
  // H100 PCIe shares H100 SXM's generation: its fitted terms are borrowed and named.
  await openApp(page, '?calib=measured&gpu=h100-pcie');
  await expect(page.locator('#calib-provenance')).toContainText('dense GEMMs (HBM fraction) from h100-sxm (same generation)');
});

/** [low, high] of a "a–b" range cell, in its unit. */
function rangeOf(text) {
  return text.split('–').map(num);
}

test('under measured engines the batch table brackets each step time by its coverage class\'s likely range', async ({ page }) => {
  const errors = await openApp(page);
  await expect(page.locator('#batch-table th', { hasText: 'Likely range (ms)' })).toHaveCount(0);
  // H100 is a CUDA GPU; a TPU reads the XLA stack's ranges (no rows of its own: the pooled ones).
  for (const [query, stack, cls, word] of [['?calib=measured', 'cuda', 0, 'fitted'], ['?calib=measured&gpu=tpu-v6e', 'xla', 5, 'not measured']]) {
    await openApp(page, query);
    await expect(page.locator('#batch-table th', { hasText: 'Likely range (ms)' })).toHaveCount(1);
    const [low, high] = RANGES_BY_STACK[stack][cls];
    for (const batch of [1, 16, 64]) {
      const row = await rowByHeader(page, batch);
      const step = num(row[STEP]);
      const [lo, hi] = rangeOf(row['Likely range (ms)']);
      // Both printed to 0.01 ms: the range's own rounding plus the step's, scaled by the factor.
      expect(Math.abs(lo - step * low), `${query} batch ${batch} low`).toBeLessThanOrEqual(0.005 + 0.005 * low + 1e-9);
      expect(Math.abs(hi - step * high), `${query} batch ${batch} high`).toBeLessThanOrEqual(0.005 + 0.005 * high + 1e-9);
    }
    await expect(page.locator('#calib-accuracy')).toContainText(`(${word})`);
  }
  expect(errors).toEqual([]);
});

test('the step-time and throughput charts shade the likely range and name its coverage in the legend', async ({ page }) => {
  await page.addInitScript(logChartText);
  await openApp(page, '?calib=measured');
  for (const id of ['chart-step', 'chart-rate']) {
    await expect.poll(async () => (await chartText(page, id)).map((t) => t.text)).toContain('Likely range (fitted)');
  }
  await openApp(page, '?calib=measured&gpu=mi355x');
  await expect.poll(async () => (await chartText(page, 'chart-step')).map((t) => t.text)).toContain('Likely range (not measured)');
  await openApp(page);
  await expect.poll(async () => (await chartText(page, 'chart-step')).length).toBeGreaterThan(0);
  expect((await chartText(page, 'chart-step')).map((t) => t.text)).not.toContain('Likely range (fitted)');
});

test('custom shows the MBU and overhead sliders and a bad calib value gets a notice', async ({ page }) => {
  await openApp(page, '?calib=custom');
  await expect(page.locator('#mbu-value')).toHaveText('80%');
  await expect(page.locator('#overhead-value')).toHaveText('1 ms');
  await openApp(page, '?calib=bogus');
  await expect(page.locator('#notices')).toContainText('calib=');
  await expect(page.locator('#calib')).toHaveValue('ideal');
});

test('the cost model control opens the control panel, beside the headline', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openApp(page);
  const headline = await page.locator('#headline').boundingBox();
  const control = await page.locator('#calib').boundingBox();
  expect(control.x + control.width).toBeLessThan(headline.x);
  expect(control.y).toBeLessThan(headline.y + headline.height);
  await expect(page.locator('.controls > fieldset').first()).toHaveAttribute('id', 'calibration');
});

/** The published table's rows as objects keyed by header. */
async function publishedRows(page) {
  return page.locator('#published-table').evaluate((t) => {
    const heads = [...t.querySelectorAll('thead th')].map((th) => th.textContent.trim());
    return [...t.querySelectorAll('tbody tr')].map((tr) =>
      Object.fromEntries([...tr.children].map((td, i) => [heads[i], td.textContent.trim()])));
  });
}

test('published measurements of the configuration are listed with the model error, which calibration closes', async ({ page }) => {
  await openApp(page);
  await expect(page.locator('#published-table')).toHaveCount(0);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openApp(page, '?model=qwen3-8b');
  const wrap = page.locator('.table-wrap:has(#published-table)');
  const [scrollWidth, clientWidth] = await wrap.evaluate((w) => [w.scrollWidth, w.clientWidth]);
  expect(scrollWidth, 'every column visible at 1280 px without scrolling').toBeLessThanOrEqual(clientWidth);
  const ideal = await publishedRows(page);
  expect(ideal.map((r) => r.Run.split(':')[0])).toEqual(['GPS-01', 'GPS-02', 'GPS-03', 'GPS-04', 'GPS-05', 'GPS-06']);
  expect(ideal[4].Run).toBe('GPS-05: SGLang v0.5.3.post3, GPUStack performance lab, 2025-10/11 (doc)');
  for (const r of ideal) {
    // The ideal roofline is a bound: every measured run is slower than it, by more than a quarter.
    expect(num(r['Model (ms)'])).toBeLessThan(0.75 * num(r['Measured (ms)']));
    const error = 100 * (num(r['Model (ms)']) / num(r['Measured (ms)']) - 1);
    expect(r.Error).toMatch(/^-\d+\.\d%$/);
    expect(Math.abs(Number(r.Error.replace('%', '')) - error)).toBeLessThan(0.2);
  }
  await expect(page.locator('#published-table caption')).toContainText('Ideal roofline');
  await page.selectOption('#calib', 'measured');
  await expect(page.locator('#published-table caption')).toContainText('measured engines, vLLM');
  const measured = await publishedRows(page);
  for (const r of measured.filter((x) => x.Run.includes(': vLLM'))) {
    expect(Math.abs(num(r['Model (ms)']) / num(r['Measured (ms)']) - 1)).toBeLessThan(0.02);
  }
});

test('the read-out names the published run at the shown batch', async ({ page }) => {
  await openApp(page, '?model=qwen3-8b&mark=4');
  const line = page.locator('[data-panel="step"] .chart-readout [data-field="published"]');
  // GPUStack ran vLLM, SGLang and TensorRT-LLM at concurrency 4.
  await expect(line).toHaveCount(3);
  await expect(line.nth(0)).toContainText('Published GPS-03, GPUStack performance lab, vLLM v0.11.0');
  await expect(line.nth(0)).toContainText('7.38 ms');
  await expect(line.nth(1)).toContainText('GPS-05, GPUStack performance lab, SGLang');
  await expect(line.nth(2)).toContainText('GPS-06, GPUStack performance lab, TensorRT-LLM');
});

test('every lesson says which calibration its numbers use', async ({ page }) => {
  for (const n of [1, 5, 8]) {
    await openApp(page, `?lesson=${n}`);
    await expect(page.locator('#lesson-caption .lesson-calib')).toHaveText('Calibration: Ideal roofline.');
  }
});
