//! `make soak` (`node bench/browser/soak.js`): our dist/ page with the simulator and the search open
//! (`?sim=1&search=1`), a random control change every 200 ms for SOAK_MINUTES (30), the JS heap and
//! the wasm memory of the page and each of its workers sampled over CDP, and the console's errors.
//! Budgets (issue 26): growth after the first 5 minutes < 10% for each; 0 console errors. Not part of
//! `make test`; writes bench/browser/soak.json.
const fs = require('fs');
const path = require('path');
const { serve, launch, report, results, oursPage } = require('./lib');
const { attachAll } = require('./targets');

const MINUTES = Number(process.env.SOAK_MINUTES || 30);
// The baseline: a settled sample (both panels idle, every context collected) at this time (5 minutes, or a third of a shorter soak).
const WARMUP_MINUTES = Number(process.env.SOAK_WARMUP_MINUTES || Math.min(5, MINUTES / 3));
const CHANGE_MS = 200;
const SAMPLE_S = Number(process.env.SOAK_SAMPLE_S || 30);
// With SOAK_CYCLE=N the seeded sequence starts again every N changes, so from the second cycle on the
// page goes through the same states over and over: memory that still grows then is kept per change (a
// leak), not the high water of a state not seen before (a linear memory never shrinks).
const CYCLE = Number(process.env.SOAK_CYCLE || 0);
const SEED = Number(process.env.SOAK_SEED || 26);

/** A seeded PRNG (mulberry32), so a soak's sequence of changes can be replayed. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Runs in the page: sets one visible slider or select (picked by `pick`) to a value picked by
 *  `value` (both in 0..1), with the events a person's change fires; returns the control's id. The
 *  panels' own toggles are checkboxes and buttons, never picked, so both panels stay open. */
