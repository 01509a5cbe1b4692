// Extreme values in a link (context 1 and 10,000,000 tokens, TPOT 0, output 0, a model larger than
// every GPU, HBM smaller than the weights): the page shows the notice naming the key and the range it
// clamped to, or a headline saying what does not fit; charts still draw, the table or its explanation
// shows, and no text anywhere reads NaN, undefined or Infinity.
const { test, expect } = require('@playwright/test');
const { inkedPixels, showPanel } = require('./helpers');

/** Opens `query` and returns the console and page errors (live array); waits for the headline. */
async function openExtreme(page, query) {
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(`index.html${query}`);
  await expect(page.locator('#headline')).not.toBeEmpty();
  return errors;
}

/** The notices shown, as [key, text] pairs. */
async function notices(page) {
  return page.locator('#notices li').evaluateAll((items) => items.map((li) => [li.dataset.key, li.textContent]));
}

/** No visible text reads NaN, undefined or Infinity (AMD's "Infinity Fabric", in a GPU's source, is a name). */
async function expectNoBadNumbers(page) {
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(/NaN|undefined|\binf\b|Infinity(?! Fabric)/);
}

/** Both batch charts are drawn (not blank) whatever the state. */
async function expectChartsDrawn(page) {
  for (const id of ['chart-rate', 'chart-step']) {
    await expect.poll(() => inkedPixels(page, id)).toBeGreaterThan(1000);
  }
}

const CASES = [
  {
    name: 'a context of 1 token',
    query: '?ctx=1',
    notices: [['ctx', 'ctx=1 is outside 128–131072 tokens; using 128 tokens.']],
    headline: 'Largest batch meeting 10 ms:',
    table: true,
  },
  {
    name: '10,000,000 tokens of context',
    query: '?ctx=10,000,000',
    notices: [['ctx', 'ctx=10000000 is outside 128–131072 tokens, the most Llama 3.1 8B accepts; using 131072 tokens.']],
    // 131,072 tokens of context: a 130,944-token prompt beside 256 out.
    headline: 'No batch meets the 2,000 ms TTFT target: prefilling 130,944 tokens',
    table: true,
  },
  {
    name: '10,000,000 tokens on a model that accepts them',
    query: '?model=custom&m_max_ctx=10000000&ctx=10000000',
    notices: [['ctx', 'ctx=10000000 is outside 128–1048576 tokens; using 1048576 tokens.']],
    headline: 'Not even one sequence fits: 1,048,576 tokens of KV take 137.44 GB, and 55.94 GB is free after the weights.',
    table: false,
  },
  {
    name: 'a TPOT target of 0',
    query: '?tpot=0',
    notices: [['tpot', 'tpot=0 is outside 1–500 ms; using 1 ms.']],
    headline: 'No batch meets 1 ms: even a batch of 1 takes 4.87 ms per step',
    table: true,
  },
  {
    name: 'an output of 0 tokens',
    query: '?out=0',
    notices: [['out', 'out=0 is outside 1–16384 tokens; using 1 token.']],
    // The default prompt (1,920 in) beside 1 out holds 1,920 tokens: (33.5 - 16.06) GB / 252 MB = 69.
    headline: 'Largest batch meeting 10 ms: 69,',
    table: true,
  },
  {
    name: 'the largest preset on the smallest GPU at TP 1',
    // Kimi K2: 1,026.4B parameters x 2 B = 2,052.80 GB; 2,052.80 / 14.40 = 142.6, so 143 GPUs.
    query: '?model=kimi-k2&gpu=tpu-v5e&tp=1',
    notices: [],
    headline: 'Kimi K2 in BF16 needs 2,052.80 GB of weights; one TPU v5e holds 14.40 GB usable, so it needs at '
      + 'least 143 GPUs, more than tensor parallelism 8 offers',
    table: false,
  },
  {
    name: 'a custom model larger than every GPU',
    query: '?model=custom&m_params=10000&m_active=10000&gpu=mi355x&tp=8&w=fp4',
    notices: [],
    headline: 'Custom model in FP4 needs 5,000.00 GB of weights; one MI355X holds 259.20 GB usable, so it needs at '
      + 'least 20 GPUs, more than tensor parallelism 8 offers',
    table: false,
  },
  {
    name: 'HBM of 0 GB',
    query: '?gpu=custom&g_hbm=0',
    notices: [['g_hbm', 'g_hbm=0 is outside 1–100000 GB; using 1 GB.']],
    headline: 'Llama 3.1 8B in BF16 needs 16.06 GB of weights; one Custom GPU holds 0.90 GB usable, so it needs at '
      + 'least 18 GPUs',
    table: false,
  },
];

for (const c of CASES) {
  test(`${c.name}: a clear message, charts drawn, no NaN`, async ({ page }) => {
    const errors = await openExtreme(page, c.query);
    expect(await notices(page)).toEqual(c.notices);
    await expect(page.locator('#headline')).toContainText(c.headline);
    if (c.table) {
      await expect(page.locator('#batch-table tbody tr').first()).toBeVisible();
    } else {
      await expect(page.locator('#no-table')).toContainText('No batch can run in this configuration');
      await showPanel(page, 'capacity');
      await expect(page.locator('#capacity-none')).toBeVisible();
    }
    await expectChartsDrawn(page);
    await expectNoBadNumbers(page);
    expect(errors).toEqual([]);
  });
}

test('HBM just short of the weights offers the tensor parallelism that holds them', async ({ page }) => {
  const errors = await openExtreme(page, '?gpu=custom&g_hbm=16');
  await expect(page.locator('#headline')).toContainText('so it needs at least 2 GPUs: set tensor parallelism to 2');
  await page.locator('#use-tp').click();
  await expect(page.locator('#batch-table tbody tr').first()).toBeVisible();
  await expect.poll(() => new URL(page.url()).searchParams.get('tp')).toBe('2');
  await expectNoBadNumbers(page);
  expect(errors).toEqual([]);
});

test('the simulator says every request is refused when nothing fits', async ({ page }) => {
  const errors = await openExtreme(page, '?gpu=custom&g_hbm=1&sim=1');
  await expect(page.locator('#sim-analytic')).toContainText(
    'Analytic model: nothing fits in memory (see the headline), so the simulated server refuses every request.',
  );
  await expect(page.locator('#sim-goodput')).toContainText('below');
  await expectNoBadNumbers(page);
  expect(errors).toEqual([]);
});
