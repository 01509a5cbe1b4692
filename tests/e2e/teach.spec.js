// Teaching: the lessons (by click, by number key, by link) load the state their sentence describes;
// the derivation panel prints the seed's arithmetic and follows the sliders; presentation mode fills
// the screen, steps lessons with the arrows and leaves a focused slider its own arrows.
const { test, expect } = require('@playwright/test');
const { openApp, inkedPixels, rowByHeader, queryValue, pressOn, urlSettled, showPanel } = require('./helpers');

/** Waits until the simulator has delivered a sweep and nothing is in flight. */
async function simSettled(page, after = 0) {
  await expect.poll(async () => Number(await page.locator('#sim-status').getAttribute('data-sweeps')) > after
    && (await page.locator('#sim-status').getAttribute('data-busy')) === 'false', { timeout: 20_000 }).toBe(true);
}

/** The simulator's data-table row whose rate prints as `rate`, keyed by header. */
async function simRow(page, rate) {
  const headers = await page.locator('#sim-table thead th').allTextContents();
  const rows = await page.locator('#sim-table tbody tr').evaluateAll((trs) =>
    trs.map((r) => Array.from(r.children).map((c) => c.textContent.trim())));
  const row = rows.find((r) => r[0] === rate);
  return row && Object.fromEntries(headers.map((h, i) => [h, row[i]]));
}

/** Asserts the lesson caption states `text` (a number from its sentence) and returns it. */
async function captionSays(page, text) {
  await expect(page.locator('#lesson-caption')).toContainText(text);
  return text;
}

const knee = (page) => page.locator('#batch-table tr.knee th');

