// Every download is named after the scenario on screen, the lazily loaded panels' too: their
// exports read the one panel context (src/ui/panels/context.rs), which the lazy module provides
// over its mirror of the page's state. The reference name is the page's own batch-table CSV
// (drawn by the page); each panel's download must share its scenario stem.
const { test, expect } = require('@playwright/test');
const { openApp } = require('./helpers');

async function download(page, selector) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return d.suggestedFilename();
}

/** `goodput-lab_<model>_<gpu>_..._<what>.<ext>` without its last part: the scenario stem. */
function stem(name) {
  return name.replace(/_[a-z-]+\.(csv|png|svg)$/, '');
}

test('the simulator\'s downloads are named after the scenario, not the worked example', async ({ page }) => {
  const errors = await openApp(page, '?model=qwen3-8b&sim=1&requests=300&points=6');
  await expect(page.locator('#sim-goodput')).toBeVisible({ timeout: 20_000 });
  const table = await download(page, '#export-table-csv');
  expect(table).toMatch(/^goodput-lab_qwen3-8b_/);
  const names = [];
  for (const id of ['#export-attainment-png', '#export-attainment-svg', '#export-sim-throughput-png']) {
    names.push(await download(page, id));
  }
  // The data table's button sits in its collapsed table.
  await page.click('#sim-data summary');
  names.push(await download(page, '#export-sim-table-csv'));
  expect(names.map((n) => n.replace(/^.*_/, ''))).toEqual(['attainment.png', 'attainment.svg', 'sim-throughput.png', 'sim-table.csv']);
  for (const name of names) expect(stem(name)).toBe(stem(table));
  expect(errors).toEqual([]);
});

test('the search\'s downloads are named after the scenario, not the worked example', async ({ page }) => {
  const errors = await openApp(page, '?model=qwen3-8b&search=1');
  const status = page.locator('#search-status');
  await expect.poll(async () => Number(await status.getAttribute('data-searches')), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
  const table = await download(page, '#export-table-csv');
  for (const id of ['#export-search-png', '#export-search-svg', '#export-search-csv']) {
    const name = await download(page, id);
    expect(name).toMatch(/^goodput-lab_qwen3-8b_/);
    expect(stem(name)).toBe(stem(table));
  }
  expect(errors).toEqual([]);
});
