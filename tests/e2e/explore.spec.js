// Linked, explorable charts in the real browser: hover, touch and arrow keys read values off the batch
// charts and highlight the table row; table rows mark a batch on every chart (mark= in the URL); the
// animate control sweeps the mark or the TPOT target and stops.
const { test, expect } = require('@playwright/test');
const {
  openApp, waitForAllCharts, chartImages, canvasImage, rowByHeader, tableRows, num, queryValue, CHART_IDS, inkedPixels, urlSettled
} = require('./helpers');

/** The seed's step time in ms from its own arithmetic: (16.06 GB + B x 268 MB) / 3.35 TB/s. */
function seedStepMs(batch) {
  const kvPerSeq = 2048 * 2 * 32 * 8 * 128 * 2;
  return ((8.03e9 * 2 + batch * kvPerSeq) / 3.35e12) * 1e3;
}

/** The chart's plot frame as the canvas exposes it (CSS pixels from its top left, axis values). */
async function frameOf(page, id) {
  return page.locator(`#${id}`).evaluate((c) => {
    const n = (k) => Number(c.dataset[k]);
    return {
      left: n('plotLeft'), top: n('plotTop'), right: n('plotRight'), bottom: n('plotBottom'),
      xMin: n('xMin'), xMax: n('xMax'), yMin: n('yMin'), yMax: n('yMax'),
    };
  });
}

/** Page coordinates of x value `x` on chart `id`, halfway down its plot. */
async function pointAt(page, id, x) {
  const f = await frameOf(page, id);
  await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  const box = await page.locator(`#${id}`).boundingBox();
  const px = f.left + ((x - f.xMin) / (f.xMax - f.xMin)) * (f.right - f.left);
  return { x: box.x + px, y: box.y + (f.top + f.bottom) / 2, cssX: px };
}

const panel = (page, name) => page.locator(`[data-panel=${name}]`);
const readout = (page, name, field) => panel(page, name).locator(`.chart-readout [data-field=${field}]`);
const row = (page, batch) => page.locator(`#batch-table tbody tr[data-batch="${batch}"]`);

/** Expects every chart's read-out to show `batch`. */
async function expectReadouts(page, batch) {
  for (const name of ['rate', 'step', 'interactivity']) {
    await expect(readout(page, name, 'batch')).toHaveText(batch);
  }
}

test('hovering the rate chart at batch 64 reads out its table row on every chart and highlights the row', async ({ page }) => {
  const errors = await openApp(page);
  await waitForAllCharts(page);
  const before = await chartImages(page);
  const at = await pointAt(page, 'chart-rate', 64);
  await page.mouse.move(at.x, at.y);
  await expectReadouts(page, '64');
  const want = await rowByHeader(page, 64);
  expect(want['Step time (ms)']).toBe('9.92');
  await expect(readout(page, 'rate', 'step')).toHaveText(want['Step time (ms)']);
  await expect(readout(page, 'rate', 'tokens')).toHaveText(want['Tokens/s']);
  await expect(readout(page, 'rate', 'goodput')).toHaveText(want['Goodput (req/s)']);
  await expect(readout(page, 'rate', 'req')).toHaveText(want['Goodput (req/s)']); // meets both: goodput = throughput
  await expect(readout(page, 'rate', 'tpot')).toHaveText(want['Meets TPOT']);
  await expect(readout(page, 'rate', 'ttft')).toHaveText(want['Meets TTFT']);
  await expect(row(page, 64)).toHaveClass(/\bhovered\b/);
  await expect(page.locator('#batch-table tr.hovered')).toHaveCount(1);
  await expect(page.locator('#batch-table tr.extra')).toHaveCount(0);
  // The crosshair stands at batch 64's pixel on both batch axes, and the interactivity chart rings its point.
  const cross = await panel(page, 'rate').locator('.crosshair').evaluate((el) => parseFloat(el.style.left));
  expect(Math.abs(cross - at.cssX)).toBeLessThan(1.5);
  await expect(panel(page, 'step').locator('.crosshair')).toBeVisible();
  await expect(panel(page, 'interactivity').locator('.crosshair-ring')).toBeVisible();
  await expect(page.locator('#explore-live')).toHaveText(/^Batch 64: 9\.92 ms per step, 6,450 tokens\/s, 25\.2 requests\/s; meets the TPOT target and the TTFT target/);
  // The crosshair is an overlay: the charts themselves are not redrawn.
  expect(await chartImages(page)).toEqual(before);
  expect(errors).toEqual([]);
});

