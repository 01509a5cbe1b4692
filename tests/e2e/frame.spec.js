// Redraws inside a frame: slider inputs are coalesced to one chart draw per animation frame, a chart
// out of view is not drawn until it scrolls back (then once, with the latest state), an export
// reads a current canvas, and the URL is written at most every 250 ms, ending on the final state.
// Each canvas counts its draws in data-draws.
const { test, expect } = require('@playwright/test');
const { openApp, waitForAllCharts, canvasImage, urlSettled, CHART_IDS } = require('./helpers');

/** Every chart's draw count, keyed by canvas id. */
function draws(page) {
  return page.evaluate((ids) => Object.fromEntries(ids.map((id) =>
    [id, Number(document.getElementById(id).dataset.draws || 0)])), CHART_IDS);
}

/** Resolves after `n` animation frames. */
function frames(page, n) {
  return page.evaluate((count) => new Promise((resolve) => {
    const step = (left) => (left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1)));
    step(count);
  }), n);
}

/** Runs in the page: sets slider `id` to each of `values` in turn, one `input` event per value,
 *  `perFrame` of them inside each animation frame's callback, yielding to microtasks after each
 *  (so the page's effects run between inputs). Returns the shown value after each input. */
async function inputs({ id, values, perFrame }) {
  const el = document.getElementById(id);
  const shown = [];
  for (let i = 0; i < values.length; i += perFrame) {
    await new Promise((resolve) => requestAnimationFrame(async () => {
      for (const v of values.slice(i, i + perFrame)) {
        el.value = String(v);
        el.dispatchEvent(new Event('input', { bubbles: true }));
        for (let k = 0; k < 20; k++) await Promise.resolve();
        shown.push(document.getElementById(`${id}-value`).textContent);
      }
      resolve();
    }));
  }
  return shown;
}

test('a burst of slider inputs inside one frame draws each chart exactly once', async ({ page }) => {
  const errors = await openApp(page);
  await waitForAllCharts(page);
  await frames(page, 3);
  const before = await draws(page);
  const shown = await page.evaluate(inputs, { id: 'in', values: [8, 9, 10, 11, 12, 13], perFrame: 6 });
  expect(new Set(shown).size).toBe(6); // the page took every input before the frame ended
  await frames(page, 3);
  const after = await draws(page);
  for (const id of CHART_IDS) expect(after[id] - before[id], id).toBe(1);
  expect(errors).toEqual([]);
});

test('one input per frame draws each chart once per frame', async ({ page }) => {
  const errors = await openApp(page);
  await frames(page, 3);
  const before = await draws(page);
  await page.evaluate(inputs, { id: 'in', values: [8, 9, 10, 11, 12], perFrame: 1 });
  await frames(page, 3);
  const after = await draws(page);
  for (const id of CHART_IDS) expect(after[id] - before[id], id).toBe(5);
  expect(errors).toEqual([]);
});

test('a chart out of view is not redrawn while inputs change, then redrawn once with the latest state', async ({ page }) => {
  const errors = await openApp(page);
  await waitForAllCharts(page);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const bottom = await page.locator('#chart-rate').evaluate((c) => c.getBoundingClientRect().bottom);
  expect(bottom).toBeLessThan(-250); // well outside the viewport and its 200 px margin
  await frames(page, 3);
  const before = await draws(page);
  const label = await page.locator('#chart-rate').getAttribute('aria-label');
  await page.evaluate(inputs, { id: 'in', values: [8, 9, 10, 11, 12, 13, 14], perFrame: 1 });
  await frames(page, 5);
  expect(await draws(page)).toEqual(before);
  // The text alternative follows the state at once; only the pixels wait.
  await expect(page.locator('#chart-rate')).not.toHaveAttribute('aria-label', label);

  await page.evaluate(() => window.scrollTo(0, 0));
  await expect.poll(async () => (await draws(page))['chart-rate']).toBe(before['chart-rate'] + 1);
  await frames(page, 5);
  const after = await draws(page);
  for (const id of CHART_IDS) expect(after[id] - before[id], id).toBe(1);
  // The pixels are those of a fresh page opened on the final state.
  const shown = await canvasImage(page, 'chart-rate');
  await urlSettled(page);
  const fresh = await page.context().newPage();
  await openApp(fresh, new URL(page.url()).search);
  await waitForAllCharts(fresh);
  expect(await canvasImage(fresh, 'chart-rate')).toBe(shown);
  expect(errors).toEqual([]);
});

