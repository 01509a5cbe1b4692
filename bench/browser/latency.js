//! Interaction latency: every slider on the page dragged with Chromium input (drive.js), N `input`
//! events each, from the input's first listener to the end of the frame that shows the new table
//! and charts; simulator off and on.
const { quantile, report, oursPage } = require('./lib');
const { drag } = require('./drive');

const INPUTS = Number(process.env.BENCH_INPUTS || 200);
const WARMUP = 5;
// Frames from one input to the next. The analytic view gets one per frame (a drag). With the
// simulator on, a drag at 60 Hz would supersede every sweep before it lands (the runner drops stale
// sweeps), so inputs come every 4th frame (15 Hz, a held arrow key's pace): sweeps are delivered and
// their charts drawn between inputs, on the same main thread, while the worker takes the other core.
const SIM_GAP_FRAMES = Number(process.env.BENCH_SIM_GAP_FRAMES || 4);

/**
 * Runs in the page: drives one slider through `count` inputs and returns their latencies in ms.
 *
 * Method. Headless Chromium runs requestAnimationFrame at a fixed 60 Hz (16.7 ms between frames,
 * --disable-frame-rate-limit does not change it), so "dispatch, then await the next rAF" would add
 * a random 0-16.7 ms wait for the next frame to every sample. Instead each input is dispatched at
 * the start of a frame, inside its rAF callback, where Chromium also delivers the rAF-aligned
 * pointer events of a real slider drag. Then, in order, on the main thread:
 *   1. t0 = performance.now(); set the value; dispatchEvent(new Event('input')): Leptos' handler
 *      sets its signals synchronously;
 *   2. the callback returns and the microtask checkpoint runs Leptos' effects (its executor is
 *      wasm-bindgen-futures' microtask queue): the table's DOM, the URL, the plotters drawing on
 *      each canvas (and, with the simulator on, posting the sweep request to its worker);
 *   3. the same frame's style, layout, paint and commit run (so the frame shows the new state);
 *   4. a MessageChannel message posted in step 1 is a task, so it runs only after that frame's
 *      rendering: t1 = performance.now() there is the end of the frame.
 * One input every `gapFrames` frames (1: a drag at 60 Hz); the first `warmup` are not counted.
 * The value walks the slider's range up and down over up to 21 evenly spaced stops, so every input
 * changes the state. `changed` counts inputs after which the batch table or a chart's description
 * differs at the end of the frame (the simulator's own results land later, from its worker).
 */
async function driveSlider({ id, count, warmup, gapFrames }) {
  const el = document.getElementById(id);
  const [min, max, step] = [Number(el.min), Number(el.max), Number(el.step) || 1];
  const stopsN = Math.min(21, Math.round((max - min) / step) + 1);
  const stops = Array.from({ length: stopsN }, (_, i) =>
    String(min + Math.round((i * (max - min)) / (stopsN - 1) / step) * step));
  const start = stops.indexOf(el.value) >= 0 ? stops.indexOf(el.value) : 0;
  const original = el.value;
  // Up and down the stops from the current one: consecutive values always differ.
  const period = 2 * (stopsN - 1);
  const at = (k) => { const p = (start + k + 1) % period; return stops[p < stopsN ? p : period - p]; };
  const watched = () => document.getElementById('batch-table')?.textContent
    + Array.from(document.querySelectorAll('canvas')).map((c) => c.getAttribute('aria-label')).join('|');
  // Resolves to [total, script]: script ends where a second rAF callback of the same frame runs,
  // after the first one's microtasks (Leptos' effects) and before style, layout and paint.
  const oneInput = (value) => new Promise((resolve) => {
    let t0 = 0;
    let script = 0;
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      t0 = performance.now();
      channel.port1.onmessage = () => resolve([performance.now() - t0, script]);
      el.value = value;
      el.dispatchEvent(new Event('input', { bubbles: true }));
      channel.port2.postMessage(0);
    });
    requestAnimationFrame(() => { script = performance.now() - t0; });
  });
  const ms = [];
  const scriptMs = [];
  let changed = 0;
  for (let k = 0; k < warmup + count; k++) {
    for (let g = 1; g < gapFrames; g++) await new Promise(requestAnimationFrame);
    const before = watched();
    const [dt, script] = await oneInput(at(k));
    if (k >= warmup) { ms.push(dt); scriptMs.push(script); if (watched() !== before) changed++; }
  }
  await oneInput(original);
  return { ms, scriptMs, changed, stops: stopsN };
}

