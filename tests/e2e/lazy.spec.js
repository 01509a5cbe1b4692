// A smaller first visit (issue 13, part 3): the derivation's lines, the capacity plan, the custom
// model's and GPU's boxes, the Share menu's body and the table's CSV live in the lazy module. A
// first visit fetches none of it; each loads when it comes near the viewport or is opened, and a
// change made in it reaches the page and the URL once, as one typed message (src/protocol/panel.rs).
const { test, expect } = require('@playwright/test');
const { openApp, queryValue, rowByHeader, commitNumber, showPanel, urlSettled } = require('./helpers');

const LAZY_FILE = /\/goodput_lazy(\.js|_bg\.wasm)$/;

/** Every request's path, from before the page loads. */
function recordRequests(page) {
  const paths = [];
  page.context().on('request', (r) => paths.push(new URL(r.url()).pathname));
  return paths;
}
const lazyFetched = (paths) => paths.filter((p) => LAZY_FILE.test(p)).sort();
const BOTH = ['/dist/goodput_lazy.js', '/dist/goodput_lazy_bg.wasm'];

/** Counts every message on the channel and every URL write, from before the page's own scripts run. */
async function recordChannel(page) {
  await page.addInitScript(() => {
    const seen = { toPage: 0, toPanel: 0, urlWrites: 0 };
    window.__channel = seen;
    window.addEventListener('goodput-to-page', (e) => { if (e.detail instanceof Uint8Array) seen.toPage += 1; });
    window.addEventListener('goodput-to-panel', (e) => { if (e.detail instanceof Uint8Array) seen.toPanel += 1; });
    const replace = history.replaceState.bind(history);
    history.replaceState = (...args) => { seen.urlWrites += 1; return replace(...args); };
  });
}
const counts = (page) => page.evaluate(() => ({ ...window.__channel }));
/** Lets every timer, frame and throttled URL write of the last action run out. */
const quiet = (page) => page.waitForTimeout(800);

for (const size of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
  test(`a first visit at ${size.width} x ${size.height} fetches no lazy module, and the lazy sections say they are loading`, async ({ page }) => {
    await page.setViewportSize(size);
    const requests = recordRequests(page);
    const errors = [];
    page.on('pageerror', (err) => errors.push(String(err)));
    await page.goto('index.html');
    await page.waitForFunction(() => performance.getEntriesByName('goodput:first-chart').length > 0);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    expect(lazyFetched(requests)).toEqual([]);
    for (const id of ['derivation', 'capacity']) {
      await expect(page.locator(`#${id} h2`)).toBeAttached();
      await expect(page.locator(`#${id} .lazy-status`)).toHaveText('Loading…');
      await expect(page.locator(`#${id} .lazy`)).toBeEmpty();
    }
    await expect(page.locator('.derivation-lines, #rate, #copy-link, #m_params')).toHaveCount(0);
    expect(errors).toEqual([]);
  });
}

test('the derivation loads when it comes near the viewport and then follows the page', async ({ page }) => {
  const requests = recordRequests(page);
  await recordChannel(page);
  const errors = await openApp(page);
  await page.waitForLoadState('networkidle');
  expect(lazyFetched(requests)).toEqual([]);
  await showPanel(page, 'derivation');
  await expect(page.locator('#derivation [data-line="knee"] .result')).toHaveText('64.97 → 64');
  expect(lazyFetched(requests)).toEqual(BOTH);
  await quiet(page);
  const before = await counts(page);
  await page.locator('#kv').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#derivation [data-line="kv-seq"] .result')).toHaveText('134 MB');
  await quiet(page);
  const after = await counts(page);
  expect(after.toPanel - before.toPanel).toBe(1);
  expect(after.toPage - before.toPage).toBe(0);
  expect(errors).toEqual([]);
});

test('an embed or a presentation of the derivation loads it without scrolling', async ({ page }) => {
  const errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  for (const query of ['?embed=1&view=derivation', '?present=1&view=derivation']) {
    await page.goto(`index.html${query}`);
    await expect(page.locator('#derivation')).toBeVisible();
    await expect(page.locator('#derivation [data-line="weights"] .result')).toHaveText('16.06 GB', { timeout: 15_000 });
    expect(errors).toEqual([]);
  }
});

