//! Main-thread CPU time per slider input, from a Chromium trace: on a machine shared with other
//! work the wall-clock latency includes time spent waiting for a core, the thread's CPU time does not.
const { quantile, report, DIST } = require('./lib');
const { driveSlider, sliderIds, simSettled, SIM_GAP_FRAMES } = require('./latency');

const PER_SLIDER = 15;

/** Per input: the thread (CPU) time and wall time of the main-thread task that dispatched the
 *  `input` event, i.e. the frame: rAF callbacks, Leptos' effects in their microtasks, style,
 *  layout, paint. Also every main-thread task's CPU time over the run, per input (sweeps delivered,
 *  the icon fetched again on each URL change, garbage collection). */
function frameTimes(trace) {
  const events = JSON.parse(trace.toString()).traceEvents;
  const main = events.find((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain');
  const onMain = events.filter((e) => e.ph === 'X' && e.pid === main.pid && e.tid === main.tid);
  const tasks = onMain.filter((e) => e.name === 'ThreadControllerImpl::RunTask');
  const inputs = onMain.filter((e) => e.name === 'EventDispatch' && e.args.data?.type === 'input');
  const frames = inputs.map((i) => tasks.find((t) => t.ts <= i.ts && t.ts + t.dur >= i.ts + i.dur)).filter(Boolean);
  const [from, to] = [Math.min(...frames.map((t) => t.ts)), Math.max(...frames.map((t) => t.ts + t.dur))];
  const all = tasks.filter((t) => t.ts >= from && t.ts <= to).reduce((sum, t) => sum + (t.tdur || 0), 0);
  return { cpuMs: frames.map((t) => t.tdur / 1e3), wallMs: frames.map((t) => t.dur / 1e3), allCpuPerInputMs: all / 1e3 / frames.length };
}

/** Traces PER_SLIDER inputs on every slider of the page at `query`. */
async function measure(browser, base, query, label, gapFrames) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${base}/${DIST}/index.html${query}`);
  await page.waitForSelector('#batch-table tbody tr');
  if (query.includes('sim=1')) await simSettled(page);
  await browser.startTracing(page, { categories: ['devtools.timeline', 'toplevel'] });
  for (const id of await sliderIds(page)) {
    await page.evaluate(driveSlider, { id, count: PER_SLIDER, warmup: 0, gapFrames });
  }
  const t = frameTimes(await browser.stopTracing());
  await page.close();
  report(`cpu.${label}.frame.p50`, quantile(t.cpuMs, 0.5), 'ms');
  report(`cpu.${label}.frame.p95`, quantile(t.cpuMs, 0.95), 'ms');
  report(`cpu.${label}.all_tasks_per_input`, t.allCpuPerInputMs, 'ms');
  console.log(`#   ${t.cpuMs.length} traced input frames; their wall time p50 ${quantile(t.wallMs, 0.5).toFixed(1)} ms, p95 ${quantile(t.wallMs, 0.95).toFixed(1)} ms`);
  return { frames: t.cpuMs.length, p50: quantile(t.cpuMs, 0.5), p95: quantile(t.cpuMs, 0.95), allTasksPerInputMs: t.allCpuPerInputMs };
}

async function cpu(browser, base) {
  return { analytic: await measure(browser, base, '', 'analytic', 1), simulator: await measure(browser, base, '?sim=1', 'sim', SIM_GAP_FRAMES) };
}

module.exports = { cpu };