/** The ids of the page's visible range inputs. */
function sliderIds(page) {
  return page.$$eval('input[type=range]', (els) => els.filter((e) => e.offsetParent !== null).map((e) => e.id));
}

/** Waits until the simulator has delivered a sweep and has nothing in flight. */
async function simSettled(page) {
  await page.waitForFunction(() => {
    const s = document.getElementById('sim-status');
    return s && Number(s.dataset.sweeps) > 0 && s.dataset.busy === 'false';
  }, null, { timeout: 60_000 });
}

/** Measures every slider of the page `spec` (lib.js: oursPage, referencePage); `label` names the
 *  run in metrics, `budgetMs` (or none) bounds each p95. Each slider is
 *  dragged (drive.js): with `gapFrames` 1 by a 120 Hz mouse (an input every frame), else one move
 *  every `gapFrames` frames. Until this issue the inputs were synthetic `input` events dispatched
 *  in a rAF callback (driveSlider, still used by cpu.js); a chart that redraws in a rAF callback
 *  draws such an input a frame later, which a dragged thumb's input (dispatched before the frame's
 *  rAF callbacks) never waits for. */
async function measure(browser, spec, label, budgetMs, gapFrames) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(spec.url);
  await page.waitForSelector(spec.ready);
  const cdp = await page.context().newCDPSession(page);
  const sweeps = () => page.$eval('#sim-status', (s) => Number(s.dataset.sweeps)).catch(() => 0);
  const budget = budgetMs === undefined ? undefined : { op: '<=', value: budgetMs };
  if (spec.sim) await simSettled(page);
  const sweepsBefore = await sweeps();
  const all = [];
  const perSlider = {};
  for (const id of await sliderIds(page)) {
    const moves = gapFrames === 1 ? 2 * (INPUTS + WARMUP) : INPUTS + WARMUP;
    const r = await drag(page, cdp, id, { moves, gapFrames });
    const ms = r.ms.slice(WARMUP);
    all.push(...ms);
    perSlider[id] = { p50: quantile(ms, 0.5), p95: quantile(ms, 0.95), max: Math.max(...ms), inputs: ms.length, inFrame: r.inFrame };
    report(`latency.${label}.${id}.p50`, perSlider[id].p50, 'ms');
    report(`latency.${label}.${id}.p95`, perSlider[id].p95, 'ms', budget);
    console.log(`#   ${id}: ${ms.length} inputs from ${r.moves} moves (${r.inFrame} dispatched at the start of the frame that showed them); `
      + `max ${perSlider[id].max.toFixed(1)} ms; ${r.chartsInView} canvases in view`);
  }
  if (spec.sim) {
    console.log(`#   simulator: ${(await sweeps()) - sweepsBefore} sweeps delivered and drawn during the run`);
  }
  report(`latency.${label}.all.p50`, quantile(all, 0.5), 'ms');
  report(`latency.${label}.all.p95`, quantile(all, 0.95), 'ms', budget);
  if (errors.length) console.log(`#   page errors: ${errors.join('; ')}`);
  await page.close();
  return { inputs: all.length, sliders: perSlider, p50: quantile(all, 0.5), p95: quantile(all, 0.95) };
}

/** Both runs: the default page (analytic view), then with the simulator open (`sim=1`). */
async function latency(browser, base) {
  return {
    analytic: await measure(browser, oursPage(base), 'analytic', 8, 1),
    simulator: await measure(browser, oursPage(base, '?sim=1'), 'sim', 16, SIM_GAP_FRAMES),
  };
}

module.exports = { latency, measure, driveSlider, sliderIds, simSettled, SIM_GAP_FRAMES };
