// A speaker's controls (issue 38): the TPOT and TTFT sliders spend most of their track on the range
// that changes the answer, so a drag of a quarter of the track lands inside it at every size; at
// 1280 x 800 the controls scroll in their own pinned column, so the charts a slider drives stay in
// view while it is dragged; the labels a target moves never land on each other; every control is a
// target a finger can hit; the cost model's choice is not cut. Screenshots go to /tmp/shots-aim/.
const { test, expect } = require('@playwright/test');
const { logChartText, chartText, collisions } = require('./chart_text');
const { openApp, inkedPixels } = require('./helpers');

const SIZES = [
  { width: 1920, height: 1080, present: false }, { width: 1920, height: 1080, present: true },
  { width: 1280, height: 800, present: false }, { width: 1280, height: 800, present: true },
  { width: 390, height: 844, present: false },
];
/** The range of each target slider's display values where moving it changes the worked example. */
const AIMED = { tpot: [5, 60], ttft: [100, 3000] };

/** Opens the page (presenting or not) and waits for its first chart. */
async function open(page, present, query = '') {
  if (!present) return openApp(page, query);
  const errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(`index.html?present=1${query}`);
  await expect.poll(() => inkedPixels(page, 'chart-rate')).toBeGreaterThan(1000);
  return errors;
}

/** Drags slider `id`'s thumb from where it is to a quarter of its track; the value it then shows. */
async function dragToQuarter(page, id) {
  const slider = page.locator(`#${id}`);
  await slider.scrollIntoViewIfNeeded();
  const box = await slider.boundingBox();
  const [index, last] = await slider.evaluate((el) => [Number(el.value), Number(el.max)]);
  const track = box.width - 16;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 8 + (index / last) * track, y);
  await page.mouse.down();
  await page.mouse.move(box.x + 8 + 0.25 * track, y, { steps: 4 });
  await page.mouse.up();
  return Number((await page.locator(`#${id}-value`).textContent()).replace(/[^0-9.]/g, ''));
}

for (const size of SIZES) {
  const name = `${size.width}x${size.height}${size.present ? ' presenting' : ''}`;
  test(`at ${name} a drag of a quarter of the TPOT and TTFT tracks lands in the range that matters`, async ({ page }) => {
    await page.setViewportSize(size);
    const errors = await open(page, size.present);
    const ids = size.present ? ['tpot'] : ['tpot', 'ttft'];
    for (const id of ids) {
      const shown = await dragToQuarter(page, id);
      const [lo, hi] = AIMED[id];
      expect(shown, `${id} at a quarter of its track`).toBeGreaterThanOrEqual(lo);
      expect(shown, `${id} at a quarter of its track`).toBeLessThanOrEqual(hi);
      // Its ends are still the field's whole range.
      await page.locator(`#${id}`).focus();
      await page.keyboard.press('End');
      await expect(page.locator(`#${id}-value`)).toHaveText(id === 'tpot' ? '500 ms' : '60,000 ms');
      await page.keyboard.press('Home');
      await expect(page.locator(`#${id}-value`)).toHaveText(id === 'tpot' ? '1 ms' : '10 ms');
    }
    expect(errors).toEqual([]);
  });
}

/** The share of element `id`'s height inside the viewport. */
function shareInView(page, id) {
  return page.evaluate((elId) => {
    const r = document.getElementById(elId).getBoundingClientRect();
    const seen = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
    return Math.max(0, seen) / r.height;
  }, id);
}

test('at 1280x800 the rate and step charts stay in view while the TPOT slider is dragged', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const errors = await openApp(page);
  // A reader scrolls the controls with the wheel until the slider shows.
  const controls = page.locator('section.controls');
  await controls.hover();
  for (let i = 0; i < 40 && (await shareInView(page, 'tpot')) < 1; i += 1) await page.mouse.wheel(0, 120);
  expect(await shareInView(page, 'tpot'), 'the TPOT slider is in view').toBe(1);
  const box = await page.locator('#tpot').boundingBox();
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 20, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.2, y, { steps: 4 });
  for (const id of ['chart-rate', 'chart-step']) {
    expect(await shareInView(page, id), `${id} in view while dragging`).toBeGreaterThan(0.75);
  }
  await page.mouse.up();
  await page.screenshot({ path: '/tmp/shots-aim/1280-dragging-tpot.png' });
  // The column scrolled, not the page: the headline is still on screen too.
  expect(await shareInView(page, 'headline')).toBe(1);
  expect(errors).toEqual([]);
});

