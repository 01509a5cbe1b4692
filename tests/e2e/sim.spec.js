// The simulator panel: its worker loads only when opened, the attainment chart and data table
// follow the controls, the goodput readout equals the native simulator's for the same URL, and
// every simulator control lives in the URL.
const { test, expect } = require('@playwright/test');
const { execFileSync } = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { openApp, inkedPixels, canvasImage, num, queryValue, expectNoBadNumbers, pressOn, commitNumber, urlSettled } = require('./helpers');

const ROOT = path.join(__dirname, '../..');
const WORKER_FILE = /\/(sim_worker(\.js|_bg\.wasm)|worker_boot\.js)$/;
// The lazily loaded panels' module (the simulator's body is drawn by it).
const LAZY_FILE = /\/goodput_lazy(\.js|_bg\.wasm)$/;

/** The native simulator's goodput readout for a query string (the `sweep` bin). */
function nativeGoodput(query) {
  const out = execFileSync('cargo', ['run', '-q', '--bin', 'sweep', '--', query.replace(/^\?/, '')],
    { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return out.match(/^goodput (.*)$/m)[1];
}

/** The status line's words for the pool a sweep of `seeds` seeds runs on: min(cores, seeds, 4)
 *  workers (core::plan's SHARDS_MAX). */
async function poolWords(page, seeds = 7) {
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const n = Math.max(1, Math.min(cores, seeds, 4));
  return n === 1 ? 'in a Web Worker:' : `in ${n} Web Workers:`;
}

/** Number of sweeps delivered so far. */
async function sweeps(page) {
  return Number(await page.locator('#sim-status').getAttribute('data-sweeps'));
}

/** Waits until a sweep newer than `after` has landed and nothing is in flight. */
async function settled(page, after = 0) {
  await expect.poll(async () => (await sweeps(page)) > after
    && (await page.locator('#sim-status').getAttribute('data-busy')) === 'false', { timeout: 20_000 }).toBe(true);
}

/** Opens the app with the simulator shown and waits for its first sweep. */
async function openSim(page, query = '') {
  const errors = await openApp(page, query.includes('sim=1') ? query : `${query ? `${query}&` : '?'}sim=1`);
  await settled(page);
  return errors;
}

/** The data table's rows as objects keyed by header text. */
async function simRows(page) {
  const headers = await page.locator('#sim-table thead th').allTextContents();
  const rows = await page.locator('#sim-table tbody tr').evaluateAll((trs) =>
    trs.map((r) => Array.from(r.children).map((c) => c.textContent.trim())));
  return rows.map((r) => Object.fromEntries(headers.map((h, i) => [h, r[i]])));
}

function recordRequests(page) {
  const urls = [];
  page.context().on('request', (request) => urls.push(new URL(request.url()).pathname));
  return urls;
}

test('the simulator loads its worker and its panel code only when opened, then draws attainment against rate', async ({ page }) => {
  const requests = recordRequests(page);
  const errors = await openApp(page);
  await page.waitForLoadState('networkidle');
  expect(requests.filter((p) => WORKER_FILE.test(p) || LAZY_FILE.test(p))).toEqual([]);
  await expect(page.locator('#sim-toggle')).toHaveAttribute('aria-expanded', 'false');

  await page.click('#sim-toggle');
  await settled(page);
  await expect(page.locator('#sim-toggle')).toHaveAttribute('aria-expanded', 'true');
  await urlSettled(page);
  expect(queryValue(page, 'sim')).toBe('1');
  // Each worker of the pool runs the boot script and imports the glue; the wasm is the page's one fetch.
  expect([...new Set(requests.filter((p) => WORKER_FILE.test(p)))].sort()).toEqual(
    ['/dist/sim_worker.js', '/dist/sim_worker_bg.wasm', '/dist/worker_boot.js']);
  expect(requests.filter((p) => p.endsWith('/sim_worker_bg.wasm'))).toHaveLength(1);
  expect(requests.filter((p) => LAZY_FILE.test(p)).sort()).toEqual(['/dist/goodput_lazy.js', '/dist/goodput_lazy_bg.wasm']);
  for (const id of ['chart-attainment', 'chart-sim-throughput']) {
    await expect.poll(() => inkedPixels(page, id)).toBeGreaterThan(2000);
  }
  await expect(page.locator('#chart-attainment')).toHaveAttribute('aria-label', /goodput is \d/);
  await expect(page.locator('#sim-speed')).toContainText(await poolWords(page));
  console.log(await page.locator('#sim-speed').textContent());
  await expectNoBadNumbers(page);
  expect(errors).toEqual([]);
});

test('the goodput readout equals the native simulator for the same URL', async ({ page }) => {
  // Seven seeds a rate: the page's sweeps and the native (debug) `sweep` bin take longer on a loaded machine.
  test.setTimeout(120_000);
  for (const query of ['?sim=1', '?ctx=8192&sim=1&lengths=fixed&arrivals=constant&chunk=1024&seed=5&requests=500&cap=auto']) {
    await openSim(page, query);
    const shown = await page.locator('#sim-goodput').textContent();
    await urlSettled(page);
    expect(shown).toBe(nativeGoodput(new URL(page.url()).search));
    expect(num(shown.replace(/[^\d.,]/g, ''))).toBeGreaterThan(0);
  }
});

test('the data table lists every simulated rate with attainment, percentiles and throughput', async ({ page }) => {
  await openSim(page);
  // Collapsed until asked for; the highest rate swept is the automatic one the controls state.
  await expect(page.locator('#sim-data')).not.toHaveAttribute('open', '');
  await expect(page.locator('#sim-table')).toBeHidden();
  await page.locator('#sim-data summary').click();
  await expect(page.locator('#sim-table')).toBeVisible();
  const rows = await simRows(page);
  expect(rows).toHaveLength(16);
  const autoMax = num((await page.locator('#rate_max-auto-value').textContent()).match(/([\d.,]+) req\/s/)[1]);
  expect(num(rows[rows.length - 1]['Offered rate (req/s)'])).toBeCloseTo(autoMax, 0);
  const rates = rows.map((r) => num(r['Offered rate (req/s)']));
  expect(rates).toEqual([...rates].sort((a, b) => a - b));
  expect(rows[0]['Both targets']).toBe('100.0%');
  const last = rows[rows.length - 1];
  expect(num(last['Both targets'].replace('%', ''))).toBeLessThan(50);
  for (const r of rows) {
    for (const key of ['TTFT p50 (ms)', 'TTFT p90 (ms)', 'TPOT p50 (ms)', 'TPOT p90 (ms)']) {
      expect(r[key] === '—' || num(r[key]) >= 0).toBe(true);
    }
    expect(num(r['Throughput (tokens/s)'])).toBeGreaterThan(0);
  }
  // Attainment of both is never above either target's alone.
  for (const r of rows) {
    const [both, ttft, tpot] = ['Both targets', 'TTFT only', 'TPOT only'].map((k) => num(r[k].replace('%', '')));
    expect(both).toBeLessThanOrEqual(Math.min(ttft, tpot));
  }
});

test('a sweep starting and ending does not move the page below the status line', async ({ page }) => {
  const errors = await openSim(page);
  // Record, at every change inside the status (the bar appearing, moving, going), where the readout
  // right below it starts on the page, and whether the speed line is hidden while the bar shows.
  await page.evaluate(() => {
    const status = document.getElementById('sim-status');
    const top = () => document.getElementById('sim-readout').getBoundingClientRect().top + window.scrollY;
    window.statusLog = { tops: [top()], sawBar: false, speedShownWithBar: false };
    new MutationObserver(() => {
      const bar = document.getElementById('sim-progress');
      const speed = document.getElementById('sim-speed');
      window.statusLog.tops.push(top());
      if (bar) window.statusLog.sawBar = true;
      if (bar && speed && getComputedStyle(speed).visibility !== 'hidden') window.statusLog.speedShownWithBar = true;
    }).observe(status, { childList: true, subtree: true, attributes: true });
  });
  const n = await sweeps(page);
  await page.fill('#seed', '2');
  await page.press('#seed', 'Enter');
  await settled(page, n);
  const log = await page.evaluate(() => window.statusLog);
  expect(log.sawBar).toBe(true);
  expect(log.speedShownWithBar).toBe(false);
  expect(log.tops.length).toBeGreaterThan(2);
  expect(Math.max(...log.tops) - Math.min(...log.tops)).toBeLessThan(0.5);
  await expect(page.locator('#sim-speed')).toBeVisible();
  expect(errors).toEqual([]);
});

test('moving a control re-sweeps: the chart changes and the readout follows the native simulator', async ({ page }) => {
  // Seven seeds a rate: the page's sweeps and the native (debug) `sweep` bin take longer on a loaded machine.
  test.setTimeout(120_000);
  const errors = await openSim(page);
  const before = { image: await canvasImage(page, 'chart-attainment'), goodput: await page.locator('#sim-goodput').textContent() };
  // Record whether a progress bar appears while the next sweep runs.
  await page.evaluate(() => {
    window.sawProgress = false;
    new MutationObserver(() => { if (document.getElementById('sim-progress')) window.sawProgress = true; })
      .observe(document.getElementById('sim-status'), { childList: true, subtree: true });
  });
  let n = await sweeps(page);
  await page.selectOption('#lengths', 'fixed');
  await settled(page, n);
  await urlSettled(page);
  expect(queryValue(page, 'lengths')).toBe('fixed');
  expect(await page.evaluate(() => window.sawProgress)).toBe(true);
  await expect(page.locator('#sim-progress')).toHaveCount(0);
  n = await sweeps(page);
  await pressOn(page, 'ttft', 'ArrowLeft');
  await pressOn(page, 'ttft', 'ArrowLeft');
  await settled(page, n);
  await urlSettled(page);
  // Two 50 ms stops down from 2,000 ms (the TTFT slider's aimed range: src/state/fields.rs).
  expect(queryValue(page, 'ttft')).toBe('1900');
  n = await sweeps(page);
  await pressOn(page, 'chunk', 'ArrowRight');
  await settled(page, n);
  const chunk = num((await page.locator('#chunk-value').textContent()).replace('tokens', ''));
  expect(chunk).toBeGreaterThan(512);
  await urlSettled(page);
  expect(queryValue(page, 'chunk')).toBe(String(chunk));
  const after = { image: await canvasImage(page, 'chart-attainment'), goodput: await page.locator('#sim-goodput').textContent() };
  expect(after.image).not.toBe(before.image);
  await urlSettled(page);
  expect(after.goodput).toBe(nativeGoodput(new URL(page.url()).search));
  expect(errors).toEqual([]);
});

test('closed-loop load never shows TTFT misses; open-loop load past capacity does', async ({ page }) => {
  await openSim(page);
  await page.locator('#sim-data summary').click();
  const open = await simRows(page);
  expect(open.some((r) => num(r['TTFT only'].replace('%', '')) < 50)).toBe(true);
  const n = await sweeps(page);
  await page.selectOption('#load', 'closed');
  await settled(page, n);
  await expect(page.locator('#load ~ .hint, .hint').filter({ hasText: 'no queue forms' })).toBeVisible();
  const closed = await simRows(page);
  expect(Object.keys(closed[0])[0]).toMatch(/Clients/);
  for (const r of closed) expect(num(r['TTFT only'].replace('%', ''))).toBeGreaterThanOrEqual(99);
  await urlSettled(page);
  expect(queryValue(page, 'load')).toBe('closed');
});

test('counting tokens instead of requests overstates goodput', async ({ page }) => {
  // With the cap at the knee, overload shows up as queueing: only each request's first token is late.
  // A 256-token step budget keeps every step's GEMMs memory-bound (below H100's ~295-token ridge);
  // at the default 512 a prompt chunk makes them compute-bound, steps miss TPOT, and tokens miss too.
  await openSim(page, '?sim=1&chunk=256');
  const byRequests = num((await page.locator('#sim-goodput').textContent()).replace(/[^\d.]/g, ''));
  const n = await sweeps(page);
  await page.selectOption('#count', 'tokens');
  await settled(page, n);
  const byTokens = num((await page.locator('#sim-goodput').textContent()).replace(/[^\d.]/g, ''));
  expect(byTokens).toBeGreaterThan(1.2 * byRequests);
  await expect(page.locator('#sim-table thead')).toContainText('(by tokens)');
});

test('a link reproduces the sweep: every simulator key reaches its control and survives the round trip', async ({ page }) => {
  const query = '?model=llama-3.1-8b&gpu=h100-sxm&w=bf16&kv=bf16&tp=1&in=1920&out=256&tpot=10&ttft=2000&util=90'
    + '&rate=100&sim=1&load=open&count=requests&arrivals=bursty&burst=3&lengths=uniform&spread=20'
    + '&requests=800&seed=7&seeds=3&chunk=1024&cap=32&prefill=chunked&attain=85&rate_max=40&points=12';
  const errors = await openSim(page, query);
  await urlSettled(page);
  expect(new URL(page.url()).search).toBe(query);
  await expect(page.locator('#arrivals')).toHaveValue('bursty');
  await expect(page.locator('#burst')).toHaveValue('3');
  await expect(page.locator('#lengths')).toHaveValue('uniform');
  await expect(page.locator('#spread')).toHaveValue('20');
  await expect(page.locator('#requests')).toHaveValue('800');
  await expect(page.locator('#seed')).toHaveValue('7');
  await expect(page.locator('#seeds')).toHaveValue('3');
  await expect(page.locator('#chunk-value')).toHaveText('1,024 tokens');
  await expect(page.locator('#cap-auto')).not.toBeChecked();
  await expect(page.locator('#cap')).toHaveValue('32');
  await expect(page.locator('#attain')).toHaveValue('85');
  await expect(page.locator('#pct')).toHaveValue('custom');
  await expect(page.locator('#rate_max')).toHaveValue('40');
  await page.locator('#sim-data summary').click();
  const rows = await simRows(page);
  expect(rows).toHaveLength(12);
  expect(num(rows[rows.length - 1]['Offered rate (req/s)'])).toBe(40);
  await expect(page.locator('#sim-goodput')).toHaveText(nativeGoodput(query));
  // A preset percentile writes `pct` instead of `attain`.
  await page.selectOption('#pct', 'p99');
  await expect.poll(() => queryValue(page, 'pct')).toBe('p99');
  await urlSettled(page);
  expect(queryValue(page, 'attain')).toBeNull();
  expect(errors).toEqual([]);
});

test('the percentile choice sets the share that must meet both targets: every request is stricter than p90', async ({ page }) => {
  await openSim(page);
  const p90 = await page.locator('#sim-goodput').textContent();
  await expect(page.locator('#sim-readout')).toContainText('at least 90.0% of requests');
  const n = await sweeps(page);
  await page.selectOption('#pct', 'all');
  await settled(page, n);
  await urlSettled(page);
  expect(queryValue(page, 'pct')).toBe('all');
  await expect(page.locator('#attain')).toHaveValue('100');
  await expect(page.locator('#sim-readout')).toContainText('at least 100.0% of requests');
  const all = await page.locator('#sim-goodput').textContent();
  expect(num(all.replace(/[^\d.]/g, ''))).toBeLessThan(num(p90.replace(/[^\d.]/g, '')));
  await urlSettled(page);
  expect(all).toBe(nativeGoodput(new URL(page.url()).search));
});

test('a burst of slider moves ends on the last state: stale sweeps are dropped', async ({ page }) => {
  await openSim(page);
  const n = await sweeps(page);
  // Four context steps, each in its own task: the first sweep is still running in the worker when
  // the others arrive, so its result is dropped and only the last waiting request runs.
  await page.evaluate(async () => {
    const slider = document.getElementById('in');
    for (let i = 0; i < 4; i++) {
      slider.value = String(Number(slider.value) + 1);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  });
  await settled(page, n);
  const prompt = num((await page.locator('#in-value').textContent()).replace('tokens', ''));
  expect(prompt).toBeGreaterThan(1920);
  await urlSettled(page);
  expect(queryValue(page, 'in')).toBe(String(prompt));
  expect(await sweeps(page)).toBe(n + 1);
  await urlSettled(page);
  expect(await page.locator('#sim-goodput').textContent()).toBe(nativeGoodput(new URL(page.url()).search));
});

test('overloaded rates are marked in the table and the chart, seeds draw a band and a median goodput with its range, and the warm-up is stated', async ({ page }) => {
  await openSim(page, '?sim=1&seeds=3&requests=500');
  await expect(page.locator('#sim-goodput-range')).toHaveText(/^median of 3 seeds, [\d.]+ to [\d.]+ req\/s across them$/);
  const steadyNote = page.locator('#sim-steady');
  await expect(steadyNote).toContainText('The first 50 requests of each run (while the batch fills) are left out of attainment and percentiles.');
  await expect(steadyNote).toContainText('overloaded: the queue grows, so those rates never count toward goodput');
  await expect(page.locator('#chart-attainment')).toHaveAttribute('aria-label', /From [\d.]+ req\/s, overloaded: the queue grows\./);
  await page.locator('#sim-data summary').click();
  await expect(page.locator('#sim-table caption')).toContainText('medians over 3 seeds; the first 50 requests of each run left out as warm-up');
  const rows = await simRows(page);
  expect(rows[0]['Steady state']).toBe('steady');
  const over = rows.filter((r) => r['Steady state'] === 'overloaded: the queue grows');
  expect(over.length).toBeGreaterThan(0);
  expect(rows[rows.length - 1]['Steady state']).toBe('overloaded: the queue grows');
  await expect(page.locator('#sim-table tbody tr.overloaded')).toHaveCount(over.length);
  // Goodput lies below the first overloaded rate.
  const goodput = num((await page.locator('#sim-goodput').textContent()).replace(/[^\d.,]/g, ''));
  expect(goodput).toBeLessThan(num(over[0]['Offered rate (req/s)']));
  // The band: some level's seeds disagree, and the chart with three seeds differs from one seed's.
  expect(rows.some((r) => / to /.test(r['Both, lowest to highest seed']))).toBe(true);
  const banded = await canvasImage(page, 'chart-attainment');
  const n = await sweeps(page);
  await commitNumber(page, 'seeds', '1');
  await settled(page, n);
  await expect.poll(() => queryValue(page, 'seeds')).toBe('1');
  await expect(page.locator('#sim-goodput-range')).toHaveText('one seed');
  expect(await canvasImage(page, 'chart-attainment')).not.toEqual(banded);
});

test('a bad seeds value gets a notice and the default', async ({ page }) => {
  await openApp(page, '?sim=1&seeds=many');
  await settled(page);
  await expect(page.locator('.notices')).toContainText('seeds=“many” is not');
  await expect(page.locator('#seeds')).toHaveValue('7');
});

test('the seeds are swept over a pool of Web Workers that the status names, and the readout still equals the native simulator', async ({ page }) => {
  // Seven (then three) seeds a rate: the page's sweeps and the native (debug) `sweep` bin take longer on a loaded machine.
  test.setTimeout(150_000);
  for (const [query, seeds] of [['?sim=1', 7], ['?sim=1&seeds=3&place=disagg&requests=500', 3]]) {
    const errors = await openSim(page, query);
    await expect(page.locator('#sim-speed')).toContainText(await poolWords(page, seeds));
    await urlSettled(page);
    expect(await page.locator('#sim-goodput').textContent()).toBe(nativeGoodput(new URL(page.url()).search));
    expect(errors).toEqual([]);
  }
});

test('bad simulator values in the URL get a notice and a sane fallback', async ({ page }) => {
  await openApp(page, '?sim=1&requests=abc&chunk=3&load=sideways&attain=250');
  await settled(page);
  const notices = page.locator('.notices');
  await expect(notices).toContainText('requests=“abc” is not a whole number of requests; using 2000 requests.');
  await expect(notices).toContainText('chunk=3 is outside 16–65536 tokens; using 16 tokens.');
  await expect(notices).toContainText('load=“sideways” is not one of open, closed; using open.');
  await expect(notices).toContainText('attain=250 is outside 1–100%; using 100%.');
  await expectNoBadNumbers(page);
});

test('without its worker the simulator still answers, on the page, and says why', async ({ page }) => {
  await page.route('**/sim_worker_bg.wasm', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await openSim(page);
  await expect(page.locator('#sim-error')).toContainText('could not start');
  await expect(page.locator('#sim-speed')).toContainText('on the page');
  await urlSettled(page);
  expect(await page.locator('#sim-goodput').textContent()).toBe(nativeGoodput(new URL(page.url()).search));
});

test('the simulator runs under the strict CSP planned for the site (no worker-src, no blob:)', async ({ page }) => {
  const html = fs.readFileSync(path.join(ROOT, 'dist/index.html'), 'utf8');
  const inline = html.match(/<script type=module>([\s\S]*?)<\/script>/)[1];
  const hash = crypto.createHash('sha256').update(inline).digest('base64');
  const policy = "script-src 'self' 'wasm-unsafe-eval'";
  await page.route('**/dist/**', async (route) => {
    const response = await route.fetch();
    const isPage = route.request().resourceType() === 'document';
    const csp = isPage ? `${policy} 'sha256-${hash}'` : policy;
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': csp } });
  });
  const errors = await openSim(page);
  await expect(page.locator('#sim-speed')).toContainText(await poolWords(page));
  expect(errors).toEqual([]);
});

test('the simulator panel and the page keep one state both ways, and closing and reopening it fetches nothing again', async ({ page }) => {
  const requests = recordRequests(page);
  const errors = await openSim(page);
  // The page's control reaches the panel (its readout follows the TPOT target).
  const before = await page.locator('#sim-goodput').textContent();
  let n = await sweeps(page);
  await page.locator('#tpot').focus();
  for (let i = 0; i < 10; i += 1) await page.keyboard.press('ArrowRight');
  await expect(page.locator('#tpot-value')).toHaveText('20 ms');
  await settled(page, n);
  expect(await page.locator('#sim-goodput').textContent()).not.toBe(before);
  // The panel's control reaches the page (its URL) and survives the panel closing and reopening.
  n = await sweeps(page);
  await page.selectOption('#arrivals', 'constant');
  await expect.poll(() => queryValue(page, 'arrivals')).toBe('constant');
  await page.click('#sim-toggle');
  await expect(page.locator('#sim-body')).toHaveCount(0);
  await page.click('#sim-toggle');
  await settled(page);
  await expect(page.locator('#arrivals')).toHaveValue('constant');
  expect(requests.filter((p) => LAZY_FILE.test(p)).length).toBe(2);
  expect(errors).toEqual([]);
});