// What each lesson loads (URL keys) and where the page shows each number its sentence states.
const LESSONS = [
  {
    n: 1, title: 'The cliff', keys: { kv: 'bf16', tpot: '10', ttft: '2000', sim: null },
    check: async (page) => {
      await expect(knee(page)).toHaveText(await captionSays(page, '64'));
      const at64 = await rowByHeader(page, 64);
      expect(at64['Step time (ms)']).toBe(await captionSays(page, '9.92'));
      expect(`${at64['Goodput (req/s)']} req/s`).toBe(await captionSays(page, '25.2 req/s'));
      const at96 = await rowByHeader(page, 96);
      expect(at96['Step time (ms)']).toBe(await captionSays(page, '12.49'));
      expect([at96['Meets TPOT'], at96['Goodput (req/s)']]).toEqual(['no', '0']);
    },
  },
  {
    n: 2, title: 'FP8 KV cache', keys: { kv: 'fp8', tpot: '10' },
    check: async (page) => {
      await expect(knee(page)).toHaveText(await captionSays(page, '129'));
      expect((await rowByHeader(page, 129))['Goodput (req/s)']).toBe('50.6');
      await captionSays(page, '50.6 req/s');
      await showPanel(page, 'derivation');
      await expect(page.locator('[data-line="kv-seq"] .result')).toHaveText(await captionSays(page, '134 MB'));
    },
  },
  {
    n: 3, title: 'No SLO', keys: { kv: 'bf16', tpot: '500', ttft: '60000' },
    check: async (page) => {
      await expect(page.locator('#batch-table tr.kv-pool th')).toHaveText(await captionSays(page, '208'));
      const pool = await rowByHeader(page, 208);
      expect(`${pool['Goodput (req/s)']} req/s`).toBe(await captionSays(page, '37.9 req/s'));
      await expect(page.locator('#headline')).toContainText('goodput equals throughput, 37.9 req/s');
      await expect(page.locator('#tpot-value')).toHaveText('500 ms');
      await expect(page.locator('#ttft-value')).toHaveText('60,000 ms');
    },
  },
  {
    n: 4, title: 'Loose 50 ms', keys: { tpot: '50', ttft: '2000' },
    check: async (page) => {
      // The TPOT knee (518) lies past the pool: the table's knee row is the knee a server reaches.
      await captionSays(page, 'TPOT knee would be 518');
      await expect(knee(page)).toHaveText(await captionSays(page, '208'));
      await expect(page.locator('#batch-table tr.kv-pool th')).toHaveText('208');
      const pool = await rowByHeader(page, 208);
      expect(`${pool['Goodput (req/s)']} req/s at ${pool['Step time (ms)']} ms`)
        .toBe(await captionSays(page, '37.9 req/s at 21.46 ms'));
    },
  },
  {
    n: 5, title: 'Every request or p90', keys: { sim: '1', pct: 'all' },
    check: async (page) => {
      await simSettled(page);
      await expect(page.locator('#sim-goodput')).toHaveText(await captionSays(page, '9.10 req/s'));
      // The sentence's second number is for p90, one choice away (the change drops the caption).
      const p90 = await captionSays(page, 'p90 and it reaches 12.3 req/s');
      const n = Number(await page.locator('#sim-status').getAttribute('data-sweeps'));
      await page.selectOption('#pct', 'p90');
      await simSettled(page, n);
      await expect(page.locator('#sim-goodput')).toHaveText(p90.match(/[\d.]+ req\/s$/)[0]);
    },
  },
  {
    n: 6, title: 'Realistic attainment', keys: { sim: '1', pct: 'p90', arrivals: 'poisson', lengths: 'lognormal' },
    check: async (page) => {
      await simSettled(page);
      await expect(page.locator('#sim-goodput')).toHaveText(await captionSays(page, '12.3 req/s'));
      expect((await simRow(page, '6.30'))['Both targets']).toBe('100.0%');
      expect(`${(await simRow(page, '12.6'))['Both targets']} at 12.6`).toBe(await captionSays(page, '87.9% at 12.6'));
      expect(`${(await simRow(page, '15.7'))['Both targets']} at 15.7`).toBe(await captionSays(page, '20.1% at 15.7'));
      expect(await inkedPixels(page, 'chart-attainment')).toBeGreaterThan(1000);
    },
  },
  {
    n: 7, title: 'Disaggregation',
    keys: { in: '8128', out: '128', ttft: '500', tpot: '20', place: 'disagg', xp: '2', tpp: '2', yd: '1', tpd: '1' },
    check: async (page) => {
      // The placement panel opens on the split the lesson loads, and every number the sentence
      // states is a cell of its table (rates at p90).
      await expect(page.locator('#placement-table')).toBeVisible({ timeout: 15_000 });
      await expect(page.locator('#placement-table tr.chosen')).toHaveAttribute('data-placement', 'disagg');
      const cells = (id) => page.locator(`#placement-table tr[data-placement="${id}"]`).evaluate((tr) => {
        const [label, rate, gpus, perGpu, forLoad, tpot, ttft, binds] = Array.from(tr.children).map((c) => c.textContent.trim());
        return { label, rate, gpus, perGpu, forLoad, tpot, ttft, binds };
      });
      const [chunked, unchunked, disagg, best] = await Promise.all(['chunked', 'unchunked', 'disagg', 'best'].map(cells));
      expect(best.label).toContain(await captionSays(page, '2 × TP2 prefill : 1 × TP1 decode'));
      expect(disagg.label).toContain('2 × TP2 prefill : 1 × TP1 decode');
      expect(`colocation serves ${unchunked.perGpu} req/s per GPU`).toBe(await captionSays(page, 'colocation serves 3.56 req/s per GPU'));
      expect(unchunked.binds).toBe('the TPOT target');
      expect(`serves ${best.perGpu} (${best.rate} req/s on ${best.gpus} GPUs)`)
        .toBe(await captionSays(page, 'serves 3.54 (17.7 req/s on 5 GPUs)'));
      expect(`serves the least, ${chunked.perGpu}`).toBe(await captionSays(page, 'serves the least, 3.05'));
      expect(chunked.binds).toBe('the TTFT target');
      await expect(page.locator('#placement-finding')).toContainText('colocated with whole-prompt prefill serves the most: 3.56');
    },
  },
  {
    n: 8, title: 'Speculative decoding',
    keys: { spec: 'draft', draft: 'llama-3.2-1b', k: '4', accept: '0.7' },
    check: async (page) => {
      // The knee and the readout the controls print are the sentence's numbers.
      await expect(knee(page)).toHaveText(await captionSays(page, '102'));
      const readout = page.locator('#spec-readout');
      await expect(readout).toContainText(await captionSays(page, '2.77 tokens per sequence per step'));
      await expect(readout).toContainText('Knee 102 with speculation, 64 without');
      await expect(readout).toContainText('KV pool 159 sequences (208 without)');
      await expect(readout).toContainText('It pays at every batch');
      await captionSays(page, 'the knee moves from 64 to 102');
    },
  },
  {
    n: 9, title: 'Wide EP',
    keys: { model: 'deepseek-v3', gpu: 'h200-sxm', w: 'fp8', kv: 'fp8', tp: '1', ep: '8', dp: '8', tpot: '50', calib: 'measured' },
    check: async (page) => {
      // The derivation opens on the parallelism lines: the pool over 8 DP ranks, the served batch
      // (the knee) and the all-to-all of each step, the sentence's numbers.
      const result = (line) => page.locator(`#derivation [data-line="${line}"] .result`);
      await expect(result('par-replica')).toHaveText('8 GPUs (TP1 EP8 DP8)');
      await expect(result('par-pool')).toHaveText(`${await captionSays(page, '3,113')} sequences`);
      await expect(knee(page)).toHaveText(await captionSays(page, '2,423'));
      await expect(result('par-a2a')).toHaveText(await captionSays(page, '14.67 ms'));
      await expect(page.locator('#derivation [data-line="par-a2a"]')).toContainText('of the 49.99 ms step');
      await captionSays(page, '6,058 tokens/s per GPU (3.2×)');
    },
  },
];

