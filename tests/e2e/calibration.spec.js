// The calibration control in the real browser: the four cost models, the engine, the `calib` and
// `engine` keys, the accuracy and transfer lines. Expected step times are computed here from the
// shipped profile's constants (src/core/calibration/profile.rs) and the README's formula.
const fs = require('fs');
const path = require('path');
const { test, expect } = require('@playwright/test');
const { openApp, tableRows, rowByHeader, num, queryValue, urlSettled, expectNoBadNumbers } = require('./helpers');

const PROFILE = fs.readFileSync(path.join(__dirname, '../../src/core/calibration/profile.rs'), 'utf8');
const LAYER_S = Number(PROFILE.match(/layer_overhead_s: ([^,]+),/)[1]);
const ENGINE_S = PROFILE.match(/engine_step_overhead_s: \[([^\]]+)\]/)[1].split(',').map(Number);
const H100_SLOTS = PROFILE.match(/gpu_id: "h100-sxm", slots: \[([^\]]+)\]/)[1].split(', ')
  .map((v) => (v === 'None' ? null : Number(v.replace(/^Some\((.*)\)$/, '$1'))));
const [DENSE16, , , GQA] = H100_SLOTS;
const L8_PARAMS = 8.03e9;
const KV_PER_SEQ = 2 * 32 * 8 * 128 * 2 * 2048;
const H100_BW = 3.35e12;
const STEP = 'Step time (ms)';

// step(B) = weights / (bw x f_dense16) + B x KV / (bw x f_gqa) + engine + 32 layers x per-layer, in ms.
function measuredStepMs(batch, engineIndex) {
  const s = (L8_PARAMS * 2) / (H100_BW * DENSE16) + (batch * KV_PER_SEQ) / (H100_BW * GQA)
    + ENGINE_S[engineIndex] + 32 * LAYER_S;
  return s * 1e3;
}

test('the default page is the ideal roofline and says how accurate the measured profile is', async ({ page }) => {
  await openApp(page);
  await expect(page.locator('#calib')).toHaveValue('ideal');
  await expect(page.locator('#calib-accuracy')).toContainText(/median TPOT error [\d.]+% \(worst [\d.]+%\) over 27 published measurements/);
  await expect(page.locator('#batch-table tr.knee th')).toHaveText('64');
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

test('calib=measured on a GPU the data do not cover names the transferred terms', async ({ page }) => {
  await openApp(page, '?calib=measured&engine=trtllm&gpu=l40s');
  await expect(page.locator('#calib')).toHaveValue('measured');
  await expect(page.locator('#engine')).toHaveValue('trtllm');
  await expect(page.locator('#calib-provenance')).toContainText('No published measurement covers this on L40S');
  await expect(page.locator('#calib-provenance')).toContainText('median');
});

test('custom shows the MBU and overhead sliders and a bad calib value gets a notice', async ({ page }) => {
  await openApp(page, '?calib=custom');
  await expect(page.locator('#mbu-value')).toHaveText('80%');
  await expect(page.locator('#overhead-value')).toHaveText('1 ms');
  await openApp(page, '?calib=bogus');
  await expect(page.locator('#notices')).toContainText('calib=');
  await expect(page.locator('#calib')).toHaveValue('ideal');
});
