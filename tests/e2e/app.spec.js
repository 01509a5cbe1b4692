// The seed's worked example in the real browser: table, sliders, charts, URL state, bad input.
const { test, expect } = require('@playwright/test');
const { openApp, waitForCharts, inkedPixels, canvasImage, tableRows, rowFor, urlSettled, showPanel } = require('./helpers');

const SEED_ROWS = [
  ['16', '6.08', '2,633', 'yes', '10.3'],
  ['32', '7.36', '4,349', 'yes', '17.0'],
  ['64', '9.92', '6,450', 'yes', '25.2'],
  ['96', '12.49', '7,688', 'no', '0'],
  ['128', '15.05', '8,505', 'no', '0'],
];

/** The seed's step time in ms, computed independently of the app: (weights + B x KV/seq) / bandwidth. */
function seedStepMs(batch, ctx, kvBytes) {
  const weights = 8.03e9 * 2;
  const kvPerSeq = ctx * 2 * 32 * 8 * 128 * kvBytes;
  return ((weights + batch * kvPerSeq) / 3.35e12) * 1e3;
}

async function expectSeedRows(page) {
  for (const want of SEED_ROWS) {
    expect((await rowFor(page, want[0])).slice(0, 5)).toEqual(want);
  }
}

test('page loads with no console errors and shows the seed table exactly', async ({ page }) => {
  const errors = await openApp(page);
  await expectSeedRows(page);
  await expect(page.locator('#batch-table thead th')).toHaveText(
    ['Batch', 'Step time (ms)', 'Tokens/s', 'Meets TPOT', 'Goodput (req/s)', 'TTFT (ms)', 'Meets TTFT',
      'Weights read (GB/GPU)', 'J/token', 'Note']);
  await expect(page.locator('#batch-table tr.knee th')).toHaveText('64');
  await expect(page.locator('#batch-table tr.kv-pool th')).toHaveText('208');
  // The worked example's decode-only sentence, then what a replica serves with each prompt's
  // prefill on its GPU too (the capacity plan's replica).
  const prefill = page.locator('#headline-prefill');
  await expect(prefill).toHaveText(/^With prefill too: [0-9.]+ req\/s a replica at p90\.$/);
  await expect(page.locator('#headline')).toHaveText(
    'Largest batch meeting 10 ms: 64, goodput 25.2 req/s; at 128 throughput is 8,505 tokens/s (32% more) and goodput 0. '
    + await prefill.textContent());
  await showPanel(page, 'capacity');
  const served = (await prefill.textContent()).match(/too: ([0-9.]+) req/)[1];
  await expect(page.locator('#plan-replica')).toContainText(`${served} req/s with chunked prefill`);
  await expect(page).toHaveTitle(/Goodput Lab/);
  expect(errors).toEqual([]);
});

test('the table lists batch 1, the seed batches, the knee and the KV pool in order', async ({ page }) => {
  await openApp(page);
  const batches = (await tableRows(page)).map((r) => r[0]);
  expect(batches).toEqual(['1', '16', '32', '64', '96', '128', '208']);
});

// The prompt slider's stop after the worked example's 1,920 tokens in.
const NEXT_PROMPT = '2,048 tokens';
const nextPromptTokens = 2048;

for (const { id, after, check } of [
  { id: 'in', after: NEXT_PROMPT, check: async (page) => expect(Number((await rowFor(page, '64'))[1])).toBeCloseTo(seedStepMs(64, nextPromptTokens + 128, 2), 2) },
  { id: 'kv', after: 'FP8', check: async (page) => expect((await page.locator('#batch-table tr.knee th').textContent())).toBe('129') },
  { id: 'tpot', after: '11 ms', check: async (page) => expect((await page.locator('#batch-table tr.knee th').textContent())).toBe('77') },
  // The prompt stays at 1,920 in, so the context grows to 2,080: batch 32 steps in
  // (16.06 + 32 x 2,080 x 131,072 / 1e9) GB / 3.35 TB/s = 7.40 ms, 32 / (320 x 7.40 ms) = 13.5 req/s.
  { id: 'out', after: '320 tokens', check: async (page) => {
    await expect(page.locator('#context-rule')).toHaveText('(context 2,080 = 1,920 in + 320 out ÷ 2)');
    expect((await rowFor(page, '32'))[4]).toBe('13.5');
  } },
]) {
  test(`moving the ${id} slider changes the table and the charts`, async ({ page }) => {
    const errors = await openApp(page);
    const tableBefore = await tableRows(page);
    const chartsBefore = [await canvasImage(page, 'chart-rate'), await canvasImage(page, 'chart-step')];
    await page.locator(`#${id}`).focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.locator(`#${id}-value`)).toHaveText(after);
    await check(page);
    expect(await tableRows(page)).not.toEqual(tableBefore);
    await expect.poll(async () => [await canvasImage(page, 'chart-rate'), await canvasImage(page, 'chart-step')])
      .not.toEqual(chartsBefore);
    expect(errors).toEqual([]);
  });
}