for (const lesson of LESSONS) {
  for (const how of ['click', 'key']) {
    test(`lesson ${lesson.n} (${lesson.title}) by ${how} loads its state and its sentence's numbers`, async ({ page }) => {
      const errors = await openApp(page);
      if (how === 'click') {
        await page.locator(`#lessons button[data-lesson="${lesson.n}"]`).click();
      } else {
        await page.keyboard.press(String(lesson.n));
      }
      await expect(page.locator(`#lessons button[data-lesson="${lesson.n}"]`)).toHaveAttribute('aria-pressed', 'true');
      await expect(page.locator('#lessons button[aria-pressed="true"]')).toHaveCount(1);
      await expect(page.locator('#lesson-caption')).toContainText(`Lesson ${lesson.n}: ${lesson.title}.`);
      await expect.poll(() => queryValue(page, 'lesson')).toBe(String(lesson.n));
      for (const [key, value] of Object.entries(lesson.keys)) {
        await urlSettled(page);
        expect(queryValue(page, key), key).toBe(value);
      }
      await lesson.check(page);
      expect(errors).toEqual([]);
    });
  }
}

test('a shared lesson link opens the lesson with its caption', async ({ page }) => {
  const errors = await openApp(page, '?lesson=4');
  await expect(page.locator('#lesson-caption')).toContainText('Lesson 4: Loose 50 ms.');
  await expect(page.locator('#lessons button[data-lesson="4"]')).toHaveAttribute('aria-pressed', 'true');
  await expect(knee(page)).toHaveText('208');
  await urlSettled(page);
  expect(queryValue(page, 'tpot')).toBe('50');
  expect(queryValue(page, 'lesson')).toBe('4');
  expect(errors).toEqual([]);
});

test('moving a slider after a lesson drops its caption and lesson= from the URL', async ({ page }) => {
  const errors = await openApp(page);
  await page.keyboard.press('2');
  await expect(page.locator('#lesson-caption')).toContainText('Lesson 2: FP8 KV cache.');
  await pressOn(page, 'tpot', 'ArrowRight');
  await expect(page.locator('#tpot-value')).toHaveText('11 ms');
  await expect(page.locator('#lesson-caption')).toContainText('A setting changed since lesson 2 loaded');
  await expect(page.locator('#lesson-caption')).not.toContainText('134 MB');
  await expect(page.locator('#lessons button[aria-pressed="true"]')).toHaveCount(0);
  await expect.poll(() => queryValue(page, 'lesson')).toBe(null);
  expect(errors).toEqual([]);
});

test('a bad lesson= value shows a notice and loads no lesson', async ({ page }) => {
  const errors = await openApp(page, '?lesson=10');
  await expect(page.locator('#notices li[data-key="lesson"]')).toContainText('lesson=“10” is not a lesson from 1 to 9');
  await expect(page.locator('#lessons button[aria-pressed="true"]')).toHaveCount(0);
  await expect(knee(page)).toHaveText('64');
  await urlSettled(page);
  expect(queryValue(page, 'lesson')).toBe(null);
  expect(errors).toEqual([]);
});

