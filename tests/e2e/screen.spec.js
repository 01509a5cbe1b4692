// The first screen shows the answer: at phone (390 x 844) and desktop (1280 x 800) sizes the headline
// and the throughput/goodput chart lie inside the first viewport, the lessons stay one row (scrolling
// sideways on a phone; at 1280 px the bar fits without scrolling, presenting too), and sharing is one
// Share menu (a disclosure: Escape, an outside click or focus leaving closes it) whose copy link and
// embed code work and which axe passes open.
const { test, expect } = require('@playwright/test');
const { openApp, pressOn } = require('./helpers');

const AXE = require('fs').readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const SIZES = [{ width: 390, height: 844 }, { width: 1280, height: 800 }];

/** The element's box relative to the viewport, from getBoundingClientRect. */
function rect(page, selector) {
  return page.locator(selector).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  });
}

/** Asserts the box of `selector` lies inside the viewport `size` as the page is scrolled now. */
async function expectOnScreen(page, selector, size) {
  const box = await rect(page, selector);
  expect(box.left, `${selector} left`).toBeGreaterThanOrEqual(0);
  expect(box.top, `${selector} top`).toBeGreaterThanOrEqual(0);
  expect(box.right, `${selector} right`).toBeLessThanOrEqual(size.width);
  expect(box.bottom, `${selector} bottom`).toBeLessThanOrEqual(size.height);
}

/** The query pairs of `url` as a sorted list, leaving out `drop`. */
function pairsOf(url, drop = []) {
  return Array.from(new URL(url).searchParams.entries()).filter(([k]) => !drop.includes(k)).sort();
}

async function openMenu(page) {
  await page.locator('#share-button').click();
  await expect(page.locator('#share-button')).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator('#copy-link')).toBeVisible();
}

async function expectClosed(page) {
  await expect(page.locator('#share-button')).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator('#share-popover')).toBeHidden();
  // The body is built on opening and dropped on closing.
  await expect(page.locator('#copy-link')).toHaveCount(0);
}

for (const size of SIZES) {
  const at = `at ${size.width} x ${size.height}`;

  test(`${at} the headline and the throughput/goodput chart lie inside the first viewport`, async ({ page }) => {
    await page.setViewportSize(size);
    const errors = await openApp(page);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await expectOnScreen(page, '#headline', size);
    await expectOnScreen(page, '#chart-rate', size);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(size.width);
    expect(errors).toEqual([]);
  });

  test(`${at} the lesson buttons share one row`, async ({ page }) => {
    await page.setViewportSize(size);
    const errors = await openApp(page);
    const tops = await page.locator('#lessons button.lesson').evaluateAll((buttons) =>
      buttons.map((b) => b.getBoundingClientRect().top));
    expect(tops).toHaveLength(9);
    expect(new Set(tops).size).toBe(1);
    expect(errors).toEqual([]);
  });

  test(`${at} the Share button opens its menu, and Escape, an outside click, the button or focus leaving close it`, async ({ page }) => {
    await page.setViewportSize(size);
    const errors = await openApp(page);
    const button = page.locator('#share-button');
    await expect(button).toHaveAttribute('aria-controls', 'share-popover');
    await expectClosed(page);
    await openMenu(page);
    for (const id of ['copy-link', 'embed-panel', 'embed-size', 'copy-embed', 'theme-picker']) {
      await expect(page.locator(`#${id}`), id).toBeVisible();
    }
    await expectOnScreen(page, '#share-popover', size);
    // Focus order: the button, then the menu's first control.
    await button.focus();
    await page.keyboard.press('Tab');
    await expect(page.locator('#copy-link')).toBeFocused();
    await page.keyboard.press('Escape');
    await expectClosed(page);
    await expect(button).toBeFocused();

    await openMenu(page);
    await page.locator('.masthead h1').click();
    await expectClosed(page);

    await openMenu(page);
    await button.click();
    await expectClosed(page);

    await openMenu(page);
    await page.locator('#model').focus();
    await expectClosed(page);
    expect(errors).toEqual([]);
  });

  test(`${at} axe finds no violations with the Share menu open`, async ({ page }) => {
    await page.setViewportSize(size);
    const errors = await openApp(page);
    await openMenu(page);
    await page.evaluate(AXE);
    const results = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    expect(errors).toEqual([]);
  });
}