test('the table follows the thumb while it is still being dragged (input, not change)', async ({ page }) => {
  await openApp(page);
  // The table in view (off screen, its rows wait for the drag to end: ui::context::in_view), then the
  // slider in view in the controls column, which scrolls on its own beside the results.
  await page.locator('#batch-table').scrollIntoViewIfNeeded();
  await page.locator('#in').scrollIntoViewIfNeeded();
  await expect(page.locator('#batch-table')).toBeInViewport();
  const box = await page.locator('#in').boundingBox();
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.5, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.8, y, { steps: 5 });
  const during = await page.locator('#in-value').textContent();
  expect(during).not.toBe('1,920 tokens');
  // The context the step reads: the prompt plus 256 / 2.
  const ctx = Number(during.replace(/[^0-9]/g, '')) + 128;
  expect(Number((await rowFor(page, '16'))[1])).toBeCloseTo(seedStepMs(16, ctx, 2), 2);
  await page.mouse.up();
});

test('a URL with every key opens that state', async ({ page }) => {
  const errors = await openApp(page, '?model=llama-3.1-8b&gpu=h100-sxm&in=7936&kv=fp8&tpot=25&out=512');
  await expect(page.locator('#in-value')).toHaveText('7,936 tokens');
  await expect(page.locator('#context-rule')).toHaveText('(context 8,192 = 7,936 in + 512 out ÷ 2)');
  await expect(page.locator('#kv-value')).toHaveText('FP8');
  await expect(page.locator('#tpot-value')).toHaveText('25 ms');
  await expect(page.locator('#out-value')).toHaveText('512 tokens');
  const row = await rowFor(page, '32');
  const stepMs = seedStepMs(32, 8192, 1);
  expect(Number(row[1])).toBeCloseTo(stepMs, 2);
  expect(Number(row[4])).toBeCloseTo(32 / (512 * stepMs * 1e-3), 1);
  // TPOT knee: (25 ms x 3.35 TB/s - 16.06 GB) / (8,192 x 64 KiB) = 126.08 -> 126, past the
  // KV pool: (72 GB - 16.06 GB) / 536.9 MB = 104.2 -> 104, so the knee a server reaches is 104.
  await expect(page.locator('#batch-table tr.knee th')).toHaveText('104');
  await expect(page.locator('#headline')).toContainText('fewer than the 126 that would meet 25 ms');
  await expect(page.locator('#batch-table tr.kv-pool th')).toHaveText('104');
  await expect(page.locator('#headline')).toContainText('The KV pool binds: it holds 104 sequences');
  await expect(page.locator('#notices')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('moving a control rewrites the query string without adding history entries', async ({ page }) => {
  await openApp(page);
  const historyBefore = await page.evaluate(() => history.length);
  await page.locator('#tpot').focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => new URL(page.url()).searchParams.get('tpot')).toBe('8');
  await urlSettled(page);
  const params = new URL(page.url()).searchParams;
  expect(Object.fromEntries(params)).toEqual({
    model: 'llama-3.1-8b', gpu: 'h100-sxm', w: 'bf16', kv: 'bf16', tp: '1', in: '1920', out: '256', tpot: '8',
    ttft: '2000', util: '90', rate: '100',
  });
  expect(await page.evaluate(() => history.length)).toBe(historyBefore);
  await page.reload();
  await expect(page.locator('#tpot-value')).toHaveText('8 ms');
});

test('a URL with garbage values shows a notice and the seed defaults', async ({ page }) => {
  const errors = await openApp(page, '?model=gpt-9&gpu=toaster&ctx=banana&kv=int3&tpot=fast&out=%F0%9F%92%A5');
  await expect(page.locator('#notices')).toBeVisible();
  await expect(page.locator('#notices li')).toHaveCount(6);
  await expect(page.locator('#notices')).toContainText('Unknown model “gpt-9”; showing Llama 3.1 8B.');
  await expectSeedRows(page);
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.locator('#notices')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('out-of-range numbers are clamped with a notice, and nothing shows NaN', async ({ page }) => {
  await openApp(page, '?ctx=10000000&tpot=0&out=0');
  await expect(page.locator('#notices li')).toHaveCount(3);
  await expect(page.locator('#in-value')).toHaveText('131,072 tokens');
  await expect(page.locator('#tpot-value')).toHaveText('1 ms');
  await expect(page.locator('#headline')).toContainText('No batch meets 1 ms');
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(/NaN|undefined|Infinity/);
});

test('charts are crisp on HiDPI screens and follow the layout when resized', async ({ browser }) => {
  const context = await browser.newContext({ deviceScaleFactor: 2, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await openApp(page);
  const size = () => page.evaluate(() => {
    const c = document.getElementById('chart-rate');
    return { w: c.width, h: c.height, cssW: c.clientWidth, cssH: c.clientHeight };
  });
  const wide = await size();
  expect(wide.w).toBe(wide.cssW * 2);
  expect(wide.h).toBe(wide.cssH * 2);
  await page.setViewportSize({ width: 600, height: 900 });
  await expect.poll(async () => (await size()).w).not.toBe(wide.w);
  const narrow = await size();
  expect(narrow.w).toBe(narrow.cssW * 2);
  expect(await inkedPixels(page, 'chart-rate')).toBeGreaterThan(1000);
  await context.close();
});

test('every control has a label, a value with its unit, and the presets name their source', async ({ page }) => {
  await openApp(page);
  for (const [label, id, value] of [
    ['Model', 'model', 'llama-3.1-8b'], ['GPU', 'gpu', 'h100-sxm'],
  ]) {
    await expect(page.getByLabel(label, { exact: true })).toHaveValue(value);
    await expect(page.locator(`#${id} option:checked`)).toHaveCount(1);
  }
  for (const [label, id, text] of [
    ['Prompt length', 'in', '1,920 tokens'], ['KV cache precision', 'kv', 'BF16'],
    ['TPOT target', 'tpot', '10 ms'], ['Output length', 'out', '256 tokens'],
  ]) {
    await expect(page.getByLabel(label, { exact: true })).toHaveAttribute('type', 'range');
    await expect(page.locator(`#${id}-value`)).toHaveText(text);
    await expect(page.getByLabel(label, { exact: true })).toHaveAttribute('aria-valuetext', text);
  }
  await expect(page.locator('footer')).toContainText('meta-llama/Llama-3.1-8B config.json');
  await expect(page.locator('footer')).toContainText('NVIDIA H100 Tensor Core GPU datasheet');
});

test('the knee row is visibly highlighted', async ({ page }) => {
  await openApp(page);
  const background = (batch) => page.locator(`#batch-table tr[data-batch="${batch}"]`)
    .evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(await background(64)).not.toBe(await background(32));
  expect(await background(32)).toBe(await background(96));
});

test('every slider runs end to end without errors, NaN or a blank chart', async ({ page }) => {
  const errors = await openApp(page);
  for (const id of ['w', 'kv', 'util', 'in', 'out', 'tpot', 'ttft']) {
    for (const key of ['End', 'Home', 'End']) {
      await page.locator(`#${id}`).focus();
      await page.keyboard.press(key);
      await waitForCharts(page);
      expect(await page.locator('body').innerText()).not.toMatch(/NaN|undefined|Infinity/);
    }
  }
  // Every slider now sits at its maximum: FP4 weights and KV, 100% of HBM, 131,072 tokens of
  // context (the longest prompt beside 16,384 output tokens: 131,072 - 16,384 / 2 = 122,880 in),
  // 500 ms TPOT and 60 s TTFT. Pool: (80 GB - 4.015 GB) / 4.295 GB.
  await expect(page.locator('#in-value')).toHaveText('122,880 tokens');
  await expect(page.locator('#out-value')).toHaveText('16,384 tokens');
  await expect(page.locator('#w-value')).toHaveText('FP4');
  await expect(page.locator('#ttft-value')).toHaveText('60,000 ms');
  await expect(page.locator('#batch-table tr.kv-pool th')).toHaveText('17');
  expect(errors).toEqual([]);
});

test('charts follow the colour scheme live, light to dark and back', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  const errors = await openApp(page);
  const corner = () => page.evaluate(() => {
    const d = document.getElementById('chart-rate').getContext('2d').getImageData(1, 1, 1, 1).data;
    return d[0] + d[1] + d[2];
  });
  expect(await corner()).toBeGreaterThan(600);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(corner).toBeLessThan(150);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(corner).toBeGreaterThan(600);
  expect(errors).toEqual([]);
});
