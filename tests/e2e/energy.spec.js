// Energy in the real browser: the batch table's J/token column, the capacity plan's MW line and the
// energy's share of $/Mtok, the search's J/token column and its sort, the batch table's CSV, and
// the $/kWh, PUE and host-power boxes. Expected numbers are computed here from the README's
// formulas ("Energy, stated"), not read from the app.
const fs = require('fs');
const { test, expect } = require('@playwright/test');
const {
  openApp, rowByHeader, num, queryValue, commitNumber, showPanel, searched, tableHeaders,
} = require('./helpers');

// The worked example: Llama 3.1 8B (16.06 GB of BF16 weights, 131,072 B of KV per token) at 2,048
// tokens on one H100 SXM (3.35 TB/s, 700 W board, 105 W idle), 256 output tokens.
const stepS = (batch) => (16.06e9 + batch * 2048 * 131072) / 3.35e12;
const ENERGY = 'J/token'; // the page's heading
const ENERGY_CSV = 'Energy (J/token)'; // the CSV's, with its quantity

/** One CSV line's fields (RFC 4180: a quoted field may hold commas). */
function fields(line) {
  return Array.from(line.matchAll(/("([^"]*)"|[^,]*)(,|$)/g), (m) => m[2] ?? m[1]).slice(0, -1);
}

async function download(page, selector) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return fs.readFileSync(await d.path(), 'utf8');
}

test('the batch table prints joules per output token, board power only by default', async ({ page }) => {
  const errors = await openApp(page);
  const headers = await tableHeaders(page);
  expect(headers[headers.length - 2]).toBe(ENERGY);
  // Every group memory-bound and no overhead: the GPU is busy the whole step and draws 700 W.
  const knee = await rowByHeader(page, 64);
  expect(knee[ENERGY]).toBe((700 * stepS(64) / 64).toFixed(3));
  expect(knee[ENERGY]).toBe('0.109');
  const one = await rowByHeader(page, 1);
  expect(one[ENERGY]).toBe((700 * stepS(1)).toFixed(2));
  await expect(page.locator('#energy-table-note')).toContainText('GPU board power only');
  expect(errors).toEqual([]);
});

test('the batch table CSV carries the J/token column as printed', async ({ page }) => {
  const errors = await openApp(page);
  const csv = await download(page, '#export-table-csv');
  const lines = csv.trim().split('\r\n');
  const header = fields(lines[0]);
  const at = header.indexOf(ENERGY_CSV);
  expect(at).toBe(header.length - 2);
  const knee = fields(lines.find((l) => l.startsWith('64,')));
  expect(knee.length).toBe(header.length);
  expect(knee[at]).toBe('0.109');
  expect(errors).toEqual([]);
});

test('the capacity plan gives the load\'s megawatts and adds the energy to $/Mtok; $/kWh, PUE and host power change it', async ({ page }) => {
  const errors = await openApp(page);
  await showPanel(page, 'capacity');
  const gpus = num(await page.locator('#plan-gpus').textContent());
  const tokensPerHour = 100 * 256 * 3600;
  const usdMtok = (kwh, wattsPerGpu) => (gpus * 2.95 + gpus * wattsPerGpu / 1000 * kwh) / tokensPerHour * 1e6;
  const power = page.locator('#plan-power');
  await expect(power).toContainText('MW for the load');
  await expect(power).toContainText(`${gpus} GPUs × 700 W at 100% busy`);
  const mw = num((await power.textContent()).split(' MW')[0]);
  expect(mw).toBeCloseTo(gpus * 700 / 1e6, 4);
  await expect(page.locator('#energy-scope')).toContainText('GPU board power only');
  const cost = page.locator('#plan-cost-mtok');
  await expect(cost).toContainText(`$${usdMtok(0.08, 700).toFixed(3)}, of which energy $`);

  await commitNumber(page, 'kwh', '0.2');
  await expect(cost).toContainText(`$${usdMtok(0.2, 700).toFixed(3)}, of which energy $`);
  await expect.poll(() => queryValue(page, 'kwh')).toBe('0.2');

  await commitNumber(page, 'pue', '1.5');
  await expect(page.locator('#energy-scope')).toContainText('with host and PUE');
  await expect(page.locator('#energy-table-note')).toContainText('with host and PUE');
  await expect(cost).toContainText(`$${usdMtok(0.2, 700 * 1.5).toFixed(3)}`);
  await commitNumber(page, 'hostw', '100');
  await expect(cost).toContainText(`$${usdMtok(0.2, 800 * 1.5).toFixed(3)}`);
  await expect.poll(() => [queryValue(page, 'pue'), queryValue(page, 'hostw')]).toEqual(['1.5', '100']);
  // The batch table follows: (700 + 100) x 1.5 W per GPU.
  await expect.poll(async () => (await rowByHeader(page, 64))[ENERGY]).toBe((1200 * stepS(64) / 64).toFixed(3));

  await commitNumber(page, 'kwh', '0');
  await expect(cost).toHaveText(`$${usdMtok(0, 0).toFixed(3)}`);
  expect(errors).toEqual([]);
});

test('the search shows J/token per row and sorts by it', async ({ page }) => {
  const errors = await openApp(page, '?search=1&splace=colo');
  await searched(page);
  const header = page.locator('#search-table thead th');
  const names = await header.allTextContents();
  const at = names.indexOf(ENERGY);
  expect(at).toBe(names.length - 1);
  await page.locator('#search-table thead button[data-sort="energy"]').click();
  await expect.poll(() => queryValue(page, 'ssort')).toBe('energy');
  const joules = await page.locator('#search-table tbody tr').evaluateAll(
    (rows, i) => rows.map((r) => Number(r.children[i].textContent.replace(/,/g, ''))), at);
  expect(joules.length).toBeGreaterThan(10);
  expect(joules).toEqual([...joules].sort((a, b) => a - b));
  expect(joules[0]).toBeLessThan(joules[joules.length - 1]);
  expect(errors).toEqual([]);
});