test('the derivation panel prints the seed\'s arithmetic', async ({ page }) => {
  const errors = await openApp(page);
  await showPanel(page, 'derivation');
  const results = {
    weights: '16.06 GB', 'kv-token': '128 KiB', 'kv-seq': '268 MB', bandwidth: '3.35 TB/s', 'step-knee': '9.92 ms',
    'step-compare': '15.05 ms', compute: '2.08 ms', knee: '64.97 → 64', pool: '208 sequences', goodput: '25.2 req/s',
  };
  for (const [line, result] of Object.entries(results)) {
    await expect(page.locator(`#derivation [data-line="${line}"] .result`), line).toHaveText(result);
  }
  await expect(page.locator('#derivation [data-line="knee"] .numbers')).toHaveText('(33.5 − 16.06) GB / 268 MB');
  await expect(page.locator('#derivation [data-line="weights"] .numbers')).toHaveText('8.03e9 × 2 B (BF16)');
  await expect(page.locator('#derivation [data-line="compute"]')).toContainText('memory-bound');
  // The same numbers as the table.
  expect((await rowByHeader(page, 64))['Step time (ms)']).toBe('9.92');
  expect((await rowByHeader(page, 128))['Step time (ms)']).toBe('15.05');
  expect(errors).toEqual([]);
});

test('the derivation follows the sliders live: FP8 KV gives 134 MB and a knee of 129', async ({ page }) => {
  const errors = await openApp(page);
  await showPanel(page, 'derivation');
  await pressOn(page, 'kv', 'ArrowRight');
  await expect(page.locator('#kv-value')).toHaveText('FP8');
  await expect(page.locator('#derivation [data-line="kv-seq"] .result')).toHaveText('134 MB');
  await expect(page.locator('#derivation [data-line="knee"] .result')).toHaveText('129.94 → 129');
  await expect(knee(page)).toHaveText('129');
  await pressOn(page, 'tpot', 'ArrowRight');
  await expect(page.locator('#derivation [data-line="knee"] .label')).toHaveText('Largest batch under 11 ms');
  const tableKnee = await knee(page).textContent();
  await expect(page.locator('#derivation [data-line="knee"] .result')).toHaveText(new RegExp(`→ ${tableKnee}$`));
  const goodput = (await rowByHeader(page, tableKnee))['Goodput (req/s)'];
  await expect(page.locator('#derivation [data-line="goodput"] .result')).toHaveText(`${goodput} req/s`);
  expect(errors).toEqual([]);
});

test('a general scenario says in words why the seed\'s form does not apply', async ({ page }) => {
  const errors = await openApp(page, '?model=mixtral-8x7b&tp=2&tpot=30&mbu=80');
  await showPanel(page, 'derivation');
  const step = page.locator('#derivation [data-line="step"] .note');
  await expect(step).toContainText('MoE step reads only the experts');
  await expect(step).toContainText('tensor parallelism splits the bytes over 2 GPUs');
  await expect(step).toContainText('80% of peak bandwidth');
  await expect(page.locator('#derivation [data-line="knee"] .formula')).toHaveText('step(B) = target, solved by bisection');
  await expect(page.locator('#derivation')).not.toContainText('NaN');
  expect(errors).toEqual([]);
});

/** The canvas's share of the viewport's area. */
async function viewportShare(page, id) {
  return page.evaluate((canvasId) => {
    const r = document.getElementById(canvasId).getBoundingClientRect();
    return (r.width * r.height) / (window.innerWidth * window.innerHeight);
  }, id);
}

/** Opens the app in presentation mode (the table is hidden there) and waits for the chart. */
async function openPresent(page, query = '') {
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(`index.html?present=1${query}`);
  await expect(page.locator('html')).toHaveAttribute('data-mode', 'present');
  await expect.poll(() => inkedPixels(page, 'chart-rate')).toBeGreaterThan(1000);
  return errors;
}

const rootFontPx = (page) => page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));

test('present=1 fills the screen with the chosen chart in large, high-contrast type', async ({ page }) => {
  const errors = await openPresent(page);
  await expect(page.locator('html')).toHaveAttribute('data-mode', 'present');
  await expect(page.locator('html')).toHaveAttribute('data-look', 'projector');
  expect(await rootFontPx(page)).toBeGreaterThanOrEqual(20);
  await expect.poll(() => viewportShare(page, 'chart-rate')).toBeGreaterThan(0.5);
  expect(await inkedPixels(page, 'chart-rate')).toBeGreaterThan(1000);
  for (const hidden of ['#chart-step', '#batch-table', '#derivation', '#model', '.masthead']) {
    await expect(page.locator(hidden).first(), hidden).toBeHidden();
  }
  for (const shown of ['#lessons', '#lesson-caption', '#key-legend', '#kv', '#in', '#tpot', '#out', '#headline']) {
    await expect(page.locator(shown), shown).toBeVisible();
  }
  const scroll = await page.evaluate(() => [document.documentElement.scrollHeight, window.innerHeight]);
  expect(scroll[0]).toBeLessThanOrEqual(scroll[1] + 1);
  expect(errors).toEqual([]);
});

