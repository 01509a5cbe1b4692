// Sharing: embed mode (one panel and a summary line, legible in a 600x400 iframe and a 360 px
// column), the Share menu's Copy link and Copy embed code (with the text-field fallback) and theme picker, the
// preview meta tags, and a page that never scrolls sideways.
const { test, expect } = require('@playwright/test');
const { openApp, inkedPixels, tableRows, queryPairs, queryValue, urlSettled } = require('./helpers');

const SEED_SUMMARY = 'Llama 3.1 8B · H100 SXM · BF16 weights · 2,048 tokens · BF16 KV · 10 ms TPOT';
const CHART_VIEWS = { rate: 'chart-rate', step: 'chart-step', interactivity: 'chart-interactivity' };

/** Opens `query` (embed or not) and waits for the table to exist; returns console errors seen. */
async function openQuiet(page, query) {
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(`index.html${query}`);
  await expect(page.locator('#batch-table tbody tr').first()).toBeAttached();
  return errors;
}

/** [document scroll width, its visible width]: equal when nothing overflows sideways. */
function widths(target) {
  return target.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
}

/** The smallest computed font size, in px, of any element that shows text. */
function smallestVisibleText(target) {
  return target.evaluate(() => {
    let smallest = Infinity;
    for (const el of document.body.querySelectorAll('*')) {
      const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
      const box = el.getBoundingClientRect();
      if (own && box.width > 0 && box.height > 0 && el.checkVisibility()) {
        smallest = Math.min(smallest, parseFloat(getComputedStyle(el).fontSize));
      }
    }
    return smallest;
  });
}

/** The query pairs of `url` as a sorted list, leaving out `drop`. */
function pairsOf(url, drop = []) {
  return Array.from(new URL(url).searchParams.entries()).filter(([k]) => !drop.includes(k)).sort();
}

for (const [view, canvas] of Object.entries(CHART_VIEWS)) {
  test(`embed view=${view} shows that chart and a summary line only, in a 360 px column without sideways scroll`, async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 640 });
    const errors = await openQuiet(page, `?embed=1&view=${view}`);
    await expect(page.locator('#embed-summary')).toHaveText(SEED_SUMMARY);
    await expect.poll(() => inkedPixels(page, canvas)).toBeGreaterThan(1000);
    for (const [other, id] of Object.entries(CHART_VIEWS)) {
      if (other !== view) await expect(page.locator(`#${id}`)).toBeHidden();
    }
    // The heading stays for screen readers only: a 1 px clipped box.
    expect((await page.locator('.masthead h1').boundingBox()).width).toBeLessThanOrEqual(1);
    for (const chrome of ['.tagline', '#copy-link', '#theme-picker', '.controls', '#headline',
      '#batch-table', '.sources', '#sim-toggle']) {
      await expect(page.locator(chrome)).toBeHidden();
    }
    const box = await page.locator(`#${canvas}`).boundingBox();
    expect(box.width).toBeGreaterThan(300);
    expect(box.height).toBeGreaterThan(250);
    expect(await widths(page)).toEqual([360, 360]);
    expect(await smallestVisibleText(page)).toBeGreaterThanOrEqual(12);
    expect(errors).toEqual([]);
  });
}

test('embed view=table shows the seed table and nothing else, fitting a 360 px column without scrolling inside its box', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 640 });
  const errors = await openQuiet(page, '?embed=1&view=table');
  await expect(page.locator('#batch-table')).toBeVisible();
  expect((await tableRows(page)).find((r) => r[0] === '64').slice(0, 5)).toEqual(['64', '9.92', '6,450', 'yes', '25.2']);
  for (const id of Object.values(CHART_VIEWS)) await expect(page.locator(`#${id}`)).toBeHidden();
  expect(await widths(page)).toEqual([360, 360]);
  expect(await page.locator('.table-wrap').evaluate((w) => w.scrollWidth <= w.clientWidth)).toBe(true);
  expect(await smallestVisibleText(page)).toBeGreaterThanOrEqual(12);
  expect(errors).toEqual([]);
});

