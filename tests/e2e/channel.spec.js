// The page <-> lazily loaded panels channel (src/ui/channel.rs, src/protocol/panel.rs): the page owns
// the state; a panel's change reaches the page and the URL once and nothing echoes back; a page change
// reaches the open panel once; every message is postcard bytes, never a query string.
const { test, expect } = require('@playwright/test');
const { openApp, queryValue } = require('./helpers');

/** Counts every message on the channel and every URL write, from before the page's own scripts run. */
async function recordChannel(page) {
  await page.addInitScript(() => {
    const seen = { toPage: [], toPanel: [], urlWrites: 0 };
    window.__channel = seen;
    const keep = (list) => (event) => list.push({
      bytes: event.detail instanceof Uint8Array,
      text: event.detail instanceof Uint8Array ? new TextDecoder('latin1').decode(event.detail) : String(event.detail),
    });
    window.addEventListener('goodput-to-page', keep(seen.toPage));
    window.addEventListener('goodput-to-panel', keep(seen.toPanel));
    const replace = history.replaceState.bind(history);
    history.replaceState = (...args) => { seen.urlWrites += 1; return replace(...args); };
  });
}

const counts = (page) => page.evaluate(() => ({
  toPage: window.__channel.toPage.length,
  toPanel: window.__channel.toPanel.length,
  urlWrites: window.__channel.urlWrites,
}));

/** Opens the simulator and waits until its first sweep has landed. */
async function openSimulator(page) {
  await page.click('#sim-toggle');
  await expect.poll(() => page.locator('#sim-status').getAttribute('data-sweeps'), { timeout: 20_000 }).not.toBe('0');
  await expect(page.locator('#sim-status')).toHaveAttribute('data-busy', 'false', { timeout: 20_000 });
}

/** Lets every timer, frame and throttled URL write of the last action run out. */
const quiet = (page) => page.waitForTimeout(800);

test("a panel's change reaches the page and the URL once, and nothing echoes back", async ({ page }) => {
  await recordChannel(page);
  const errors = await openApp(page);
  await openSimulator(page);
  await quiet(page);
  const before = await counts(page);
  await page.selectOption('#arrivals', 'constant');
  await expect.poll(() => queryValue(page, 'arrivals')).toBe('constant');
  await quiet(page);
  const after = await counts(page);
  expect(after.toPage - before.toPage).toBe(1);
  expect(after.urlWrites - before.urlWrites).toBe(1);
  expect(after.toPanel - before.toPanel).toBe(1);
  await expect(page.locator('#arrivals')).toHaveValue('constant');
  await page.waitForTimeout(1000);
  expect(await counts(page)).toEqual(after);
  expect(errors).toEqual([]);
});

test('a page change reaches the open panel once and the panel sends nothing back', async ({ page }) => {
  await recordChannel(page);
  const errors = await openApp(page);
  await openSimulator(page);
  await quiet(page);
  const before = await counts(page);
  await page.locator('#tpot').focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => queryValue(page, 'tpot')).not.toBe('10');
  await quiet(page);
  const after = await counts(page);
  expect(after.toPanel - before.toPanel).toBe(1);
  expect(after.toPage - before.toPage).toBe(0);
  expect(after.urlWrites - before.urlWrites).toBe(1);
  expect(errors).toEqual([]);
});

test('with no panel open the page sends nothing, and every message is bytes, never a query string', async ({ page }) => {
  await recordChannel(page);
  await openApp(page);
  await page.locator('#in').focus();
  await page.keyboard.press('ArrowRight');
  await quiet(page);
  expect((await counts(page)).toPanel).toBe(0);
  await openSimulator(page);
  await page.selectOption('#arrivals', 'constant');
  await page.locator('#in').focus();
  await page.keyboard.press('ArrowRight');
  await quiet(page);
  const messages = await page.evaluate(() => [...window.__channel.toPage, ...window.__channel.toPanel]);
  expect(messages.length).toBeGreaterThanOrEqual(3);
  for (const m of messages) {
    expect(m.bytes).toBe(true);
    expect(m.text).not.toMatch(/ctx=|arrivals=|model=/);
  }
});
