// The ideal-roofline note under each planning panel's heading (src/ui/ideal_note.rs): on the ideal
// roofline each of the four says what its figure bounds with the measured engines' figure beside it,
// its button switches the page to measured engines (calib=measured) and every note goes; on any other
// cost model none shows. The measured floor is computed here from the shipped profile's constants
// (as calibration.spec.js does); the knee and GPUs are checked against what the page's own table and
// capacity plan show once switched.
const { test, expect } = require('@playwright/test');
const { openApp, num, queryValue, rowByHeader, showPanel } = require('./helpers');

const { measuredStepMs, IDEAL_FLOOR_MS } = require('./profile');

/** The worked example's step at batch 1 on vLLM's measured profile, in ms. */
const VLLM_FLOOR_MS = measuredStepMs(1, 0);

const PANELS = ['capacity', 'placement', 'search', 'sim'];
const SENTENCES = {
  capacity: /^Ideal roofline: a lower bound on GPUs no engine reaches\. Measured engines \(vLLM\): ([\d,]+) GPUs?, \$([\d.,]+) per million tokens\./,
  placement: /^Ideal roofline: an upper bound on goodput\. Measured engines \(vLLM\): knee (\d+), ([\d.]+) ms, ([\d.]+) req\/s per GPU\./,
  search: /^Ideal roofline: its TPOTs are bounds \(fastest ([\d.]+) ms here\); measured engines reach ([\d.]+) ms at best\./,
  sim: /^Ideal roofline: an upper bound on goodput\. Measured engines \(vLLM\): knee (\d+), ([\d.]+) ms, ([\d.]+) req\/s per GPU\./,
};
// Each panel opened, and what shows once its body is drawn.
const OPEN = {
  capacity: { query: '', ready: async (page) => showPanel(page, 'capacity') },
  placement: { query: '?place=disagg', ready: async (page) => expect(page.locator('#placement-table')).toBeVisible({ timeout: 15_000 }) },
  search: { query: '?search=1', ready: async (page) => expect(page.locator('#search-status[data-searches="1"]')).toBeAttached({ timeout: 20_000 }) },
  sim: { query: '?sim=1&requests=300&points=6', ready: async (page) => expect(page.locator('#sim-goodput')).toBeVisible({ timeout: 20_000 }) },
};

/** The note's text (the sentence and the button's label). */
async function noteText(page, panel) {
  return (await page.locator(`#${panel}-ideal-note`).textContent()).trim();
}

test('on the default page each planning panel says it is on the ideal roofline, with the measured figure', async ({ page }) => {
  const errors = await openApp(page);
  for (const panel of PANELS) {
    const note = page.locator(`#${panel}-ideal-note`);
    await expect(note).toBeVisible();
    await expect(note).toHaveAttribute('role', 'note');
    await expect(note).toHaveClass(/ideal-note/);
    await expect(page.locator(`#${panel}-title + .ideal-note`)).toHaveCount(1);
    await expect(page.locator(`#${panel}-use-measured`)).toHaveText('Use measured engines');
    expect(await noteText(page, panel)).toMatch(SENTENCES[panel]);
  }
  const [, fastest, best] = (await noteText(page, 'search')).match(SENTENCES.search);
  expect(num(fastest)).toBeCloseTo(IDEAL_FLOOR_MS, 2);
  expect(num(best)).toBeCloseTo(VLLM_FLOOR_MS, 1);
  expect(num(best)).toBeGreaterThan(num(fastest));
  const [, knee] = (await noteText(page, 'sim')).match(SENTENCES.sim);
  expect(Number(knee)).toBeLessThan(64);
  expect(await noteText(page, 'placement')).toBe(await noteText(page, 'sim'));
  expect(errors).toEqual([]);
});

for (const panel of PANELS) {
  test(`the ${panel} note's button switches to measured engines and every note goes`, async ({ page }) => {
    const errors = await openApp(page, OPEN[panel].query);
    await OPEN[panel].ready(page);
    const before = {};
    for (const p of PANELS) before[p] = (await noteText(page, p)).match(SENTENCES[p]);
    // The derivation's, the capacity plan's and the accuracy view's bodies load as they come near
    // the viewport, and scrolling to a note near them would load them under the pointer: the click
    // would land on whatever their content pushed there. Load them first, then bring the button into view.
    await showPanel(page, 'derivation');
    await showPanel(page, 'capacity');
    await showPanel(page, 'accuracy');
    await page.locator(`#${panel}-use-measured`).scrollIntoViewIfNeeded();
    await expect(page.locator('.lazy-status:visible')).toHaveCount(0, { timeout: 15_000 });
    await page.locator(`#${panel}-use-measured`).click();
    // Switching the cost model reprices every open panel (the disaggregated split's search among
    // them) before the address is written: under CI's load that can outlast the default 5 s.
    await expect.poll(() => queryValue(page, 'calib'), { timeout: 15_000 }).toBe('measured');
    await expect(page.locator('#calib')).toHaveValue('measured');
    await expect(page.locator('.ideal-note')).toHaveCount(0);
    // What the note promised is what the page now shows.
    const [, knee, tpotMs] = before.sim;
    await expect(page.locator('#batch-table tr.knee th')).toHaveText(knee);
    expect(num((await rowByHeader(page, knee))['Step time (ms)'])).toBeCloseTo(num(tpotMs), 2);
    if (panel === 'capacity') await expect(page.locator('#plan-gpus')).toHaveText(new RegExp(`^${before.capacity[1]} \\(likely [\\d,]+–[\\d,]+ GPUs, fitted\\)$`));
    expect(errors).toEqual([]);
  });
}

test('with a custom cost model no note shows', async ({ page }) => {
  const errors = await openApp(page, '?calib=custom');
  await expect(page.locator('#calib')).toHaveValue('custom');
  await showPanel(page, 'capacity');
  await expect(page.locator('.ideal-note')).toHaveCount(0);
  for (const panel of PANELS) await expect(page.locator(`#${panel}-use-measured`)).toHaveCount(0);
  expect(errors).toEqual([]);
});