test('embed view=sim opens the simulator and shows its attainment chart without its controls or second chart', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 640 });
  const errors = await openQuiet(page, '?embed=1&view=sim&requests=300&points=6');
  await expect(page.locator('#sim-goodput')).toHaveText(/req\/s/, { timeout: 20_000 });
  await expect.poll(() => inkedPixels(page, 'chart-attainment')).toBeGreaterThan(1000);
  await expect(page.locator('#chart-attainment')).toBeVisible();
  for (const hidden of ['.sim-controls', '#sim-toggle', '#sim-data', '#chart-sim-throughput', '#chart-rate', '#batch-table']) {
    await expect(page.locator(hidden)).toBeHidden();
  }
  await urlSettled(page);
  expect(queryValue(page, 'sim')).toBe('1');
  expect(await widths(page)).toEqual([360, 360]);
  expect(errors).toEqual([]);
});

test('a 600x400 iframe of the embed shows the chart filling the frame, with no scrolling', async ({ page, baseURL }) => {
  await page.setContent(`<!doctype html><title>Host</title><body style="margin:0">
    <iframe src="${baseURL}index.html?embed=1&view=rate" width="600" height="400" style="border:0"
      title="Goodput Lab"></iframe>`);
  const frame = page.frames().find((f) => f.url().includes('embed=1'));
  await expect(frame.locator('#batch-table tbody tr').first()).toBeAttached();
  await expect.poll(() => inkedPixels(frame, 'chart-rate')).toBeGreaterThan(1000);
  const box = await frame.locator('#chart-rate').boundingBox();
  expect(box.width).toBeGreaterThan(540);
  expect(box.height).toBeGreaterThan(250);
  expect(box.y + box.height).toBeLessThanOrEqual(400);
  expect(await frame.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]))
    .toEqual([600, 400]);
  expect(await smallestVisibleText(frame)).toBeGreaterThanOrEqual(12);
  await expect(frame.locator('#embed-summary')).toHaveText(SEED_SUMMARY);
});

test('Open in Goodput Lab opens the full page with the same state in a new tab', async ({ page, context }) => {
  await openQuiet(page, '?embed=1&view=step&model=mistral-7b&ctx=4096&kv=fp8&tpot=20&theme=dark&measured=1:6.1,32:8.4');
  const link = page.locator('#embed-open');
  await expect(link).toHaveAttribute('target', '_blank');
  const [full] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await expect(full.locator('#batch-table tbody tr').first()).toBeVisible();
  await urlSettled(full);
  await urlSettled(page);
  expect(pairsOf(full.url())).toEqual(pairsOf(page.url(), ['embed']));
  expect(queryValue(full, 'embed')).toBeNull();
  expect(queryValue(full, 'measured')).toBe('1:6.1,32:8.4');
  await expect(full.locator('.controls')).toBeVisible();
  expect(await tableRows(full)).toEqual(await tableRows(page));
});

test('Copy link copies a URL that reopens the same state: same keys, same table', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const errors = await openApp(page, '?measured=1:7.9,16:8.2,64:11.5');
  await page.locator('#model').selectOption('qwen3-8b');
  await page.locator('#kv').focus();
  await page.keyboard.press('ArrowRight');
  await page.locator('#in').focus();
  await page.keyboard.press('ArrowRight');
  await page.locator('#share-button').click();
  await page.locator('#theme-picker').selectOption('projector');
  await page.locator('#copy-link').click();
  await expect(page.locator('#share-status')).toHaveText('Copied the link.');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  await urlSettled(page);
  expect(pairsOf(copied)).toEqual(pairsOf(page.url()));
  expect(new URL(copied).searchParams.get('kv')).toBe('fp8');
  expect(new URL(copied).searchParams.get('measured')).toBe('1:7.9,16:8.2,64:11.5');
  const table = await tableRows(page);
  const again = await context.newPage();
  await again.goto(copied);
  await expect(again.locator('#batch-table tbody tr').first()).toBeVisible();
  expect(await tableRows(again)).toEqual(table);
  expect(pairsOf(again.url())).toEqual(pairsOf(copied));
  await expect(again.locator('html')).toHaveAttribute('data-look', 'projector');
  expect(errors).toEqual([]);
});

