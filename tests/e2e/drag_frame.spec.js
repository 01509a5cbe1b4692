// A pointer drag costs one state change per frame and only the work in view (src/ui/controls/drag.rs,
// src/ui/explore/in_view.rs): while a pointer holds a slider, the `input` events that arrive before a
// frame apply once, the latest, at that frame, and the charts draw it in the same frame; sections out
// of view (the batch table, the planning panels' notes) keep what they showed until the drag ends or
// they scroll into view. Without a pointer (keys, typed values, a script's events) every input
// applies at once and every section follows it.
const { test, expect } = require('@playwright/test');
const { openApp } = require('./helpers');

const TALL = { width: 1280, height: 1800 };
/** The TPOT slider's position (its stop index) for `ms` from 5 to 60: it stops at 1, 2 and 3 ms, then
 *  at every ms from 5 (src/state/fields.rs, TPOT_AIM_MS). */
const tpotStop = (ms) => ms - 2;

/** Presses a pointer on slider `id`: a `pointerdown` dispatched on it, which bubbles to the page's
 *  window listener as a real press does (a mouse click at a computed thumb position missed the
 *  slider once under load, and these tests are about what a press does, not where the thumb is). */
async function pressSlider(page, id) {
  await page.locator(`#${id}`).evaluate((el) => {
    el.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, isPrimary: true, pointerType: 'mouse' }));
  });
  return Number(await page.locator(`#${id}`).inputValue());
}

/** Lets the pointer go, as `pointerup` anywhere does. */
const releasePointer = (page) => page.evaluate(() => {
  window.dispatchEvent(new PointerEvent('pointerup', { isPrimary: true, pointerType: 'mouse' }));
});

/** Runs in the page: sets the TPOT slider to each of `values` (ms, as stop indices: [`tpotStop`]), one `input` event per task, all
 *  between two frames (as a pointer's moves arrive when a frame runs long), and reports the read-out
 *  and the rate chart's draws right after the last (its microtasks run), then at the end of the next
 *  frame, with how many times the read-out's text was set in between. Tries again, each value one
 *  higher (the frame that came applied the last), if a frame came between the first and the last
 *  input, unless `frameMayCome` (inputs applied at once each take about a frame's work here). */
async function inputsBetweenFrames([values, frameMayCome]) {
  const tpotStop = (ms) => ms - 2;
  const el = document.getElementById('tpot');
  const out = document.getElementById('tpot-value');
  const chart = document.getElementById('chart-rate');
  const draws = () => Number(chart.dataset.draws);
  const nextTask = () => new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(0);
  });
  for (let attempt = 0; attempt < 5; attempt++) {
    // Start just after a frame: a task posted from a frame callback runs after that frame's rendering.
    await new Promise((resolve) => requestAnimationFrame(() => nextTask().then(resolve)));
    let framed = false;
    requestAnimationFrame(() => { framed = true; });
    let sets = 0;
    const watch = new MutationObserver((records) => { sets += records.length; });
    watch.observe(out, { subtree: true, characterData: true, childList: true });
    const drawsBefore = draws();
    const textBefore = out.textContent;
    const tried = values.map((v) => v + attempt);
    for (const v of tried) {
      el.value = String(tpotStop(v));
      el.dispatchEvent(new Event('input', { bubbles: true }));
      await nextTask();
    }
    const now = { text: out.textContent, draws: draws() };
    const between = framed;
    await new Promise((resolve) => requestAnimationFrame(() => nextTask().then(resolve)));
    watch.disconnect();
    const frame = { text: out.textContent, draws: draws(), sets };
    if (!between || frameMayCome) return { textBefore, last: tried[tried.length - 1], now, drawsBefore, frame, attempt };
  }
  return null;
}

test('under a pointer drag three inputs between two frames apply once, the last, drawn in that frame', async ({ page }) => {
  await page.setViewportSize(TALL);
  const errors = await openApp(page);
  // At 1,800 px the TPOT slider (y about 1,570) and the charts are in view together.
  const start = await pressSlider(page, 'tpot');
  await expect(page.locator('#tpot-value')).toHaveText(`${start + 2} ms`);
  const r = await page.evaluate(inputsBetweenFrames, [[20, 30, 40], false]);
  expect(r, 'three inputs between two frames').not.toBeNull();
  // Held for the frame: nothing applied yet.
  expect(r.now.text).toBe(r.textBefore);
  expect(r.now.draws).toBe(r.drawsBefore);
  // Applied once, the latest, and drawn once, in the same frame.
  expect(r.frame.text).toBe(`${r.last} ms`);
  expect(r.frame.sets).toBe(1);
  expect(r.frame.draws).toBe(r.drawsBefore + 1);
  await releasePointer(page);
  expect(errors).toEqual([]);
});

