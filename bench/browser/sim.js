//! The simulator in WASM: simulated requests per second of the worker's own wasm in Chromium, and
//! the time of one full attainment sweep as the page runs it (request to result, in its worker).
const { median, report, DIST, benchInput } = require('./lib');

// The workload: Llama 3.1 8B on one H100 SXM, Poisson arrivals, fixed 2,048-token prompts
// (the simulator's prompt is context - output / 2, so context 2,176) and 256-token outputs, a
// 512-token step budget, at most 64 sequences; 20,000 requests per run (the most the URL allows).
const WORKLOAD = 'model=llama-3.1-8b&gpu=h100-sxm&ctx=2176&out=256&arrivals=poisson&lengths=fixed'
  + '&chunk=512&cap=64&requests=20000';
// Offered load in requests/s: about 80% of the analytic rate at batch 64 (24.4 req/s). Since the
// per-operator step (issue 14) it overloads the simulated server (a 512-token mixed step takes
// 13.98 ms; goodput is about 12 req/s), so the queue grows through the run: that is the workload
// the budget is set on (issue 15), not changed to pass. BENCH_RATE overrides it.
const RATE = Number(process.env.BENCH_RATE || 20);
const RUNS = 5;
// Calls of the export per timed sample (10 x 20,000 requests), so a sample lasts long enough that
// the page's coarsened clock (0.1 ms) and a scheduler hiccup matter little.
const CALLS = 10;
// Calls before the samples, for at least this long: V8 runs a wasm function first as Liftoff (its
// baseline compiler's) code and swaps in TurboFan's (optimised, inlined on the call counts Liftoff
// gathered) once a background compile finishes. Here that took 50-100 calls (0.4-0.8 s); the
// samples time the optimised code, the engine's speed. The first calls are reported beside them:
// they are what a fresh worker's first sweep runs at (the cold sweep's budget covers that).
const WARMUP_MS = 2000;
// Warm-up calls reported on their own: the JIT's first tier.
const FIRST_CALLS = 25;

/** Runs in the page: calls for `warmupMs` (the first `firstCalls` timed one by one), then `runs`
 *  samples of `calls` calls of the worker's benchmark export on `plan` (the workload's, from
 *  `benchInput`), each timed with performance.now(). */
async function timeRuns({ plan, rate, runs, calls, warmupMs, firstCalls }) {
  const bytes = new Uint8Array(plan);
  const first = [];
  const w0 = performance.now();
  let warmupCalls = 0;
  while (warmupCalls < firstCalls || performance.now() - w0 < warmupMs) {
    const t0 = performance.now();
    window.benchSimulate(bytes, rate);
    if (first.length < firstCalls) first.push(performance.now() - t0);
    warmupCalls += 1;
  }
  const out = [];
  for (let i = 0; i < runs; i++) {
    let requests = 0;
    let last = [];
    const t0 = performance.now();
    for (let c = 0; c < calls; c++) {
      last = window.benchSimulate(bytes, rate);
      requests += last[0];
    }
    out.push({ ms: performance.now() - t0, requests, servedPerS: last[1], attained: last[2] });
  }
  return { runs: out, warmup: { calls: warmupCalls, ms: performance.now() - w0, firstMs: first } };
}

