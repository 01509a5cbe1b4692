// Presentation mode at a projector's 1920 x 1080, a laptop's 1280 x 800 and a phone's 390 x 844: every
// lesson brings its panel up whole (each drawn chart inside the screen, lesson 7 on the placement panel,
// lesson 8's knee row in view), and chart text grows with the screen (at least 28 px at 1920 x 1080, read
// from the canvas calls themselves: tests/e2e/chart_text.js). Screenshots go to /tmp/shots-present/.
const { test, expect } = require('@playwright/test');
const { logChartText, chartText, collisions, inside } = require('./chart_text');

// [width, height, devicePixelRatio]: 1920 x 1080 at 150% browser zoom is a 1280 x 720 CSS window at 1.5.
const SIZES = [[1920, 1080, 1], [1280, 800, 1], [1280, 720, 1.5], [390, 844, 1]];
/** Each lesson's panel as `<html data-view>` names it, and an element that shows it is up. */
const PANELS = {
  1: ['rate', '#chart-rate'], 2: ['step', '#chart-step'], 3: ['rate', '#chart-rate'], 4: ['step', '#chart-step'],
  5: ['sim', '#chart-attainment'], 6: ['sim', '#chart-attainment'],
  7: ['placement', '#placement-table'], 8: ['table', '#batch-table tr.knee'],
  9: ['derivation', '#derivation [data-line="par-replica"]'],
};

/** Opens lesson `n` presented and waits until its panel has drawn (a sweep landed, charts inked). */
async function presentLesson(page, n) {
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.addInitScript(logChartText);
  await page.goto(`index.html?present=1&lesson=${n}`);
  await expect(page.locator('html')).toHaveAttribute('data-mode', 'present');
  const [view, shown] = PANELS[n];
  await expect(page.locator('html')).toHaveAttribute('data-view', view);
  await expect(page.locator(shown)).toBeVisible({ timeout: 20_000 });
  if (view === 'sim') {
    await expect.poll(async () => (await page.locator('#sim-status').getAttribute('data-busy')) === 'false'
      && Number(await page.locator('#sim-status').getAttribute('data-sweeps')) > 0, { timeout: 30_000 }).toBe(true);
  }
  for (const id of await drawnCanvases(page)) {
    await expect.poll(async () => (await chartText(page, id)).length, { timeout: 10_000 }).toBeGreaterThan(3);
  }
  // Two frames more: a resize after the last draw has then redrawn.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return errors;
}

/** The ids of the canvases a reader can see (displayed, with a box). */
function drawnCanvases(page) {
  return page.evaluate(() => Array.from(document.querySelectorAll('canvas[id]'))
    .filter((c) => c.checkVisibility() && c.getBoundingClientRect().width > 0)
    .map((c) => c.id));
}

/** The viewport as a box. */
function screenBox(page) {
  return page.evaluate(() => ({ left: 0, top: 0, right: innerWidth, bottom: innerHeight }));
}

/** The page box of the element `selector` matches first. */
function boxOf(page, selector) {
  return page.locator(selector).first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
  });
}

for (const [width, height, ratio] of SIZES) {
  test.describe(`at ${width}x${height}${ratio > 1 ? ` x${ratio}` : ''}`, () => {
    test.use({ viewport: { width, height }, deviceScaleFactor: ratio });
    for (let n = 1; n <= 9; n++) {
      test(`lesson ${n} presented shows its ${PANELS[n][0]} panel whole on the screen`, async ({ page }) => {
        const errors = await presentLesson(page, n);
        const screen = await screenBox(page);
        await expect(page.locator(`.results > [data-panel="${PANELS[n][0]}"], .charts > [data-panel="${PANELS[n][0]}"]`).first()).toBeVisible();
        const canvases = await drawnCanvases(page);
        if (n <= 6) expect(canvases.length, 'a chart lesson shows its charts').toBeGreaterThan(0);
        for (const id of canvases) {
          const box = await boxOf(page, `#${id}`);
          expect(inside(box, screen), `#${id} ${JSON.stringify(box)} inside ${width}x${height}`).toBe(true);
          // A chart, not a sliver: at least a fifth of the screen's height.
          expect(box.height, `#${id} height`).toBeGreaterThan(height / 5);
          expect(collisions(await chartText(page, id)), `#${id} labels overlap`).toEqual([]);
        }
        if (n === 7) {
          await expect(page.locator('#placement')).toBeVisible();
          const table = await boxOf(page, '#placement-table');
          expect(table.top >= 0 && table.bottom <= height, `placement table ${JSON.stringify(table)}`).toBe(true);
        }
        if (n === 8) {
          // The row's batch cell whole on the screen (the rest of a wide row scrolls sideways on a phone).
          const knee = await boxOf(page, '#batch-table tr.knee th');
          expect(inside(knee, screen), `knee row ${JSON.stringify(knee)}`).toBe(true);
        }
        if (n === 9) {
          // The lesson's subject: the derivation opens on its parallelism lines (it scrolls inside).
          const line = await boxOf(page, '#derivation [data-line="par-replica"]');
          expect(line.top >= 0 && line.bottom <= height, `replica line ${JSON.stringify(line)}`).toBe(true);
        }
        const scroll = await page.evaluate(() => [document.documentElement.scrollHeight, innerHeight]);
        expect(scroll[0], 'the page itself does not scroll').toBeLessThanOrEqual(scroll[1] + 1);
        await page.screenshot({ path: `/tmp/shots-present/present-${width}x${height}x${ratio}-lesson${n}.png` });
        expect(errors).toEqual([]);
      });
    }
  });
}

for (const n of [1, 2, 5]) {
  test(`at 1920x1080 lesson ${n}'s chart text is at least 28 px, larger than at 1280x800`, async ({ page }) => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await presentLesson(page, n);
    const id = PANELS[n][1].slice(1);
    const big = (await chartText(page, id)).map((t) => t.px);
    expect(big.length).toBeGreaterThan(3);
    expect(Math.min(...big), `smallest chart text at 1920x1080: ${Math.min(...big)}`).toBeGreaterThanOrEqual(28);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(async () => Math.min(...(await chartText(page, id)).map((t) => t.px))).toBeLessThan(Math.min(...big));
  });
}

test('chart text on the page keeps its size: presentation scales it, the page does not', async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.addInitScript(logChartText);
  await page.goto('index.html');
  await expect.poll(async () => (await chartText(page, 'chart-rate')).length, { timeout: 10_000 }).toBeGreaterThan(3);
  const sizes = (await chartText(page, 'chart-rate')).map((t) => t.px);
  expect(Math.min(...sizes)).toBeGreaterThanOrEqual(12);
  expect(Math.max(...sizes)).toBeLessThan(20);
});

test('stepping panels while presenting reaches the placement panel between the arithmetic and the search', async ({ page }) => {
  await page.goto('index.html?present=1&view=derivation');
  await expect(page.locator('html')).toHaveAttribute('data-view', 'derivation');
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('html')).toHaveAttribute('data-view', 'placement');
  await expect(page.locator('#placement-table')).toBeVisible({ timeout: 15_000 });
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('html')).toHaveAttribute('data-view', 'search');
});