test('Copy embed code copies an iframe whose src reopens the same state as an embed of the chosen panel', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const errors = await openApp(page, '?model=llama-3.1-70b&tp=4&ctx=8192&tpot=25&measured=1:12,64:30');
  await page.locator('#share-button').click();
  await page.locator('#embed-panel').selectOption('step');
  await page.locator('#embed-size').selectOption('800x500');
  await page.locator('#copy-embed').click();
  await expect(page.locator('#share-status')).toHaveText('Copied the embed code.');
  const code = await page.evaluate(() => navigator.clipboard.readText());
  const iframe = await page.evaluate((html) => {
    // Parsed as XML: an HTML parse would apply style="border:0", which the page's CSP refuses (and reports).
    const el = new DOMParser().parseFromString(html, 'application/xml').querySelector('iframe');
    return Object.fromEntries(Array.from(el.attributes).map((a) => [a.name, a.value]));
  }, code);
  expect(iframe).toEqual({
    src: iframe.src,
    width: '800',
    height: '500',
    title: 'Goodput Lab: Llama 3.1 70B · 4 × H100 SXM · BF16 weights · 8,192 tokens · BF16 KV · 25 ms TPOT',
    loading: 'lazy',
    style: 'border:0',
  });
  await urlSettled(page);
  expect(pairsOf(iframe.src, ['embed', 'view'])).toEqual(pairsOf(page.url(), ['view']));
  expect(new URL(iframe.src).searchParams.get('embed')).toBe('1');
  expect(new URL(iframe.src).searchParams.get('view')).toBe('step');
  expect(new URL(iframe.src).searchParams.get('measured')).toBe('1:12,64:30');
  const table = await tableRows(page);
  const embed = await context.newPage();
  await embed.goto(iframe.src);
  await expect(embed.locator('html')).toHaveAttribute('data-mode', 'embed');
  await expect(embed.locator('#chart-step')).toBeVisible();
  await expect(embed.locator('#chart-rate')).toBeHidden();
  expect(await tableRows(embed)).toEqual(table);
  expect(errors).toEqual([]);
});

