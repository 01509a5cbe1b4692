// The measured engines' likely range where the planning numbers are: the capacity plan's GPUs as
// low-high around its count, the search rows' TPOT with its range and coverage word, and neither on
// the ideal roofline (a bound). The range's factors are the shipped profile's (profile.rs).
const { test, expect } = require('@playwright/test');
const { openApp, num, showPanel, searched } = require('./helpers');
const { RANGES, RANGES_BY_STACK } = require('./profile');

/** The software stack whose held-out rows a GPU's range is read from. */
const stackOf = (gpu) => (gpu.startsWith('mi') ? 'rocm' : gpu.startsWith('tpu') ? 'xla' : 'cuda');

test('the capacity plan gives its GPUs as a likely low-high around the count under measured engines', async ({ page }) => {
  const errors = await openApp(page, '?calib=measured');
  await showPanel(page, 'capacity');
  const gpus = num(await page.locator('#plan-gpus').evaluate((dd) => dd.firstChild.textContent));
  const range = await page.locator('#plan-gpus-range').textContent();
  const m = range.match(/^ \(likely ([\d,]+)–([\d,]+) GPUs, fitted\)$/);
  expect(m, range).not.toBeNull();
  const [low, high] = [num(m[1]), num(m[2])];
  // Faster steps need no more GPUs, slower no fewer; the fitted class's range is not a point.
  expect(low).toBeLessThanOrEqual(gpus);
  expect(high).toBeGreaterThanOrEqual(gpus);
  expect(high).toBeGreaterThan(low);
  await openApp(page);
  await showPanel(page, 'capacity');
  await expect(page.locator('#plan-gpus')).toBeVisible();
  await expect(page.locator('#plan-gpus-range')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('each search row prints its TPOT with the likely range and coverage of its own GPU', async ({ page }) => {
  const errors = await openApp(page, '?calib=measured');
  await page.click('#search-open');
  await searched(page);
  const rows = await page.locator('#search-table tbody tr').evaluateAll((trs) => trs.map((r) => ({
    gpu: r.dataset.config.split('/')[0],
    cells: Array.from(r.children).map((c) => c.textContent.trim()),
  })));
  expect(rows.length).toBeGreaterThan(10);
  const words = new Set();
  for (const { gpu, cells } of rows) {
    const m = cells[8].match(/^([\d,.]+) \(([\d,.]+)–([\d,.]+), (fitted|transferred|not measured)\)$/);
    expect(m, `${gpu}: ${cells[8]}`).not.toBeNull();
    const [tpot, lo, hi] = [num(m[1]), num(m[2]), num(m[3])];
    words.add(m[4]);
    // The factors are one of the shipped classes' of the GPU's stack, the same on both ends.
    const factors = [lo / tpot, hi / tpot];
    const near = RANGES_BY_STACK[stackOf(gpu)].some(([l, h]) => Math.abs(l - factors[0]) < 2e-3 + 0.006 / tpot && Math.abs(h - factors[1]) < 2e-3 + 0.006 / tpot);
    expect(near, `${gpu}: ${cells[8]} against ${JSON.stringify(RANGES_BY_STACK[stackOf(gpu)])}`).toBe(true);
    if (['tpu-v5e', 'tpu-v6e', 'l4', 'l40s', 'a100-40gb', 'a100-80gb', 'mi355x'].includes(gpu)) {
      expect(m[4], gpu).toBe('not measured');
    }
  }
  expect(errors).toEqual([]);
});

test('the headline and the simulator say whether the measured numbers are fitted, transferred or not measured', async ({ page }) => {
  const errors = await openApp(page);
  await expect(page.locator('#headline-coverage')).toHaveCount(0);
  // H100: its own rows; H200: Hopper's dense GEMMs borrowed from H100; B300: no dense GEMM measured on Blackwell.
  for (const [gpu, word, cls] of [['h100-sxm', 'fitted', 0], ['h200-sxm', 'transferred', 2], ['b300', 'not measured', 5]]) {
    await openApp(page, `?calib=measured&gpu=${gpu}`);
    const note = await page.locator('#headline-coverage').textContent();
    const m = note.match(/^Measured engines \(vLLM\), (fitted|transferred|not measured): each calibrated time likely -([\d.]+)% to \+([\d.]+)% of its value\.$/);
    expect(m, note).not.toBeNull();
    expect(m[1], gpu).toBe(word);
    const [low, high] = RANGES[cls];
    expect(Math.abs(Number(m[2]) - 100 * (1 - low))).toBeLessThan(0.051);
    expect(Math.abs(Number(m[3]) - 100 * (high - 1))).toBeLessThan(0.051);
  }
  await openApp(page, '?calib=measured&gpu=tpu-v6e&sim=1&requests=300&points=6');
  await expect(page.locator('#sim-goodput')).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('#sim-coverage')).toContainText('Measured engines (vLLM), not measured: each calibrated time likely');
  expect(errors).toEqual([]);
});

test('the chart read-out gives the shown batch\'s step time and tokens/s as their likely ranges', async ({ page }) => {
  const errors = await openApp(page, '?calib=measured&mark=64');
  const line = page.locator('[data-panel="step"] .chart-readout [data-field="range"]');
  const text = await line.textContent();
  const m = text.match(/^Likely ([\d.]+)–([\d.]+) ms\/step · ([\d,]+)–([\d,]+) tokens\/s \(fitted\)$/);
  expect(m, text).not.toBeNull();
  const step = num(await page.locator('[data-panel="step"] .chart-readout [data-field="step"]').textContent());
  const tokens = num(await page.locator('[data-panel="step"] .chart-readout [data-field="tokens"]').textContent());
  const [low, high] = RANGES[0];
  expect(Math.abs(num(m[1]) - step * low)).toBeLessThanOrEqual(0.005 + 0.005 * low + 1e-9);
  expect(Math.abs(num(m[2]) - step * high)).toBeLessThanOrEqual(0.005 + 0.005 * high + 1e-9);
  // Tokens/s is batch / step: the slow end of the time is the low rate.
  expect(Math.abs(num(m[3]) / (tokens / high) - 1)).toBeLessThan(2e-3);
  expect(Math.abs(num(m[4]) / (tokens / low) - 1)).toBeLessThan(2e-3);
  await openApp(page, '?mark=64');
  await expect(page.locator('[data-panel="step"] .chart-readout [data-field="step"]')).not.toHaveText('');
  await expect(page.locator('[data-panel="step"] .chart-readout [data-field="range"]')).toHaveCount(0);
  expect(errors).toEqual([]);
});