function randomChange({ pick, value }) {
  const els = Array.from(document.querySelectorAll('input[type=range], select'))
    .filter((e) => e.offsetParent !== null && !e.disabled);
  if (els.length === 0) return null;
  const el = els[Math.floor(pick * els.length)];
  if (el.tagName === 'SELECT') {
    el.selectedIndex = Math.floor(value * el.options.length);
  } else {
    const [min, max, step] = [Number(el.min), Number(el.max), Number(el.step) || 1];
    el.value = String(min + Math.round(value * Math.round((max - min) / step)) * step);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return el.id || el.name || el.tagName;
}

/** The panels still open (the simulator's status line and the search's). */
const panelsOpen = (page) => page.evaluate(() => ({
  sim: !!document.getElementById('sim-status'), search: !!document.getElementById('search-status'),
}));

/** The change of `key` from `base` to `last` as a share of `base`. */
const growth = (base, last, key) => (last[key] - base[key]) / base[key];

function summarise(samples) {
  const warmupS = WARMUP_MINUTES * 60;
  if (samples.length === 0) return { base: { atS: NaN }, last: { atS: NaN }, heapGrowth: NaN, wasmGrowth: NaN };
  // The budgets compare the settled samples (the baseline and the end) when there are two.
  const settled = samples.filter((s) => s.settled);
  const base = settled.length >= 2 ? settled[0] : samples.find((s) => s.atS >= warmupS) || samples[0];
  const last = settled.length >= 2 ? settled[settled.length - 1] : samples[samples.length - 1];
  return { base, last, heapGrowth: growth(base, last, 'heapBytes'), wasmGrowth: growth(base, last, 'wasmBytes') };
}

/** `targets` by a key that tells contexts of one label apart by order (`sim_worker #2`). */
function keyed(targets) {
  const count = {};
  return new Map(targets.map((t) => { count[t.label] = (count[t.label] || 0) + 1; return [`${t.label} #${count[t.label]}`, t]; }));
}

/** Each context's wasm memory and JS heap from `base` to `last`. */
function growthByContext(base, last) {
  const before = keyed(base.targets);
  return [...keyed(last.targets)].map(([k, t]) => {
    const b = before.get(k);
    return b ? `${k}: wasm ${mb(b.wasmBytes)} -> ${mb(t.wasmBytes)}, JS heap ${mb(b.heapBytes)} -> ${mb(t.heapBytes)}`
      : `${k}: new since the baseline, wasm ${mb(t.wasmBytes)}`;
  });
}

const mb = (b) => `${(b / 1048576).toFixed(1)} MiB`;

// A worker that grew is replaced by a fresh one after 5 s idle (src/ui/workers/pool.rs, RECYCLE_IDLE),
// so a settled sample waits that long and 3 s more for the fresh workers to instantiate.
const SETTLE_MS = 8000;

/** Resolves once the simulator and the search have nothing in flight, SETTLE_MS later (at most 60 s). */
async function panelsIdle(page) {
  await page.waitForFunction(() => ['sim-status', 'search-status']
    .every((id) => document.getElementById(id)?.dataset.busy === 'false'), null, { timeout: 60_000, polling: 100 });
  await new Promise((r) => setTimeout(r, SETTLE_MS));
}

/** One sample of every context's memory, printed. A `settled` sample (the baseline and the end) waits
 *  for both panels to be idle and collects every context's garbage, the workers' too, so its JS heap
 *  is what is live, not garbage a busy worker has not collected yet. */
async function sample(page, targets, st, settled = false) {
  if (settled) await panelsIdle(page);
  const s = { atS: (Date.now() - st.started) / 1e3, changes: st.changes, settled, ...(await targets.sample(settled)), panels: await panelsOpen(page) };
  st.samples.push(s);
  console.log(`#   ${s.atS.toFixed(0).padStart(5)} s${settled ? ' (settled)' : ''}: ${st.changes} changes; JS heap ${mb(s.heapBytes)}, wasm ${mb(s.wasmBytes)} `
    + `over ${s.targets.length} contexts; ${st.errors.length} errors${s.panels.sim && s.panels.search ? '' : '; a panel closed'}`);
  console.log(`#          ${s.targets.map((t) => `${t.label} ${mb(t.heapBytes)} + ${mb(t.wasmBytes)}`
    + `${t.error ? ` (${t.error})` : ''}`).join('; ')}`);
}

/** The soak: a change, then CHANGE_MS of rest (a busy page answers later: the count is what ran),
 *  with a sample every SAMPLE_S and one at the end. */
async function soakLoop(page, targets, st) {
  let random = prng(SEED);
  let nextSample = st.started;
  let baselineTaken = false;
  while (Date.now() - st.started < MINUTES * 60e3) {
    if (CYCLE > 0 && st.changes > 0 && st.changes % CYCLE === 0) random = prng(SEED);
    if (!baselineTaken && Date.now() - st.started >= WARMUP_MINUTES * 60e3) {
      await sample(page, targets, st, true);
      baselineTaken = true;
    } else if (Date.now() >= nextSample) {
      await sample(page, targets, st);
      nextSample += SAMPLE_S * 1e3;
    }
    const id = await page.evaluate(randomChange, { pick: random(), value: random() });
    st.changed[id] = (st.changed[id] || 0) + 1;
    st.changes++;
    await new Promise((r) => setTimeout(r, CHANGE_MS));
  }
  await sample(page, targets, st, true);
}

/** Prints and budgets what the soak saw; writes soak.json. */
function conclude(st) {
  const sum = summarise(st.samples);
  console.log(`#   controls changed: ${Object.entries(st.changed).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  console.log(`#   baseline at ${sum.base.atS.toFixed(0)} s: JS heap ${mb(sum.base.heapBytes)}, wasm ${mb(sum.base.wasmBytes)}; `
    + `end at ${sum.last.atS.toFixed(0)} s: JS heap ${mb(sum.last.heapBytes)}, wasm ${mb(sum.last.wasmBytes)}`);
  for (const line of growthByContext(sum.base, sum.last)) console.log(`#   ${line}`);
  for (const e of [...new Set(st.errors)].slice(0, 10)) console.log(`#   ${e}`);
  report('soak.js_heap.growth_after_warmup', sum.heapGrowth, 'ratio', { op: '<=', value: 0.1 });
  report('soak.wasm_memory.growth_after_warmup', sum.wasmGrowth, 'ratio', { op: '<=', value: 0.1 });
  report('soak.console_errors', st.errors.length, 'errors', { op: '<=', value: 0 });
  const out = { minutes: MINUTES, warmupMinutes: WARMUP_MINUTES, ...st, metrics: results };
  fs.writeFileSync(path.join(__dirname, 'soak.json'), `${JSON.stringify(out, null, 2)}\n`);
  if (results.some((r) => r.verdict === 'FAIL')) process.exitCode = 1;
}

async function main() {
  const { server, base } = await serve();
  const browser = await launch();
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const st = { started: 0, changes: 0, changed: {}, errors: [], samples: [] };
  page.on('console', (m) => { if (m.type() === 'error') st.errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => st.errors.push(`pageerror: ${e}`));
  page.on('crash', () => st.errors.push('the page crashed'));
  page.on('worker', (w) => w.on('console', (m) => { if (m.type() === 'error') st.errors.push(`worker console: ${m.text()}`); }));
  await page.goto(oursPage(base, '?sim=1&search=1').url);
  await page.waitForSelector('#batch-table tbody tr');
  // Both panels have answered once: every module and worker is loaded before the first sample.
  await page.waitForFunction(() => Number(document.getElementById('sim-status')?.dataset.sweeps) > 0
    && Number(document.getElementById('search-status')?.dataset.searches) > 0, null, { timeout: 120_000, polling: 500 });
  const targets = await attachAll(page);
  console.log(`# soak: ${MINUTES} min, a change every ${CHANGE_MS} ms, a sample every ${SAMPLE_S} s, baseline at ${WARMUP_MINUTES} min`
    + `${CYCLE > 0 ? `, the same ${CYCLE} changes over and over` : ''}`);
  st.started = Date.now();
  try {
    await soakLoop(page, targets, st);
  } catch (e) {
    st.errors.push(`the soak stopped at ${((Date.now() - st.started) / 1e3).toFixed(0)} s: ${e.message.split('\n')[0]}`);
  }
  await browser.close();
  server.close();
  conclude(st);
}

main().catch((e) => { console.error(e); process.exit(1); });
