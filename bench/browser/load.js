//! Load: what a first visit fetches (raw and gzipped bytes per file) and the time from navigation
//! to the first chart drawn, over cold loads of dist/index.html.
const zlib = require('zlib');
const { median, report, oursPage } = require('./lib');

const LOADS = 5;

/** One cold load in a fresh context with the cache disabled: every response body until the page
 *  is idle, and the `goodput:first-chart` mark's time from navigation start (ms). */
async function coldLoad(browser, spec) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const bodies = [];
  page.on('response', (r) => bodies.push(r.body().then((b) => ({ url: r.url(), status: r.status(), body: b }))
    .catch(() => ({ url: r.url(), status: r.status(), body: Buffer.alloc(0) }))));
  await page.goto(spec.url);
  // Idle: the first chart is on the page and no request has been in flight for 500 ms. The
  // reference page has no mark: its time to the first chart is not measured.
  const mark = spec.name === 'ours';
  if (mark) await page.waitForFunction(() => performance.getEntriesByName('goodput:first-chart').length > 0, null, { timeout: 30_000 });
  else await page.waitForSelector(spec.ready);
  await page.waitForLoadState('networkidle');
  const firstChartMs = mark ? await page.evaluate(() => performance.getEntriesByName('goodput:first-chart')[0].startTime) : NaN;
  // Each file once: Chromium may ask for the icon twice (the <link> and the tab), which a host's
  // cache would answer; the second fetch is counted in `fetches`, not in the bytes.
  const files = [];
  for (const { url, status, body } of await Promise.all(bodies)) {
    const seen = files.find((f) => f.url === url);
    if (seen) { seen.fetches++; continue; }
    files.push({ url, path: new URL(url).pathname, status, fetches: 1, raw: body.length,
      gzip: zlib.gzipSync(body, { level: 9 }).length });
  }
  await context.close();
  return { firstChartMs, files };
}

/** Five cold loads: the files of the first (the others must fetch the same bytes), the median time. */
async function load(browser, base) {
  const runs = [];
  for (let i = 0; i < LOADS; i++) runs.push(await coldLoad(browser, oursPage(base)));
  const { files } = runs[0];
  const sum = (fs, k) => fs.reduce((a, f) => a + f[k], 0);
  for (const f of [...files].sort((a, b) => b.gzip - a.gzip)) {
    console.log(`#   ${f.path.padEnd(48)} ${String(f.raw).padStart(9)} B raw ${String(f.gzip).padStart(9)} B gzip -9  `
      + `(HTTP ${f.status}${f.fetches > 1 ? `, fetched ${f.fetches} times` : ''})`);
  }
  const raw = sum(files, 'raw');
  const gzip = sum(files, 'gzip');
  const same = runs.every((r) => sum(r.files, 'gzip') === gzip);
  if (!same) console.log('#   note: the cold loads did not all fetch the same files');
  report('load.files', files.length, 'files');
  report('load.total.raw', raw, 'B');
  report('load.total.gzip', gzip, 'B', { op: '<=', value: 150000 });
  report('load.total.gzip.kib', gzip / 1024, 'KiB');
  const times = runs.map((r) => r.firstChartMs);
  console.log(`#   first chart after navigation, ${LOADS} cold loads: ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
  report('load.first_chart.median', median(times), 'ms', { op: '<=', value: 500 });
  return { files, raw, gzip, firstChartMs: times, firstChartMedianMs: median(times), sameEveryLoad: same };
}

module.exports = { load, coldLoad };
