//! What opening the simulator costs after a first visit (issue 26): the bytes fetched when its panel
//! opens (gzip -9 of each file the server sent after the click), how often each wasm module was
//! fetched and compiled, and the cold sweep against the warm ones (sim.js's marks and seed toggle).
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { ROOT, served, median, oursPage } = require('./lib');
const { settled, lastSweep, warmSweeps } = require('./sim');

/** Runs in the page before its scripts: counts the main thread's wasm compiles (a compile or
 *  instantiate from bytes or a Response, not from a compiled Module) in window.__wasmCompiles. */
function countCompiles() {
  const log = [];
  window.__wasmCompiles = log;
  for (const k of ['compile', 'compileStreaming', 'instantiate', 'instantiateStreaming']) {
    const f = WebAssembly[k];
    WebAssembly[k] = function wrapped(src, ...rest) {
      if (!(src instanceof WebAssembly.Module)) {
        const i = log.push(k) - 1;
        Promise.resolve(src).then((r) => { if (r && r.url) log[i] = `${k} ${new URL(r.url).pathname}`; }, () => {});
      }
      return f.call(this, src, ...rest);
    };
  }
}

/** Resolves once the server has answered nothing for `quietMs`. */
async function networkQuiet(quietMs) {
  for (;;) {
    const last = served.length ? served[served.length - 1].t : 0;
    const wait = last + quietMs - Date.now();
    if (wait <= 0) return;
    await new Promise((r) => setTimeout(r, wait));
  }
}

const gzipBytes = (p) => zlib.gzipSync(fs.readFileSync(path.join(ROOT, decodeURIComponent(p))), { level: 9 }).length;

/** Counts `paths` by value, as { path: count } for those ending in .wasm. */
function wasmCounts(paths) {
  const out = {};
  for (const p of paths.filter((x) => x.endsWith('.wasm'))) out[p] = (out[p] || 0) + 1;
  return out;
}

/** A fresh context (empty cache): the default page until idle, then the simulator opened, its
 *  first (cold) sweep, the network quiet for 1 s, then the warm sweeps. */
async function simOpen(browser, base) {
  const sessionServed = served.length;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(countCompiles);
  const requested = [];
  context.on('request', (r) => requested.push(new URL(r.url()).pathname));
  const page = await context.newPage();
  const spec = oursPage(base);
  await page.goto(spec.url);
  await page.waitForSelector(spec.ready);
  await page.waitForLoadState('networkidle');
  await networkQuiet(1000);
  const visitServed = served.length;
  const visitRequested = requested.length;
  await page.click('#sim-toggle');
  const n = await settled(page, 0);
  const cold = await lastSweep(page);
  await networkQuiet(1000);
  const opened = [...new Set(served.slice(visitServed).map((s) => s.path))];
  const files = opened.map((p) => ({ path: p, gzip: gzipBytes(p) }));
  const warm = await warmSweeps(page, n);
  const compiles = await page.evaluate(() => window.__wasmCompiles);
  const out = {
    files, extraGzip: files.reduce((a, f) => a + f.gzip, 0), coldMs: cold.ms, warmMs: warm.map((s) => s.ms),
    warmMedianMs: median(warm.map((s) => s.ms)), servedWasm: wasmCounts(served.slice(sessionServed).map((s) => s.path)),
    requestedWasm: wasmCounts(requested), requestedOnOpen: requested.length - visitRequested, mainThreadCompiles: compiles,
    workers: page.workers().map((w) => path.basename(new URL(w.url()).pathname)),
  };
  await context.close();
  for (const f of files) console.log(`#   opened: ${f.path.padEnd(48)} ${String(f.gzip).padStart(9)} B gzip -9`);
  for (const [p, c] of Object.entries(out.requestedWasm)) {
    console.log(`#   ${p}: requested ${c} times (${out.servedWasm[p] || 0} reached the server)`);
  }
  console.log(`#   main-thread wasm compiles: ${compiles.join(', ') || 'none'}; workers running: ${out.workers.join(', ')} `
    + '(a worker compiles what it fetches: each request of a worker\'s .wasm is one compile)');
  console.log(`#   cold sweep ${out.coldMs.toFixed(1)} ms; warm ${out.warmMs.map((x) => x.toFixed(1)).join(', ')} ms`);
  return out;
}

module.exports = { simOpen };
