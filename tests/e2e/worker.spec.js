// The simulation worker (spike): not fetched at page load, created on the first ping, answers the
// page's query from off the main thread, and reports a worker that cannot load as an error.
const { test, expect } = require('@playwright/test');
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { openApp, pressOn } = require('./helpers');

// The worker's three files, whose names Trunk never hashes.
const WORKER_FILE = /\/sim_worker(_loader\.js|\.js|_bg\.wasm)$/;

/** Records the URL of every request the page or its workers make (live array). */
function recordRequests(page) {
  const urls = [];
  page.context().on('request', (request) => urls.push(new URL(request.url()).pathname));
  return urls;
}

/**
 * Clicks the (hidden) ping button and resolves when the reply changes, with the reply, the round
 * trip in ms, and whether a 0 ms timer set right after the click fired before the reply came back.
 */
function ping(page) {
  return page.evaluate(() => new Promise((resolve) => {
    const out = document.getElementById('worker-reply');
    const before = out.textContent;
    let timerFirst = null;
    const start = performance.now();
    const observer = new MutationObserver(() => {
      if (out.textContent === before) return;
      observer.disconnect();
      resolve({ reply: out.textContent, ms: performance.now() - start, timerFirst });
    });
    observer.observe(out, { childList: true, characterData: true, subtree: true });
    document.getElementById('worker-ping').click();
    setTimeout(() => { if (timerFirst === null) timerFirst = out.textContent === before; }, 0);
  }));
}

test('the worker loads only on the first ping and echoes the page query, off the main thread', async ({ page }) => {
  const requests = recordRequests(page);
  const errors = await openApp(page, '?tpot=12');
  await page.waitForLoadState('networkidle');
  expect(requests.filter((p) => WORKER_FILE.test(p))).toEqual([]);

  const cold = await ping(page);
  const query = new URL(page.url()).search;
  expect(query).toContain('tpot=12');
  const reply = JSON.parse(cold.reply);
  expect(reply.echo).toBe(query);
  expect(Number.isInteger(reply.sum)).toBe(true);
  expect(requests.filter((p) => WORKER_FILE.test(p)).sort()).toEqual(
    ['/dist/sim_worker.js', '/dist/sim_worker_bg.wasm', '/dist/sim_worker_loader.js']);

  // The same worker answers again, with the query as it is now.
  await pressOn(page, 'tpot', 'ArrowRight');
  await expect.poll(() => new URL(page.url()).search).not.toBe(query);
  const warm = await ping(page);
  expect(JSON.parse(warm.reply).echo).toBe(new URL(page.url()).search);
  expect(warm.timerFirst).toBe(true);
  expect(requests.filter((p) => WORKER_FILE.test(p))).toHaveLength(3);
  console.log(`worker round trip: first ping ${cold.ms.toFixed(0)} ms (loads the worker), then ${warm.ms.toFixed(0)} ms`);
  expect(errors).toEqual([]);
});

for (const missing of ['sim_worker_loader.js', 'sim_worker.js', 'sim_worker_bg.wasm']) {
  test(`a worker whose ${missing} cannot load is reported as an error, not a hang`, async ({ page }) => {
    await page.route(`**/${missing}`, (route) => route.fulfill({ status: 404, body: 'not found' }));
    await openApp(page);
    const { reply } = await ping(page);
    expect(reply).toMatch(/^error: .*worker/);
    console.log(`without ${missing}: ${reply}`);
  });
}

test('the worker runs under the strict CSP planned for the site (no worker-src, no blob:)', async ({ page }) => {
  // Every response carries `script-src 'self' 'wasm-unsafe-eval'`; the page's also allows, by hash,
  // the inline module script Trunk writes into index.html to start the app.
  const html = fs.readFileSync(path.join(__dirname, '../../dist/index.html'), 'utf8');
  const inline = html.match(/<script type=module>([\s\S]*?)<\/script>/)[1];
  const hash = crypto.createHash('sha256').update(inline).digest('base64');
  const policy = "script-src 'self' 'wasm-unsafe-eval'";
  await page.route('**/dist/**', async (route) => {
    const response = await route.fetch();
    const isPage = route.request().resourceType() === 'document';
    const csp = isPage ? `${policy} 'sha256-${hash}'` : policy;
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': csp } });
  });
  const errors = await openApp(page);
  const { reply } = await ping(page);
  expect(JSON.parse(reply).echo).toBe(new URL(page.url()).search);
  expect(errors).toEqual([]);
});