test('on the step and interactivity charts no label lands on another for any TPOT from 5 to 60 ms', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.addInitScript(logChartText);
  for (const kv of ['bf16', 'fp8']) {
    for (let ms = 5; ms <= 60; ms += 5) {
      // A fresh page for each target, so each canvas's log holds one drawing.
      const errors = await openApp(page, `?kv=${kv}&tpot=${ms}`);
      for (const id of ['chart-step', 'chart-interactivity']) {
        await page.locator(`#${id}`).scrollIntoViewIfNeeded();
        await expect.poll(async () => (await chartText(page, id)).some((t) => t.text.startsWith(`TPOT target ${ms} ms`)),
          { timeout: 10_000 }).toBe(true);
        const texts = await chartText(page, id);
        expect(collisions(texts), `${id} ${kv} at ${ms} ms: ${texts.map((t) => t.text).join(' | ')}`).toEqual([]);
      }
      expect(errors).toEqual([]);
    }
  }
});

for (const [width, height] of [[600, 400], [360, 480]]) {
  test(`embedded at ${width}x${height}, the step and interactivity charts keep their labels apart at 5 to 60 ms`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height });
    await page.addInitScript(logChartText);
    for (const view of ['step', 'interactivity']) {
      for (const [kv, ms] of [['bf16', 10], ['bf16', 20], ['fp8', 30], ['fp8', 45], ['bf16', 60]]) {
        await page.goto(`index.html?embed=1&view=${view}&kv=${kv}&tpot=${ms}`);
        const id = `chart-${view}`;
        await expect.poll(async () => (await chartText(page, id)).length, { timeout: 10_000 }).toBeGreaterThan(3);
        const texts = await chartText(page, id);
        expect(collisions(texts), `${view} ${kv} ${ms} ms: ${texts.map((t) => t.text).join(' | ')}`).toEqual([]);
      }
    }
  });
}

test('on a phone every button, select, box and checkbox is at least 24 px each way', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const errors = await openApp(page, '?sim=1&requests=300&points=6&search=1&place=disagg&calib=custom&spec=head');
  await expect(page.locator('#search-status')).toHaveAttribute('data-searches', '1', { timeout: 20_000 });
  await expect(page.locator('#sim-goodput')).toBeVisible({ timeout: 20_000 });
  const small = await page.evaluate(() => [...document.querySelectorAll('button, select, input:not([type=range]), a.embed-open')]
    .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden')
    .map((el) => [el, el.getBoundingClientRect()])
    .filter(([, r]) => r.width < 24 || r.height < 24)
    .map(([el, r]) => `${el.id || el.className || el.tagName} "${el.textContent.trim().slice(0, 20)}" ${Math.round(r.width)}x${Math.round(r.height)}`));
  expect(small).toEqual([]);
  await context.close();
  expect(errors).toEqual([]);
});

test("the cost model's choices show whole in their select at 1280 and 390 px", async ({ page }) => {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    const errors = await openApp(page);
    const cut = await page.locator('#calib').evaluate((select) => {
      const font = getComputedStyle(select).font;
      const ctx = document.createElement('canvas').getContext('2d');
      ctx.font = font;
      const cs = getComputedStyle(select);
      // The text's room: the box less its padding and the arrow (about 20 px).
      const room = select.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
      return [...select.options].filter((o) => ctx.measureText(o.text).width > room).map((o) => o.text);
    });
    expect(cut, `at ${width} px`).toEqual([]);
    expect(errors).toEqual([]);
  }
});