for (const { name, script } of [
  { name: 'missing', script: () => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }) },
  {
    name: 'refused',
    script: () => Object.defineProperty(Navigator.prototype, 'clipboard', {
      get: () => ({ writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) }),
    }),
  },
]) {
  test(`with the clipboard ${name}, the text appears selected in a read-only box`, async ({ page }) => {
    await page.addInitScript(script);
    const errors = await openApp(page);
    await expect(page.locator('#share-text')).toBeHidden();
    await page.locator('#share-button').click();
    await page.locator('#copy-link').click();
    const box = page.locator('#share-text');
    await expect(box).toBeVisible();
    await expect(box).toHaveAttribute('readonly', '');
    await expect(box).toBeFocused();
    await urlSettled(page);
    await expect(box).toHaveValue(page.url());
    expect(await box.evaluate((el) => [el.selectionStart, el.selectionEnd, el.value.length]))
      .toEqual([0, page.url().length, page.url().length]);
    await expect(page.locator('#share-status')).toHaveText(/not available.*copy the link/);
    await page.locator('#copy-embed').click();
    await expect(box).toHaveValue(/^<iframe src=".*embed=1&amp;view=rate" width="600" height="400"/);
    await expect(page.locator('label[for="share-text"]')).toContainText('embed code');
    // Evaluated, not added as a <script>: the page's CSP refuses inline scripts.
    await page.evaluate(require('fs').readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
    const found = await page.evaluate(() => window.axe.run(document.querySelector('.masthead')));
    expect(found.violations.map((v) => v.id)).toEqual([]);
    expect(errors).toEqual([]);
  });
}

/** The colour of the canvas's top-left pixel (its background). */
function cornerPixel(page, id) {
  return page.evaluate((canvasId) => Array.from(
    document.getElementById(canvasId).getContext('2d').getImageData(2, 2, 1, 1).data.slice(0, 3)), id);
}

test('the theme picker writes theme= and repaints the charts in that look', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  const errors = await openApp(page);
  const light = await page.evaluate(() => document.getElementById('chart-rate').toDataURL());
  expect(await cornerPixel(page, 'chart-rate')).toEqual([255, 255, 255]);
  await page.locator('#share-button').click();
  await page.locator('#theme-picker').selectOption('dark');
  await urlSettled(page);
  expect(queryValue(page, 'theme')).toBe('dark');
  await expect(page.locator('html')).toHaveAttribute('data-look', 'dark');
  await expect.poll(async () => Math.max(...await cornerPixel(page, 'chart-rate'))).toBeLessThan(60);
  await page.locator('#theme-picker').selectOption('projector');
  await urlSettled(page);
  expect(queryValue(page, 'theme')).toBe('projector');
  await expect.poll(() => cornerPixel(page, 'chart-rate')).toEqual([255, 255, 255]);
  const projector = await page.evaluate(() => document.getElementById('chart-rate').toDataURL());
  expect(projector).not.toEqual(light);
  const text = await page.locator('.tagline').evaluate((el) => getComputedStyle(el).color);
  expect(text).toBe('rgb(17, 17, 17)');
  await page.locator('#theme-picker').selectOption('auto');
  await urlSettled(page);
  expect(queryValue(page, 'theme')).toBeNull();
  await expect(page.locator('html')).toHaveAttribute('data-look', 'light');
  expect(errors).toEqual([]);
});

test('the page has a title, description, preview tags, theme-color, and its icon and preview image are served', async ({ page, request }) => {
  await openApp(page);
  await expect(page).toHaveTitle('Goodput Lab: throughput against goodput for LLM serving');
  const meta = (sel) => page.locator(sel).first().getAttribute('content');
  expect(await meta('meta[name="description"]')).toMatch(/goodput falls to zero/);
  expect(await meta('meta[property="og:title"]')).toMatch(/^Goodput Lab/);
  expect(await meta('meta[property="og:description"]')).toMatch(/goodput/);
  expect(await meta('meta[property="og:type"]')).toBe('website');
  expect(await meta('meta[name="twitter:card"]')).toBe('summary_large_image');
  expect(await meta('meta[name="theme-color"]')).toMatch(/^#[0-9a-f]{6}$/);
  const image = new URL(await meta('meta[property="og:image"]'), page.url()).href;
  const png = await request.get(image);
  expect(png.status()).toBe(200);
  expect(png.headers()['content-type']).toBe('image/png');
  expect((await png.body()).subarray(1, 4).toString()).toBe('PNG');
  const icon = new URL(await page.locator('link[rel="icon"]').getAttribute('href'), page.url()).href;
  const svg = await request.get(icon);
  expect(svg.status()).toBe(200);
  expect(await svg.text()).toContain('<svg');
});

for (const width of [360, 768, 1280]) {
  test(`the page never scrolls sideways at ${width} px, the simulator and the copy box open included`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }));
    const errors = await openApp(page, '?sim=1&requests=300&points=6');
    await expect(page.locator('#sim-goodput')).toHaveText(/req\/s/, { timeout: 20_000 });
    expect(await widths(page)).toEqual([width, width]);
    await page.locator('#share-button').click();
    await page.locator('#copy-embed').click();
    await expect(page.locator('#share-text')).toBeVisible();
    expect(await widths(page)).toEqual([width, width]);
    expect(errors).toEqual([]);
  });
}
