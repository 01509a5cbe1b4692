// Every embed view fits every frame the Share menu offers (600x400, 360x480, 800x500) with its answer
// first: the document does not scroll either way, nothing inside it scrolls, every visible text lies
// inside the frame, no two visible text boxes overlap, the answer (a chart, the placements' table, the
// batch table's knee row, the arithmetic's key lines, the search's rows) is in view, and axe finds no
// violation. The placement embed's controls open behind a real disclosure button, and the search's
// rows name what tells them apart.
const { test, expect } = require('@playwright/test');
const { inkedPixels } = require('./helpers');

const AXE = require('fs').readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const SIZES = [[600, 400], [360, 480], [800, 500]];

/** Per view: extra query keys, what to wait for, and the elements that are its answer. */
const VIEWS = {
  rate: { canvas: 'chart-rate', answer: ['#chart-rate'] },
  step: { canvas: 'chart-step', answer: ['#chart-step'] },
  interactivity: { canvas: 'chart-interactivity', answer: ['#chart-interactivity'] },
  table: { ready: '#batch-table tr.knee', answer: ['#batch-table tr.knee', '#batch-table tr.kv-pool'] },
  derivation: {
    ready: '#derivation [data-line="goodput"] .result',
    answer: ['[data-line="step-knee"]', '[data-line="knee"]', '[data-line="pool"]', '[data-line="goodput"]'],
  },
  placement: { ready: '#placement-table tbody tr.chosen', answer: ['#placement-table', '#placement-controls-toggle'] },
  search: { ready: '#search-status[data-searches="1"]', answer: ['#search-table tbody tr:nth-child(-n+3)'] },
  sim: { query: '&requests=300&points=6', ready: '#sim-goodput', canvas: 'chart-attainment', answer: ['#sim-goodput', '#chart-attainment'] },
};

/** Opens view `name` as an embed in a frame of `width` x `height` and waits until its answer is drawn. */
async function openEmbed(page, name, width, height) {
  const v = VIEWS[name];
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.setViewportSize({ width, height });
  await page.goto(`index.html?embed=1&view=${name}${v.query || ''}`);
  await expect(page.locator('html')).toHaveAttribute('data-mode', 'embed');
  if (v.ready) await expect(page.locator(v.ready).first()).toBeAttached({ timeout: 20_000 });
  if (name === 'sim') await expect(page.locator('#sim-goodput')).toHaveText(/req\/s/, { timeout: 20_000 });
  if (v.canvas) await expect.poll(() => inkedPixels(page, v.canvas), { timeout: 10_000 }).toBeGreaterThan(1000);
  await expect(page.locator('#embed-summary')).toBeVisible();
  return errors;
}

/** How the page lays out, read in the page: the document's scroll size, every visible element that
 *  scrolls inside itself, and the line boxes of every visible element's own text. */
function layout(page) {
  return page.evaluate(() => {
    const d = document.documentElement;
    const scrolling = [];
    const texts = [];
    for (const el of document.body.querySelectorAll('*')) {
      if (!el.checkVisibility({ visibilityProperty: true })) continue;
      const style = getComputedStyle(el);
      if (/(auto|scroll)/.test(style.overflowX + style.overflowY)
        && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)) {
        scrolling.push(`${el.tagName}#${el.id}.${el.className} ${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`);
      }
      const box = el.getBoundingClientRect();
      const tiny = box.width <= 2 || box.height <= 2;
      if (!tiny && /(hidden|clip)/.test(style.overflowX + style.overflowY)
        && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)) {
        scrolling.push(`clipped ${el.tagName}#${el.id}.${el.className} ${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`);
      }
      // Text kept for screen readers only (a 1 px clipped box, as the masthead's heading) is not seen.
      if (el.closest('.visually-hidden') || tiny) continue;
      const rects = [];
      for (const node of el.childNodes) {
        if (node.nodeType !== 3 || !node.textContent.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const r of range.getClientRects()) {
          if (r.width > 2 && r.height > 2) rects.push({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
        }
      }
      if (rects.length) texts.push({ el, text: el.textContent.trim().slice(0, 40), rects });
    }
    const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
    const collisions = [];
    texts.forEach((a, i) => texts.slice(i + 1).forEach((b) => {
      if (a.el.contains(b.el) || b.el.contains(a.el)) return;
      if (a.rects.some((ra) => b.rects.some((rb) => overlap(ra, rb)))) collisions.push(`${a.text} / ${b.text}`);
    }));
    const outside = texts.filter((t) => t.rects.some((r) => r.left < -0.5 || r.top < -0.5
      || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5)).map((t) => t.text);
    return { scrollHeight: d.scrollHeight, scrollWidth: d.scrollWidth, innerHeight, innerWidth, scrolling, collisions, outside, count: texts.length };
  });
}

