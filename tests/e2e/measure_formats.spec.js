// Other benchmark tools' files in the measured panel, in the real browser: a GuideLLM report (GuideLLM
// 0.4+ and 0.2-0.3 layouts) and AIPerf / GenAI-Perf profile exports, all synthetic (see
// fixtures/make_fixtures.py), are chosen as files or pasted; their points land in the URL at the batch
// and step time they were generated from (restated below, not read from the generator), the fit
// follows, and bad files are named and survived.
const { test, expect } = require('@playwright/test');
const fs = require('fs');
const path = require('path');
const { openApp, canvasImage, num, queryValue, urlSettled, tableRows, pressOn } = require('./helpers');

const fixture = (name) => path.join(__dirname, 'fixtures', name);

// The generating model: 1.8 ms per step plus the BF16 weights of Llama 3.1 8B and `batch` sequences
// of 2,048 tokens of BF16 KV, read at 72% of 3.35 TB/s, times a fixed noise per concurrency.
const NOISE_AT = { 1: 0.008, 4: -0.006, 16: 0.004, 32: -0.009, 64: 0.005, 128: -0.003 };
const generatedTpotMs = (batch, noise) =>
  (1.8 + (8.03e9 * 2 + batch * 2048 * 2 * 32 * 8 * 128 * 2) / (0.72 * 3.35e12) * 1e3) * (1 + noise);
const sweptTpotMs = (batch) => generatedTpotMs(batch, NOISE_AT[batch]);

/** Opens the measured panel's body (loaded on demand) unless a link already opened it. */
async function openMeasured(page) {
  const ask = page.locator('#measured-open');
  if (await ask.count()) await ask.click();
  await expect(page.locator('#measured-text')).toBeVisible();
}

/** Chooses a fixture file in the measured panel. */
async function upload(page, name) {
  await openMeasured(page);
  await page.setInputFiles('#measured-file', fixture(name));
}

/** The `measured=` points once the URL is written, as [batch, TPOT ms] pairs (each run's `@ISL/OSL` left off). */
async function urlPoints(page) {
  await urlSettled(page);
  const value = queryValue(page, 'measured');
  return value === null ? [] : value.split(',').map((p) => p.split('@')[0].split(':').map(Number));
}

/** The URL carries exactly `expected` ([batch, TPOT ms]), TPOT to the 1 µs it keeps. */
async function expectUrlPoints(page, expected) {
  await expect.poll(async () => (await urlPoints(page)).map(([b]) => b)).toEqual(expected.map(([b]) => b));
  for (const [[, got], [batch, want]] of (await urlPoints(page)).map((p, i) => [p, expected[i]])) {
    expect(Math.abs(got - want), `batch ${batch}: ${got} ms in the URL, ${want} ms generated`).toBeLessThan(0.0006);
  }
}

async function shownFit(page) {
  await expect(page.locator('#fit-mbu')).toBeVisible();
  return { mbu: num((await page.locator('#fit-mbu').textContent()).replace('%', '')),
    overhead: num((await page.locator('#fit-overhead').textContent()).replace('ms', '')) };
}

test('a GuideLLM report gives a point per concurrency and fits the MBU and overhead that generated it', async ({ page }) => {
  const errors = await openApp(page);
  const before = await canvasImage(page, 'chart-step');
  await upload(page, 'guidellm-report.json');
  await expect(page.locator('#measured-status')).toContainText('guidellm-report.json: 6 points from a GuideLLM report');
  await expectUrlPoints(page, [1, 4, 16, 32, 64, 128].map((b) => [b, sweptTpotMs(b)]));
  await expect.poll(() => canvasImage(page, 'chart-step')).not.toEqual(before);
  const fit = await shownFit(page);
  expect(Math.abs(fit.mbu - 72)).toBeLessThan(0.7);
  expect(Math.abs(fit.overhead - 1.8)).toBeLessThan(0.1);
  await expect(page.locator('#fit-points')).toHaveText('6');
  expect(errors).toEqual([]);
});

test('a GuideLLM 0.3 sweep reads synchronous as batch 1 and says how a throughput run got its batch', async ({ page }) => {
  const errors = await openApp(page);
  await upload(page, 'guidellm-report-0.3.json');
  const status = page.locator('#measured-status');
  await expect(status).toContainText('4 points from a GuideLLM report');
  await expect(status).toContainText('Benchmark 2 ran a throughput strategy, not a concurrent one: its mean of 117.6 requests in flight is read as batch 118.');
  await expect(status).toContainText('Benchmark 4 had 2 errored requests.');
  await expectUrlPoints(page, [[1, 0.008], [118, -0.006], [16, 0.004], [64, -0.009]].map(([b, n]) => [b, generatedTpotMs(b, n)]));
  expect(errors).toEqual([]);
});

for (const [file, batch, format] of [
  ['aiperf-profile.json', 32, 'AIPerf profile export'],
  ['aiperf-profile-0.1.json', 64, 'AIPerf profile export'],
  ['genai-perf-profile.json', 16, 'GenAI-Perf profile export'],
]) {
  test(`${file} gives one point at its run's concurrency`, async ({ page }) => {
    const errors = await openApp(page);
    await upload(page, file);
    const status = page.locator('#measured-status');
    // "an AIPerf ...", "a GenAI-Perf ...".
    await expect(status).toContainText(`${file}: 1 point from ${/^[AEIOU]/.test(format) ? 'an' : 'a'} ${format}.`);
    await expectUrlPoints(page, [[batch, sweptTpotMs(batch)]]);
    await expect(page.locator('#fit-points')).toHaveText('1');
    await expect(page.locator('#fit-warnings')).toContainText('fixed at 0');
    expect(errors).toEqual([]);
  });
}

test('AIPerf exports pasted one after another give a point each', async ({ page }) => {
  const errors = await openApp(page);
  await openMeasured(page);
  const text = ['aiperf-profile.json', 'aiperf-profile-0.1.json', 'genai-perf-profile.json']
    .map((f) => fs.readFileSync(fixture(f), 'utf8')).join('\n');
  await page.fill('#measured-text', text);
  await page.click('#measured-plot');
  await expect(page.locator('#measured-status')).toContainText('Pasted text: 3 points from an AIPerf profile export.');
  await expectUrlPoints(page, [32, 64, 16].map((b) => [b, sweptTpotMs(b)]));
  await expect(page.locator('#fit-points')).toHaveText('3');
  expect(errors).toEqual([]);
});

for (const [file, message] of [
  ['bad-guidellm-no-itl.json', 'benchmark 2: `metrics.inter_token_latency_ms` is missing'],
  ['bad-aiperf-not-streamed.json', 'AIPerf export 1: `inter_token_latency` is missing: it is written only for streamed runs'],
]) {
  test(`${file} gets a message naming the field, and the page keeps working`, async ({ page }) => {
    const errors = await openApp(page, '?measured=1:8.6,64:15.6');
    const fit = await shownFit(page);
    await upload(page, file);
    await expect(page.locator('#measured-error')).toContainText(`${file}: ${message}`);
    expect(await shownFit(page)).toEqual(fit);
    await urlSettled(page);
    expect(queryValue(page, 'measured')).toBe('1:8.6,64:15.6');
    const rows = await tableRows(page);
    await pressOn(page, 'in', 'ArrowRight');
    await expect.poll(() => tableRows(page)).not.toEqual(rows);
    expect(errors).toEqual([]);
  });
}
