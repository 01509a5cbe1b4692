// Exports and the measured overlay in the real browser: CSV downloads match the DOM tables, PNG
// downloads are the canvases, SVG downloads are the same charts with their titles, file names say the
// scenario; a vllm bench serve result (synthetic, see fixtures/make_fixtures.py) overlays points on
// the step chart and fits the MBU and overhead that generated it; bad files are named and survived.
const { test, expect } = require('@playwright/test');
const fs = require('fs');
const path = require('path');
const { openApp, canvasImage, tableRows, tableHeaders, num, queryValue, pressOn, CHART_IDS, waitForAllCharts, urlSettled } =
  require('./helpers');

const FIXTURES = path.join(__dirname, 'fixtures');
const fixture = (name) => path.join(FIXTURES, name);
const PNG_SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];
// The synthetic benchmark's generating values (make_fixtures.py).
const TRUE_MBU_PCT = 72;
const TRUE_OVERHEAD_MS = 1.8;

/** Clicks `selector` and returns the download it starts: its name and its bytes. */
async function download(page, selector) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: d.suggestedFilename(), bytes: fs.readFileSync(await d.path()) };
}

/** RFC 4180 CSV (quoted fields, doubled quotes, CRLF) as rows of cells, parsed independently of the app. */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (c === '"') quoted = false; else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; } else if (c === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; } else if (c !== '\r') cell += c;
  }
  if (cell !== '' || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

/** Opens the measured panel's body (the page loads its code on demand) unless a link already opened it. */
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

/** The fitted MBU (%) and overhead (ms) as shown. */
async function shownFit(page) {
  await expect(page.locator('#fit-mbu')).toBeVisible();
  return { mbu: num((await page.locator('#fit-mbu').textContent()).replace('%', '')),
    overhead: num((await page.locator('#fit-overhead').textContent()).replace('ms', '')) };
}

test('the table downloads as CSV whose rows are the DOM table, with unit-bearing headers', async ({ page }) => {
  for (const query of ['', '?model=llama-3.1-70b&tp=4&ctx=4096']) {
    const errors = await openApp(page, query);
    const { name, bytes } = await download(page, '#export-table-csv');
    const [header, ...rows] = parseCsv(bytes.toString('utf8'));
    expect(rows).toEqual(await tableRows(page));
    const domHeaders = await tableHeaders(page);
    expect(header.length).toBe(domHeaders.length);
    for (const h of header.slice(0, -1)) expect(h).toMatch(/\((ms|tokens\/s|req\/s|GB\/GPU|yes\/no|sequences|tokens\/s\/GPU|req\/s\/GPU|J\/token)\)$/);
    expect(name).toMatch(/\.csv$/);
    expect(name).toContain(query ? 'llama-3.1-70b' : 'llama-3.1-8b');
    expect(errors).toEqual([]);
  }
});

test('each chart downloads as a PNG of its canvas, signature and pixel size', async ({ page }) => {
  const errors = await openApp(page);
  await waitForAllCharts(page);
  for (const id of CHART_IDS) {
    const what = id.replace('chart-', '');
    const { name, bytes } = await download(page, `#export-${what}-png`);
    expect(Array.from(bytes.subarray(0, 8))).toEqual(PNG_SIGNATURE);
    const size = await page.evaluate((c) => [document.getElementById(c).width, document.getElementById(c).height], id);
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual(size);
    expect(name).toBe(`goodput-lab_llama-3.1-8b_h100-sxm_bf16-kv_ctx2048_tpot10ms_${what}.png`);
    // The PNG is the canvas: the same pixels re-encoded by the browser.
    // Decoded from the bytes (createImageBitmap), not loaded as a data: image, which the page's CSP refuses.
    const same = await page.evaluate(async ([c, b64]) => {
      const png = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
      const img = await createImageBitmap(new Blob([png], { type: 'image/png' }));
      const canvas = document.getElementById(c);
      const copy = document.createElement('canvas');
      copy.width = canvas.width; copy.height = canvas.height;
      copy.getContext('2d').drawImage(img, 0, 0);
      return copy.toDataURL() === canvas.toDataURL();
    }, [id, bytes.toString('base64')]);
    expect(same).toBe(true);
  }
  expect(errors).toEqual([]);
});

test('each chart downloads as SVG drawn at the canvas size with its title and legend', async ({ page }) => {
  const errors = await openApp(page);
  const titles = { rate: 'Throughput and goodput against batch size', step: 'Step time against batch size',
    interactivity: 'Throughput per GPU against speed per user' };
  for (const [what, title] of Object.entries(titles)) {
    const { name, bytes } = await download(page, `#export-${what}-svg`);
    const svg = bytes.toString('utf8');
    expect(svg).toContain('<svg');
    expect(svg).toContain(`<title>${title}</title>`);
    const [w, h] = await page.evaluate((c) => [document.getElementById(c).clientWidth, document.getElementById(c).clientHeight], `chart-${what}`);
    expect(svg).toMatch(new RegExp(`<svg[^>]*width="${w}"[^>]*height="${h}"`));
    expect(name).toBe(`goodput-lab_llama-3.1-8b_h100-sxm_bf16-kv_ctx2048_tpot10ms_${what}.svg`);
  }
  const step = (await download(page, '#export-step-svg')).bytes.toString('utf8');
  expect(step).toContain('Memory term (weights + KV reads)');
  expect(step).toContain('TPOT target 10 ms');
  expect(errors).toEqual([]);
});

test('the SVG follows the current look: the dark theme exports a dark background', async ({ page }) => {
  await openApp(page, '?theme=dark');
  const svg = (await download(page, '#export-rate-svg')).bytes.toString('utf8');
  expect(svg).toMatch(/<rect[^>]*fill="#16191D"/);
  await openApp(page, '?theme=light');
  expect((await download(page, '#export-rate-svg')).bytes.toString('utf8')).not.toContain('#16191D');
});

test('file names follow the scenario: model, GPU, precision, context and target', async ({ page }) => {
  const errors = await openApp(page, '?model=qwen3-8b&gpu=h200-sxm&kv=fp8&tpot=25');
  await pressOn(page, 'in', 'ArrowRight');
  // The file names carry the context: the prompt plus 256 / 2.
  const ctx = String(Number((await page.locator('#in-value').textContent()).replace(/[^0-9]/g, '')) + 128);
  const { name } = await download(page, '#export-step-svg');
  expect(name).toBe(`goodput-lab_qwen3-8b_h200-sxm_fp8-kv_ctx${ctx}_tpot25ms_step.svg`);
  expect((await download(page, '#export-table-csv')).name).toContain(`_ctx${ctx}_`);
  expect(errors).toEqual([]);
});

test('a vllm bench serve result overlays its points and fits the MBU and overhead that generated it', async ({ page }) => {
  const errors = await openApp(page);
  const before = await canvasImage(page, 'chart-step');
  await upload(page, 'vllm-bench-llama-3.1-8b-h100.jsonl');
  await expect(page.locator('#measured-status')).toContainText('6 points from a vLLM benchmark result');
  await expect.poll(() => canvasImage(page, 'chart-step')).not.toEqual(before);
  const fit = await shownFit(page);
  expect(Math.abs(fit.mbu - TRUE_MBU_PCT)).toBeLessThan(0.7);
  expect(Math.abs(fit.overhead - TRUE_OVERHEAD_MS)).toBeLessThan(0.1);
  await expect(page.locator('#fit-points')).toHaveText('6');
  await urlSettled(page);
  expect(queryValue(page, 'measured').split(',').map((p) => p.split(':')[0])).toEqual(['1', '4', '16', '32', '64', '128']);
  const svg = (await download(page, '#export-step-svg')).bytes.toString('utf8');
  expect(svg).toContain('Your TPOT');

  await page.click('#use-fit');
  await expect(page.locator('#calib')).toHaveValue('fit');
  await urlSettled(page);
  expect(Math.abs(Number(queryValue(page, 'mbu')) - fit.mbu)).toBeLessThan(0.06);
  expect(Math.abs(Number(queryValue(page, 'overhead')) - fit.overhead)).toBeLessThan(0.006);
  await expect(page.locator('#fit-in-use')).toHaveText('Realistic mode uses this fit.');
  expect(errors).toEqual([]);
});

test('pasting the result, or dropping a CSV, gives the same fit', async ({ page }) => {
  const errors = await openApp(page);
  await openMeasured(page);
  await page.fill('#measured-text', fs.readFileSync(fixture('vllm-bench-array.json'), 'utf8'));
  await page.click('#measured-plot');
  const pasted = await shownFit(page);
  expect(Math.abs(pasted.mbu - TRUE_MBU_PCT)).toBeLessThan(0.7);

  await page.click('#clear-measured');
  await expect(page.locator('#fit-mbu')).toHaveCount(0);
  await urlSettled(page);
  expect(queryValue(page, 'measured')).toBeNull();
  const before = await canvasImage(page, 'chart-step');
  const dataTransfer = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'measured.csv', { type: 'text/csv' }));
    return dt;
  }, fs.readFileSync(fixture('measured.csv'), 'utf8'));
  await page.dispatchEvent('#measured-drop', 'drop', { dataTransfer });
  await expect(page.locator('#measured-status')).toContainText('measured.csv: 6 points from a CSV');
  const dropped = await shownFit(page);
  expect(Math.abs(dropped.mbu - TRUE_MBU_PCT)).toBeLessThan(0.06);
  expect(Math.abs(dropped.overhead - TRUE_OVERHEAD_MS)).toBeLessThan(0.006);
  await expect.poll(() => canvasImage(page, 'chart-step')).not.toEqual(before);
  expect(errors).toEqual([]);
});

