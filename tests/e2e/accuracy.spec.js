// The accuracy view (`view=accuracy`): every published measurement in data/calibration.csv against the
// measured-engines model. The counts are read here from the data file itself (whatever it holds: rows
// are added as sources are), never written down: the view lists one row per data row, the engine and
// GPU filters keep exactly the rows of that engine or GPU, the class filter only rows of its class,
// each class's coverage line counts the rows shown, a row's load sets the page's URL and controls to
// its scenario, and the CSV has a line per row shown under one header.
const fs = require('fs');
const path = require('path');
const { test, expect } = require('@playwright/test');
const { openApp, queryValue, urlSettled, showPanel } = require('./helpers');

const DATA = fs.readFileSync(path.join(__dirname, '../../data/calibration.csv'), 'utf8');
/** The rows as the page prices them (generated from the data file by `cargo run --bin calibrate`). */
const POINTS = fs.readFileSync(path.join(__dirname, '../../src/core/calibration/published/data.rs'), 'utf8');

/** A row's mean prompt and answer lengths, in tokens, as the page prices them. */
function meanLengths(id) {
  const line = POINTS.split('\n').find((l) => l.includes(`id: "${id}",`));
  const m = line.match(/isl_mean: ([^,]+), osl_mean: ([^,]+),/);
  return [Math.round(Number(m[1])), Math.round(Number(m[2]))];
}

/** RFC 4180 records of `text` (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text) {
  const records = [];
  let record = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { record.push(field); field = ''; } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field); field = '';
      if (record.some((f) => f !== '')) records.push(record);
      record = [];
    } else field += c;
  }
  if (field !== '' || record.length) { record.push(field); records.push(record); }
  return records;
}

const [HEAD, ...ROWS] = parseCsv(DATA);
const col = (name) => HEAD.indexOf(name);
/** The data's rows as objects keyed by the header. */
const DATA_ROWS = ROWS.map((r) => Object.fromEntries(HEAD.map((h, i) => [h, r[i]])));
/** The engine id a data row's engine names (as src/calibration_data.rs reads it). */
function engineId(label) {
  const l = label.toLowerCase();
  if (l.startsWith('amd atom')) return 'atom';
  return l.startsWith('vllm') ? 'vllm' : l.startsWith('sglang') ? 'sglang' : l.startsWith('tensorrt') ? 'trtllm' : l;
}

/** Opens the page with the accuracy section's body drawn. */
async function openAccuracy(page, query = '') {
  const errors = await openApp(page, query);
  await showPanel(page, 'accuracy');
  await expect(page.locator('#accuracy-table tbody tr').first()).toBeAttached({ timeout: 15_000 });
  return errors;
}

const shownRows = (page) => page.locator('#accuracy-table tbody tr');

test('the view lists every row of the data file, one table row each', async ({ page }) => {
  expect(col('id')).toBe(0);
  const errors = await openAccuracy(page);
  await expect(shownRows(page)).toHaveCount(DATA_ROWS.length);
  const ids = await shownRows(page).evaluateAll((rs) => rs.map((r) => r.dataset.row));
  expect(ids).toEqual(DATA_ROWS.map((r) => r.id));
  await expect(page.locator('#accuracy-count')).toHaveText(`Showing ${DATA_ROWS.length} of ${DATA_ROWS.length} published measurements.`);
  expect(errors).toEqual([]);
});

test('the engine, GPU and class filters narrow the rows to those the data file names', async ({ page }) => {
  await openAccuracy(page);
  for (const engine of [...new Set(DATA_ROWS.map((r) => engineId(r.engine)))]) {
    await page.selectOption('#accuracy-engine', engine);
    await expect(shownRows(page)).toHaveCount(DATA_ROWS.filter((r) => engineId(r.engine) === engine).length);
  }
  await page.selectOption('#accuracy-engine', 'all');
  // A GPU option is a preset id; a data row's GPU name starts with it ("H200-SXM-141GB": h200-sxm).
  const gpus = (await page.locator('#accuracy-gpu option').evaluateAll((os) => os.map((o) => o.value))).slice(1);
  const presetOf = (name) => gpus.filter((g) => name.toLowerCase().startsWith(g)).sort((a, b) => b.length - a.length)[0];
  expect(DATA_ROWS.every((r) => presetOf(r.gpu))).toBe(true);
  for (const gpu of gpus) {
    await page.selectOption('#accuracy-gpu', gpu);
    await expect(shownRows(page)).toHaveCount(DATA_ROWS.filter((r) => presetOf(r.gpu) === gpu).length);
  }
  await page.selectOption('#accuracy-gpu', 'all');
  let total = 0;
  for (const cls of ['time-split', 'left-out', 'gpu-left-out', 'fitted', 'checked', 'not-priced']) {
    await page.selectOption('#accuracy-class', cls);
    const classes = await shownRows(page).evaluateAll((rs) => rs.map((r) => r.dataset.class));
    expect(classes.every((c) => c === cls)).toBe(true);
    total += classes.length;
  }
  expect(total).toBe(DATA_ROWS.length);
});

