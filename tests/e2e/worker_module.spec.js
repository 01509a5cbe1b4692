// Each worker bin's wasm is fetched once and compiled once, however many workers its pool starts
// (src/ui/workers/compiled.rs): the page compiles it and posts the WebAssembly.Module to every
// worker's boot script (public/worker_boot.js). The page claims four cores, so each pool starts four
// workers (both pools' cap is at least 4), and the counts below would be four without the sharing.
const { test, expect } = require('@playwright/test');
const { openApp } = require('./helpers');

/** Runs in the page before its scripts: four cores, and a log of every wasm compile made from
 *  bytes or a Response (not from a compiled Module) by the page. */
function fourCoresAndCompileLog() {
  Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => 4 });
  const log = [];
  window.__wasmCompiles = log;
  for (const k of ['compile', 'compileStreaming', 'instantiate', 'instantiateStreaming']) {
    const original = WebAssembly[k];
    WebAssembly[k] = function counted(source, ...rest) {
      if (!(source instanceof WebAssembly.Module)) log.push(k);
      return original.call(this, source, ...rest);
    };
  }
}

/** Every request's path, the workers' included. */
function recordRequests(page) {
  const paths = [];
  page.context().on('request', (request) => paths.push(new URL(request.url()).pathname));
  return paths;
}

const cases = [
  { name: 'simulator', query: '?sim=1', status: '#sim-status', done: 'data-sweeps', wasm: 'sim_worker_bg.wasm', glue: 'sim_worker.js' },
  { name: 'search', query: '?search=1', status: '#search-status', done: 'data-searches', wasm: 'search_worker_bg.wasm', glue: 'search_worker.js' },
];

