//! Drives a slider the way a person drags its thumb: Chromium input through CDP
//! (Input.dispatchMouseEvent: press on the thumb, one move per `gapFrames` animation frames, release).
//! Chromium queues a dragged thumb's mouse moves and dispatches them at the start of the next frame,
//! before its requestAnimationFrame callbacks, so a redraw scheduled from the `input` handler lands
//! in the same frame. Records in the page, per `input` event, the time to the end of the frame that
//! shows it, and every frame's start time over the drag.

/** Runs in the page: starts the recorder on slider `id` (scrolled into view only if it is not). Per
 *  input: t0 in a capture listener (before the page's handler); a rAF callback requested there runs
 *  in the frame that shows the input (the same one when the input came with the frame, else the
 *  next) and posts a MessageChannel message, a task that runs after that frame's style, layout,
 *  paint and commit: t1. Also a rAF loop recording each frame's start time. Returns the thumb's
 *  geometry: the track's box and the slider's range. */
function startRecorder(id) {
  const el = document.getElementById(id);
  const box = el.getBoundingClientRect();
  if (box.top < 0 || box.bottom > innerHeight) el.scrollIntoView({ block: 'center' });
  const rec = { frames: [], ms: [], inFrame: 0, on: true, pending: 0 };
  window.__drive = rec;
  rec.listener = () => {
    const t0 = performance.now();
    rec.pending++;
    requestAnimationFrame((frameStart) => {
      if (frameStart <= t0) rec.inFrame++;
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { rec.ms.push(performance.now() - t0); rec.pending--; };
      channel.port2.postMessage(0);
    });
  };
  window.addEventListener('input', rec.listener, true);
  const loop = (t) => { rec.frames.push(t); if (rec.on) requestAnimationFrame(loop); };
  requestAnimationFrame(loop);
  const r = el.getBoundingClientRect();
  const charts = Array.from(document.querySelectorAll('canvas')).filter((c) => {
    const b = c.getBoundingClientRect();
    return b.width > 0 && b.bottom > 0 && b.top < innerHeight;
  }).length;
  return { left: r.left, width: r.width, y: r.top + r.height / 2, min: Number(el.min), max: Number(el.max),
    value: Number(el.value), step: Number(el.step) || 1, chartsInView: charts };
}

/** Runs in the page: stops the recorder once every input's frame has ended; returns what it saw. */
async function stopRecorder() {
  const rec = window.__drive;
  for (let i = 0; i < 20 && rec.pending > 0; i++) await new Promise(requestAnimationFrame);
  await new Promise((r) => setTimeout(r, 50));
  rec.on = false;
  window.removeEventListener('input', rec.listener, true);
  return { frames: rec.frames, ms: rec.ms, inFrame: rec.inFrame };
}

/** The x of the thumb at `value` on a track `g` (Chromium's default thumb is ~16 px wide). */
function thumbX(g, value) {
  const thumb = Math.min(16, g.width / 4);
  return g.left + thumb / 2 + ((value - g.min) / (g.max - g.min || 1)) * (g.width - thumb);
}

/** Drags slider `id`, walking the thumb up and down its range one stop (`stride` stops on a slider
 *  with many) per move. With `gapFrames` 1 the mouse reports at `hz` (120 Hz, a common mouse) without
 *  waiting: Chromium coalesces the moves that arrive between two frames and dispatches the latest at
 *  the start of the next, so every frame gets one input, as in a real drag. With a larger gap, each
 *  move is acknowledged and then `gapFrames - 1` frames pass. Resolves to { ms: per-input latencies,
 *  frames: frame start times, inputs, inFrame, moves, chartsInView }. */
async function drag(page, cdp, id, { moves, gapFrames = 1, hz = 120 }) {
  const g = await page.evaluate(startRecorder, id);
  const stops = Math.round((g.max - g.min) / g.step);
  const stride = Math.max(1, Math.round(stops / 40));
  const mouse = (type, value) => cdp.send('Input.dispatchMouseEvent', {
    type, x: thumbX(g, value), y: g.y, button: 'left', buttons: type === 'mouseReleased' ? 0 : 1, clickCount: 1,
  });
  const nextFrame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  let value = g.value;
  let dir = value >= g.max ? -1 : 1;
  await nextFrame();
  await mouse('mousePressed', value);
  const sent = [];
  const t0 = Date.now();
  for (let k = 0; k < moves; k++) {
    if (value + dir * stride * g.step > g.max || value + dir * stride * g.step < g.min) dir = -dir;
    value += dir * stride * g.step;
    if (gapFrames === 1) {
      sent.push(mouse('mouseMoved', value));
      await sleep(Math.max(0, t0 + ((k + 1) * 1000) / hz - Date.now()));
    } else {
      await mouse('mouseMoved', value);
      for (let f = 1; f < gapFrames; f++) await nextFrame();
    }
  }
  await Promise.all(sent);
  await mouse('mouseReleased', value);
  const out = await page.evaluate(stopRecorder);
  return { ...out, inputs: out.ms.length, moves, chartsInView: g.chartsInView };
}

/** Frames dropped over `frames` (rAF start times): an interval longer than 1.5 frames at 60 Hz
 *  misses round(interval / 16.7) - 1 frames. Returns { frames: vsyncs spanned, dropped, share }. */
function droppedFrames(frames) {
  const vsync = 1000 / 60;
  let dropped = 0;
  let spanned = 0;
  for (let i = 1; i < frames.length; i++) {
    const dt = frames[i] - frames[i - 1];
    const n = Math.max(1, Math.round(dt / vsync));
    spanned += n;
    if (dt > 1.5 * vsync) dropped += n - 1;
  }
  return { frames: spanned, dropped, share: spanned ? dropped / spanned : NaN };
}

module.exports = { drag, droppedFrames };
