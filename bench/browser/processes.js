//! `node bench/browser/processes.js`: where a drag's CPU goes across Chromium's processes and threads,
//! ours beside the reference page. Traces a 4 s drag (drive.js) of the prompt slider on dist/ (or
//! BENCH_DIST) and of the reference's slider, and prints each thread's CPU time per input and per
//! frame (top-level trace events only, so nested ones are not counted twice), with the inputs and the
//! frames the drag produced. The main thread is one of several: the display compositor (GPU process),
//! the browser's main thread and the renderer's raster workers also work for every frame.
const { serve, launch, oursPage, referencePage } = require('./lib');
const { drag } = require('./drive');

const MOVES = 480;

/** CPU time (ms) of each `process / thread` over the top-level complete events of `events`. */
function cpuByThread(events) {
  const threads = {};
  const processes = {};
  for (const e of events) {
    if (e.name === 'thread_name') threads[`${e.pid}:${e.tid}`] = e.args.name;
    if (e.name === 'process_name') processes[e.pid] = e.args.name;
  }
  const byThread = {};
  for (const e of events) {
    if (e.ph !== 'X' || e.tdur === undefined) continue;
    const key = `${processes[e.pid] || e.pid} / ${threads[`${e.pid}:${e.tid}`] || e.tid}`;
    (byThread[key] = byThread[key] || []).push(e);
  }
  const cpu = {};
  for (const [key, xs] of Object.entries(byThread)) {
    xs.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    let end = -1;
    for (const e of xs) {
      if (e.ts < end) continue;
      cpu[key] = (cpu[key] || 0) + e.tdur / 1e3;
      end = e.ts + e.dur;
    }
  }
  return cpu;
}

/** Drags `slider` on the page `spec` (lib.js) and prints its threads' CPU per input and per frame. */
async function measure(browser, spec, slider) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(spec.url);
  await page.waitForSelector(spec.ready);
  const cdp = await page.context().newCDPSession(page);
  await drag(page, cdp, slider, { moves: 40 });
  await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  const r = await drag(page, cdp, slider, { moves: MOVES });
  const cpu = cpuByThread(JSON.parse((await browser.stopTracing()).toString()).traceEvents);
  await page.close();
  const frames = r.frames.length;
  console.log(`# ${spec.name}: ${r.inputs} inputs, ${frames} frames; CPU ms per input, per frame`);
  for (const [key, ms] of Object.entries(cpu).sort((a, b) => b[1] - a[1]).slice(0, 6)) {
    console.log(`${(ms / r.inputs).toFixed(2).padStart(7)} ${(ms / frames).toFixed(2).padStart(7)}  ${key}`);
  }
}

async function main() {
  const { server, base } = await serve();
  const browser = await launch();
  await measure(browser, referencePage(base), 'k');
  await measure(browser, oursPage(base), 'in');
  await browser.close();
  server.close();
}

main().catch((e) => { console.error(e); process.exit(1); });