test('a link with measured= reopens the points and the fit', async ({ page }) => {
  const errors = await openApp(page);
  await upload(page, 'vllm-bench-llama-3.1-8b-h100.jsonl');
  const fit = await shownFit(page);
  const image = await canvasImage(page, 'chart-step');
  await urlSettled(page);
  await openApp(page, `?${new URL(page.url()).searchParams.toString()}`);
  expect(await shownFit(page)).toEqual(fit);
  expect(await canvasImage(page, 'chart-step')).toEqual(image);
  expect(errors).toEqual([]);
});

for (const [file, message] of [
  ['bad-null-concurrency.json', 'JSON result 1 has max_concurrency null: the run had no --max-concurrency'],
  ['bad-no-tpot.json', 'JSON result 2 has no mean_tpot_ms.'],
  ['bad-syntax.json', 'line 1, column 200: not valid JSON'],
  ['bad-tpot.csv', 'line 3: TPOT “abc” is not a number.'],
  ['bad-one-column.csv', 'line 1 has 1 column: a CSV needs two columns: batch, TPOT in ms.'],
]) {
  test(`${file} gets a message naming the problem, and the page keeps working`, async ({ page }) => {
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

test('a fit outside the controls is shown as fitted, warned about, and clamped when used', async ({ page }) => {
  const errors = await openApp(page);
  // Steps faster than peak bandwidth allows: the fitted MBU is above 100%.
  await openMeasured(page);
  await page.fill('#measured-text', 'batch,tpot_ms\n1,4.5\n64,8.0\n128,12.0');
  await page.click('#measured-plot');
  const fit = await shownFit(page);
  expect(fit.mbu).toBeGreaterThan(100);
  await expect(page.locator('#fit-warnings')).toContainText('MBU above 100%');
  await page.click('#use-fit');
  await expect(page.locator('#fit-applied')).toContainText('outside');
  await urlSettled(page);
  expect(queryValue(page, 'mbu')).toBe('100');
  expect(errors).toEqual([]);
});

test('one measured batch fits MBU alone and says the overhead is fixed at 0', async ({ page }) => {
  const errors = await openApp(page, '?measured=64:12.4');
  await expect(page.locator('#fit-overhead')).toHaveText('0.00 ms');
  await expect(page.locator('#fit-warnings')).toContainText('fixed at 0');
  expect(errors).toEqual([]);
});

test('the simulator\'s charts and data table export once a sweep lands', async ({ page }) => {
  const errors = await openApp(page, '?sim=1&requests=300&points=6');
  await expect.poll(async () => Number(await page.locator('#sim-status').getAttribute('data-sweeps')), { timeout: 20_000 })
    .toBeGreaterThan(0);
  const svg = (await download(page, '#export-attainment-svg')).bytes.toString('utf8');
  expect(svg).toContain('<title>SLO attainment against request rate</title>');
  const png = (await download(page, '#export-sim-throughput-png')).bytes;
  expect(Array.from(png.subarray(0, 8))).toEqual(PNG_SIGNATURE);
  await page.click('#sim-data summary');
  const { name, bytes } = await download(page, '#export-sim-table-csv');
  const [, ...rows] = parseCsv(bytes.toString('utf8'));
  const domRows = await page.locator('#sim-table tbody tr').evaluateAll((trs) =>
    trs.map((r) => Array.from(r.children).map((c) => c.textContent.trim())));
  expect(rows).toEqual(domRows);
  expect(name).toContain('_sim-table.csv');
  expect(errors).toEqual([]);
});

test('the measured panel loads its code only when asked for, or at once for a link that carries points', async ({ page }) => {
  const fetched = [];
  page.context().on('request', (r) => fetched.push(new URL(r.url()).pathname));
  const lazy = () => fetched.filter((p) => /\/goodput_lazy(\.js|_bg\.wasm)$/.test(p));
  const errors = await openApp(page);
  await page.waitForLoadState('networkidle');
  expect(lazy()).toEqual([]);
  await expect(page.locator('#measured-text')).toHaveCount(0);
  await page.click('#measured-open');
  await expect(page.locator('#measured-text')).toBeVisible();
  expect(lazy().sort()).toEqual(['/dist/goodput_lazy.js', '/dist/goodput_lazy_bg.wasm']);
  await openApp(page, '?measured=1:8.6,64:15.6');
  await expect(page.locator('#measured-open')).toHaveCount(0);
  await expect(page.locator('#fit-mbu')).toBeVisible();
  expect(errors).toEqual([]);
});