test('a theme chosen in the link wins over the projector look', async ({ page }) => {
  const errors = await openPresent(page, '&theme=dark');
  await expect(page.locator('html')).toHaveAttribute('data-look', 'dark');
  expect(errors).toEqual([]);
});

test('p enters presentation and Escape leaves it', async ({ page }) => {
  const errors = await openApp(page);
  const pageFont = await rootFontPx(page);
  const pageShare = await viewportShare(page, 'chart-rate');
  await page.keyboard.press('p');
  await expect(page.locator('html')).toHaveAttribute('data-mode', 'present');
  await expect.poll(() => queryValue(page, 'present')).toBe('1');
  expect(await rootFontPx(page)).toBeGreaterThan(pageFont);
  await expect.poll(() => viewportShare(page, 'chart-rate')).toBeGreaterThan(Math.max(0.5, 2 * pageShare));
  await page.keyboard.press('Escape');
  await expect(page.locator('html')).toHaveAttribute('data-mode', 'page');
  await expect.poll(() => queryValue(page, 'present')).toBe(null);
  expect(await rootFontPx(page)).toBe(pageFont);
  await expect(page.locator('#batch-table')).toBeVisible();
  await page.keyboard.press('p');
  await page.keyboard.press('p');
  await expect(page.locator('html')).toHaveAttribute('data-mode', 'page');
  expect(errors).toEqual([]);
});

test('arrows step lessons while presenting; a focused slider keeps its arrows', async ({ page }) => {
  const errors = await openPresent(page);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => queryValue(page, 'lesson')).toBe('1');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => queryValue(page, 'lesson')).toBe('2');
  await urlSettled(page);
  expect(queryValue(page, 'kv')).toBe('fp8');
  expect(queryValue(page, 'view')).toBe('step');
  await expect(page.locator('#chart-step')).toBeVisible();
  await expect(page.locator('#chart-rate')).toBeHidden();
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => queryValue(page, 'lesson')).toBe('1');
  await urlSettled(page);
  expect(queryValue(page, 'kv')).toBe('bf16');
  // A focused slider: the arrow moves the slider, not the lesson.
  await page.locator('#tpot').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#tpot-value')).toHaveText('11 ms');
  await expect(page.locator('#lesson-caption')).toContainText('since lesson 1 loaded');
  await urlSettled(page);
  expect(queryValue(page, 'kv')).toBe('bf16');
  await expect(page.locator('#lessons button[data-lesson="2"]')).toHaveAttribute('aria-pressed', 'false');
  // Off the slider, the arrows step lessons again; Up and Down change the panel.
  await page.locator('#lesson-caption').click();
  await page.keyboard.press('ArrowDown');
  await expect.poll(() => queryValue(page, 'view')).toBe('step');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => queryValue(page, 'lesson')).toBe('2');
  expect(errors).toEqual([]);
});

test('a lesson on the simulator brings its panel to the screen while presenting', async ({ page }) => {
  const errors = await openPresent(page);
  await page.keyboard.press('6');
  await expect.poll(() => queryValue(page, 'view')).toBe('sim');
  await simSettled(page);
  await expect(page.locator('#chart-attainment')).toBeVisible();
  await expect(page.locator('#chart-rate')).toBeHidden();
  await expect(page.locator('.sim-controls')).toBeHidden();
  // Both simulator charts fit on the screen without scrolling, and are drawn.
  for (const id of ['chart-attainment', 'chart-sim-throughput']) {
    const box = await page.locator(`#${id}`).boundingBox();
    expect(box.y + box.height, id).toBeLessThanOrEqual(900);
    expect(box.height, id).toBeGreaterThan(250);
    await expect.poll(() => inkedPixels(page, id)).toBeGreaterThan(1000);
  }
  expect(errors).toEqual([]);
});

test('keys typed into a number box stay there; Enter and Space still press buttons', async ({ page }) => {
  const errors = await openApp(page);
  await showPanel(page, 'capacity');
  await page.locator('#rate').fill('');
  await page.locator('#rate').type('3');
  await page.locator('#rate').press('p');
  await urlSettled(page);
  expect(queryValue(page, 'lesson')).toBe(null);
  await expect(page.locator('html')).toHaveAttribute('data-mode', 'page');
  await page.locator('#rate').press('Enter');
  await expect.poll(() => queryValue(page, 'rate')).toBe('3');
  await page.locator('#lessons button[data-lesson="4"]').focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => queryValue(page, 'lesson')).toBe('4');
  await page.locator('#lessons button[data-lesson="3"]').focus();
  await page.keyboard.press('Space');
  await expect.poll(() => queryValue(page, 'lesson')).toBe('3');
  await page.keyboard.press('Control+2');
  await urlSettled(page);
  expect(queryValue(page, 'lesson')).toBe('3');
  expect(errors).toEqual([]);
});

