//! Side by side with the reference page (issue 26): each browser figure measured on our page and on
//! bench/reference/dist (built in the same `make bench` run) one after the other, printed as ours,
//! the reference's and their ratio, with the issue's budgets on the ratios. A machine's load moves
//! both pages alike, so the ratios hold where the wall-clock budgets swing 2-4x.
const fs = require('fs');
const path = require('path');
const { ROOT, REFERENCE_DIST, report, oursPage, referencePage } = require('./lib');
const { coldLoad } = require('./load');
const { measure } = require('./latency');
const { measureSpec, DROP_FACTOR } = require('./drag');
const { simOpen } = require('./simopen');

// Our slider for the drag (the reference has one, `k`).
const DRAG_SLIDER = (process.env.BENCH_DRAG_SLIDERS || 'in').split(',')[0];

const rows = [];

/** One row of the table; a budget also goes through report() (results.json and the exit status). */
function row(figure, unit, ours, reference, budget, ratio = reference === undefined ? undefined : ours / reference) {
  const pass = budget ? budget.pass : undefined;
  rows.push({ figure, unit, ours, reference, ratio, budget: budget ? budget.text : '-', verdict: budget ? (pass ? 'PASS' : 'FAIL') : '-' });
  if (budget) report(`side.${budget.key}`, budget.value, budget.unit, { op: '<=', value: budget.limit });
}

const fmt = (x, unit) => (x === undefined || Number.isNaN(x) ? '-' : unit === 'B' ? Math.round(x).toLocaleString('en-US')
  : unit === '%' ? `${(100 * x).toFixed(1)}%` : unit === 'n' ? String(x) : x.toFixed(2));

function printTable() {
  console.log('# side by side: figure | ours | reference | ratio | budget | verdict');
  for (const r of rows) {
    console.log(`${r.figure.padEnd(40)} ${fmt(r.ours, r.unit).padStart(10)} ${fmt(r.reference, r.unit).padStart(10)} `
      + `${(r.ratio === undefined ? '-' : `${r.ratio.toFixed(2)}x`).padStart(7)}  ${r.budget.padEnd(34)} ${r.verdict}`);
  }
}

const gzipOf = (files) => files.reduce((a, f) => a + f.gzip, 0);

async function firstVisit(browser, base) {
  const [o, r] = [await coldLoad(browser, oursPage(base)), await coldLoad(browser, referencePage(base))];
  const [ours, ref] = [gzipOf(o.files), gzipOf(r.files)];
  const list = (files) => files.map((f) => `${f.path.split('/').pop()} ${f.gzip}`).join(', ');
  console.log(`#   first visit, gzip -9: ours ${ours} B (${list(o.files)}); reference ${ref} B (${list(r.files)})`);
  row('first visit, gzipped', 'B', ours, ref, { key: 'load.gzip.ratio', value: ours / ref, unit: 'x', limit: 2, pass: ours <= 2 * ref, text: 'ours <= 2.0x reference' });
  return { oursGzip: ours, referenceGzip: ref };
}

/** Latency per slider input: the reference before and after ours, its two runs pooled. */
async function perInput(browser, base) {
  const r1 = await measure(browser, referencePage(base), 'side.reference.1', undefined, 1);
  const ours = await measure(browser, oursPage(base), 'side.ours', undefined, 1);
  const r2 = await measure(browser, referencePage(base), 'side.reference.2', undefined, 1);
  const ref = { p50: (r1.p50 + r2.p50) / 2, p95: (r1.p95 + r2.p95) / 2 };
  console.log(`#   reference before ours: p50 ${r1.p50.toFixed(2)} p95 ${r1.p95.toFixed(2)} ms; after: p50 ${r2.p50.toFixed(2)} p95 ${r2.p95.toFixed(2)} ms`);
  row('slider input to end of frame p50 (ms)', 'ms', ours.p50, ref.p50);
  row('slider input to end of frame p95 (ms)', 'ms', ours.p95, ref.p95,
    { key: 'latency.p95.ratio', value: ours.p95 / ref.p95, unit: 'x', limit: 1.5, pass: ours.p95 <= 1.5 * ref.p95, text: 'ours p95 <= 1.5x reference' });
  const one = ours.sliders[DRAG_SLIDER];
  if (one) row(`  the same, our ${DRAG_SLIDER} slider alone p95`, 'ms', one.p95, ref.p95);
  return { ours, reference: [r1, r2] };
}

/** One-input-per-frame drag: the reference before and after ours, its two runs averaged. */
async function dragged(browser, base) {
  const r1 = (await measureSpec(browser, referencePage(base), ['k'])).k;
  const ours = (await measureSpec(browser, oursPage(base), [DRAG_SLIDER]))[DRAG_SLIDER];
  const r2 = (await measureSpec(browser, referencePage(base), ['k'])).k;
  const ref = { frameMsMedian: (r1.frameMsMedian + r2.frameMsMedian) / 2, droppedShare: (r1.droppedShare + r2.droppedShare) / 2 };
  const atRefresh = ours.frameMsMedian <= DROP_FACTOR * ours.refreshMs;
  row(`drag: median frame (ms; refresh ${ours.refreshMs.toFixed(1)})`, 'ms', ours.frameMsMedian, ref.frameMsMedian,
    { key: 'drag.frame_median_over_refresh', value: ours.frameMsMedian / ours.refreshMs, unit: 'x', limit: DROP_FACTOR, pass: atRefresh,
      text: `ours <= ${DROP_FACTOR}x its idle refresh` });
  const extra = ours.droppedShare - ref.droppedShare;
  row(`drag: frames > ${DROP_FACTOR}x refresh`, '%', ours.droppedShare, ref.droppedShare,
    { key: 'drag.dropped_points_over_reference', value: 100 * extra, unit: 'points', limit: 5, pass: extra <= 0.05,
      text: 'ours <= reference + 5 points' });
  return { ours, reference: [r1, r2] };
}

async function openSim(browser, base) {
  const s = await simOpen(browser, base);
  row('simulator opened: extra gzipped', 'B', s.extraGzip, undefined,
    { key: 'sim_open.extra_gzip', value: s.extraGzip, unit: 'B', limit: 150000, pass: s.extraGzip <= 150000, text: '<= 150,000 B beyond the first visit' });
  const most = Math.max(...Object.values(s.requestedWasm), ...Object.values(s.servedWasm));
  row('simulator opened: most fetches of a .wasm', 'n', most, undefined,
    { key: 'sim_open.wasm_fetches.max', value: most, unit: 'fetches', limit: 1, pass: most <= 1, text: 'each .wasm fetched (and compiled) once' });
  row(`cold sweep (ms; ratio to warm ${s.warmMedianMs.toFixed(1)})`, 'ms', s.coldMs, undefined,
    { key: 'sim_open.sweep.cold_over_warm', value: s.coldMs / s.warmMedianMs, unit: 'x', limit: 2, pass: s.coldMs <= 2 * s.warmMedianMs, text: 'cold <= 2x warm median' },
    s.coldMs / s.warmMedianMs);
  return s;
}

async function compare(browser, base) {
  if (!fs.existsSync(path.join(ROOT, REFERENCE_DIST, 'index.html'))) throw new Error(`no ${REFERENCE_DIST}/index.html: run \`make bench-reference\``);
  rows.length = 0;
  const out = { load: await firstVisit(browser, base), latency: await perInput(browser, base), drag: await dragged(browser, base) };
  out.simOpen = await openSim(browser, base);
  printTable();
  out.rows = rows;
  return out;
}

module.exports = { compare };
