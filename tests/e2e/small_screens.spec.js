// Tables and charts on the screens people have: at 1280 px the batch table's note column and the
// search table's cost columns are on the screen with no sideways scroll; on a 390 x 844 phone no two
// of a chart's labels overlap (read from the canvas calls: tests/e2e/chart_text.js) and the tapped
// chart's read-out stays inside the chart. Screenshots go to /tmp/shots-present/.
const { test, expect } = require('@playwright/test');
const { logChartText, chartText, collisions, inside } = require('./chart_text');
const { openApp } = require('./helpers');

/** The page box of `locator`. */
function boxOf(locator) {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  });
}

/** [scrollWidth, clientWidth] of the element that scrolls `table` sideways. */
function wrapperWidths(page, table) {
  return page.locator(table).evaluate((t) => {
    const w = t.closest('.table-wrap, .table-scroll');
    return [w.scrollWidth, w.clientWidth];
  });
}

/** Whether `box` lies across the screen's width (left and right inside it). */
async function acrossScreen(page, box) {
  const width = await page.evaluate(() => innerWidth);
  return box.left >= 0 && box.right <= width;
}

test('at 1280 px the batch table shows its note column with no sideways scroll', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const errors = await openApp(page);
  const note = page.locator('#batch-table thead th').last();
  await expect(note).toHaveText('Note');
  await note.scrollIntoViewIfNeeded();
  const [scroll, client] = await wrapperWidths(page, '#batch-table');
  expect(scroll, 'the table wrapper does not overflow').toBeLessThanOrEqual(client);
  expect(await acrossScreen(page, await boxOf(note)), 'the note heading is on the screen').toBe(true);
  const kneeNote = page.locator('#batch-table tr.knee td.note');
  expect(await acrossScreen(page, await boxOf(kneeNote)), 'the knee row note is on the screen').toBe(true);
  await page.screenshot({ path: '/tmp/shots-present/small-1280-batch-table.png' });
  expect(errors).toEqual([]);
});

test('at 1280 px the search table shows its cost columns with no sideways scroll', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const errors = await openApp(page, '?search=1');
  await expect(page.locator('#search-status')).toHaveAttribute('data-searches', '1', { timeout: 20_000 });
  await expect(page.locator('#search-table tbody tr').first()).toBeVisible();
  await page.locator('#search-table').scrollIntoViewIfNeeded();
  const [scroll, client] = await wrapperWidths(page, '#search-table');
  expect(scroll, 'the table wrapper does not overflow').toBeLessThanOrEqual(client);
  for (const name of ['$ per million tokens', 'GPUs for the load']) {
    const th = page.locator('#search-table thead th', { hasText: name });
    expect(await acrossScreen(page, await boxOf(th)), `${name} on the screen`).toBe(true);
  }
  await page.screenshot({ path: '/tmp/shots-present/small-1280-search-table.png' });
  expect(errors).toEqual([]);
});

test('on a 390 x 844 phone no chart draws two labels over each other', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.addInitScript(logChartText);
  const errors = await openApp(page, '?search=1&sim=1&requests=300&points=6');
  await expect(page.locator('#search-status')).toHaveAttribute('data-searches', '1', { timeout: 20_000 });
  await expect(page.locator('#sim-goodput')).toBeVisible({ timeout: 20_000 });
  const ids = ['chart-rate', 'chart-step', 'chart-interactivity', 'chart-search', 'chart-attainment', 'chart-sim-throughput'];
  for (const id of ids) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    await expect.poll(async () => (await chartText(page, id)).length, { timeout: 10_000 }).toBeGreaterThan(3);
    const texts = await chartText(page, id);
    expect(collisions(texts), `${id}: ${texts.map((t) => t.text).join(' | ')}`).toEqual([]);
    const canvas = await boxOf(page.locator(`#${id}`));
    for (const t of texts) expect(inside(t.box, canvas, 1), `${id} "${t.text}" inside its canvas`).toBe(true);
  }
  await page.locator('#chart-search').scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/shots-present/small-390-search-chart.png' });
  expect(errors).toEqual([]);
});

test('on a 390 x 844 phone the tapped chart\'s read-out stays inside the chart', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const errors = await openApp(page);
  for (const id of ['chart-rate', 'chart-step', 'chart-interactivity']) {
    const canvas = page.locator(`#${id}`);
    await canvas.scrollIntoViewIfNeeded();
    const readout = page.locator(`.chart-box:has(#${id}) .chart-readout`);
    for (const at of [0.15, 0.4, 0.5, 0.6, 0.85]) {
      const box = await canvas.boundingBox();
      await page.mouse.click(box.x + box.width * at, box.y + box.height * 0.5);
      await expect(readout).toBeVisible();
      const chart = await boxOf(canvas);
      const shown = await boxOf(readout);
      expect(inside(shown, chart), `${id} tapped at ${at}: read-out ${JSON.stringify(shown)} in ${JSON.stringify(chart)}`).toBe(true);
      if (id === 'chart-rate' && at === 0.5) await page.screenshot({ path: '/tmp/shots-present/small-390-readout.png' });
    }
  }
  expect(errors).toEqual([]);
});