for (const [mode, query] of [['', ''], [' while presenting', '?present=1']]) {
  test(`at 1280 px the lesson bar fits${mode}: no sideways scroll in the bar or the page, all 9 buttons visible`, async ({ page }) => {
    await page.setViewportSize(SIZES[1]);
    await page.goto(`index.html${query}`);
    const buttons = page.locator('#lessons button.lesson');
    await expect(buttons).toHaveCount(9);
    for (const [el, what] of [[page.locator('#lessons .lesson-buttons'), 'bar'], [page.locator('html'), 'document']]) {
      const [scrollWidth, clientWidth] = await el.evaluate((e) => [e.scrollWidth, e.clientWidth]);
      expect(scrollWidth, `${what} scrollWidth`).toBeLessThanOrEqual(clientWidth);
    }
    for (let i = 0; i < 9; i += 1) {
      await expect(buttons.nth(i)).toBeVisible();
      await expect(buttons.nth(i)).toBeInViewport({ ratio: 1 });
    }
    // Legible: the buttons' type is at least 13 px (14 px on the page, 0.75rem of the projector type).
    const px = await buttons.first().evaluate((b) => parseFloat(getComputedStyle(b).fontSize));
    expect(px).toBeGreaterThanOrEqual(13);
  });
}

test('at 390 px the lesson row scrolls sideways instead of wrapping, and the page does not', async ({ page }) => {
  await page.setViewportSize(SIZES[0]);
  const errors = await openApp(page);
  const row = page.locator('#lessons .lesson-buttons');
  const [scrollWidth, clientWidth] = await row.evaluate((el) => [el.scrollWidth, el.clientWidth]);
  expect(scrollWidth).toBeGreaterThan(clientWidth);
  await page.locator('#lessons button[data-lesson="6"]').focus();
  await expect.poll(() => row.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  await expect(page.locator('#lessons button[data-lesson="6"]')).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
  expect(errors).toEqual([]);
});

test('at 390 px a moved slider\'s effect stays in view: the headline stays on screen beside the controls', async ({ page }) => {
  await page.setViewportSize(SIZES[0]);
  const errors = await openApp(page);
  const before = await page.locator('#headline').textContent();
  await page.locator('#tpot').scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await pressOn(page, 'tpot', 'ArrowRight');
  await expect(page.locator('#headline')).not.toHaveText(before);
  await expectOnScreen(page, '#headline', SIZES[0]);
  await expectOnScreen(page, '#tpot', SIZES[0]);
  // The slider is not under the pinned headline.
  expect((await rect(page, '#tpot')).top).toBeGreaterThanOrEqual((await rect(page, '#headline')).bottom);
  expect(errors).toEqual([]);
});

test('at 390 px the menu\'s Copy link and Copy embed code copy the page\'s state and an embed of the chosen panel', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize(SIZES[0]);
  const errors = await openApp(page, '?model=qwen3-8b&ctx=4096');
  await openMenu(page);
  await page.locator('#copy-link').click();
  await expect(page.locator('#share-status')).toHaveText('Copied the link.');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(pairsOf(link)).toEqual(pairsOf(page.url()));
  expect(new URL(link).searchParams.get('model')).toBe('qwen3-8b');
  await page.locator('#embed-panel').selectOption('step');
  await page.locator('#copy-embed').click();
  await expect(page.locator('#share-status')).toHaveText('Copied the embed code.');
  const code = await page.evaluate(() => navigator.clipboard.readText());
  const src = new URL(code.match(/src="([^"]+)"/)[1].replaceAll('&amp;', '&'));
  expect(src.searchParams.get('embed')).toBe('1');
  expect(src.searchParams.get('view')).toBe('step');
  expect(pairsOf(src.href, ['embed', 'view'])).toEqual(pairsOf(page.url(), ['view']));
  await expect(page.locator('#share-button')).toHaveAttribute('aria-expanded', 'true');
  expect(errors).toEqual([]);
});