for (const c of cases) {
  test(`the ${c.name}'s four workers share one fetch and one compile of its wasm, and answer`, async ({ page }) => {
    await page.addInitScript(fourCoresAndCompileLog);
    const requests = recordRequests(page);
    const errors = await openApp(page, c.query);
    const status = page.locator(c.status);
    await expect.poll(async () => Number(await status.getAttribute(c.done)), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect(status).toHaveAttribute('data-busy', 'false');

    const workers = page.workers().filter((w) => w.url().endsWith('/worker_boot.js'));
    expect(workers).toHaveLength(4);
    // Each worker imported the glue (the HTTP cache may answer), and ran the module: it answered.
    expect(requests.filter((p) => p.endsWith(`/${c.glue}`)).length).toBeGreaterThanOrEqual(1);
    expect(requests.filter((p) => p.endsWith(`/${c.wasm}`))).toHaveLength(1);
    // The page's one compile of the worker's wasm (the page's and the lazy module's own modules are
    // instantiated from their responses by their loaders: `instantiateStreaming`, not `compile`).
    // A worker that compiled its own copy would have fetched it: the count above is one.
    const compiles = await page.evaluate(() => window.__wasmCompiles);
    expect(compiles.filter((k) => k === 'compile')).toHaveLength(1);
    expect(errors).toEqual([]);
  });
}

// A body's workers start beside the lazy module's download, not after it (src/ui/workers/ahead.rs):
// with the lazy module's wasm held back, the pool's four workers already run, the worker's wasm has
// been fetched and the workers have imported their glue (booted); once the body mounts, its pool
// adopts those four (four in all, not eight) and answers with them.
for (const c of cases) {
  test(`opening the ${c.name} starts its four workers and fetches its wasm while the lazy module still loads, and its pool adopts them`, async ({ page }) => {
    await page.addInitScript(fourCoresAndCompileLog);
    const requests = recordRequests(page);
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    await page.route('**/goodput_lazy_bg.wasm', async (route) => { await held; await route.continue(); });
    const errors = await openApp(page, c.query);
    const bootWorkers = () => page.workers().filter((w) => w.url().endsWith('/worker_boot.js')).length;
    await expect.poll(bootWorkers).toBe(4);
    await expect.poll(() => requests.filter((p) => p.endsWith(`/${c.wasm}`)).length).toBe(1);
    // Booted ahead too: they imported the bin's glue before the body could ask for anything.
    await expect.poll(() => requests.filter((p) => p.endsWith(`/${c.glue}`)).length).toBeGreaterThanOrEqual(1);
    const status = page.locator(c.status);
    await expect(status).toHaveCount(0);
    release();
    await expect.poll(async () => Number(await status.getAttribute(c.done)), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect(status).toHaveAttribute('data-busy', 'false');
    expect(bootWorkers()).toBe(4);
    expect(requests.filter((p) => p.endsWith(`/${c.wasm}`))).toHaveLength(1);
    const compiles = await page.evaluate(() => window.__wasmCompiles);
    expect(compiles.filter((k) => k === 'compile')).toHaveLength(1);
    expect(errors).toEqual([]);
  });
}

// A worker started ahead that fails before its pool adopts it (its boot script did not load) is
// dropped, not adopted: the pool starts its own, hears them fail, and sweeps on the page. Adopting
// the dead workers would leave the sweep waiting for a "ready" that never comes.
test('workers started ahead whose boot script fails are not adopted: the simulator answers on the page and says why', async ({ page }) => {
  await page.addInitScript(fourCoresAndCompileLog);
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route('**/goodput_lazy_bg.wasm', async (route) => { await held; await route.continue(); });
  let bootRequests = 0;
  await page.route('**/worker_boot.js', (route) => { bootRequests += 1; return route.fulfill({ status: 404, body: 'not found' }); });
  await openApp(page, '?sim=1');
  await expect.poll(() => bootRequests).toBeGreaterThanOrEqual(4);
  const waiting = () => page.evaluate(() => globalThis[Symbol.for('goodput-lab.workers-ahead')].get('sim_worker').length);
  await expect.poll(waiting).toBe(0);
  release();
  await expect(page.locator('#sim-speed')).toContainText('on the page', { timeout: 30_000 });
  await expect(page.locator('#sim-error')).toContainText('could not start');
  expect(bootRequests).toBeGreaterThanOrEqual(5);
});

// A linear memory never shrinks, so a worker that grew (a large sweep's high water) is replaced by a
// fresh one once it has been idle 5 s (src/ui/workers/pool.rs, RECYCLE_IDLE): an idle page holds its
// workers' start memory. A request posted within the 5 s calls the replacement off. The fresh workers
// come from the compiled module (no second fetch or compile) and sweep to the digit what the old did.
test('an idle simulator worker that grew is replaced by a fresh, smaller one after 5 s, not while requests keep coming, and the fresh ones sweep the same', async ({ page }) => {
  test.setTimeout(90_000);
  const { attachAll } = require('../../bench/browser/targets');
  await page.addInitScript(fourCoresAndCompileLog);
  const requests = recordRequests(page);
  const errors = await openApp(page, '?sim=1&requests=500&seeds=4');
  const status = page.locator('#sim-status');
  const sweeps = async () => Number(await status.getAttribute('data-sweeps'));
  const sweep = async (seed) => {
    const n = await sweeps();
    await page.fill('#seed', seed);
    await page.press('#seed', 'Enter');
    await expect.poll(sweeps, { timeout: 30_000 }).toBeGreaterThan(n);
    await expect(status).toHaveAttribute('data-busy', 'false');
    return page.locator('#sim-readout').innerText();
  };
  await expect.poll(sweeps, { timeout: 30_000 }).toBeGreaterThan(0);
  await expect(status).toHaveAttribute('data-busy', 'false');
  const first = await page.locator('#sim-readout').innerText();
  const bootWorkers = () => page.workers().filter((w) => w.url().endsWith('/worker_boot.js'));
  const old = bootWorkers();
  expect(old).toHaveLength(4);
  let closed = 0;
  for (const w of old) w.on('close', () => { closed += 1; });
  const targets = await attachAll(page);
  const simMemory = async () => (await targets.sample(true)).targets
    .filter((t) => t.label === 'sim_worker').map((t) => t.wasmBytes).sort((a, b) => a - b);
  const grown = await simMemory();
  expect(grown).toHaveLength(4);

  // Requests 3 s apart, each after the last answered: 7.5 s and more past the first idle moment, none replaced.
  const started = Date.now();
  for (const seed of ['2', '1']) {
    await page.waitForTimeout(3000);
    await sweep(seed);
  }
  expect(Date.now() - started).toBeGreaterThan(6000);
  expect(closed).toBe(0);

  // Then idle: all four are replaced, by workers holding less memory than the smallest grown one, all alike.
  await expect.poll(() => closed, { timeout: 15_000 }).toBe(4);
  await expect.poll(() => bootWorkers().length).toBe(4);
  await expect.poll(async () => (await simMemory()).filter((b) => b > 0).length, { timeout: 10_000 }).toBe(4);
  const fresh = await simMemory();
  expect(fresh[3]).toBeLessThan(grown[0]);
  expect(fresh[0]).toBe(fresh[3]);

  // The fresh workers answer, to the digit what the old ones did, from the one fetch and one compile.
  await sweep('2');
  expect(await sweep('1')).toBe(first);
  expect(requests.filter((p) => p.endsWith('/sim_worker_bg.wasm'))).toHaveLength(1);
  expect((await page.evaluate(() => window.__wasmCompiles)).filter((k) => k === 'compile')).toHaveLength(1);
  expect(errors).toEqual([]);
});