test('without a pointer on a slider each input applies at once', async ({ page }) => {
  await page.setViewportSize(TALL);
  const errors = await openApp(page);
  const r = await page.evaluate(inputsBetweenFrames, [[20, 30, 40], true]);
  expect(r.now.text).toBe('40 ms');
  // Each of the three inputs set the read-out.
  expect(r.frame.sets).toBe(3);
  expect(errors).toEqual([]);
});

/** Runs in the page: sets slider `id` to `value` (one `input` event) and waits two frames. */
async function inputAndTwoFrames([id, value]) {
  const el = document.getElementById(id);
  el.value = String(value);
  el.dispatchEvent(new Event('input', { bubbles: true }));
  for (let i = 0; i < 2; i++) await new Promise(requestAnimationFrame);
}

/** Whether element `id` is more than the 200 px margin below the viewport. */
const outOfView = (page, id) =>
  page.locator(`#${id}`).evaluate((e) => e.getBoundingClientRect().top > innerHeight + 200);

/** Scrolled to `scrollY`, presses slider `slider`'s thumb, moves it to `position` (the URL's `value`) and checks that the
 *  text of the elements `ids` (out of view) is unchanged until the release, then that of a page
 *  opened at the state the drag left. */
async function waitsOutOfView(page, { scrollY, slider, position, value, shown, ids }) {
  const errors = await openApp(page);
  await page.evaluate((y) => window.scrollTo(0, y), scrollY);
  for (const id of ids) expect(await outOfView(page, id), `${id} out of view`).toBe(true);
  const texts = (p) => Promise.all(ids.map((id) => p.locator(`#${id}`).textContent()));
  const before = await texts(page);
  await pressSlider(page, slider);
  await page.evaluate(inputAndTwoFrames, [slider, position]);
  await expect(page.locator(`#${slider}-value`)).toHaveText(shown);
  expect(await texts(page)).toEqual(before);
  await releasePointer(page);
  await expect.poll(() => texts(page)).not.toEqual(before);
  for (const [i, text] of (await texts(page)).entries()) expect(text, ids[i]).not.toBe(before[i]);
  await expect.poll(() => page.url()).toContain(`${slider}=${value}`);
  const fresh = await page.context().newPage();
  await openApp(fresh, new URL(page.url()).search);
  expect(await texts(page)).toEqual(await texts(fresh));
  expect(errors).toEqual([]);
}

test('out of view during a pointer drag the batch table waits, then catches up on release', async ({ page }) => {
  // The utilisation slider (y about 930 at the top) in view, the table (y about 1,370) not.
  await waitsOutOfView(page, { scrollY: 250, slider: 'util', position: 50, value: 50, shown: '50%', ids: ['batch-table'] });
});

test('out of view during a pointer drag the planning notes wait, then catch up on release', async ({ page }) => {
  // The TPOT slider (y about 1,570 at the top) in view, the notes (y from about 2,160) not.
  const ids = ['capacity-ideal-note', 'placement-ideal-note'];
  await waitsOutOfView(page, { scrollY: 750, slider: 'tpot', position: tpotStop(20), value: 20, shown: '20 ms', ids });
});

test('in view during a pointer drag the table follows each frame', async ({ page }) => {
  await page.setViewportSize(TALL);
  const errors = await openApp(page);
  const before = await page.locator('#batch-table tbody').textContent();
  await pressSlider(page, 'tpot');
  expect(await page.locator('#batch-table').evaluate((t) => t.getBoundingClientRect().top < innerHeight)).toBe(true);
  await page.evaluate(inputAndTwoFrames, ['tpot', tpotStop(20)]);
  expect(await page.locator('#batch-table tbody').textContent()).not.toBe(before);
  await releasePointer(page);
  expect(errors).toEqual([]);
});
