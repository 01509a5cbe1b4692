//! `node bench/browser/breakdown.js`: where a drag's main-thread time goes. Traces a 4 s drag of the
//! context-length slider (drive.js) and sums the main thread's CPU time by Chromium trace event:
//! style (UpdateLayoutTree), layout, paint and commit, scripting (wasm and JS in event handlers,
//! rAF callbacks, microtasks, timers), garbage collection, per input.
const { serve, launch, DIST } = require('./lib');
const { drag } = require('./drive');

const GROUPS = {
  style: ['UpdateLayoutTree', 'RecalculateStyles', 'ParseAuthorStyleSheet'],
  layout: ['Layout', 'UpdateLayerTree', 'PrePaint', 'HitTest'],
  paint: ['Paint', 'PaintImage', 'Commit', 'Layerize', 'CompositeLayers', 'RasterTask'],
  scripting: ['EventDispatch', 'FireAnimationFrame', 'RunMicrotasks', 'TimerFire', 'FunctionCall', 'v8.callFunction'],
  gc: ['MinorGC', 'MajorGC', 'V8.GC_SCAVENGER', 'BlinkGC.AtomicPhase'],
};

/** Self CPU time (thread time minus children's) per event name on the renderer's main thread. */
function selfTimes(events) {
  const main = events.find((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain');
  const xs = events.filter((e) => e.ph === 'X' && e.pid === main.pid && e.tid === main.tid && e.tdur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const self = {};
  const stack = [];
  for (const e of xs) {
    while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur <= e.ts) stack.pop();
    const parent = stack[stack.length - 1];
    self[e.name] = (self[e.name] || 0) + e.tdur;
    if (parent) self[parent.name] -= e.tdur;
    stack.push(e);
  }
  return self;
}

async function main() {
  const { server, base } = await serve();
  const browser = await launch();
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${base}/${DIST}/index.html`);
  await page.waitForSelector('#batch-table tbody tr');
  const cdp = await page.context().newCDPSession(page);
  await drag(page, cdp, 'in', { moves: 40 });
  await browser.startTracing(page, { categories: ['devtools.timeline', 'toplevel', 'blink', 'v8', 'cc'] });
  const r = await drag(page, cdp, 'in', { moves: 480 });
  const self = selfTimes(JSON.parse((await browser.stopTracing()).toString()).traceEvents);
  await browser.close();
  server.close();
  const per = (us) => (us / 1e3 / r.inputs).toFixed(2);
  const grouped = new Set();
  console.log(`# ${DIST}: ${r.inputs} inputs; main-thread CPU ms per input, by kind (self time)`);
  for (const [group, names] of Object.entries(GROUPS)) {
    const us = names.reduce((sum, n) => sum + (self[n] || 0), 0);
    names.forEach((n) => grouped.add(n));
    console.log(`${group.padEnd(12)} ${per(us).padStart(8)}  (${names.filter((n) => self[n]).map((n) => `${n} ${per(self[n])}`).join(', ')})`);
  }
  const rest = Object.entries(self).filter(([n]) => !grouped.has(n)).sort((a, b) => b[1] - a[1]).slice(0, 8);
  console.log(`other        ${rest.map(([n, us]) => `${n} ${per(us)}`).join(', ')}`);
}

main().catch((e) => { console.error(e); process.exit(1); });