test('each class line counts the rows shown: coverage is inside over priced', async ({ page }) => {
  await openAccuracy(page);
  for (const engine of ['all', 'sglang']) {
    await page.selectOption('#accuracy-engine', engine);
    const rows = await shownRows(page).evaluateAll((rs) => rs.map((r) => ({ cls: r.dataset.class, inside: r.dataset.inside })));
    const lines = page.locator('#accuracy-coverage li');
    const classes = [...new Set(rows.map((r) => r.cls))];
    await expect(lines).toHaveCount(classes.length);
    for (const cls of classes) {
      const of = rows.filter((r) => r.cls === cls);
      const priced = of.filter((r) => r.inside !== undefined).length;
      const inside = of.filter((r) => r.inside === 'true').length;
      const line = page.locator(`#accuracy-coverage li[data-class="${cls}"]`);
      await expect(line).toHaveAttribute('data-rows', String(of.length));
      if (priced > 0) {
        await expect(line).toContainText(`${inside} of ${priced} inside the likely range (${(100 * inside / priced).toFixed(1)}%)`);
      } else {
        await expect(line).toContainText(`${of.length} row`);
      }
    }
  }
});

test('each way of holding out counts every held-out prediction the profile ships', async ({ page }) => {
  const profile = fs.readFileSync(path.join(__dirname, '../../src/core/calibration/profile.rs'), 'utf8');
  await openAccuracy(page);
  for (const [id, name] of [['time-split', 'TimeSplit'], ['left-out', 'LeftOut'], ['gpu-left-out', 'GpuLeftOut']]) {
    const shipped = (profile.match(new RegExp(`hold_out: HoldOut::${name},`, 'g')) || []).length;
    await expect(page.locator(`#accuracy-held-out li[data-hold-out="${id}"]`)).toHaveAttribute('data-predictions', String(shipped));
  }
});

test("a row's load sets the page's URL and controls to its scenario and marks its batch", async ({ page }) => {
  const errors = await openAccuracy(page);
  // The first SGLang row on TP 8 alone (no attention DP, no MTP) at a whole concurrency, as the page
  // prices it (its generated row), and its row in the data file.
  const line = POINTS.split('\n').find((l) => /engine: Engine::Sglang,/.test(l)
    && /tp: 8, ep: 1, dp: 1, pp: 1, speculative: false,/.test(l) && /concurrency: Some\(\d+e\d+\)/.test(l));
  const id = line.match(/id: "([^"]+)"/)[1];
  const concurrency = String(Number(line.match(/concurrency: Some\(([^)]+)\)/)[1]));
  const run = { ...DATA_ROWS.find((r) => r.id === id), concurrency };
  await page.locator(`#accuracy-table button[data-load="${run.id}"]`).click();
  await expect(page.locator('#accuracy-loaded')).toContainText(`Loaded ${run.id}`);
  await expect.poll(() => queryValue(page, 'engine')).toBe('sglang');
  await urlSettled(page);
  expect(queryValue(page, 'calib')).toBe('measured');
  expect(queryValue(page, 'tp')).toBe(run.tp);
  expect(queryValue(page, 'mark')).toBe(run.concurrency);
  const [prompt, answer] = meanLengths(run.id);
  expect(queryValue(page, 'out')).toBe(String(answer));
  expect(queryValue(page, 'in')).toBe(String(prompt));
  await expect(page.locator('#calib')).toHaveValue('measured');
  await expect(page.locator('#engine')).toHaveValue('sglang');
  const gpu = await page.locator('#gpu').inputValue();
  expect(run.gpu.toLowerCase().startsWith(gpu)).toBe(true);
  expect(queryValue(page, 'gpu')).toBe(gpu);
  // The published-runs table of the page's scenario lists the loaded run.
  await expect(page.locator('#published-table')).toContainText(`${run.id}:`);
  expect(errors).toEqual([]);
});

test('the CSV has a header and one line per row shown', async ({ page }) => {
  await openAccuracy(page);
  for (const engine of ['all', 'trtllm']) {
    await page.selectOption('#accuracy-engine', engine);
    const n = await shownRows(page).count();
    const [d] = await Promise.all([page.waitForEvent('download'), page.click('#accuracy-csv')]);
    expect(d.suggestedFilename()).toBe('goodput-lab_published-accuracy.csv');
    const text = fs.readFileSync(await d.path(), 'utf8');
    const records = parseCsv(text);
    expect(records.length).toBe(n + 1);
    expect(records[0][0]).toBe('Row');
    const ids = await shownRows(page).evaluateAll((rs) => rs.map((r) => r.dataset.row));
    expect(records.slice(1).map((r) => r[0])).toEqual(ids);
  }
});

test('view=accuracy embeds the view alone and presents it', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 500 });
  await page.goto('index.html?embed=1&view=accuracy');
  await expect(page.locator('html')).toHaveAttribute('data-mode', 'embed');
  await expect(page.locator('#accuracy-table tbody tr').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('#accuracy-coverage li').first()).toBeVisible();
  await expect(page.locator('#batch-table')).toBeHidden();
  await expect(page.locator('#chart-rate')).toBeHidden();
  await expect(shownRows(page)).toHaveCount(DATA_ROWS.length);
  await page.goto('index.html?present=1&view=accuracy');
  await expect(page.locator('#accuracy-table tbody tr').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('#search')).toBeHidden();
});