/** Whether every element `selector` matches is visible and lies wholly inside the frame. */
function inFrame(page, selector) {
  return page.locator(selector).evaluateAll((els) => els.length > 0 && els.every((el) => {
    const r = el.getBoundingClientRect();
    return el.checkVisibility() && r.width > 0 && r.height > 0 && r.left >= -0.5 && r.top >= -0.5
      && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
  }));
}

/** The text of each visible row of the search table, as a reader sees it (its visible cells). */
function shownSearchRows(page) {
  return page.locator('#search-table tbody tr').evaluateAll((trs) => trs.filter((tr) => tr.checkVisibility())
    .map((tr) => Array.from(tr.children).filter((c) => c.checkVisibility()).map((c) => c.textContent.trim()).join(' · ')));
}

for (const name of Object.keys(VIEWS)) {
  for (const [width, height] of SIZES) {
    test(`embed view=${name} at ${width}x${height}: its answer in view, nothing to scroll, no text over text, no axe violation`, async ({ page }) => {
      test.setTimeout(45_000);
      const errors = await openEmbed(page, name, width, height);
      const l = await layout(page);
      expect(l.scrollHeight, 'no vertical scroll').toBeLessThanOrEqual(l.innerHeight);
      expect(l.scrollWidth, 'no sideways scroll').toBeLessThanOrEqual(l.innerWidth);
      expect(l.scrolling, 'nothing scrolls inside the frame').toEqual([]);
      expect(l.collisions, 'no two text boxes overlap').toEqual([]);
      expect(l.outside, 'every visible text lies inside the frame').toEqual([]);
      for (const selector of VIEWS[name].answer) {
        expect(await inFrame(page, selector), `${selector} is in view`).toBe(true);
      }
      await page.evaluate(AXE);
      const found = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
      expect(found.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`)).toEqual([]);
      expect(errors).toEqual([]);
    });
  }
}

test('a chart embed gives its chart most of the frame at every size', async ({ page }) => {
  for (const [width, height] of SIZES) {
    for (const name of ['rate', 'sim']) {
      await openEmbed(page, name, width, height);
      const box = await page.locator(`#${VIEWS[name].canvas}`).boundingBox();
      expect(box.height, `${name} at ${width}x${height}`).toBeGreaterThanOrEqual(height * (name === 'sim' ? 0.45 : 0.6));
      expect(box.width).toBeGreaterThanOrEqual(width * 0.85);
    }
  }
});

test('the simulator embed shows the attainment chart alone', async ({ page }) => {
  await openEmbed(page, 'sim', 600, 400);
  await expect(page.locator('#chart-attainment')).toBeVisible();
  for (const hidden of ['#chart-sim-throughput', '.sim-controls', '#sim-toggle', '#sim-steady']) {
    await expect(page.locator(hidden)).toBeHidden();
  }
});

test('the batch table embed keeps the knee, the pool and the marked batch, and names the knee', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 480 });
  await page.goto('index.html?embed=1&view=table&mark=128');
  await expect(page.locator('#batch-table tr.knee')).toBeVisible();
  await expect(page.locator('#batch-table tr.knee')).toContainText('knee');
  await expect(page.locator('#batch-table tr.kv-pool')).toContainText('KV-pool limit');
  expect(await inFrame(page, '#batch-table tr.marked')).toBe(true);
  const l = await layout(page);
  expect(l.scrollHeight).toBeLessThanOrEqual(l.innerHeight);
  expect(l.scrolling).toEqual([]);
});

