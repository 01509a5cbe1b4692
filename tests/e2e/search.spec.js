// The configuration search in the real browser: it runs in workers, its rows equal the page's own
// numbers once loaded, sort/filters/prices write their keys, stale searches are dropped, and the
// embed, CSV and chart exports work.
const fs = require('fs');
const { test, expect } = require('@playwright/test');
const { openApp, num, urlSettled, searched } = require('./helpers');

/** The table's rows as cells (th then td), with each row's data-config. */
async function searchRows(page) {
  return page.locator('#search-table tbody tr').evaluateAll((rows) => rows.map((r) => ({
    config: r.dataset.config,
    cells: Array.from(r.children).map((c) => c.textContent.trim()),
  })));
}

function query(page) {
  return Object.fromEntries(new URL(page.url()).searchParams.entries());
}

async function download(page, selector) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: d.suggestedFilename(), text: fs.readFileSync(await d.path(), 'utf8') };
}

// Columns: 0 GPU, 1 weights, 2 KV, 3 placement, 4 GPUs, 5 goodput/GPU, 6 tok/s/GPU, 7 tok/s/user,
// 8 TPOT ms, 9 TTFT ms, 10 binds, 11 GPUs for load, 12 $/Mtok, 13 J/token.
const C = { perGpu: 5, tpot: 8, ttft: 9, gpusForLoad: 11, usd: 12 };

test('opening runs the whole search: 37,910 configurations evaluated, progress to total, rows shown', async ({ page }) => {
  await openApp(page);
  await page.click('#search-open');
  await searched(page);
  const status = page.locator('#search-status');
  // Llama 3.1 8B: TP 1, 2, 4, 8 (a pipeline only where they do not hold the weights) in each of 216
  // groups, then each decode shape's splits.
  await expect(status).toHaveAttribute('data-evaluated', '37910');
  const rows = Number(await status.getAttribute('data-rows'));
  expect(rows).toBeGreaterThan(1000);
  const bar = page.locator('#search-progress');
  expect(await bar.getAttribute('value')).toBe(await bar.getAttribute('max'));
  expect(Number(await bar.getAttribute('max'))).toBe(18 * 4 * 3);
  await expect(page.locator('#search-table tbody tr')).toHaveCount(50);
  await expect(page.locator('#search-count')).toHaveText(`showing 50 of ${rows.toLocaleString('en-US')} (37,910 evaluated)`);
  expect(query(page).search).toBe('1');
});

for (const place of ['colo', 'disagg']) {
  test(`a search row's numbers equal the page's numbers once loaded (${place})`, async ({ page }) => {
    await openApp(page, `?search=1&splace=${place}`);
    await searched(page);
    const [top] = await searchRows(page);
    await page.locator('#search-table tbody tr').first().click();
    const id = place === 'colo' ? 'chunked' : 'disagg';
    const chosen = page.locator(`#placement-table tr[data-placement="${id}"]`);
    await expect(chosen).toBeVisible();
    if (place === 'disagg') await expect(chosen).toHaveClass(/chosen/);
    const cells = await chosen.locator('td').allInnerTexts();
    const [, gpus, perGpu, , tpot, ttft] = cells;
    expect(perGpu).toBe(top.cells[C.perGpu]);
    expect(tpot).toBe(top.cells[C.tpot]);
    expect(ttft).toBe(top.cells[C.ttft]);
    expect(gpus).toBe(top.cells[4]);
  });
}

test('a row click writes the configuration into the URL', async ({ page }) => {
  await openApp(page, '?search=1&splace=disagg&sw=fp8&skv=fp8&sgpu=b200');
  await searched(page);
  const [top] = await searchRows(page);
  await page.locator('#search-table tbody tr').first().click();
  await urlSettled(page);
  const q = query(page);
  const [gpu, w, kv, layout] = top.config.split('/');
  expect([q.gpu, q.w, q.kv, q.place]).toEqual([gpu, w, kv, 'disagg']);
  const [, xp, tpp, yd, tpd] = layout.match(/^(\d+)xtp(\d+)-(\d+)xtp(\d+)$/);
  expect(q.xp ?? '1').toBe(xp);
  expect(q.tpp ?? '1').toBe(tpp);
  expect(q.yd ?? '1').toBe(yd);
  expect(q.tpd ?? '1').toBe(tpd);
  expect(q.tp ?? '1').toBe(tpd);
  await expect(page.locator('#gpu')).toHaveValue(gpu);
});

