// What one slider input costs the page (issue 13, second pass): the batch table's cells are updated
// in place, not rebuilt; a chart's lines are stroked as a few batched paths, not one per line; a held
// arrow key (input and change on every repeat) writes the URL at most every 250 ms.
const { test, expect } = require('@playwright/test');
const { openApp, waitForAllCharts, urlSettled } = require('./helpers');

/** Runs in the page: moves slider `id` two stops (up, or down at the top) and fires its `input` event. */
function moveSlider(id) {
  const el = document.getElementById(id);
  const step = Number(el.step) || 1;
  const up = Number(el.value) + 2 * step;
  el.value = String(up <= Number(el.max) ? up : Number(el.value) - 2 * step);
  el.dispatchEvent(new Event('input', { bubbles: true }));
}

test('an input updates the batch table in place: the same row and cell elements, new text, no listener re-attached', async ({ page }) => {
  await page.addInitScript(() => {
    // Listeners added to or removed from the table's rows and buttons (a re-rendered row re-attaches its own).
    window.__tableListeners = 0;
    for (const name of ['addEventListener', 'removeEventListener']) {
      const original = EventTarget.prototype[name];
      EventTarget.prototype[name] = function counted(...args) {
        if (this instanceof Element && this.closest('#batch-table tbody')) window.__tableListeners += 1;
        return original.apply(this, args);
      };
    }
  });
  const errors = await openApp(page);
  await page.evaluate(() => {
    window.__tableListeners = 0;
    const row = document.querySelector('#batch-table tbody tr[data-batch="32"]');
    window.__kept = { rows: Array.from(document.querySelectorAll('#batch-table tbody tr')), row, step: row.children[1] };
  });
  const stepBefore = await page.evaluate(() => window.__kept.step.textContent);
  await page.evaluate(moveSlider, 'in');
  await expect.poll(() => page.evaluate(() => window.__kept.step.textContent)).not.toBe(stepBefore);
  const kept = await page.evaluate(() => {
    const row = document.querySelector('#batch-table tbody tr[data-batch="32"]');
    const rows = Array.from(document.querySelectorAll('#batch-table tbody tr'));
    return {
      sameRow: row === window.__kept.row,
      sameCell: row.children[1] === window.__kept.step,
      connected: window.__kept.step.isConnected,
      rowsKept: rows.filter((r) => window.__kept.rows.includes(r)).length,
      rowsBefore: window.__kept.rows.length,
      rowsNow: rows.length,
      cellText: window.__kept.step.textContent,
      listeners: window.__tableListeners,
    };
  });
  expect(kept.listeners).toBe(0);
  expect(kept.sameRow).toBe(true);
  expect(kept.sameCell).toBe(true);
  expect(kept.connected).toBe(true);
  expect(kept.rowsKept).toBe(Math.min(kept.rowsBefore, kept.rowsNow));
  // The kept cell shows the new scenario's step time, as the page prints it.
  await expect(page.locator('#batch-table tbody tr[data-batch="32"] td').first()).toHaveText(kept.cellText);
  expect(errors).toEqual([]);
});

test('a chart draw strokes its grid and curves in a few batched paths, not one per line', async ({ page }) => {
  await page.addInitScript(() => {
    window.__strokes = 0;
    const stroke = CanvasRenderingContext2D.prototype.stroke;
    CanvasRenderingContext2D.prototype.stroke = function counted(...args) {
      window.__strokes += 1;
      return stroke.apply(this, args);
    };
  });
  const errors = await openApp(page);
  await waitForAllCharts(page);
  const draws = () => page.$eval('#chart-rate', (c) => Number(c.dataset.draws));
  const before = await draws();
  const strokesBefore = await page.evaluate(() => window.__strokes);
  await page.evaluate(moveSlider, 'in');
  await expect.poll(draws).toBeGreaterThan(before);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const strokes = (await page.evaluate(() => window.__strokes)) - strokesBefore;
  const chartDraws = await page.evaluate(() => Array.from(document.querySelectorAll('canvas'))
    .reduce((sum, c) => sum + Number(c.dataset.draws || 0), 0));
  expect(chartDraws).toBeGreaterThan(0);
  // Unbatched, the rate chart alone strokes about 180 lines (grid, ticks, axes, markers, curves).
  expect(strokes).toBeGreaterThan(0);
  expect(strokes).toBeLessThanOrEqual(3 * 40);
  expect(errors).toEqual([]);
});

test('a held arrow key (input and change on every repeat) writes the URL at most every 250 ms', async ({ page }) => {
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
  const [start, end, changes] = await page.evaluate(async () => {
    const el = document.getElementById('in');
    const t0 = performance.now();
    const at = [];
    // 1.5 s of key repeats, every 33 ms (a typical repeat rate): each fires input, then change.
    for (let k = 0; k < 45; k++) {
      el.value = String(6 + (Math.floor(k / 3) % 8));
      el.dispatchEvent(new Event('input', { bubbles: true }));
      at.push(performance.now());
      el.dispatchEvent(new Event('change', { bubbles: true }));
      await new Promise((r) => setTimeout(r, 33));
    }
    return [t0, performance.now(), at];
  });
  const finalCtx = (await page.locator('#in-value').textContent()).replace(/[^0-9]/g, '');
  await expect.poll(() => new URL(page.url()).searchParams.get('in')).toBe(finalCtx);
  const writes = (await page.evaluate(() => window.__writes)).filter((w) => w.at >= start);
  // A repeat is a change within 250 ms of the one before. On a loaded machine a busy main thread can
  // hold one back longer: that change is then a first change (the end of a drag, src/ui/shell/url.rs)
  // and may be written 100 ms after the previous write. Such stalls are counted, not assumed away.
  const stalls = changes.filter((t, k) => k > 0 && t - changes[k - 1] >= 250);
  expect(writes.length).toBeGreaterThanOrEqual(2);
  expect(writes.length).toBeLessThanOrEqual(Math.ceil((end - start) / 250) + 2 + stalls.length);
  for (let i = 1; i < writes.length; i++) {
    const stalled = stalls.some((t) => t > writes[i - 1].at && t <= writes[i].at);
    expect(writes[i].at - writes[i - 1].at, stalled ? 'after a stall: a first change' : 'between repeats')
      .toBeGreaterThanOrEqual(stalled ? 95 : 245);
  }
  expect(writes[writes.length - 1].ctx).toBe(finalCtx);
  expect(errors).toEqual([]);
});