test('hovering batch 40, between the rows, inserts its own highlighted row with the roofline numbers; leaving clears it', async ({ page }) => {
  const errors = await openApp(page);
  const at = await pointAt(page, 'chart-step', 40);
  await page.mouse.move(at.x, at.y);
  await expectReadouts(page, '40');
  await expect(row(page, 40)).toHaveClass(/\bhovered\b/);
  await expect(row(page, 40)).toHaveClass(/\bextra\b/);
  expect((await tableRows(page)).map((r) => r[0])).toEqual(['1', '16', '32', '40', '64', '96', '128', '208']);
  const r40 = await rowByHeader(page, 40);
  const step = num(r40['Step time (ms)']);
  expect(step).toBeGreaterThan(7.36);
  expect(step).toBeLessThan(9.92);
  expect(step).toBeCloseTo(seedStepMs(40), 2);
  expect(num(r40['Tokens/s'])).toBeCloseTo(40 / (seedStepMs(40) / 1e3), -1);
  await expect(readout(page, 'step', 'step')).toHaveText(r40['Step time (ms)']);
  await expect(readout(page, 'step', 'tokens')).toHaveText(r40['Tokens/s']);
  await expect(readout(page, 'step', 'goodput')).toHaveText(r40['Goodput (req/s)']);

  await page.mouse.move(5, 5);
  await expect(row(page, 40)).toHaveCount(0);
  await expect(page.locator('#batch-table tr.hovered')).toHaveCount(0);
  for (const name of ['rate', 'step', 'interactivity']) {
    await expect(panel(page, name).locator('.chart-readout')).toBeHidden();
    await expect(panel(page, name).locator('.crosshair')).toBeHidden();
  }
  await expect(page.locator('#explore-live')).toHaveText('');
  expect(errors).toEqual([]);
});

test('hovering a table row puts the crosshair on that batch in every chart', async ({ page }) => {
  const errors = await openApp(page);
  const at = await pointAt(page, 'chart-rate', 96);
  await row(page, 96).locator('td').nth(1).hover();
  await expectReadouts(page, '96');
  const cross = await panel(page, 'rate').locator('.crosshair').evaluate((el) => parseFloat(el.style.left));
  expect(Math.abs(cross - at.cssX)).toBeLessThan(1.5);
  await expect(readout(page, 'interactivity', 'tpot')).toHaveText('no');
  await page.mouse.move(5, 5);
  await expect(panel(page, 'rate').locator('.crosshair')).toBeHidden();
  expect(errors).toEqual([]);
});

test('the interactivity chart reads out the batch whose point is under the pointer', async ({ page }) => {
  const errors = await openApp(page);
  await waitForAllCharts(page);
  // Batch 16 runs at 1 / 6.08 ms = 164.5 tokens/s per user.
  const at = await pointAt(page, 'chart-interactivity', 1e3 / seedStepMs(16));
  await page.mouse.move(at.x, at.y);
  await expect(readout(page, 'interactivity', 'batch')).not.toHaveText('');
  const batch = num(await readout(page, 'interactivity', 'batch').textContent());
  // A CSS pixel spans about one batch here: the batch read out is drawn at the pixel pointed at.
  expect(Math.abs(batch - 16)).toBeLessThanOrEqual(1);
  await expect(row(page, batch)).toHaveClass(/\bhovered\b/);
  expect(errors).toEqual([]);
});

test.describe('on a touch screen', () => {
  test.use({ hasTouch: true });

  test('tapping the step chart reads out the batch tapped; tapping elsewhere clears it', async ({ page }) => {
    const errors = await openApp(page);
    const at = await pointAt(page, 'chart-step', 96);
    await page.touchscreen.tap(at.x, at.y);
    await expectReadouts(page, '96');
    await expect(row(page, 96)).toHaveClass(/\bhovered\b/);
    await expect(readout(page, 'step', 'step')).toHaveText((await rowByHeader(page, 96))['Step time (ms)']);
    const caption = await page.locator('#batch-table caption').boundingBox();
    await page.touchscreen.tap(caption.x + 10, caption.y + 5);
    await expect(page.locator('#batch-table tr.hovered')).toHaveCount(0);
    await expect(panel(page, 'step').locator('.chart-readout')).toBeHidden();
    expect(errors).toEqual([]);
  });
});