test("the capacity plan loads near the viewport; its load box reaches the page and the URL once", async ({ page }) => {
  const requests = recordRequests(page);
  await recordChannel(page);
  const errors = await openApp(page);
  await showPanel(page, 'capacity');
  expect(lazyFetched(requests)).toEqual(BOTH);
  // GPUs for the load: ceil(load / the replica's rate with prefill, as the plan prints it).
  const rate = Number((await page.locator('#plan-replica').textContent()).match(/^([0-9.]+) req\/s/)[1]);
  await expect(page.locator('#plan-gpus')).toHaveText(String(Math.ceil(100 / rate)));
  await quiet(page);
  const before = await counts(page);
  await commitNumber(page, 'rate', '250');
  await expect.poll(() => queryValue(page, 'rate')).toBe('250');
  await expect(page.locator('#plan-gpus')).toHaveText(String(Math.ceil(250 / rate)));
  await quiet(page);
  const after = await counts(page);
  expect(after.toPage - before.toPage).toBe(1);
  expect(after.urlWrites - before.urlWrites).toBe(1);
  expect(after.toPanel - before.toPanel).toBe(1);
  await page.waitForTimeout(800);
  expect(await counts(page)).toEqual(after);
  expect(errors).toEqual([]);
});

for (const [menu, field, text, key] of [['model', 'm_params', '16.06', 'm_params'], ['gpu', 'g_bw', '6.7', 'g_bw']]) {
  test(`the custom ${menu}'s boxes load when "Custom" is picked, and a box reaches the page and the URL once`, async ({ page }) => {
    const requests = recordRequests(page);
    await recordChannel(page);
    const errors = await openApp(page);
    await page.waitForLoadState('networkidle');
    expect(lazyFetched(requests)).toEqual([]);
    await page.selectOption(`#${menu}`, 'custom');
    await expect(page.locator(`#${field}`)).toBeVisible({ timeout: 15_000 });
    expect(lazyFetched(requests)).toEqual(BOTH);
    const stepBefore = (await rowByHeader(page, 64))['Step time (ms)'];
    await quiet(page);
    const before = await counts(page);
    await commitNumber(page, field, text);
    await expect.poll(() => queryValue(page, key)).toBe(text);
    await expect.poll(async () => (await rowByHeader(page, 1))['Step time (ms)']).not.toBe(stepBefore);
    await quiet(page);
    const after = await counts(page);
    expect(after.toPage - before.toPage).toBe(1);
    expect(after.urlWrites - before.urlWrites).toBe(1);
    expect(after.toPanel - before.toPanel).toBe(1);
    await expect(page.locator(`#${field}`)).toHaveValue(text);
    expect(errors).toEqual([]);
  });
}

test('the Share menu loads its body on opening; it reads the page and sends nothing back', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const requests = recordRequests(page);
  await recordChannel(page);
  const errors = await openApp(page, '?ctx=4096');
  await page.waitForLoadState('networkidle');
  expect(lazyFetched(requests)).toEqual([]);
  await page.click('#share-button');
  await page.click('#copy-link');
  await expect(page.locator('#share-status')).toHaveText('Copied the link.');
  expect(lazyFetched(requests)).toEqual(BOTH);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(new URL(copied).searchParams.get('in')).toBe(String(4096 - 128));
  expect((await counts(page)).toPage).toBe(0);
  // The theme picker stays in the page: picking a theme sends no message.
  await page.locator('#theme-picker').selectOption('dark');
  await urlSettled(page);
  expect(queryValue(page, 'theme')).toBe('dark');
  expect((await counts(page)).toPage).toBe(0);
  expect(errors).toEqual([]);
});

test("the table's CSV is written by the lazy module, fetched on the first click", async ({ page }) => {
  const requests = recordRequests(page);
  const errors = await openApp(page);
  await page.waitForLoadState('networkidle');
  expect(lazyFetched(requests)).toEqual([]);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-table-csv')]);
  const text = require('fs').readFileSync(await download.path(), 'utf8');
  expect(text.split('\r\n')[0]).toContain('Batch (sequences)');
  expect(text).toContain('\r\n64,9.92,');
  expect(lazyFetched(requests)).toEqual(BOTH);
  expect(errors).toEqual([]);
});
