// Shared browser-test helpers: open the app and collect console errors, read the table and canvases.
const { expect } = require('@playwright/test');

/** Opens the app at `query` and returns the console errors and page errors seen (live array). */
async function openApp(page, query = '') {
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(`index.html${query}`);
  await expect(page.locator('#batch-table tbody tr').first()).toBeVisible();
  await waitForCharts(page);
  // Reading an off-screen chart scrolls to it; a reader who just opened the page is at the top.
  await page.evaluate(() => window.scrollTo(0, 0));
  return errors;
}

/** Waits until both canvases have been drawn (non-blank pixels). */
async function waitForCharts(page) {
  for (const id of ['chart-rate', 'chart-step']) {
    await expect.poll(() => inkedPixels(page, id)).toBeGreaterThan(1000);
  }
}

/** Runs in the page: scrolls canvas `canvasId` into view if it is out of it, and waits for its draw.
 *  A chart out of view is drawn only once it scrolls back (src/ui/frame_draw.rs), so its pixels are
 *  then what a reader sees there. */
async function showCanvas(canvasId) {
  const c = document.getElementById(canvasId);
  const box = c && c.getBoundingClientRect();
  if (!box || box.width === 0 || (box.bottom >= 0 && box.top <= innerHeight)) return;
  c.scrollIntoView({ block: 'nearest' });
  // The visibility report follows the next frame; the draw, the frame after it.
  for (let i = 0; i < 4; i++) await new Promise(requestAnimationFrame);
}

/** Count of pixels that differ from the top-left (background) pixel. */
async function inkedPixels(page, id) {
  await page.evaluate(showCanvas, id);
  return page.evaluate((canvasId) => {
    const c = document.getElementById(canvasId);
    if (!c || c.width === 0) return 0;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) n++;
    }
    return n;
  }, id);
}

/** The canvas's pixels as a data URL, to compare before and after a change. */
async function canvasImage(page, id) {
  await page.evaluate(showCanvas, id);
  return page.evaluate((canvasId) => document.getElementById(canvasId).toDataURL(), id);
}

/** The batch table's body as arrays of cell texts, keyed by nothing: row order as shown. */
async function tableRows(page) {
  return page.locator('#batch-table tbody tr').evaluateAll((rows) =>
    rows.map((r) => Array.from(r.children).map((c) => c.textContent.trim())));
}

/** The row for one batch size, as cell texts, or undefined. */
async function rowFor(page, batch) {
  return (await tableRows(page)).find((r) => r[0] === batch);
}

const CHART_IDS = ['chart-rate', 'chart-step', 'chart-interactivity'];

/** Waits until all three canvases, the interactivity chart included, have been drawn. */
async function waitForAllCharts(page) {
  for (const id of CHART_IDS) {
    await expect.poll(() => inkedPixels(page, id)).toBeGreaterThan(1000);
  }
}

/** Every chart's pixels as data URLs, keyed by canvas id. */
async function chartImages(page) {
  const images = {};
  for (const id of CHART_IDS) images[id] = await canvasImage(page, id);
  return images;
}

/** The batch table's header cells, in order. */
async function tableHeaders(page) {
  return page.locator('#batch-table thead th').allTextContents();
}

/** The row for one batch size as an object keyed by header text ("Step time (ms)": "9.92"). */
async function rowByHeader(page, batch) {
  const headers = await tableHeaders(page);
  const row = await rowFor(page, String(batch));
  return row && Object.fromEntries(headers.map((h, i) => [h, row[i]]));
}

/** Every row as an object keyed by header text. */
async function rowsByHeader(page) {
  const headers = await tableHeaders(page);
  return (await tableRows(page)).map((row) => Object.fromEntries(headers.map((h, i) => [h, row[i]])));
}

/** A printed number ("8,505", "9.92", "$10.00") as a JS number. */
function num(text) {
  return Number(String(text).replace(/[$,\s]/g, ''));
}

/** Waits until the page has written its state into the address. It writes at most every 250 ms (and
 *  soon after a control's change), so read the URL after this, or poll it. */
async function urlSettled(page) {
  await page.waitForFunction(() => window.goodputUrlPending !== true);
}

/** The page's query string as an array of [key, value] pairs, in order. */
function queryPairs(page) {
  return Array.from(new URL(page.url()).searchParams.entries());
}

/** One query-string value of the page's current URL, or null. */
function queryValue(page, key) {
  return new URL(page.url()).searchParams.get(key);
}

/** Asserts that no visible text shows NaN, undefined or Infinity. */
async function expectNoBadNumbers(page) {
  expect(await page.locator('body').innerText()).not.toMatch(/NaN|undefined|Infinity/);
}

/** Focuses a control and presses one key on it (a slider's ArrowRight, Home, End). */
async function pressOn(page, id, key) {
  await page.locator(`#${id}`).focus();
  await page.keyboard.press(key);
}

/** Types into a number box and commits it with Enter (the boxes apply on change). */
async function commitNumber(page, id, text) {
  await page.locator(`#${id}`).fill(text);
  await page.locator(`#${id}`).press('Enter');
}

/** Scrolls the section `#id` into view and waits until its lazily loaded body is drawn (the
 *  derivation's lines and the capacity plan load when they first come near the viewport; in the
 *  one-file build they are there at once). */
async function showPanel(page, id) {
  await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  await expect(page.locator(`#${id} .lazy-status`)).toBeHidden({ timeout: 15_000 });
}

/** Waits until `n` searches (at least) have finished and none is running. */
async function searched(page, n = 1) {
  const status = page.locator('#search-status');
  await expect.poll(async () => Number(await status.getAttribute('data-searches')), { timeout: 20_000 })
    .toBeGreaterThanOrEqual(n);
  await expect(status).toHaveAttribute('data-busy', 'false');
}

module.exports = {
  openApp, waitForCharts, inkedPixels, canvasImage, tableRows, rowFor,
  CHART_IDS, waitForAllCharts, chartImages, tableHeaders, rowByHeader, rowsByHeader, num, queryPairs,
  queryValue, urlSettled, expectNoBadNumbers, pressOn, commitNumber, showPanel, searched,
};
