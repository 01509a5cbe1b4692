//! The configuration search in Chromium (issue 14): the full default search on one thread of the
//! worker's own wasm, and as the page runs it (request to merged rows, over its worker pool).
const { median, report, DIST, benchInput } = require('./lib');

const RUNS = 5;

/** Runs in the page: one warm-up, then `runs` timed calls of the worker's benchmark export on
 *  `spec` (the default state's, from `benchInput`). */
async function timeSearches({ runs, spec }) {
  const bytes = new Uint8Array(spec);
  window.benchSearch(bytes);
  const out = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const [rows, evaluated] = window.benchSearch(bytes);
    out.push({ ms: performance.now() - t0, rows, evaluated });
  }
  return out;
}

async function oneThread(browser, base) {
  const page = await browser.newPage();
  await page.goto(`${base}/bench/browser/search_wasm.html`);
  await page.waitForFunction(() => typeof window.benchSearch === 'function', null, { timeout: 30_000 });
  const runs = await page.evaluate(timeSearches, { runs: RUNS, spec: benchInput('search', '') });
  await page.close();
  const ms = runs.map((r) => r.ms);
  console.log(`#   one thread: ${ms.map((x) => x.toFixed(1)).join(', ')} ms; ${runs[0].rows} rows of ${runs[0].evaluated} evaluated`);
  report('search.wasm.one_thread.median', median(ms), 'ms');
  return { ms, rows: runs[0].rows, evaluated: runs[0].evaluated };
}

/** Waits for a search finished after `after` with nothing in flight; returns its status. */
async function settled(page, after) {
  await page.waitForFunction((n) => {
    const s = document.getElementById('search-status');
    return s && Number(s.dataset.searches) > n && s.dataset.busy === 'false';
  }, after, { timeout: 60_000 });
  return page.$eval('#search-status', (s) => ({
    searches: Number(s.dataset.searches), ms: Number(s.dataset.ms), evaluated: Number(s.dataset.evaluated),
  }));
}

/** Cold: the page opened with the search panel (workers fetched and compiled then). Warm: the
 *  H100 SXM's price doubled and set back, five times; each is a full search of the default state. */
async function inPage(browser, base) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/${DIST}/index.html?search=1`);
  let s = await settled(page, 0);
  const cold = s.ms;
  const warm = [];
  await page.locator('#search-prices summary').click();
  const price = await page.locator('#price-h100-sxm').inputValue();
  for (let i = 0; i < RUNS; i++) {
    for (const value of [String(Number(price) * 2), price]) {
      await page.fill('#price-h100-sxm', value);
      await page.press('#price-h100-sxm', 'Enter');
      s = await settled(page, s.searches);
      if (value === price) warm.push(s.ms);
    }
  }
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  await context.close();
  console.log(`#   in the page (${cores} cores): cold ${cold.toFixed(1)} ms, warm ${warm.map((x) => x.toFixed(1)).join(', ')} ms; ${s.evaluated} evaluated`);
  report('search.page.cold', cold, 'ms');
  report('search.page.warm.median', median(warm), 'ms', { op: '<=', value: 300 });
  return { coldMs: cold, warmMs: warm, warmMedianMs: median(warm), evaluated: s.evaluated, cores };
}

async function search(browser, base) {
  return { oneThread: await oneThread(browser, base), page: await inPage(browser, base) };
}

module.exports = { search };
