// The parallelism controls in the browser: EP, DP, PP and the nodes change the URL, the replica line
// and the headline; a link with bad degrees shows a notice for each and the fallbacks; wide EP with
// DP holds DeepSeek-V3's MLA latent once per DP rank, so its KV pool is larger than TP 8's on the
// same 8 GPUs; axe finds nothing in the group, and its targets are at least 24 px.
const { test, expect } = require('@playwright/test');
const { openApp, queryValue, urlSettled, expectNoBadNumbers } = require('./helpers');

const AXE = require('fs').readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

async function poolBatch(page) {
  return Number(await page.locator('#batch-table tr.kv-pool').getAttribute('data-batch'));
}

/** Picks `value` in select `id` and waits for the URL to follow. */
async function pick(page, id, value) {
  await page.locator(`#${id}`).selectOption(String(value));
  await urlSettled(page);
}

test('EP, DP, PP and nodes set by the controls change the URL, the replica line and the headline', async ({ page }) => {
  const errors = await openApp(page, '?model=deepseek-v3&gpu=h200-sxm&w=fp8&tp=8');
  await expect(page.locator('#system-line')).toHaveText(
    '1 node of 8 H200 SXM on NVLink (450 GB/s per direction), 400 Gb/s NIC per GPU');
  await expect(page.locator('#replica-line')).toHaveText('8 GPUs per replica: TP8');
  const before = await page.locator('#headline').innerText();
  await pick(page, 'dp', 2);
  // TP 8 x DP 2 needs a second node: the state raises the nodes itself.
  expect([queryValue(page, 'dp'), queryValue(page, 'nodes')]).toEqual(['2', '2']);
  await expect(page.locator('#replica-line')).toHaveText('16 GPUs per replica: TP8 DP2');
  await expect(page.locator('#headline')).not.toHaveText(before);
  await pick(page, 'ep', 16);
  expect(queryValue(page, 'ep')).toBe('16');
  const wide = await page.locator('#headline').innerText();
  await pick(page, 'pp', 2);
  expect([queryValue(page, 'pp'), queryValue(page, 'nodes')]).toEqual(['2', '4']);
  await expect(page.locator('#replica-line')).toHaveText('32 GPUs per replica: TP8 EP16 DP2 PP2');
  await expect(page.locator('#headline')).not.toHaveText(wide);
  // Fewer nodes than the replica needs are not offered.
  await expect(page.locator('#nodes option').first()).toHaveText('4');
  await pick(page, 'nodes', 8);
  expect(queryValue(page, 'nodes')).toBe('8');
  await expect(page.locator('#system-line')).toContainText('8 nodes of 8 H200 SXM');
  await page.locator('#tbo').check();
  await urlSettled(page);
  expect(queryValue(page, 'tbo')).toBe('1');
  await page.locator('#imb').fill('1.5');
  await page.locator('#imb').press('Enter');
  await urlSettled(page);
  expect(queryValue(page, 'imb')).toBe('1.5');
  await expectNoBadNumbers(page);
  expect(errors).toEqual([]);
});

test('a link with bad degrees shows a notice for each and opens the fallbacks', async ({ page }) => {
  await openApp(page, '?model=llama-3.1-8b&ep=8&dp=abc&pp=0&nodes=999&tp=16');
  const notices = page.locator('#notices li');
  await expect(notices).toHaveCount(5);
  await expect(page.locator('#notices')).toContainText('tp=“16” is not one of 1, 2, 4, 8; using 1.');
  await expect(page.locator('#notices')).toContainText('dp=“abc” is not a whole number; using 1.');
  await expect(page.locator('#notices')).toContainText('pp=0 is outside 1–4608; using 1.');
  await expect(page.locator('#notices')).toContainText('nodes=999 is outside 1–64; using 64.');
  await expect(page.locator('#notices')).toContainText('ep=8: Llama 3.1 8B is dense (no routed experts); using 1.');
  await expect(page.locator('#replica-line')).toHaveText('1 GPU per replica: TP1');
  // A dense model's EP is disabled, with the reason beside it.
  await expect(page.locator('#ep')).toBeDisabled();
  await expect(page.locator('#ep-reason')).toBeVisible();
  await urlSettled(page);
  expect(queryValue(page, 'ep')).toBeNull();
  expect(queryValue(page, 'nodes')).toBe('64');
});

test('a replica larger than one node raises the nodes with a notice', async ({ page }) => {
  await openApp(page, '?model=deepseek-v3&gpu=h200-sxm&w=fp8&tp=8&dp=4&ep=32');
  await expect(page.locator('#notices')).toContainText('TP × DP × PP = 32 GPUs need 4 nodes of 8; using nodes=4.');
  await expect(page.locator('#replica-line')).toHaveText('32 GPUs per replica: TP8 EP32 DP4');
});

test('GB200 offers TP up to its 72-GPU NVLink domain', async ({ page }) => {
  await openApp(page, '?model=deepseek-v3&gpu=gb200&w=fp8&tp=72');
  await expect(page.locator('#notices')).toHaveCount(0);
  await expect(page.locator('#tp option')).toHaveText(['1 GPU', '2 GPUs', '4 GPUs', '8 GPUs', '16 GPUs', '32 GPUs', '64 GPUs', '72 GPUs']);
  await expect(page.locator('#system-line')).toHaveText(
    'GB200 NVL72: 72 GPUs in one NVLink domain (900 GB/s per direction), 400 Gb/s NIC per GPU');
});

test('DeepSeek-V3 on TP1 EP8 DP8 holds a larger KV pool than on TP8 (the MLA latent once per DP rank)', async ({ page }) => {
  await openApp(page, '?model=deepseek-v3&gpu=h200-sxm&w=fp8&tp=8');
  const tp8 = await poolBatch(page);
  await openApp(page, '?model=deepseek-v3&gpu=h200-sxm&w=fp8&tp=1&ep=8&dp=8');
  await expect(page.locator('#notices')).toHaveCount(0);
  const wide = await poolBatch(page);
  expect(tp8).toBeGreaterThan(0);
  expect(wide).toBeGreaterThan(tp8);
});

test('axe finds no violations with the parallelism group on a MoE and a dense model, and its targets are 24 px or more', async ({ page }) => {
  for (const query of ['?model=deepseek-v3&gpu=h200-sxm&w=fp8&tp=8&ep=8&dp=2&imb=1.2&tbo=1', '?model=llama-3.1-8b']) {
    await openApp(page, query);
    await page.evaluate(AXE);
    const results = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    const sizes = await page.locator('#parallel-controls :is(select, input)').evaluateAll((els) =>
      els.map((e) => [e.id, Math.round(e.getBoundingClientRect().height), Math.round(e.getBoundingClientRect().width)]));
    for (const [id, h, w] of sizes) {
      expect(h, `#${id} height`).toBeGreaterThanOrEqual(24);
      expect(w, `#${id} width`).toBeGreaterThanOrEqual(24);
    }
  }
});
