// The configuration search embedded in a wiki: `?embed=1&view=search` in an 800 x 500 frame shows the
// frontier chart over the top rows, in a 600 x 400 frame and a 360 px column the top rows alone (each
// naming its GPU, weights, KV cache and placement), with nothing to scroll inside the frame and no text drawn over other text (chart labels read from the canvas calls:
// tests/e2e/chart_text.js). Screenshots go to /tmp/shots-present/.
const { test, expect } = require('@playwright/test');
const { logChartText, chartText, collisions, inside, overlaps } = require('./chart_text');

/** Opens the embed at `width` x `height` and waits for the search's first result. */
async function openEmbed(page, width, height) {
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.setViewportSize({ width, height });
  await page.addInitScript(logChartText);
  await page.goto('index.html?embed=1&view=search');
  await expect(page.locator('html')).toHaveAttribute('data-mode', 'embed');
  await expect(page.locator('#search-status')).toHaveAttribute('data-searches', '1', { timeout: 20_000 });
  await expect(page.locator('#search-table tbody tr').first()).toBeVisible();
  return errors;
}

/** [scrollHeight, innerHeight, scrollWidth, innerWidth] of the document. */
function documentScroll(page) {
  return page.evaluate(() => [document.documentElement.scrollHeight, innerHeight,
    document.documentElement.scrollWidth, innerWidth]);
}

/** The boxes of the HTML text a reader sees: the summary line, the link, each shown table cell. */
function htmlTextBoxes(page) {
  return page.evaluate(() => Array.from(document.querySelectorAll('#embed-summary, #embed-open, #search-table th, #search-table td'))
    .filter((el) => el.checkVisibility())
    .map((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const r = range.getBoundingClientRect();
      return { text: el.textContent.trim(), box: { left: r.left, top: r.top, right: r.right, bottom: r.bottom } };
    })
    .filter((t) => t.text && t.box.right > t.box.left));
}

/** Every pair of HTML text boxes that overlap. */
function htmlCollisions(texts) {
  const hits = [];
  texts.forEach((a, i) => texts.slice(i + 1).forEach((b) => { if (overlaps(a.box, b.box, 1)) hits.push(`${a.text} / ${b.text}`); }));
  return hits;
}

/** The rows a reader sees. */
function shownRows(page) {
  return page.locator('#search-table tbody tr').evaluateAll((trs) => trs.filter((tr) => tr.checkVisibility()).length);
}

test('embed view=search at 800x500 shows the frontier chart at a legible height over the top rows with nothing to scroll', async ({ page }) => {
  const errors = await openEmbed(page, 800, 500);
  await expect(page.locator('#chart-search')).toBeVisible();
  await expect.poll(async () => (await chartText(page, 'chart-search')).length, { timeout: 10_000 }).toBeGreaterThan(3);
  const [sh, ih, sw, iw] = await documentScroll(page);
  expect(sh, 'no vertical scroll').toBeLessThanOrEqual(ih);
  expect(sw, 'no sideways scroll').toBeLessThanOrEqual(iw);
  expect(await shownRows(page)).toBeGreaterThanOrEqual(3);
  const canvas = await page.locator('#chart-search').evaluate((c) => c.getBoundingClientRect().toJSON());
  expect(canvas.height, 'the chart keeps a legible height').toBeGreaterThanOrEqual(240);
  expect(inside(canvas, { left: 0, top: 0, right: 800, bottom: 500 })).toBe(true);
  const texts = await chartText(page, 'chart-search');
  expect(collisions(texts), texts.map((t) => t.text).join(' | ')).toEqual([]);
  // The TPOT target's value is read in the legend, and its line's label crosses no frontier.
  expect(texts.some((t) => t.text.startsWith('TPOT target 10 ms'))).toBe(true);
  expect(htmlCollisions(await htmlTextBoxes(page))).toEqual([]);
  await page.screenshot({ path: '/tmp/shots-present/embed-search-800x500.png' });
  expect(errors).toEqual([]);
});

test('embed view=search at 600x400 shows the top ten rows alone (the chart would have no legible height) with nothing to scroll', async ({ page }) => {
  const errors = await openEmbed(page, 600, 400);
  await expect(page.locator('#chart-search')).toBeHidden();
  const [sh, ih, sw, iw] = await documentScroll(page);
  expect(sh, 'no vertical scroll').toBeLessThanOrEqual(ih);
  expect(sw, 'no sideways scroll').toBeLessThanOrEqual(iw);
  expect(await shownRows(page)).toBe(10);
  // Each row names GPU, weights, KV cache and placement, then goodput per GPU and tokens/s per user.
  await expect(page.locator('#search-table thead th').filter({ visible: true })).toHaveText(
    ['GPU', 'Weights', 'KV', 'Placement', 'Goodput per GPU (req/s)', 'Tokens/s per user']);
  expect(htmlCollisions(await htmlTextBoxes(page))).toEqual([]);
  await page.screenshot({ path: '/tmp/shots-present/embed-search-600x400.png' });
  expect(errors).toEqual([]);
});

for (const height of [640, 480]) {
  test(`embed view=search in a 360x${height} column shows the top eight rows alone with nothing to scroll`, async ({ page }) => {
    const errors = await openEmbed(page, 360, height);
    await expect(page.locator('#chart-search')).toBeHidden();
    const [sh, ih, sw, iw] = await documentScroll(page);
    expect(sh, 'no vertical scroll').toBeLessThanOrEqual(ih);
    expect(sw, 'no sideways scroll').toBeLessThanOrEqual(iw);
    expect(await shownRows(page)).toBe(8);
    await expect(page.locator('#search-table thead th').filter({ visible: true })).toHaveText(
      ['GPU', 'Weights', 'KV', 'Placement', 'Goodput per GPU (req/s)']);
    const [scroll, client] = await page.locator('#search-table').evaluate((t) => {
      const w = t.closest('.table-scroll');
      return [w.scrollWidth, w.clientWidth];
    });
    expect(scroll, 'the table fits the column').toBeLessThanOrEqual(client);
    expect(htmlCollisions(await htmlTextBoxes(page))).toEqual([]);
    await page.screenshot({ path: `/tmp/shots-present/embed-search-360x${height}.png` });
    expect(errors).toEqual([]);
  });
}