test('sort and filters change the table and write ssort, sgpu, sw, skv and splace', async ({ page }) => {
  await openApp(page, '?search=1');
  await searched(page);
  const byGoodput = await searchRows(page);
  const perGpu = byGoodput.map((r) => num(r.cells[C.perGpu]));
  expect(perGpu).toEqual([...perGpu].sort((a, b) => b - a));
  await page.selectOption('#search-sort', 'cost');
  await expect.poll(async () => (await searchRows(page))[0].config).not.toBe(byGoodput[0].config);
  const usd = (await searchRows(page)).map((r) => num(r.cells[C.usd]));
  expect(usd).toEqual([...usd].sort((a, b) => a - b));
  await page.locator('#search-table thead button[data-sort="gpus"]').click();
  await expect.poll(async () => query(page).ssort).toBe('gpus');
  await page.selectOption('#search-gpu', 'h200-sxm');
  await page.selectOption('#search-w', 'fp8');
  await page.selectOption('#search-kv', 'fp8');
  await page.selectOption('#search-place', 'colo');
  await urlSettled(page);
  const q = query(page);
  expect([q.ssort, q.sgpu, q.sw, q.skv, q.splace]).toEqual(['gpus', 'h200-sxm', 'fp8', 'fp8', 'colo']);
  const rows = await searchRows(page);
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.length).toBeLessThanOrEqual(12);
  for (const r of rows) expect(r.config).toMatch(/^h200-sxm\/fp8\/fp8\/tp\d(-pp\d)?$/);
});

test('a changed price changes $/Mtok in proportion, by the stated arithmetic', async ({ page }) => {
  // Free power (kwh=0): $/Mtok is the GPU-hours alone; energy.spec.js checks the energy's share.
  await openApp(page, '?search=1&sgpu=h100-sxm&splace=colo&sw=bf16&skv=bf16&kwh=0');
  await searched(page);
  const price = Number(await page.locator('#price-h100-sxm').inputValue());
  expect(await page.locator('#price-h100-sxm').getAttribute('title')).toBeTruthy();
  const before = (await searchRows(page)).find((r) => r.config === 'h100-sxm/bf16/bf16/tp1');
  // $/Mtok = GPUs for load x price / (load x output x 3600) x 1e6, load = rate (100), output 256.
  const expected = (g, p) => g * p / (100 * 256 * 3600) * 1e6;
  const gpus = num(before.cells[C.gpusForLoad]);
  expect(num(before.cells[C.usd])).toBeCloseTo(expected(gpus, price), 2);
  await page.locator('#search-prices summary').click();
  await page.fill('#price-h100-sxm', String(price * 2));
  await page.locator('#price-h100-sxm').press('Enter');
  await searched(page, 2);
  const after = (await searchRows(page)).find((r) => r.config === 'h100-sxm/bf16/bf16/tp1');
  expect(num(after.cells[C.usd])).toBeCloseTo(expected(gpus, price * 2), 2);
  await urlSettled(page);
  expect(query(page).prices).toBe(`h100-sxm:${price * 2}`);
});

test('moving an input while a search runs: the final table is the final inputs\' table', async ({ page, browser }) => {
  await openApp(page, '?search=1');
  for (const model of ['llama-3.1-70b', 'qwen3-32b', 'mistral-7b']) await page.selectOption('#model', model);
  await urlSettled(page);
  await searched(page);
  await page.waitForTimeout(300);
  await expect(page.locator('#search-status')).toHaveAttribute('data-busy', 'false');
  const final = await searchRows(page);
  const fresh = await browser.newPage();
  await fresh.goto(page.url());
  await searched(fresh);
  expect(await searchRows(fresh)).toEqual(final);
  await fresh.close();
});

test('view=search embeds the search panel alone', async ({ page }) => {
  await page.goto('index.html?embed=1&view=search');
  await searched(page);
  await expect(page.locator('#search-table tbody tr').first()).toBeVisible();
  await expect(page.locator('#batch-table')).toBeHidden();
  await expect(page.locator('#controls, .controls').first()).toBeHidden();
});

