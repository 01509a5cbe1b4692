// A batch chart's part under its data (background, legend, grid, axes, labels) is kept as a bitmap
// and painted again only when it would come out different (src/ui/canvas/layers.rs). An input that
// moves only the data repaints the chart with a fraction of the canvas text calls, and the canvas
// shows what a fresh page at the same URL draws, pixel for pixel; a new theme paints the axes anew.
const { test, expect } = require('@playwright/test');
const { openApp, canvasImage, urlSettled, pressOn } = require('./helpers');

/** Runs in the page before its scripts: counts canvas text calls per canvas id. */
function countText() {
  window.__texts = {};
  const fillText = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function counted(...args) {
    const id = this.canvas.id || '(offscreen)';
    window.__texts[id] = (window.__texts[id] || 0) + 1;
    return fillText.apply(this, args);
  };
}

const texts = (page) => page.evaluate(() => window.__texts['chart-rate'] || 0);
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** The rate chart's text calls for the redraw `change` causes (waiting for it to be painted). */
async function textsFor(page, change) {
  await frames(page);
  const before = await texts(page);
  const image = await canvasImage(page, 'chart-rate');
  await change();
  await urlSettled(page);
  await expect.poll(() => canvasImage(page, 'chart-rate')).not.toBe(image);
  await frames(page);
  return (await texts(page)) - before;
}

/** The rate chart as a fresh page at the current URL draws it. */
async function freshImage(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await openApp(page, new URL(url).search);
  const image = await canvasImage(page, 'chart-rate');
  await page.close();
  return image;
}

test('a change that moves only the data repaints the rate chart over its kept axes, as a fresh page draws it', async ({ page, browser }) => {
  await page.addInitScript(countText);
  const errors = await openApp(page);
  await frames(page);
  const whole = await texts(page);
  expect(whole).toBeGreaterThan(15);
  // A longer TPOT target moves the knee and goodput; the throughput axis, the batch axis and the
  // legend stay.
  const reused = await textsFor(page, () => pressOn(page, 'tpot', 'ArrowRight'));
  expect(reused).toBeLessThanOrEqual(4);
  expect(await canvasImage(page, 'chart-rate')).toBe(await freshImage(browser, page.url()));
  expect(errors).toEqual([]);
});

test('a new theme paints the rate chart\'s axes anew, as a fresh page in that theme draws it', async ({ page, browser }) => {
  await page.addInitScript(countText);
  await openApp(page);
  await frames(page);
  const whole = await texts(page);
  await page.locator('#share-button').click();
  const repainted = await textsFor(page, () => page.locator('#theme-picker').selectOption('dark'));
  expect(repainted).toBe(whole);
  expect(new URL(page.url()).search).toContain('dark');
  expect(await canvasImage(page, 'chart-rate')).toBe(await freshImage(browser, page.url()));
});
