// Dragging a slider holds the charts' axes: between the inputs of one pointer drag the rate chart's
// x range (its canvas's data-x-max) stays where it was while the knee moves on screen, and so do the
// other axis ends of all three charts (data-x-max, data-y-max); after the release the axes rescale to
// the new state; keyboard steps rescale at once.
const { test, expect } = require('@playwright/test');
const { openApp, canvasImage } = require('./helpers');

// Tall enough that the TPOT slider and the rate chart are both in view (charts draw only in view).
const TALL = { width: 1280, height: 1800 };
const xMax = (page) => page.locator('#chart-rate').getAttribute('data-x-max');
const CHARTS = ['chart-rate', 'chart-step', 'chart-interactivity'];
/** Every chart's drawn axis ends, as its canvas exposes them. */
const ends = (page) => Promise.all(CHARTS.map(async (id) => {
  const c = page.locator(`#${id}`);
  return `${id}: x to ${await c.getAttribute('data-x-max')}, y to ${await c.getAttribute('data-y-max')}`;
}));

/** Waits until the TPOT read-out leaves `before`, then two frames for the chart to redraw. */
async function tpotMovedFrom(page, before) {
  await expect(page.locator('#tpot-value')).not.toHaveText(before);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.locator('#tpot-value').textContent();
}

test('dragging the TPOT slider keeps the x range still between its inputs, then rescales on release', async ({ page }) => {
  await page.setViewportSize(TALL);
  const errors = await openApp(page);
  const slider = page.locator('#tpot');
  await slider.scrollIntoViewIfNeeded();
  const start = await xMax(page);
  expect(start).toBe('256');
  const before = await ends(page);
  const box = await slider.boundingBox();
  // The slider runs over stops (1 ms apart from 5 to 60 ms); its thumb (about 16 px wide) sits at
  // the stop that shows 10 ms.
  const [index, last] = await slider.evaluate((el) => [Number(el.value), Number(el.max)]);
  const perStop = (box.width - 16) / last;
  const thumbX = box.x + 8 + index * perStop;
  const y = box.y + box.height / 2;
  await page.mouse.move(thumbX, y);
  await page.mouse.down();
  // A stop at a time (1 ms of TPOT): the knee stays inside the KV pool (208), where it moves; past
  // the pool the knee a server reaches is the pool, and nothing would move.
  await page.mouse.move(thumbX + 1.4 * perStop, y, { steps: 2 });
  const first = await tpotMovedFrom(page, '10 ms');
  expect(await xMax(page), `x range at ${first}`).toBe(start);
  expect(await ends(page)).toEqual(before);
  const image = await canvasImage(page, 'chart-rate');
  await page.mouse.move(thumbX + 2.4 * perStop, y, { steps: 2 });
  const second = await tpotMovedFrom(page, first);
  expect(await xMax(page), `x range at ${second}`).toBe(start);
  expect(await ends(page)).toEqual(before);
  // The knee moved on the still axes.
  expect(await canvasImage(page, 'chart-rate')).not.toBe(image);
  // On to the pool (about 22 ms), the axes still held.
  await page.mouse.move(thumbX + 12 * perStop, y, { steps: 3 });
  await tpotMovedFrom(page, second);
  expect(await ends(page)).toEqual(before);
  await page.mouse.up();
  // Released at a TPOT whose knee wants a wider axis: it rescales.
  await expect.poll(() => xMax(page)).not.toBe(start);
  expect(Number(await xMax(page))).toBeGreaterThan(Number(start));
  // The step chart's y axis now reaches the TPOT target line, far above its steps before.
  await expect.poll(async () => (await ends(page))[1]).not.toBe(before[1]);
  expect(errors).toEqual([]);
});

test('keyboard steps on a slider rescale the axes at once', async ({ page }) => {
  await page.setViewportSize(TALL);
  const errors = await openApp(page);
  await page.locator('#tpot').focus();
  expect(await xMax(page)).toBe('256');
  await page.keyboard.press('End');
  await expect(page.locator('#tpot-value')).toHaveText('500 ms');
  await expect.poll(() => xMax(page)).not.toBe('256');
  expect(errors).toEqual([]);
});