async function wasmThroughput(browser, base) {
  const page = await browser.newPage();
  await page.goto(`${base}/bench/browser/wasm.html?dist=${encodeURIComponent(DIST)}`);
  await page.waitForFunction(() => typeof window.benchSimulate === 'function', null, { timeout: 30_000 });
  const { runs, warmup } = await page.evaluate(timeRuns,
    { plan: benchInput('sim', WORKLOAD), rate: RATE, runs: RUNS, calls: CALLS, warmupMs: WARMUP_MS, firstCalls: FIRST_CALLS });
  await page.close();
  const perS = runs.map((r) => r.requests / (r.ms / 1e3));
  const r0 = runs[0];
  const firstPerS = (r0.requests / CALLS) / (median(warmup.firstMs) / 1e3);
  console.log(`#   JIT warm-up: ${warmup.calls} calls in ${warmup.ms.toFixed(0)} ms; the first ${FIRST_CALLS} `
    + `(Liftoff's code until TurboFan's arrives) median ${median(warmup.firstMs).toFixed(1)} ms a call, `
    + `${Math.round(firstPerS).toLocaleString('en-US')} req/s`);
  console.log(`#   ${RUNS} samples of ${r0.requests} requests at ${RATE} req/s: ${runs.map((r) => r.ms.toFixed(1)).join(', ')} ms; `
    + `served ${r0.servedPerS.toFixed(2)} req/s, ${(100 * r0.attained).toFixed(1)}% met both targets`);
  report('sim.wasm.requests_per_s.median', median(perS), 'req/s', { op: '>=', value: 5000000 });
  return { workload: WORKLOAD, rateReqPerS: RATE, runs, requestsPerSMedian: median(perS), warmup, firstCallsReqPerS: firstPerS };
}

/** Waits for a sweep delivered after `after` with nothing in flight; returns the sweep count. It
 *  waits on a MutationObserver of the status's attributes, not by polling: Playwright's
 *  waitForFunction polls on every animation frame by default, which keeps Chromium producing frames
 *  (a rAF callback, style, paint and a compositor frame, on the main thread and in the browser
 *  process) through the whole sweep, CPU the page itself would not spend, taken from the workers on
 *  a 2-core machine. */
async function settled(page, after) {
  await page.evaluate((n) => new Promise((resolve, reject) => {
    const done = () => {
      const s = document.getElementById('sim-status');
      return s && Number(s.dataset.sweeps) > n && s.dataset.busy === 'false';
    };
    if (done()) { resolve(); return; }
    const timer = setTimeout(() => { observer.disconnect(); reject(new Error('no sweep within 60 s')); }, 60_000);
    const observer = new MutationObserver(() => {
      if (done()) { observer.disconnect(); clearTimeout(timer); resolve(); }
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-sweeps', 'data-busy'] });
  }), after);
  return page.$eval('#sim-status', (s) => Number(s.dataset.sweeps));
}

/** The last sweep's time between the runner's marks (goodput:sweep-start, goodput:sweep-end),
 *  and the page's own status line; clears the marks for the next one. */
async function lastSweep(page) {
  return page.evaluate(() => {
    const [start] = performance.getEntriesByName('goodput:sweep-start').slice(-1);
    const [end] = performance.getEntriesByName('goodput:sweep-end').slice(-1);
    performance.clearMarks('goodput:sweep-start');
    performance.clearMarks('goodput:sweep-end');
    return { ms: end.startTime - start.startTime, status: document.getElementById('sim-speed')?.textContent || '' };
  });
}

/** RUNS warm sweeps of the default state on `page` (its simulator open, `n` sweeps delivered): the
 *  seed set to 2 and back to 1, each return timed. Resolves to their lastSweep()s. */
async function warmSweeps(page, n) {
  const warm = [];
  for (let i = 0; i < RUNS; i++) {
    for (const seed of ['2', '1']) {
      await page.fill('#seed', seed);
      await page.press('#seed', 'Enter');
      n = await settled(page, n);
      const s = await lastSweep(page);
      if (seed === '1') warm.push(s);
    }
  }
  return warm;
}

/** Cold: the default page, then the simulator opened (the worker's files fetched and compiled then).
 *  Warm: the seed set to 2 and back to 1, five times; each return is a sweep of the default state. */
async function sweepTime(browser, base) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/${DIST}/index.html`);
  await page.waitForSelector('#batch-table tbody tr');
  await page.click('#sim-toggle');
  const n = await settled(page, 0);
  const cold = await lastSweep(page);
  console.log(`#   cold sweep: ${cold.status}`);
  const warm = await warmSweeps(page, n);
  console.log(`#   warm sweeps: ${warm.map((s) => s.ms.toFixed(1)).join(', ')} ms; last: ${warm[RUNS - 1].status}`);
  await context.close();
  report('sim.sweep.cold', cold.ms, 'ms', { op: '<=', value: 100 });
  report('sim.sweep.warm.median', median(warm.map((s) => s.ms)), 'ms', { op: '<=', value: 100 });
  return { coldMs: cold.ms, warmMs: warm.map((s) => s.ms), warmMedianMs: median(warm.map((s) => s.ms)), status: warm[RUNS - 1].status };
}

/** The default state's whole result computed on one thread in the page (the worker's
 *  `bench_sweep` export: every seed, then the tail), best and median of 7 after one warm-up: the
 *  engine's share of the page's sweep, without the pool or the messages. Detail, no budget. */
async function singleThreadSweep(browser, base) {
  const page = await browser.newPage();
  await page.goto(`${base}/bench/browser/wasm.html?dist=${encodeURIComponent(DIST)}`);
  await page.waitForFunction(() => typeof window.benchSweep === 'function', null, { timeout: 30_000 });
  const ms = await page.evaluate((plan) => {
    const bytes = new Uint8Array(plan);
    window.benchSweep(bytes);
    const out = [];
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      window.benchSweep(bytes);
      out.push(performance.now() - t0);
    }
    return out;
  }, benchInput('sim', 'sim=1'));
  await page.close();
  console.log(`#   one thread, the whole default result: best ${Math.min(...ms).toFixed(1)} ms, median ${median(ms).toFixed(1)} ms (${ms.map((x) => x.toFixed(0)).join(', ')})`);
  return { bestMs: Math.min(...ms), medianMs: median(ms) };
}