test('? shows the key legend on the page', async ({ page }) => {
  const errors = await openApp(page);
  await expect(page.locator('#key-legend')).toBeHidden();
  await page.keyboard.press('?');
  await expect(page.locator('#key-legend')).toBeVisible();
  await expect(page.locator('#key-legend')).toContainText('present');
  await page.keyboard.press('?');
  await expect(page.locator('#key-legend')).toBeHidden();
  expect(errors).toEqual([]);
});

test('stepping the presented panel onto the simulator opens it and keeps the lesson', async ({ page }) => {
  const errors = await openPresent(page, '&lesson=2&view=rate');
  await expect(page.locator('#lesson-caption')).toContainText('Lesson 2: FP8 KV cache.');
  // rate -> step -> interactivity -> table -> derivation -> placement -> search -> sim: seven steps down.
  for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowDown');
  await expect.poll(() => queryValue(page, 'view')).toBe('sim');
  await expect.poll(() => queryValue(page, 'sim')).toBe('1');
  await simSettled(page);
  await expect.poll(() => inkedPixels(page, 'chart-attainment')).toBeGreaterThan(1000);
  await expect(page.locator('#lesson-caption')).toContainText('Lesson 2: FP8 KV cache.');
  await urlSettled(page);
  expect(await queryValue(page, 'lesson')).toBe('2');
  expect(errors).toEqual([]);
});

test('while presenting, a slider the pointer lets go of hands the clicker keys back to the lessons', async ({ page }) => {
  for (const [width, height] of [[1920, 1080], [1280, 800]]) {
    await page.setViewportSize({ width, height });
    const errors = await openPresent(page, '&lesson=1');
    const box = await page.locator('#tpot').boundingBox();
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.02, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.06, y, { steps: 3 });
    await page.mouse.up();
    await expect(page.locator('#lesson-caption')).toContainText('since lesson 1 loaded');
    expect(await page.evaluate(() => document.activeElement?.id ?? ''), `${width}: focus left the slider`).not.toBe('tpot');
    const dragged = await page.locator('#tpot-value').textContent();
    // The clicker's next and back: the lessons move, the slider does not.
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => queryValue(page, 'lesson'), `${width}: next`).toBe('2');
    await page.keyboard.press('PageUp');
    await expect.poll(() => queryValue(page, 'lesson'), `${width}: back`).toBe('1');
    await expect(page.locator('#tpot-value'), `${width}: lesson 1's own TPOT, not the drag's ${dragged} moved on`).toHaveText('10 ms');
    // Reached with Tab (here: focused by the keyboard), a slider keeps its arrows.
    await page.locator('#tpot').focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.locator('#tpot-value')).toHaveText('11 ms');
    expect(errors).toEqual([]);
  }
});

/** Whether the element `selector` matches lies in the viewport: whole, or its top when it is taller. */
async function inViewport(page, selector) {
  return page.evaluate((sel) => {
    const r = document.querySelector(sel)?.getBoundingClientRect();
    if (!r) return 'absent';
    const h = window.innerHeight;
    const topIn = r.top >= -1 && r.top < h;
    return topIn && (r.bottom <= h + 1 || r.height > h) ? 'in view' : `top ${Math.round(r.top)}, bottom ${Math.round(r.bottom)} of ${h}`;
  }, selector);
}

for (const [width, height] of [[1920, 1080], [1280, 800]]) {
  test(`choosing a lesson on the page brings its subject into view at ${width}x${height}`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    const errors = await openApp(page);
    const subjects = { 1: 'rate', 2: 'step', 3: 'rate', 4: 'step', 5: 'sim', 6: 'sim', 7: 'placement', 8: 'table' };
    for (const [n, panel] of Object.entries(subjects)) {
      await page.locator(`#lessons button[data-lesson="${n}"]`).click();
      await expect.poll(() => queryValue(page, 'lesson')).toBe(n);
      await expect.poll(() => inViewport(page, `[data-panel="${panel}"]`), `lesson ${n}: ${panel}`).toBe('in view');
      await page.evaluate(() => window.scrollTo(0, 0));
    }
    expect(errors).toEqual([]);
  });
}