test('arrow keys, Page Up/Down, Home and End on a focused chart move the batch; Enter marks it', async ({ page }) => {
  const errors = await openApp(page);
  const canvas = page.locator('#chart-rate');
  await expect(canvas).toHaveAttribute('tabindex', '0');
  const help = await canvas.getAttribute('aria-describedby');
  await expect(page.locator(`#${help}`)).toContainText('arrow keys');
  await canvas.focus();
  await page.keyboard.press('ArrowRight'); // the first key shows the knee
  await expectReadouts(page, '64');
  await page.keyboard.press('ArrowRight');
  await expectReadouts(page, '65');
  await expect(row(page, 65)).toHaveClass(/\bextra\b/);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expectReadouts(page, '63');
  await page.keyboard.press('PageUp');
  await expectReadouts(page, '73');
  await page.keyboard.press('Home');
  await expectReadouts(page, '1');
  await expect(row(page, 1)).toHaveClass(/\bhovered\b/);
  await page.keyboard.press('End');
  await expectReadouts(page, '256');
  await page.keyboard.press('Home');
  await page.keyboard.press('Enter');
  await expect.poll(() => queryValue(page, 'mark')).toBe('1');
  // The page did not scroll for the keys the chart took.
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  // On the interactivity chart faster users (smaller batches) are to the right.
  await page.locator('#chart-interactivity').focus();
  await page.keyboard.press('End');
  await expectReadouts(page, '208');
  await page.keyboard.press('ArrowRight');
  await expectReadouts(page, '207');
  // Leaving the charts clears the read-out of the hovered batch (the mark's stays).
  await page.locator('#animate').focus();
  await expectReadouts(page, '1');
  await expect(page.locator('#batch-table tr.hovered')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('clicking a table row marks that batch on every chart and in the URL; reload keeps it; a second click clears it', async ({ page }) => {
  const errors = await openApp(page);
  await waitForAllCharts(page);
  const unmarked = await chartImages(page);
  await row(page, 96).locator('td').nth(2).click();
  await expect.poll(() => queryValue(page, 'mark')).toBe('96');
  await expect(row(page, 96)).toHaveClass(/\bmarked\b/);
  await expect(row(page, 96).locator('button.row-mark')).toHaveAttribute('aria-pressed', 'true');
  await expect(row(page, 64).locator('button.row-mark')).toHaveAttribute('aria-pressed', 'false');
  for (const id of CHART_IDS) {
    await expect.poll(() => canvasImage(page, id)).not.toEqual(unmarked[id]);
  }
  const marked = await chartImages(page);
  await expect(page.locator('#unmark')).toHaveText('Unmark batch 96');
  for (const id of CHART_IDS) {
    await expect(page.locator(`#${id}`)).toHaveAttribute('aria-label', /Marked: Batch 96: 12\.49 ms per step/);
  }

  await urlSettled(page);
  await page.reload();
  await waitForAllCharts(page);
  await expect(row(page, 96)).toHaveClass(/\bmarked\b/);
  await urlSettled(page);
  expect(queryValue(page, 'mark')).toBe('96');
  for (const id of CHART_IDS) {
    await expect.poll(() => canvasImage(page, id)).toEqual(marked[id]);
  }
  // With nothing hovered the read-outs show the mark.
  await expectReadouts(page, '96');

  await row(page, 96).locator('td').nth(2).click();
  await expect.poll(() => queryValue(page, 'mark')).toBe(null);
  await expect(row(page, 96)).not.toHaveClass(/\bmarked\b/);
  for (const id of CHART_IDS) {
    await expect.poll(() => canvasImage(page, id)).toEqual(unmarked[id]);
  }
  await expect(page.locator('#unmark')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('Enter and Space on a row\'s batch button mark and unmark it; Unmark clears the mark', async ({ page }) => {
  const errors = await openApp(page);
  await row(page, 32).locator('button.row-mark').focus();
  await expectReadouts(page, '32'); // focusing a row shows it on the charts
  await page.keyboard.press('Enter');
  await expect.poll(() => queryValue(page, 'mark')).toBe('32');
  await page.keyboard.press('Space');
  await expect.poll(() => queryValue(page, 'mark')).toBe(null);
  await page.keyboard.press('Enter');
  await expect.poll(() => queryValue(page, 'mark')).toBe('32');
  await page.locator('#unmark').click();
  await expect.poll(() => queryValue(page, 'mark')).toBe(null);
  await expect(page.locator('#batch-table tr.marked')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('mark= for a batch the table does not list adds it as a marked row', async ({ page }) => {
  const errors = await openApp(page, '?mark=40');
  await expect(row(page, 40)).toHaveClass(/\bmarked\b/);
  await expect(row(page, 40)).toHaveClass(/\bextra\b/);
  expect(num((await rowByHeader(page, 40))['Step time (ms)'])).toBeCloseTo(seedStepMs(40), 2);
  await expectReadouts(page, '40');
  await expect(panel(page, 'rate').locator('.crosshair')).toBeHidden(); // the mark is drawn in the chart itself
  expect(errors).toEqual([]);
});

/** Reads `key` from the URL every 150 ms for `ms` milliseconds. */
async function sampleQuery(page, key, ms) {
  const seen = [];
  for (let t = 0; t < ms; t += 150) {
    seen.push(queryValue(page, key));
    await page.waitForTimeout(150);
  }
  return seen;
}

test('Animate sweeps the marked batch upwards over time and Stop halts it', async ({ page }) => {
  const errors = await openApp(page);
  await waitForAllCharts(page);
  const before = await canvasImage(page, 'chart-rate');
  await page.locator('#animate').click();
  await expect(page.locator('#animate')).toHaveText('Stop');
  await expect(page.locator('#animate')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('#explore-live')).toHaveAttribute('aria-busy', 'true');
  const seen = (await sampleQuery(page, 'mark', 1500)).filter((v) => v !== null).map(Number);
  expect(new Set(seen).size).toBeGreaterThanOrEqual(4);
  for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
  expect(await canvasImage(page, 'chart-rate')).not.toEqual(before);
  // The read-out follows the mark.
  await expect.poll(async () => num(await readout(page, 'rate', 'batch').textContent())).toBeGreaterThan(seen[0]);

  await page.locator('#animate').click();
  await expect(page.locator('#animate')).toHaveText('Animate');
  await urlSettled(page);
  const stopped = queryValue(page, 'mark');
  await page.waitForTimeout(600);
  expect(queryValue(page, 'mark')).toBe(stopped);
  await expect(page.locator('#explore-live')).toHaveAttribute('aria-busy', 'false');
  expect(errors).toEqual([]);
});

test('the a key starts and stops the animation, but not while typing in a field', async ({ page }) => {
  const errors = await openApp(page);
  await page.locator('#animate-what').focus();
  await page.keyboard.press('a');
  await page.waitForTimeout(300);
  await urlSettled(page);
  expect(queryValue(page, 'mark')).toBe(null);
  await page.locator('.masthead h1').click();
  await page.keyboard.press('a');
  await expect(page.locator('#animate')).toHaveText('Stop');
  await expect.poll(() => queryValue(page, 'mark')).not.toBe(null);
  await page.keyboard.press('a');
  await expect(page.locator('#animate')).toHaveText('Animate');
  expect(errors).toEqual([]);
});

test('sweeping the TPOT target starts at 1 ms and raises it; the knee follows', async ({ page }) => {
  const errors = await openApp(page);
  await page.locator('#animate-what').selectOption('tpot');
  // Record, in the page, every TPOT the control shows and, a task later (the table's effects have
  // run by then), that TPOT beside the table's knee rows: a slow test runner cannot miss a step,
  // since the sweep holds each value for its interval (tens of ms) and this reads every 2 ms. (The
  // address is no clock here: it coalesces changes within its write interval.) The control is read
  // by id each time, on a timer as the sweep steps: an observer on the element found first, or a
  // recorder driven by animation frames, recorded nothing in 1-3 runs of 40 while the sweep went on.
  await page.evaluate(() => {
    window.__tpots = [];
    const read = () => {
      const shown = document.getElementById('tpot-value');
      return shown ? String(parseFloat(shown.textContent)) : null;
    };
    let last = read();
    setInterval(() => {
      const tpot = read();
      if (tpot === null || tpot === last) return;
      last = tpot;
      setTimeout(() => window.__tpots.push([tpot, document.querySelectorAll('#batch-table tr.knee').length]), 0);
    }, 2);
  });
  await page.locator('#animate').click();
  // Wait on what the page recorded, not the address: a poll of the address passed at once in 1-3
  // runs of 40, before the sweep had shown a value (it can still hold an earlier state's tpot).
  const highest = () => page.evaluate(() => Math.max(0, ...window.__tpots.map(([t]) => Number(t))));
  await expect.poll(highest, { timeout: 8000 }).toBeGreaterThanOrEqual(6);
  const seen = await page.evaluate(() => window.__tpots);
  expect(seen[0][0]).toBe('1');
  // Below batch 1's 4.87 ms step nothing meets the target: no knee row.
  const below = seen.filter(([tpot]) => Number(tpot) < 4.87);
  expect(below.length).toBeGreaterThan(0);
  expect(below.filter(([, knees]) => knees !== 0)).toEqual([]);
  await page.locator('#animate').click();
  await expect(page.locator('#animate')).toHaveText('Animate');
  await expect(page.locator('#animate-what')).toBeEnabled();
  await urlSettled(page);
  const tpotMs = Number(queryValue(page, 'tpot'));
  // The seed's knee at that target: (target x 3.35 TB/s - 16.06 GB) / 268 MB, rounded down. A loaded
  // runner may stop the sweep after it wrapped back below batch 1's 4.87 ms step: then no knee row.
  const kvPerSeq = 2048 * 2 * 32 * 8 * 128 * 2;
  const knee = Math.floor(((tpotMs / 1e3) * 3.35e12 - 8.03e9 * 2) / kvPerSeq);
  if (knee >= 1) await expect(page.locator('#batch-table tr.knee th')).toHaveText(String(knee));
  else await expect(page.locator('#batch-table tr.knee')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('with reduced motion the sweep jumps through the table\'s batches, one a second', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const errors = await openApp(page);
  // Record, in the page, each batch the table marks and when (the address lags a change by up to
  // its write interval, so the table is the clock): a slow test runner then neither misses a step
  // nor sees extra ones inside a sampling window.
  await page.evaluate(() => {
    window.__marks = [];
    const table = document.getElementById('batch-table');
    const note = () => {
      const mark = table.querySelector('tr.marked th')?.textContent ?? null;
      const last = window.__marks[window.__marks.length - 1];
      if (mark !== null && (!last || last[0] !== mark)) window.__marks.push([mark, performance.now()]);
    };
    new MutationObserver(note).observe(table, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
  });
  await page.locator('#animate').click();
  await expect.poll(() => page.evaluate(() => window.__marks.length), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
  await page.locator('#animate').click();
  const marks = await page.evaluate(() => window.__marks);
  // Jumps through the table's batches in order, nothing between them, about a second apart.
  expect(marks.slice(0, 3).map(([mark]) => mark)).toEqual(['1', '16', '32']);
  for (let i = 1; i < 3; i++) expect(marks[i][1] - marks[i - 1][1]).toBeGreaterThan(800);
  expect(errors).toEqual([]);
});

test('an embed drops the explore bar; its chart still reads out the batch under the pointer', async ({ page }) => {
  // The embed shows the rate chart alone (no table), so wait for that chart rather than the table.
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto('index.html?embed=1&view=rate');
  await expect.poll(() => inkedPixels(page, 'chart-rate')).toBeGreaterThan(1000);
  await expect(page.locator('#batch-table')).toBeHidden();
  await expect(page.locator('#animate')).toBeHidden();
  const at = await pointAt(page, 'chart-rate', 32);
  await page.mouse.move(at.x, at.y);
  await expect(readout(page, 'rate', 'batch')).toHaveText('32');
  await expect(readout(page, 'rate', 'step')).toHaveText('7.36');
  expect(errors).toEqual([]);
});