test('the arithmetic embed shows its key lines alone, with their results', async ({ page }) => {
  await openEmbed(page, 'derivation', 360, 480);
  await expect(page.locator('[data-line="knee"] .result')).toHaveText('64.97 → 64');
  await expect(page.locator('[data-line="pool"] .result')).toHaveText('208 sequences');
  await expect(page.locator('[data-line="goodput"] .result')).toHaveText('25.2 req/s');
  for (const line of ['weights', 'kv-token', 'bandwidth', 'step-compare']) {
    await expect(page.locator(`[data-line="${line}"]`)).toBeHidden();
  }
});

test('a narrow arithmetic embed prints each key line as numbers = result, or the result alone where a line has no numbers (an MoE knee by bisection)', async ({ page }) => {
  for (const query of ['', '&model=deepseek-v3&gpu=b200&tp=8&w=fp8']) {
    await page.setViewportSize({ width: 360, height: 480 });
    await page.goto(`index.html?embed=1&view=derivation${query}`);
    await expect(page.locator('[data-line="goodput"] .result')).toBeVisible({ timeout: 15_000 });
    const shown = await page.locator('.derivation-lines li').evaluateAll((lis) => lis.filter((li) => li.checkVisibility())
      .map((li) => li.querySelector('.equation').innerText));
    expect(shown.length).toBe(4);
    for (const text of shown) expect(text.trim(), 'no line opens on an equals sign').not.toMatch(/^=/);
    const l = await layout(page);
    expect(l.scrollHeight, query).toBeLessThanOrEqual(l.innerHeight);
  }
});

for (const [width, height] of SIZES) {
  test(`the placement embed at ${width}x${height} opens on its table; a disclosure button shows the controls, which work`, async ({ page }) => {
    await openEmbed(page, 'placement', width, height);
    const toggle = page.locator('#placement-controls-toggle');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(page.locator('#place')).toBeHidden();
    expect(await page.evaluate(() => {
      const table = document.getElementById('placement-table').getBoundingClientRect();
      return table.top < document.getElementById('placement-controls-toggle').getBoundingClientRect().top;
    }), 'the table comes before the controls').toBe(true);
    // Every shown row names its placement and its goodput per GPU.
    const rows = await page.locator('#placement-table tbody tr').evaluateAll((trs) => trs.map((tr) =>
      Array.from(tr.children).filter((c) => c.checkVisibility()).map((c) => c.textContent.trim())));
    expect(rows.length).toBe(4);
    for (const row of rows) expect(row.length).toBeGreaterThanOrEqual(4);
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(page.locator('#place')).toBeVisible();
    await page.locator('#place').selectOption('disagg');
    await expect(page.locator('#placement-table tr.chosen')).toHaveAttribute('data-placement', 'disagg');
    await page.evaluate(AXE);
    const found = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    expect(found.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`), 'axe, the controls open').toEqual([]);
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(page.locator('#place')).toBeHidden();
  });
}

for (const [width, height] of SIZES) {
  test(`the search embed at ${width}x${height}: no two shown rows read the same, each names its precisions and parallelism`, async ({ page }) => {
    await openEmbed(page, 'search', width, height);
    const rows = await shownSearchRows(page);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(new Set(rows).size, rows.join('\n')).toBe(rows.length);
    for (const row of rows) {
      // GPU · weights · KV · parallelism · goodput per GPU ...
      // The parallelism as the search names it: `TP1`, `TP1 EP8 DP8`, `2×TP2 : 1×TP1 EP8 DP8`.
      const shape = String.raw`TP\d+(?: [EDP]P\d+)*`;
      expect(row, row).toMatch(new RegExp(String.raw`^[^·]+ · (BF16|FP8|INT4|FP4) · (BF16|FP8|FP4) · (${shape}|\d+×${shape} : \d+×${shape}) · [\d.,]+`));
    }
    const chart = page.locator('#chart-search');
    if (await chart.isVisible()) {
      expect((await chart.boundingBox()).height, 'a shown chart has a legible height').toBeGreaterThanOrEqual(200);
    }
  });
}