test('the CSV has every filtered row; PNG and SVG buttons produce files', async ({ page }) => {
  await openApp(page, '?search=1&splace=disagg');
  await searched(page);
  const count = await page.locator('#search-count').textContent();
  const kept = num(count.match(/of ([\d,]+)/)[1]);
  expect(kept).toBeGreaterThan(50);
  const csv = await download(page, '#export-search-csv');
  expect(csv.name).toMatch(/_search\.csv$/);
  const lines = csv.text.trim().split(/\r\n/);
  expect(lines.length).toBe(kept + 1);
  expect(lines[0]).toContain('Goodput per GPU (req/s)');
  const first = (await searchRows(page))[0];
  expect(lines[1]).toContain(first.cells[C.perGpu]);
  const png = await download(page, '#export-search-png');
  expect(png.name).toMatch(/_search\.png$/);
  const svg = await download(page, '#export-search-svg');
  expect(svg.name).toMatch(/_search\.svg$/);
  expect(svg.text).toContain('<svg');
  expect(svg.text).toContain('Pareto frontier');
});

test('hover links a table row and its chart point; clicking a point loads it', async ({ page }) => {
  await openApp(page, '?search=1');
  await searched(page);
  const chart = page.locator('.search-chart');
  await page.locator('#chart-search').scrollIntoViewIfNeeded();
  await expect.poll(() => page.evaluate(() => {
    const c = document.getElementById('chart-search');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let inked = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] < 200) inked++;
    return inked;
  })).toBeGreaterThan(5000);
  const row = page.locator('#search-table tbody tr').first();
  await row.hover();
  await expect(row).toHaveClass(/hovered/);
  await expect(chart).toHaveAttribute('data-hovered', await row.getAttribute('data-config'));
  // Sweep the pointer over the plot until it lands on a point, then click it.
  const box = await page.locator('#chart-search').boundingBox();
  let hit = '';
  for (let fy = 0.95; fy > 0.3 && !hit; fy -= 0.02) {
    for (let fx = 0.08; fx < 0.6 && !hit; fx += 0.01) {
      await page.mouse.move(box.x + fx * box.width, box.y + fy * box.height);
      hit = await chart.getAttribute('data-hovered');
    }
  }
  expect(hit).not.toBe('');
  await page.mouse.down();
  await page.mouse.up();
  await urlSettled(page);
  const [gpu, w, kv] = hit.split('/');
  const q = query(page);
  expect([q.gpu, q.w, q.kv]).toEqual([gpu, w, kv]);
  await expect(page.locator('#placement-table')).toBeVisible();
});

test('a MoE search names each row\'s parallelism and loading a wide-EP row sets the page to it', async ({ page }) => {
  test.setTimeout(180_000);
  await openApp(page, '?search=1&model=qwen3-30b-a3b&sgpu=h200-sxm&sw=fp8&skv=fp8&splace=colo');
  const status = page.locator('#search-status');
  await expect.poll(async () => Number(await status.getAttribute('data-searches')), { timeout: 150_000 })
    .toBeGreaterThanOrEqual(1);
  await expect(status).toHaveAttribute('data-busy', 'false');
  const rows = await searchRows(page);
  // Column 3 names the parallelism (Parallelism::label), and the id carries it.
  for (const r of rows) expect(r.cells[3]).toMatch(/^TP\d( EP\d+)?( DP\d+)?( PP\d)?$/);
  const i = rows.findIndex((r) => /EP\d+ DP\d+/.test(r.cells[3]));
  expect(i).toBeGreaterThanOrEqual(0);
  const wide = rows[i];
  expect(wide.config).toMatch(/^h200-sxm\/fp8\/fp8\/tp\d-ep\d+-dp\d+/);
  await page.locator('#search-table tbody tr').nth(i).click();
  const gpus = wide.cells[4];
  await expect(page.locator('#batch-table caption')).toContainText(`${gpus} × H200 SXM (${wide.cells[3]})`);
  const chosen = page.locator('#placement-table tr[data-placement="chunked"]');
  await expect(chosen).toBeVisible();
  const cells = await chosen.locator('td').allInnerTexts();
  expect([cells[1], cells[2], cells[4]]).toEqual([gpus, wide.cells[C.perGpu], wide.cells[C.tpot]]);
});
