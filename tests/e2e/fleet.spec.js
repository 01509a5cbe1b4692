// The fleet beside the simulator: off until asked for; its checkbox writes `fleet=1`; the
// comparison lists every routing policy without and with the offload tier and reads them in a
// finding; the tier's host memory (0: no tier) and the sessions' controls live in the URL, and the
// table's numbers equal the native fleet run for the same link.
const { test, expect } = require('@playwright/test');
const { execFileSync } = require('child_process');
const path = require('path');
const { openApp, queryValue, urlSettled, commitNumber, expectNoBadNumbers } = require('./helpers');

const ROOT = path.join(__dirname, '../..');
const SMALL = 'sim=1&requests=200&points=4&seeds=1&replicas=2&turns=2&think=1';

/** Waits until a sweep has landed with nothing in flight. */
async function settled(page) {
  await expect.poll(async () => Number(await page.locator('#sim-status').getAttribute('data-sweeps')) > 0
    && (await page.locator('#sim-status').getAttribute('data-busy')) === 'false', { timeout: 60_000 }).toBe(true);
}

/** The native fleet table's rows for a query (the `sweep` bin's `fleet` lines): their cells. */
function nativeRows(query) {
  const out = execFileSync('cargo', ['run', '-q', '--bin', 'sweep', '--', query],
    { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return out.split('\n').filter((line) => line.startsWith('fleet\t')).map((line) => line.split('\t').slice(1));
}


// A fleet run waits up to 60 s for its table (below); the default 30 s test timeout cut two tests off
// mid-wait on a loaded 2-core machine (a fresh-clone make test, 2026-12-07), so the file's tests get room
// for that wait plus the native run they compare with.
test.describe.configure({ timeout: 120_000 });

test('the fleet is off until its checkbox runs it, and the checkbox writes fleet=1', async ({ page }) => {
  await openApp(page, `?${SMALL}`);
  await settled(page);
  await expect(page.locator('#fleet-table')).toHaveCount(0);
  await page.locator('#fleet').check();
  await expect(page.locator('#fleet-table tbody tr')).toHaveCount(6, { timeout: 60_000 });
  await urlSettled(page);
  expect(queryValue(page, 'fleet')).toBe('1');
  expect(queryValue(page, 'tier')).toBe('256');
});

test('the comparison shows every policy without and with the tier, as the native run computes it', async ({ page }) => {
  const query = `${SMALL}&fleet=1`;
  await openApp(page, `?${query}`);
  await expect(page.locator('#fleet-table tbody tr')).toHaveCount(6, { timeout: 60_000 });
  const rows = await page.locator('#fleet-table tbody tr').evaluateAll((trs) =>
    trs.map((tr) => Array.from(tr.querySelectorAll('th, td')).map((c) => c.textContent.trim())));
  expect(rows).toEqual(nativeRows(query));
  expect(rows.map((r) => r[1])).toEqual(['without', 'without', 'without', 'with', 'with', 'with']);
  await expect(page.locator('#fleet-finding')).toContainText('A finite run of 200 requests');
  await expectNoBadNumbers(page);
});

test('no host memory runs without the tier, and the sessions controls live in the URL', async ({ page }) => {
  await openApp(page, `?${SMALL}&fleet=1`);
  await expect(page.locator('#fleet-table tbody tr')).toHaveCount(6, { timeout: 60_000 });
  await commitNumber(page, 'tier', '0');
  await expect(page.locator('#fleet-table tbody tr')).toHaveCount(3, { timeout: 60_000 });
  await commitNumber(page, 'turns', '5');
  await commitNumber(page, 'think', '2.5');
  await urlSettled(page);
  expect(queryValue(page, 'tier')).toBe('0');
  expect(queryValue(page, 'turns')).toBe('5');
  expect(queryValue(page, 'think')).toBe('2.5');
  await expect(page.locator('#fleet-finding')).toContainText('Without the tier');
});

test('a loaded trace drives the sweep, its replay as recorded and the fleet, as natively', async ({ page }) => {
  const fs = require('fs');
  const os = require('os');
  // 12 turns of 4 sessions, each turn the previous context plus 40 tokens, recorded 3 s apart.
  const lines = ['arrival_s,prompt_tokens,output_tokens,session'];
  for (let turn = 0; turn < 3; turn++) {
    for (let s = 0; s < 4; s++) lines.push(`${(turn * 3 + s * 0.25).toFixed(2)},${300 + turn * 140},100,s${s}`);
  }
  const text = `${lines.join('\n')}\n`;
  const file = path.join(os.tmpdir(), `fleet-trace-${process.pid}.csv`);
  fs.writeFileSync(file, text);
  const query = 'sim=1&points=4&fleet=1&replicas=2';
  await openApp(page, `?${query}`);
  await expect(page.locator('#trace-input')).toBeVisible({ timeout: 15_000 });
  await page.fill('#trace-input', text);
  await page.click('#trace-read');
  await expect(page.locator('#sim-recorded')).toContainText('12 requests', { timeout: 60_000 });
  await expect(page.locator('#fleet-finding')).toContainText('A finite run of 12 requests');
  const out = execFileSync('cargo', ['run', '-q', '--bin', 'sweep', '--', query, file], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  expect(await page.locator('#sim-recorded').textContent()).toBe(out.match(/^recorded (.*)$/m)[1]);
  const rows = await page.locator('#fleet-table tbody tr').evaluateAll((trs) =>
    trs.map((tr) => Array.from(tr.querySelectorAll('th, td')).map((c) => c.textContent.trim())));
  expect(rows).toEqual(out.split('\n').filter((l) => l.startsWith('fleet\t')).map((l) => l.split('\t').slice(1)));
  fs.unlinkSync(file);
});
