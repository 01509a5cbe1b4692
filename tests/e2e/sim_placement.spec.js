// The simulator's placement chart: with place=disagg the panel draws attainment against rate per GPU
// for the colocated replica and the split on one chart, its readout equals the native simulator's
// (the `sweep` bin) for the same URL, its analytic number is the placement panel's, the chart
// exports as SVG with both curves, pointing at it reads both, and with place=colo it is absent.
const { test, expect } = require('@playwright/test');
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { openApp, inkedPixels, num, expectNoBadNumbers } = require('./helpers');

const ROOT = path.join(__dirname, '../..');

/** The native `sweep` bin's lines for a query, as { key: value } (e.g. 'placement colo'). */
function native(query) {
  const out = execFileSync('cargo', ['run', '-q', '--bin', 'sweep', '--', query.replace(/^\?/, '')],
    { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  const line = (key) => out.match(new RegExp(`^${key} (.*)$`, 'm'));
  return { colo: line('placement colo'), disagg: line('placement disagg'), goodput: line('goodput')[1] };
}

/** Opens `query` and waits for a sweep to land with nothing in flight. */
async function openSettled(page, query) {
  const errors = await openApp(page, query);
  await expect.poll(async () => Number(await page.locator('#sim-status').getAttribute('data-sweeps')) > 0
    && (await page.locator('#sim-status').getAttribute('data-busy')) === 'false', { timeout: 40_000 }).toBe(true);
  return errors;
}

test('place=disagg draws both placements per GPU and the readout equals the native simulator', async ({ page }) => {
  test.setTimeout(90_000);
  const query = '?sim=1&requests=500&place=disagg&xp=1&yd=2&tpd=1';
  const errors = await openSettled(page, query);
  await expect(page.locator('#chart-sim-placement')).toHaveCount(1);
  await expect.poll(() => inkedPixels(page, 'chart-sim-placement')).toBeGreaterThan(1000);
  const expected = native(query);
  expect(expected.colo, 'the native run simulates the split').not.toBeNull();
  await expect(page.locator('#sim-placement-colo')).toHaveText(expected.colo[1]);
  await expect(page.locator('#sim-placement-disagg')).toHaveText(expected.disagg[1]);
  // One colocated GPU: its goodput per GPU is the simulator's own goodput readout.
  expect(num(expected.colo[1].replace(' req/s/GPU', ''))).toBe(num(expected.goodput.replace(' req/s', '')));
  await expect(page.locator('#sim-placement-readout')).toContainText('Disaggregated 1:2 (TP 1 / TP 1)');
  await expect(page.locator('#sim-placement-readout')).toContainText('on 3 GPUs');
  // The analytic split beside it is the placement panel's row for the same split.
  const perGpu = await page.locator('#placement-table tr[data-placement="disagg"] td').nth(2).innerText();
  expect(num(await page.locator('#sim-placement-analytic').innerText())).toBeCloseTo(num(perGpu), 1);
  // Pointing at the chart reads both placements at the nearest swept rate per GPU.
  const box = await page.locator('#chart-sim-placement').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.locator('#sim-placement-hover'))
    .toContainText(/^Colocated \(TP 1\) at [\d.]+ req\/s\/GPU: [\d.]+% meet both targets; Disaggregated 1:2/);
  await expectNoBadNumbers(page);
  expect(errors).toEqual([]);
});

test('the placement chart exports as SVG with both curves and its legend', async ({ page }) => {
  test.setTimeout(90_000);
  await openSettled(page, '?sim=1&requests=300&place=disagg');
  await page.locator('#chart-sim-placement').scrollIntoViewIfNeeded();
  const [d] = await Promise.all([page.waitForEvent('download'), page.click('#export-sim-placement-svg')]);
  expect(d.suggestedFilename()).toMatch(/_sim-placement\.svg$/);
  const svg = fs.readFileSync(await d.path(), 'utf8');
  for (const text of ['Colocated (TP 1)', 'Disaggregated 1:1 (TP 1 / TP 1)', 'Target 90%', 'requests/s per GPU']) {
    expect(svg, text).toContain(text);
  }
  expect((svg.match(/<polyline/g) || []).length).toBeGreaterThanOrEqual(2);
  const [png] = await Promise.all([page.waitForEvent('download'), page.click('#export-sim-placement-png')]);
  expect(png.suggestedFilename()).toMatch(/_sim-placement\.png$/);
});

test('with place=colo the placement chart is absent, and switching to disagg brings it', async ({ page }) => {
  test.setTimeout(90_000);
  await openSettled(page, '?sim=1&requests=300&place=colo');
  await expect(page.locator('#chart-attainment')).toHaveCount(1);
  await expect(page.locator('#chart-sim-placement')).toHaveCount(0);
  await expect(page.locator('#sim-placement-readout')).toHaveCount(0);
  const before = Number(await page.locator('#sim-status').getAttribute('data-sweeps'));
  // Once, under a load average of 10, a click here left the button in place for 90 s: click until
  // the panel's body shows.
  await expect(async () => {
    if (await page.locator('#placement-open').count()) await page.locator('#placement-open').click();
    await expect(page.locator('#place')).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 40_000 });
  await page.locator('#place').selectOption('disagg');
  await expect.poll(async () => Number(await page.locator('#sim-status').getAttribute('data-sweeps')) > before,
    { timeout: 40_000 }).toBe(true);
  await expect(page.locator('#chart-sim-placement')).toHaveCount(1);
  await expect(page.locator('#sim-placement-disagg')).toContainText('req/s/GPU');
});

test('under closed load the split is not simulated and the panel says so', async ({ page }) => {
  test.setTimeout(90_000);
  await openSettled(page, '?sim=1&requests=300&place=disagg&load=closed');
  await expect(page.locator('#sim-placement-closed')).toContainText('open load only');
  await expect(page.locator('#chart-sim-placement')).toHaveCount(0);
});
