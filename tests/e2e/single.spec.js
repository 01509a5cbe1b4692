// The one-file build (`make single`): dist-single/goodput-lab.html opened straight from disk, with
// no server, shows the seed's table and draws its charts without a single request past the file.
const path = require('path');
const { pathToFileURL } = require('url');
const { test, expect } = require('@playwright/test');
const { waitForCharts, rowFor, queryValue } = require('./helpers');

const SINGLE = pathToFileURL(path.resolve(__dirname, '../../dist-single/goodput-lab.html')).href;

/** Opens the file with `query`, recording console errors and every request the page makes. */
async function openSingle(page, query = '') {
  const errors = [];
  const requests = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  page.on('request', (req) => requests.push(req.url()));
  await page.goto(SINGLE + query);
  await expect(page.locator('#batch-table tbody tr').first()).toBeVisible();
  return { errors, requests };
}

test('the one-file build opened from file:// shows the seed table, draws, and fetches nothing', async ({ page }) => {
  const { errors, requests } = await openSingle(page);
  expect(new URL(page.url()).protocol).toBe('file:');
  expect((await rowFor(page, '64')).slice(0, 5)).toEqual(['64', '9.92', '6,450', 'yes', '25.2']);
  expect((await rowFor(page, '128')).slice(0, 5)).toEqual(['128', '15.05', '8,505', 'no', '0']);
  await waitForCharts(page);
  // The prompt slider's next stop after the worked example's 1,920 tokens in.
  await page.locator('#in').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#in-value')).toHaveText('2,048 tokens');
  // The address is written soon after the change, not with it (ui/url.rs): poll it.
  await expect.poll(() => queryValue(page, 'in')).toBe('2048');
  // The document itself is the only request: styles, script, wasm and icon are all inside it.
  expect(requests.filter((u) => u !== page.url() && !u.startsWith(SINGLE))).toEqual([]);
  expect(await page.locator('link[href]:not([href^="data:"]), script[src]').count()).toBe(0);
  expect(errors).toEqual([]);
});

test('the one-file build sweeps the simulator on the page without trying a worker', async ({ page }) => {
  const { errors, requests } = await openSingle(page, '?sim=1&requests=300&points=6');
  await expect(page.locator('#sim-goodput')).toHaveText(/req\/s/, { timeout: 20_000 });
  await expect(page.locator('#sim-speed')).toContainText('on the page');
  await expect(page.locator('#sim-error')).toContainText('one-file copy');
  expect(requests.filter((u) => !u.startsWith(SINGLE))).toEqual([]);
  expect(errors).toEqual([]);
});

test('the one-file build runs the configuration search on the page, without a worker', async ({ page }) => {
  const { errors, requests } = await openSingle(page, '?search=1');
  const status = page.locator('#search-status');
  await expect(status).toHaveAttribute('data-searches', '1', { timeout: 20_000 });
  await expect(status).toHaveAttribute('data-evaluated', '37910');
  await expect(page.locator('#search-summary')).toContainText('on the page');
  await expect(page.locator('#search-table tbody tr')).toHaveCount(50);
  expect(requests.filter((u) => !u.startsWith(SINGLE))).toEqual([]);
  expect(errors).toEqual([]);
});
