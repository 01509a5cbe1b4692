// The measured panel as a user brings their runs, in the real browser: several files in one chooser
// selection and in one drop (read in order, each adding its points, a bad one named without dropping
// the others'), the per-run table beside the calibrated model (its numbers against the generator's,
// restated below, and against the page's own batch table), and GuideLLM's and AIPerf's CSV exports
// and a vLLM run whose requests all failed. The fixtures are synthetic (fixtures/make_fixtures.py).
const { test, expect } = require('@playwright/test');
const fs = require('fs');
const path = require('path');
const { openApp, num, queryValue, urlSettled, rowByHeader } = require('./helpers');

const fixture = (name) => path.join(__dirname, 'fixtures', name);

// The generating model: 1.8 ms per step plus the BF16 weights of Llama 3.1 8B and `batch` sequences
// holding `context` tokens of BF16 KV (128 KiB a token), read at 72% of 3.35 TB/s, times 1 + noise.
const tpotAtMs = (batch, context, noise) =>
  (1.8 + (8.03e9 * 2 + batch * context * 131072) / (0.72 * 3.35e12) * 1e3) * (1 + noise);
// vllm-bench-lengths.jsonl: [batch, mean input, mean output, noise].
const LENGTH_RUNS = [[1, 1792, 512, 0.004], [16, 1024, 256, -0.005], [64, 3072, 1024, 0.006]];
// The sweep (vLLM, GuideLLM files): 1,792 in, 512 out, a fixed noise per concurrency.
const NOISE_AT = { 1: 0.008, 4: -0.006, 16: 0.004, 32: -0.009, 64: 0.005, 128: -0.003 };
const sweptTpotMs = (batch) => tpotAtMs(batch, 2048, NOISE_AT[batch]);

async function openMeasured(page) {
  const ask = page.locator('#measured-open');
  if (await ask.count()) await ask.click();
  await expect(page.locator('#measured-text')).toBeVisible();
}

/** The `measured=` points once the URL is written, as [batch, TPOT ms] pairs (lengths dropped). */
async function urlPoints(page) {
  await urlSettled(page);
  const value = queryValue(page, 'measured');
  return value === null ? [] : value.split(',').map((p) => p.split('@')[0].split(':').map(Number));
}

/** The per-run table's rows as cell texts. */
async function runRows(page) {
  return page.locator('#measured-runs tbody tr').evaluateAll((rows) =>
    rows.map((r) => Array.from(r.children).map((c) => c.textContent.trim())));
}

/** A signed percentage as printed ("+4.2%", "-18.7%"). */
const pct = (text) => Number(text.replace('%', ''));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Drops `names` (fixture files) on the panel in one DataTransfer. */
async function dropFiles(page, names) {
  const files = names.map((n) => [n, fs.readFileSync(fixture(n), 'utf8')]);
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const [name, text] of list) dt.items.add(new File([text], name, { type: 'text/plain' }));
    return dt;
  }, files);
  await page.dispatchEvent('#measured-drop', 'drop', { dataTransfer });
}

test('several files chosen at once add their points in order, and a bad one is named without dropping the others', async ({ page }) => {
  const errors = await openApp(page);
  await openMeasured(page);
  await page.setInputFiles('#measured-file', ['vllm-bench-c64.json', 'bad-tpot.csv', 'guidellm-report.json'].map(fixture));
  const status = page.locator('#measured-status');
  await expect(status).toContainText('vllm-bench-c64.json: 1 point from a vLLM benchmark result.');
  await expect(status).toContainText('guidellm-report.json: 6 points from a GuideLLM report.');
  await expect(page.locator('#measured-error')).toHaveText('bad-tpot.csv: line 3: TPOT “abc” is not a number.');
  await expect.poll(async () => (await urlPoints(page)).map(([b]) => b)).toEqual([64, 1, 4, 16, 32, 64, 128]);
  await expect(page.locator('#fit-points')).toHaveText('7');
  // A later choice adds to these; Clear empties them.
  await page.setInputFiles('#measured-file', fixture('measured.csv'));
  await expect(status).toHaveText('measured.csv: 6 points from a CSV.');
  await expect(page.locator('#measured-error')).toHaveCount(0);
  await expect(page.locator('#fit-points')).toHaveText('13');
  await page.click('#clear-measured');
  await expect.poll(() => urlPoints(page)).toEqual([]);
  expect(errors).toEqual([]);
});

test('several files dropped at once add their points; runs without lengths are marked with the page\'s', async ({ page }) => {
  const errors = await openApp(page);
  await openMeasured(page);
  await dropFiles(page, ['vllm-bench-lengths.jsonl', 'aiperf-profile.csv', 'measured.csv']);
  await expect(page.locator('#measured-status')).toContainText('vllm-bench-lengths.jsonl: 3 points from a vLLM benchmark result.');
  await expect(page.locator('#measured-status')).toContainText('measured.csv: 6 points from a CSV.');
  await expect(page.locator('#measured-error')).toContainText(
    'aiperf-profile.csv: This is an AIPerf or GenAI-Perf CSV export (profile_export_aiperf.csv, profile_export_genai_perf.csv): it holds the run\'s statistics but not its concurrency');
  await expect.poll(async () => (await urlPoints(page)).map(([b]) => b)).toEqual([1, 16, 64, 1, 4, 16, 32, 64, 128]);
  const rows = await runRows(page);
  expect(rows.map((r) => r[1])).toEqual(['1,792 / 512', '1,024 / 256', '3,072 / 1,024',
    ...Array(6).fill('1,920 / 256 (page\'s lengths)')]);
  expect(errors).toEqual([]);
});

