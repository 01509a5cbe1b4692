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
  return errors;
}

/** Waits until both canvases have been drawn (non-blank pixels). */
async function waitForCharts(page) {
  for (const id of ['chart-rate', 'chart-step']) {
    await expect.poll(() => inkedPixels(page, id)).toBeGreaterThan(1000);
  }
}

/** Count of pixels that differ from the top-left (background) pixel. */
async function inkedPixels(page, id) {
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

module.exports = { openApp, waitForCharts, inkedPixels, canvasImage, tableRows, rowFor };
