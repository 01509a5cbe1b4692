//! Frames dropped during a drag: the context-length slider dragged up and down its range by a
//! 120 Hz mouse, so one input per animation frame (Chromium input, see drive.js), on the default page. Budget: at
//! most 5% of the 60 Hz frames dropped; also the input-to-end-of-frame latency during the drag.
const { quantile, report, DIST } = require('./lib');
const { drag, droppedFrames } = require('./drive');

// 4 s of a 120 Hz mouse: about 240 frames.
const MOVES = Number(process.env.BENCH_DRAG_MOVES || 480);
const SLIDERS = (process.env.BENCH_DRAG_SLIDERS || 'in').split(',');

/** Drags each of SLIDERS for MOVES frames on the page at `query`. */
async function measure(browser, base, query, label) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${base}/${DIST}/index.html${query}`);
  await page.waitForSelector('#batch-table tbody tr');
  const cdp = await page.context().newCDPSession(page);
  const out = {};
  for (const id of SLIDERS) {
    await drag(page, cdp, id, { moves: 40 }); // warm-up
    const r = await drag(page, cdp, id, { moves: MOVES });
    const d = droppedFrames(r.frames);
    out[id] = { ...d, inputs: r.inputs, inFrame: r.inFrame, p50: quantile(r.ms, 0.5), p95: quantile(r.ms, 0.95) };
    report(`drag.${label}.${id}.dropped_share`, d.share, 'ratio', { op: '<=', value: 0.05 });
    report(`drag.${label}.${id}.latency.p95`, out[id].p95, 'ms');
    console.log(`#   ${id}: ${r.moves} moves, ${r.inputs} input events (${r.inFrame} dispatched at the start of the frame `
      + `that drew them), ${d.dropped} of ${d.frames} frames dropped; input to end of frame p50 ${out[id].p50.toFixed(1)} ms, `
      + `max ${Math.max(...r.ms).toFixed(1)} ms; ${r.chartsInView} canvases in view`);
  }
  await page.close();
  return out;
}

async function dragBench(browser, base) {
  return { analytic: await measure(browser, base, '', 'analytic') };
}

module.exports = { dragBench };