test('the per-run table gives each run\'s measured TPOT, the model\'s at its concurrency and lengths, and the error', async ({ page }) => {
  const errors = await openApp(page, '?calib=measured&in=1792&out=512');
  await openMeasured(page);
  await page.setInputFiles('#measured-file', fixture('vllm-bench-lengths.jsonl'));
  await expect(page.locator('#measured-runs tbody tr')).toHaveCount(3);
  const table = page.locator('#measured-runs');
  await expect(table.locator('caption')).toContainText('(Measured engines (vLLM))');
  await expect(table.locator('caption')).not.toContainText('The page\'s cost model is');
  const rows = await runRows(page);
  const errorsPct = [];
  const factors = [];
  let inside = 0;
  for (const [[batch, isl, osl, noise], cells] of LENGTH_RUNS.map((r, i) => [r, rows[i]])) {
    expect(cells[0]).toBe(String(batch));
    expect(cells[1]).toBe(`${isl.toLocaleString('en-US')} / ${osl.toLocaleString('en-US')}`);
    const measured = tpotAtMs(batch, isl + osl / 2, noise);
    expect(Math.abs(num(cells[2]) / measured - 1), `batch ${batch} measured`).toBeLessThan(1e-3);
    const error = (num(cells[3]) / measured - 1) * 100;
    expect(Math.abs(pct(cells[5]) - error), `batch ${batch}: ${cells[5]} against ${error}`).toBeLessThan(0.1);
    errorsPct.push(Math.abs(pct(cells[5])));
    // The likely range is the model's TPOT times the coverage class's factors, the batch table's own.
    const [lo, hi] = cells[4].split('–').map(num);
    factors.push([lo / num(cells[3]), hi / num(cells[3])]);
    expect(cells[6]).toBe(measured >= lo && measured <= hi ? 'yes' : 'no');
    inside += cells[6] === 'yes' ? 1 : 0;
  }
  const tableRow = await rowByHeader(page, 1);
  const [tableLo, tableHi] = tableRow['Likely range (ms)'].split('–').map(num);
  const tableStep = num(tableRow['Step time (ms)']);
  for (const [fLo, fHi] of factors) {
    expect(Math.abs(fLo - tableLo / tableStep)).toBeLessThan(3e-3);
    expect(Math.abs(fHi - tableHi / tableStep)).toBeLessThan(3e-3);
  }
  // Batch 1 waits for no other prompt: the model's TPOT is its decode step at 1,792 + 512 / 2, which the
  // page's own batch table shows at batch 1 on the same cost model and lengths.
  const stepMs = num((await rowByHeader(page, 1))['Step time (ms)']);
  expect(Math.abs(num(rows[0][3]) - stepMs)).toBeLessThanOrEqual(0.011);
  const summary = await page.locator('#measured-runs-summary').textContent();
  const m = summary.match(/^3 runs: median \|error\| ([\d.]+)%, worst ([\d.]+)% \(batch (\d+)\); (\d) of 3 inside the model's likely range\.$/);
  expect(m, summary).not.toBeNull();
  expect(Math.abs(Number(m[1]) - median(errorsPct))).toBeLessThan(0.11);
  expect(Math.abs(Number(m[2]) - Math.max(...errorsPct))).toBeLessThan(0.11);
  expect(Number(m[3])).toBe(LENGTH_RUNS[errorsPct.indexOf(Math.max(...errorsPct))][0]);
  expect(Number(m[4])).toBe(inside);

  // The lengths travel in the link; on the ideal roofline the table still uses the calibrated model, and says so.
  await urlSettled(page);
  expect(queryValue(page, 'measured')).toContain('@1792/512');
  const params = new URL(page.url()).searchParams;
  params.set('calib', 'ideal');
  await openApp(page, `?${params.toString()}`);
  await expect(page.locator('#measured-runs caption')).toContainText(
    'The page\'s cost model is Ideal roofline; this table uses Measured engines (vLLM)');
  expect(await runRows(page)).toEqual(rows);
  expect(errors).toEqual([]);
});

test('GuideLLM\'s CSV export is read as its report, with its errored and incomplete requests remarked on', async ({ page }) => {
  const errors = await openApp(page);
  await openMeasured(page);
  await page.setInputFiles('#measured-file', fixture('guidellm-benchmarks.csv'));
  const status = page.locator('#measured-status');
  await expect(status).toContainText('guidellm-benchmarks.csv: 6 points from a GuideLLM CSV export.');
  await expect(status).toContainText('Benchmark 5 had 1 errored request.');
  await expect(status).toContainText('Benchmark 6 had 3 incomplete requests.');
  await expect.poll(async () => (await urlPoints(page)).map(([b]) => b)).toEqual([1, 4, 16, 32, 64, 128]);
  for (const [batch, tpot] of await urlPoints(page)) {
    expect(Math.abs(tpot - sweptTpotMs(batch)), `batch ${batch}`).toBeLessThan(0.0006);
  }
  await urlSettled(page);
  expect(queryValue(page, 'measured')).toContain('@1792/512');
  expect(errors).toEqual([]);
});

for (const [file, message] of [
  ['aiperf-profile.csv', 'This is an AIPerf or GenAI-Perf CSV export'],
  ['vllm-bench-all-failed.json', 'JSON result 1: all 320 requests failed (completed 0), so the run measured no step time.'],
]) {
  test(`${file} gets its own message and the points stay`, async ({ page }) => {
    const errors = await openApp(page, '?measured=1:8.6,64:15.6');
    await expect(page.locator('#fit-mbu')).toBeVisible();
    await page.setInputFiles('#measured-file', fixture(file));
    await expect(page.locator('#measured-error')).toContainText(`${file}: ${message}`);
    await expect(page.locator('#measured-status')).toHaveCount(0);
    await urlSettled(page);
    expect(queryValue(page, 'measured')).toBe('1:8.6,64:15.6');
    expect(errors).toEqual([]);
  });
}