// Issue 40: a 100,000-request trace (bench_input's stand-in: Poisson arrivals, log-normal lengths
// with CV 1 around the workload's means) replayed in one call of the worker's export, at RATE.
const TRACE_REQUESTS = 100000;

/** One replay of a TRACE_REQUESTS-request trace in the worker's wasm: 3 warm-up calls, then 5 timed.
 *  Budget: <= 1 s warm (the median). */
async function traceReplay(browser, base) {
  const page = await browser.newPage();
  await page.goto(`${base}/bench/browser/wasm.html?dist=${encodeURIComponent(DIST)}`);
  await page.waitForFunction(() => typeof window.benchSimulate === 'function', null, { timeout: 30_000 });
  const plan = benchInput('trace', WORKLOAD, String(TRACE_REQUESTS));
  const out = await page.evaluate(({ plan, rate }) => {
    const bytes = new Uint8Array(plan);
    for (let i = 0; i < 3; i++) window.benchSimulate(bytes, rate);
    const runs = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const r = window.benchSimulate(bytes, rate);
      runs.push({ ms: performance.now() - t0, requests: r[0], servedPerS: r[1], attained: r[2] });
    }
    return runs;
  }, { plan, rate: RATE });
  await page.close();
  const ms = out.map((r) => r.ms);
  console.log(`#   trace replay: ${out[0].requests} requests at ${RATE} req/s: ${ms.map((x) => x.toFixed(0)).join(', ')} ms; `
    + `served ${out[0].servedPerS.toFixed(2)} req/s (${Math.round(out[0].requests / (median(ms) / 1e3)).toLocaleString('en-US')} req/s simulated)`);
  report('sim.trace.replay_100k.warm.median', median(ms), 'ms', { op: '<=', value: 1000 });
  return { requests: out[0].requests, rateReqPerS: RATE, ms, medianMs: median(ms) };
}

async function sim(browser, base) {
  return {
    wasm: await wasmThroughput(browser, base),
    traceReplay: await traceReplay(browser, base),
    singleThread: await singleThreadSweep(browser, base),
    sweep: await sweepTime(browser, base),
  };
}

module.exports = { sim, settled, lastSweep, warmSweeps };