test('exporting a PNG draws a pending change first', async ({ page }) => {
  const errors = await openApp(page);
  await frames(page, 3);
  const [before, during, after] = await page.evaluate(async () => {
    const canvas = document.getElementById('chart-rate');
    const count = () => Number(canvas.dataset.draws);
    const el = document.getElementById('in');
    const was = count();
    el.value = String(Number(el.value) + 3);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    for (let k = 0; k < 20; k++) await Promise.resolve();
    document.getElementById('export-rate-png').click(); // same task: no frame has run yet
    const now = count();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return [was, now, count()];
  });
  expect(during).toBe(before + 1);
  expect(after).toBe(during); // nothing left to draw in the next frame
  expect(errors).toEqual([]);
});

test('the URL is written at most every 250 ms during a stream of inputs, ends on the final state, adds no history', async ({ page }) => {
  await page.addInitScript(() => {
    window.__writes = [];
    const replace = history.replaceState.bind(history);
    history.replaceState = (state, title, url) => {
      window.__writes.push({ at: performance.now(), ctx: new URL(url, location.href).searchParams.get('in') });
      return replace(state, title, url);
    };
  });
  const errors = await openApp(page);
  await urlSettled(page);
  const historyBefore = await page.evaluate(() => history.length);
  const start = await page.evaluate(() => performance.now());
  // About 1.2 s of inputs, one per frame, up and down the context slider; no change event.
  const values = Array.from({ length: 72 }, (_, i) => 6 + (Math.floor(i / 3) % 8));
  await page.evaluate(inputs, { id: 'in', values, perFrame: 1 });
  const end = await page.evaluate(() => performance.now());
  const finalText = await page.locator('#in-value').textContent();
  const finalCtx = finalText.replace(/[^0-9]/g, '');
  await expect.poll(() => new URL(page.url()).searchParams.get('in')).toBe(finalCtx);
  const writes = (await page.evaluate(() => window.__writes)).filter((w) => w.at >= start);
  expect(writes.length).toBeGreaterThanOrEqual(2);
  expect(writes.length).toBeLessThanOrEqual(Math.ceil((end - start) / 250) + 2);
  for (let i = 1; i < writes.length; i++) expect(writes[i].at - writes[i - 1].at).toBeGreaterThanOrEqual(245);
  expect(writes[writes.length - 1].ctx).toBe(finalCtx); // the trailing write holds the final state
  expect(await page.evaluate(() => history.length)).toBe(historyBefore);
  expect(errors).toEqual([]);
});

test('a change event (the end of a drag) writes the URL without waiting out the interval', async ({ page }) => {
  const errors = await openApp(page);
  await urlSettled(page);
  const [sinceChangeMs, ctx] = await page.evaluate(async () => {
    const el = document.getElementById('in');
    // Two inputs 10 ms apart: the second waits for the 250 ms interval ...
    for (const v of [7, 9]) {
      el.value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((r) => setTimeout(r, 10));
    }
    // ... unless the drag ends: change writes it as soon as 100 ms have passed since the last write.
    const t0 = performance.now();
    el.dispatchEvent(new Event('change', { bubbles: true }));
    while (window.goodputUrlPending) await new Promise((r) => setTimeout(r, 5));
    return [performance.now() - t0, new URLSearchParams(location.search).get('in')];
  });
  expect(sinceChangeMs).toBeLessThan(200);
  expect(ctx).toBe((await page.locator('#in-value').textContent()).replace(/[^0-9]/g, ''));
  expect(errors).toEqual([]);
});
