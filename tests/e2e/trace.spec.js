// The simulator's traffic trace block in the real browser: a trace pasted or chosen as a file shows
// its format and statistics; a malformed file names the line and field; "Use its mean lengths" sets
// the page's prompt and output; a small trace round-trips through the URL (trace=i:…) and a large one
// is named by its summary (trace=h:…), which a page without the trace explains.
const { test, expect } = require('@playwright/test');
const fs = require('fs');
const path = require('path');
const { openApp, queryValue, urlSettled } = require('./helpers');

const TRACES = path.join(__dirname, '..', 'fixtures', 'traces');
const trace = (name) => path.join(TRACES, name);

/** Opens the page with the simulator's body (its code loads on demand) at `query`. */
async function openSim(page, query = '') {
  const errors = await openApp(page, `?sim=1${query}`);
  await expect(page.locator('#trace-input')).toBeVisible({ timeout: 15_000 });
  return errors;
}

/** The statistics table as { row name: value }. */
async function stats(page) {
  await expect(page.locator('#trace-stats')).toBeVisible();
  const rows = await page.locator('#trace-stats tr').evaluateAll((trs) =>
    trs.map((tr) => [tr.querySelector('th').textContent, tr.querySelector('td').textContent]));
  return Object.fromEntries(rows);
}

test('a pasted plain trace shows its statistics and rides inline in the URL', async ({ page }) => {
  const errors = await openSim(page);
  await page.fill('#trace-input', 'arrival_s,prompt_tokens,output_tokens,session\n0,40,10,a\n0.5,20,5,b\n2.25,70,12,a\n');
  await page.click('#trace-read');
  const s = await stats(page);
  expect(s['Format']).toBe('plain trace');
  expect(s['Requests']).toBe('3');
  expect(s['Sessions']).toBe('2');
  expect(s['Duration']).toBe('2.25 s');
  await expect(page.locator('#trace-remarks')).toContainText('Block hashes synthesized from the sessions');
  await urlSettled(page);
  expect(queryValue(page, 'trace')).toBe('i:0-40-10-0_500-20-5-1_2250-70-12-0');
  // The link reopens the same trace.
  await page.goto(page.url());
  await expect(page.locator('#trace-stats')).toBeVisible({ timeout: 15_000 });
  expect((await stats(page))['Requests']).toBe('3');
  expect(errors).toEqual([]);
});

test('a Mooncake file chosen with the file input shows its statistics and its summary in the URL', async ({ page }) => {
  await openSim(page);
  await page.setInputFiles('#trace-file', trace('mooncake.jsonl'));
  const s = await stats(page);
  expect(s['Format']).toBe('Mooncake trace (JSON lines)');
  await expect(page.locator('#trace-status')).toContainText('mooncake.jsonl: 4 requests from a Mooncake trace (JSON lines).');
  expect(s['Requests']).toBe('4');
  expect(s['Duration']).toBe('10.5 s');
  expect(s['Prompt tokens']).toContain('max 1,536');
  expect(s['Reuse ceiling']).toContain('blocks of 512 tokens');
  await urlSettled(page);
  expect(queryValue(page, 'trace')).toMatch(/^h:[0-9a-f]{16}:4:10\.535$/);
  expect(s['Content hash']).toBe(queryValue(page, 'trace').split(':')[1]);
});

test('an Azure trace dropped on the block is read, its zero-token line counted in a remark', async ({ page }) => {
  await openSim(page);
  const text = fs.readFileSync(trace('azure_2023.csv'), 'utf8');
  const dataTransfer = await page.evaluateHandle((t) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], 'azure_2023.csv', { type: 'text/csv' }));
    return dt;
  }, text);
  await page.dispatchEvent('#trace-drop', 'drop', { dataTransfer });
  const s = await stats(page);
  expect(s['Format']).toBe('Azure LLM inference trace (CSV)');
  expect(s['Requests']).toBe('3');
  await expect(page.locator('#trace-status')).toContainText('azure_2023.csv: 3 requests from an Azure LLM inference trace (CSV).');
  await expect(page.locator('#trace-remarks')).toContainText('Skipped 1 line with 0 `GeneratedTokens`.');
});

test('a malformed file names the line and the field and keeps the page working', async ({ page }) => {
  const errors = await openSim(page);
  await page.setInputFiles('#trace-file', trace('bad_mooncake.jsonl'));
  await expect(page.locator('#trace-error')).toContainText('bad_mooncake.jsonl: line 3: `input_length` “abc” is not a whole number');
  await expect(page.locator('#trace-stats')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('"Use its mean lengths" sets the page\'s prompt and output to the trace\'s means', async ({ page }) => {
  await openSim(page);
  await page.setInputFiles('#trace-file', trace('burstgpt.csv'));
  await expect(page.locator('#trace-remarks')).toContainText('Skipped 1 line with 0 `Response tokens` (failed requests).');
  // Kept requests: prompts 472, 620, 300, 100 (mean 373); outputs 18, 215, 120, 50 (mean 100.75).
  await page.click('#trace-use-lengths');
  await expect.poll(() => queryValue(page, 'in')).toBe('373');
  await expect.poll(() => queryValue(page, 'out')).toBe('101');
  await page.click('#trace-clear');
  await expect(page.locator('#trace-stats')).toHaveCount(0);
  await urlSettled(page);
  await expect.poll(() => queryValue(page, 'trace')).toBe(null);
});

test('a summary link without its trace says which trace it needs and the simulator still runs', async ({ page }) => {
  const errors = await openSim(page, '&trace=h:0123456789abcdef:23608:3600');
  await expect(page.locator('#trace-needed')).toContainText('23,608 requests over 3600 s (hash 0123456789abcdef)');
  await expect(page.locator('#sim-goodput')).toBeVisible({ timeout: 20_000 });
  await urlSettled(page);
  expect(queryValue(page, 'trace')).toBe('h:0123456789abcdef:23608:3600');
  expect(errors).toEqual([]);
});
