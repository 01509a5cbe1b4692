//! Frames dropped during a drag: a slider dragged up and down its range by a 120 Hz mouse, so one
//! input per animation frame (Chromium input, see drive.js). On the default page the old budget: at
//! most 5% of the 60 Hz frames dropped. For the side-by-side run (compare.js) the same drag on any
//! page, measured against the display's refresh interval taken from an idle rAF loop on that page.
const { quantile, median, report, oursPage } = require('./lib');
const { drag, droppedFrames } = require('./drive');

// 4 s of a 120 Hz mouse: about 240 frames.
const MOVES = Number(process.env.BENCH_DRAG_MOVES || 480);
const SLIDERS = (process.env.BENCH_DRAG_SLIDERS || 'in').split(',');
// Idle frames timed before each drag to find the display's refresh interval.
const IDLE_FRAMES = 90;
// A frame longer than this many refresh intervals counts as dropped (issue 26).
const DROP_FACTOR = 1.25;

/** Runs in the page: `n` frames of an idle requestAnimationFrame loop; resolves to their intervals. */
function idleIntervals(n) {
  return new Promise((resolve) => {
    const t = [];
    const loop = (now) => {
      t.push(now);
      if (t.length > n) resolve(t.slice(1).map((x, i) => x - t[i]));
      else requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  });
}

/** The drag's frames against `refreshMs`: the median interval and the share of intervals longer
 *  than DROP_FACTOR refresh intervals. */
function againstRefresh(frames, refreshMs) {
  const dt = frames.slice(1).map((x, i) => x - frames[i]);
  const dropped = dt.filter((x) => x > DROP_FACTOR * refreshMs).length;
  return { frameMsMedian: median(dt), frames: dt.length, dropped, droppedShare: dt.length ? dropped / dt.length : NaN };
}

/** Drags slider `id` of the open `page` after a warm-up: the idle refresh interval, then the drag's
 *  frames against it, the old 60 Hz count and the input-to-end-of-frame latency. */
async function dragOne(page, cdp, id) {
  await drag(page, cdp, id, { moves: 40 }); // warm-up
  const refreshMs = median(await page.evaluate(idleIntervals, IDLE_FRAMES));
  const r = await drag(page, cdp, id, { moves: MOVES });
  const d = droppedFrames(r.frames);
  return { ...d, ...againstRefresh(r.frames, refreshMs), refreshMs, moves: r.moves, inputs: r.inputs, inFrame: r.inFrame,
    p50: quantile(r.ms, 0.5), p95: quantile(r.ms, 0.95), maxMs: Math.max(...r.ms), chartsInView: r.chartsInView };
}

/** Opens `spec` (lib.js) and drags each of `sliders` (default: every visible range input). */
async function measureSpec(browser, spec, sliders) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(spec.url);
  await page.waitForSelector(spec.ready);
  const cdp = await page.context().newCDPSession(page);
  const ids = sliders || await page.$$eval('input[type=range]', (els) => els.filter((e) => e.offsetParent !== null).map((e) => e.id));
  const out = {};
  for (const id of ids) {
    out[id] = await dragOne(page, cdp, id);
    const o = out[id];
    console.log(`#   ${spec.name} ${id}: idle refresh ${o.refreshMs.toFixed(2)} ms; ${o.inputs} inputs; median frame `
      + `${o.frameMsMedian.toFixed(2)} ms; ${o.dropped} of ${o.frames} frames > ${DROP_FACTOR} x refresh; `
      + `input to end of frame p50 ${o.p50.toFixed(1)} ms, max ${o.maxMs.toFixed(1)} ms; ${o.chartsInView} canvases in view`);
  }
  await page.close();
  return out;
}

/** The old part: SLIDERS on the default page, at most 5% of 60 Hz frames dropped. */
async function dragBench(browser, base) {
  const out = await measureSpec(browser, oursPage(base), SLIDERS);
  for (const [id, o] of Object.entries(out)) {
    report(`drag.analytic.${id}.dropped_share`, o.share, 'ratio', { op: '<=', value: 0.05 });
    report(`drag.analytic.${id}.latency.p95`, o.p95, 'ms');
  }
  return { analytic: out };
}

module.exports = { dragBench, measureSpec, DROP_FACTOR };
