//! Shared pieces of the browser benchmarks: a static server for the repository on loopback,
//! Chromium's launch, statistics and the printed result lines.
const { execFileSync } = require('child_process');
const fs = require('fs');
const http = require('http');
const path = require('path');

// Playwright from the browser tests' install (tests/e2e/node_modules), driving Debian's Chromium.
const { chromium } = require('../../tests/e2e/node_modules/playwright-core');

const ROOT = path.join(__dirname, '../..');
// The build under test, relative to ROOT (BENCH_DIST, e.g. a copy of an earlier build to compare).
const DIST = process.env.BENCH_DIST || 'dist';
// The reference page (bench/reference, `make bench-reference`), relative to ROOT.
const REFERENCE_DIST = process.env.BENCH_REFERENCE_DIST || 'bench/reference/dist';
const TYPES = {
  '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json',
};

// Every request the server answered, in order ({ path, t }): what reached the network, not a cache.
const served = [];

/** Serves the repository root (so the app runs under /dist/, as in the browser tests) on a free
 *  loopback port, uncompressed, with the caching headers of a typical static host (GitHub Pages:
 *  `Cache-Control: max-age=600` and Last-Modified). Without them Chromium fetches the icon again on
 *  every history.replaceState, i.e. on every slider input. Resolves to { server, base }. */
function serve() {
  const server = http.createServer((req, res) => {
    served.push({ path: new URL(req.url, 'http://x').pathname, t: Date.now() });
    const file = path.join(ROOT, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (!file.startsWith(ROOT)) { res.writeHead(403).end(); return; }
    fs.readFile(file, (err, body) => {
      if (err) { res.writeHead(404).end(); return; }
      res.writeHead(200, {
        'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream',
        'Cache-Control': 'max-age=600',
        'Last-Modified': fs.statSync(file).mtime.toUTCString(),
      });
      res.end(body);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () =>
    resolve({ server, base: `http://127.0.0.1:${server.address().port}` })));
}

/** Headless Debian Chromium with the browser tests' flags. */
function launch(extraArgs = []) {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extraArgs],
  });
}

/** The q-quantile (0..1) of `xs` by linear interpolation between order statistics. */
function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const i = (s.length - 1) * q;
  const lo = Math.floor(i);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (i - lo);
}
const median = (xs) => quantile(xs, 0.5);

const results = [];

/** Prints one greppable line `metric value unit budget verdict` and records it for results.json.
 *  `budget` is { op: '<=' | '>=', value } or undefined (reported for information: verdict '-'). */
function report(metric, value, unit, budget) {
  const pass = budget && (budget.op === '<=' ? value <= budget.value : value >= budget.value);
  const verdict = budget ? (pass ? 'PASS' : 'FAIL') : '-';
  const shown = Math.abs(value) >= 1000 ? Math.round(value).toString() : Number(value.toPrecision(4)).toString();
  const limit = budget ? `${budget.op}${budget.value}` : '-';
  console.log(`${metric.padEnd(44)} ${shown.padStart(12)} ${unit.padEnd(6)} budget ${limit.padEnd(9)} ${verdict}`);
  results.push({ metric, value, unit, budget: budget || null, verdict });
}

/** The page under test at `query`: its URL, the selector that says it is drawn, whether the
 *  simulator is open. */
function oursPage(base, query = '') {
  return { name: 'ours', url: `${base}/${DIST}/index.html${query}`, ready: '#batch-table tbody tr', sim: query.includes('sim=1') };
}

/** The reference page: one range input and one chart, whose canvas gets `data-draws` once drawn. */
function referencePage(base) {
  return { name: 'reference', url: `${base}/${REFERENCE_DIST}/index.html`, ready: 'canvas[data-draws]', sim: false };
}

/** What the workers' benchmark exports take for a page URL's `query`: the `SimPlan` (`kind` 'sim') or
 *  `SearchSpec` ('search') as postcard bytes, an array of numbers, from the native `bench_input` bin
 *  (the workers' wasm has no URL parser). Pass it to the export as a Uint8Array. */
function benchInput(kind, query, ...rest) {
  const out = execFileSync('cargo', ['run', '-q', '--bin', 'bench_input', '--', kind, query, ...rest],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 << 20 });
  return out.trim().split(',').map(Number);
}

module.exports = {
  ROOT, DIST, REFERENCE_DIST, serve, served, launch, quantile, median, report, results, oursPage, referencePage, benchInput,
};
