// Security in the browser: the built page carries a strict Content-Security-Policy (a meta tag whose
// script hashes are exactly its inline loader's) and runs a whole session without one violation;
// nothing is fetched from another origin; hostile values in every URL key never run and are shown
// as text; a panic leaves a banner with a way back to the defaults, never a dead page.
const { test, expect } = require('@playwright/test');
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const { waitForCharts, waitForAllCharts, inkedPixels, queryValue, urlSettled } = require('./helpers');

const ROOT = path.join(__dirname, '../..');
const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const SINGLE = path.join(ROOT, 'dist-single/goodput-lab.html');
const PANELS = ['rate', 'step', 'interactivity', 'table', 'derivation', 'sim'];
const THEMES = ['auto', 'light', 'dark', 'projector'];
// The policy tools/csp.py writes, apart from the hashes it adds to script-src.
const SITE_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  'style-src': ["'self'"],
  'img-src': ["'self'"],
  'connect-src': ["'self'"],
  'worker-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
};
// The header the README tells hosts to send with the worker's scripts: a worker takes its policy
// from its own response, not from the page's meta tag.
const WORKER_POLICY = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'";

/** Every query key the page reads, from src/state/query.rs (the declared count must match the list). */
function urlKeys() {
  const src = fs.readFileSync(path.join(ROOT, 'src/state/query.rs'), 'utf8');
  const [, count, body] = src.match(/pub const KEYS: \[&str; (\d+)\] = \[([\s\S]*?)\];/);
  const keys = Array.from(body.matchAll(/"([a-z0-9_]+)"/g), (m) => m[1]);
  expect(keys.length).toBe(Number(count));
  return keys;
}

/** The CSP meta tags' policies in `html`, each as { directive: [sources] }. */
function metaPolicies(html) {
  return Array.from(html.matchAll(/<meta\s+http-equiv=["']?content-security-policy["']?\s+content="([^"]*)"/gi),
    (m) => Object.fromEntries(m[1].split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...src]) => [name, src])));
}

/** The CSP hash source of each inline element `tag` (no src) in `html`, as the browser hashes it. */
function inlineHashes(html, tag) {
  const re = new RegExp(`<${tag}\\b([^>]*)>([\\s\\S]*?)</${tag}>`, 'gi');
  return Array.from(html.matchAll(re)).filter((m) => !/\bsrc\s*=/i.test(m[1]))
    .map((m) => `'sha256-${crypto.createHash('sha256').update(m[2], 'utf8').digest('base64')}'`);
}

/**
 * Records, for every page of the context, CSP violations (the securitypolicyviolation event, with
 * its directive and what it blocked), console errors and uncaught errors.
 */
async function watch(context) {
  const seen = { violations: [], errors: [] };
  await context.exposeBinding('__reportViolation', (_, text) => seen.violations.push(text));
  await context.addInitScript(() => document.addEventListener('securitypolicyviolation',
    (e) => window.__reportViolation(`${e.effectiveDirective} blocked ${e.blockedURI} ${e.sample}`)));
  context.on('console', (msg) => { if (msg.type() === 'error') seen.errors.push(msg.text()); });
  context.on('weberror', (err) => seen.errors.push(String(err.error())));
  return seen;
}

/** Opens `query` and waits for the table and the two batch charts. */
async function open(page, query = '') {
  await page.goto(`index.html${query}`);
  await expect(page.locator('#batch-table tbody tr').first()).toBeVisible();
  await waitForCharts(page);
}

/** Waits until the simulator has delivered a sweep newer than `after` and nothing is in flight. */
async function simSettled(page, after = 0) {
  await expect.poll(async () => Number(await page.locator('#sim-status').getAttribute('data-sweeps')) > after
    && (await page.locator('#sim-status').getAttribute('data-busy')) === 'false', { timeout: 20_000 }).toBe(true);
}

/** Clicks `selector` and waits for the download it starts. */
async function download(page, selector) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return file.suggestedFilename();
}

test('the built page carries one CSP meta whose script hashes are exactly its inline loader\'s', async ({ request }) => {
  const html = await (await request.get('index.html')).text();
  const policies = metaPolicies(html);
  expect(policies).toHaveLength(1);
  const [policy] = policies;
  const hashes = inlineHashes(html, 'script');
  expect(hashes).toHaveLength(1);
  expect(policy).toEqual({ ...SITE_POLICY, 'script-src': [...SITE_POLICY['script-src'], ...hashes] });
  expect(policy['script-src']).not.toContain("'unsafe-inline'");
  expect(policy['script-src']).not.toContain("'unsafe-eval'");
  // Keywords and hashes only: no host, scheme or wildcard source anywhere.
  expect(Object.values(policy).flat().filter((s) => !/^'[^']+'$/.test(s))).toEqual([]);
  // Before any script, so the policy covers the loader.
  expect(html.search(/<meta\s+http-equiv=["']?content-security-policy/i)).toBeLessThan(html.search(/<script/i));
  expect(inlineHashes(html, 'style')).toEqual([]);
});

test('the browser enforces it: an inline script or event handler the build did not ship is refused and reported', async ({ page, context }) => {
  const seen = await watch(context);
  await open(page);
  const outcome = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__injected = "script"';
    document.body.append(script);
    const div = document.createElement('div');
    div.setAttribute('onclick', 'window.__handler = "handler"');
    document.body.append(div);
    div.click();
    return [window.__injected, window.__handler];
  });
  expect(outcome).toEqual([undefined, undefined]);
  await expect.poll(() => seen.violations.length).toBe(2);
  expect(seen.violations.join('\n')).toMatch(/^script-src-elem blocked inline/m);
  expect(seen.violations.join('\n')).toMatch(/^script-src-attr blocked inline/m);
});

test('the page, the simulator in its worker, exports and pasted points raise no CSP violation and no console error', async ({ page, context }) => {
  test.setTimeout(90_000);
  const seen = await watch(context);
  // The worker's scripts come with the header a host should send for them (the README's Security).
  await page.route(/\/(sim_worker|worker_boot)\.js$/, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': WORKER_POLICY } });
  });
  await open(page);
  await waitForAllCharts(page);
  await page.click('#sim-toggle');
  await simSettled(page);
  await expect(page.locator('#sim-speed')).toHaveText(/ in (a|\d) Web Workers?: /);
  for (const id of ['chart-attainment', 'chart-sim-throughput']) {
    await expect.poll(() => inkedPixels(page, id)).toBeGreaterThan(2000);
  }
  // Chromium drops a page's 11th download, so a sample: both formats of a batch and a simulator chart.
  for (const id of ['rate-png', 'rate-svg', 'attainment-png', 'attainment-svg', 'step-png', 'sim-throughput-svg']) {
    expect(await download(page, `#export-${id}`)).toMatch(`.${id.slice(-3)}`);
  }
  expect(await download(page, '#export-table-csv')).toMatch(/\.csv$/);
  if (await page.locator('#measured-open').count()) await page.click('#measured-open');
  await page.fill('#measured-text', fs.readFileSync(path.join(__dirname, 'fixtures/vllm-bench-array.json'), 'utf8'));
  await page.click('#measured-plot');
  await expect(page.locator('#fit-mbu')).toBeVisible();
  expect(await download(page, '#export-step-svg')).toMatch(/\.svg$/);
  expect(seen.violations).toEqual([]);
  expect(seen.errors).toEqual([]);
});

test('a whole session (every control, lesson, view, mode and theme, a sweep, exports, copies) stays on the page\'s origin', async ({ page, context }) => {
  test.setTimeout(240_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const seen = await watch(context);
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));

  await open(page, '?sim=1&requests=300&points=6');
  await simSettled(page);
  await everyControl(page);
  await everyLesson(page);
  await page.selectOption('#calib', 'custom');
  await page.click('#animate');
  await page.waitForTimeout(300);
  await page.click('#animate');
  const exports = await page.locator('.export-bar button:visible').evaluateAll((bs) => bs.map((b) => b.id));
  expect(exports).toEqual(expect.arrayContaining(['export-table-csv', ...['rate', 'step', 'interactivity', 'attainment',
    'sim-throughput'].flatMap((c) => [`export-${c}-png`, `export-${c}-svg`])]));
  for (const [i, id] of exports.entries()) {
    if (i === 8) { // Chromium drops a page's 11th download: the rest from a fresh load.
      await page.reload();
      await simSettled(page);
    }
    await download(page, `#${id}`);
  }
  if (await page.locator('#measured-open').count()) await page.click('#measured-open');
  await page.fill('#measured-text', '1,7.9\n16,8.2\n64,11.5');
  await page.click('#measured-plot');
  await expect(page.locator('#fit-mbu')).toBeVisible();
  // The share controls live in the Share menu: open it unless it is open.
  if (await page.locator('#share-button').getAttribute('aria-expanded') !== 'true') await page.click('#share-button');
  await page.click('#copy-link');
  await expect(page.locator('#share-status')).toHaveText('Copied the link.');
  await page.click('#copy-embed');
  await page.keyboard.press('p');
  await expect(page.locator('html')).toHaveAttribute('data-mode', 'present');
  await page.keyboard.press('Escape');
  await everyViewAndTheme(page);
  await page.goto('index.html?embed=1&view=step');
  const [full] = await Promise.all([context.waitForEvent('page'), page.click('#embed-open')]);
  await expect(full.locator('#batch-table tbody tr').first()).toBeVisible();
  await full.waitForLoadState('networkidle');

  const origin = new URL(page.url()).origin;
  const foreign = requests.filter((u) => !u.startsWith('data:') && new URL(u.replace(/^blob:/, '')).origin !== origin);
  expect(requests.some((u) => /\/goodput-lab-[0-9a-f]+_bg\.wasm$/.test(u))).toBe(true);
  expect(requests.some((u) => /\/worker_boot\.js$/.test(u))).toBe(true);
  expect(requests.some((u) => /\/sim_worker_bg\.wasm$/.test(u))).toBe(true);
  expect(requests.some((u) => /\/goodput_lazy_bg\.wasm$/.test(u))).toBe(true);
  expect(foreign).toEqual([]);
  expect(seen.violations).toEqual([]);
  expect(seen.errors).toEqual([]);
});

/** Every visible, enabled select through each of its options still offered (then back), every slider to both
 * ends and one step. */
async function everyControl(page) {
  // The share controls live in the Share menu: open it unless it is open.
  if (await page.locator('#share-button').getAttribute('aria-expanded') !== 'true') await page.click('#share-button');
  await page.locator('#copy-link').waitFor();
  const selects = await page.locator('select:visible').evaluateAll((els) =>
    els.map((e) => ({ id: e.id, value: e.value, values: Array.from(e.options, (o) => o.value) })));
  expect(selects.map((s) => s.id)).toEqual(expect.arrayContaining(['model', 'gpu', 'theme-picker', 'arrivals']));
  for (const s of selects) {
    for (const value of [...s.values, s.value]) {
      // A menu's options may follow the others (the parallelism menus offer what the state accepts):
      // only an option still offered on an enabled, visible menu is chosen.
      const select = page.locator(`#${s.id}`);
      const offered = await select.locator(`option[value="${value}"]`).count();
      if (offered && await select.isVisible() && await select.isEnabled()) await select.selectOption(value);
    }
  }
  const sliders = await page.locator('input[type=range]:visible').evaluateAll((els) => els.map((e) => e.id));
  expect(sliders).toEqual(expect.arrayContaining(['in', 'out', 'tpot', 'ttft']));
  for (const id of sliders) {
    if (!(await page.locator(`#${id}`).isVisible())) continue;
    await page.locator(`#${id}`).focus();
    for (const key of ['End', 'Home', 'ArrowRight']) await page.keyboard.press(key);
  }
}

/** Lessons 1-6 by their number keys. */
async function everyLesson(page) {
  for (const n of [1, 2, 3, 4, 5, 6]) {
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    await page.keyboard.press(String(n));
    await expect(page.locator('#lesson-caption')).toContainText(`Lesson ${n}`);
  }
}

/** Each panel as the page's view, presented and embedded; each theme. */
async function everyViewAndTheme(page) {
  for (const mode of ['', 'present=1&', 'embed=1&']) {
    for (const view of PANELS) {
      await page.goto(`index.html?${mode}view=${view}&requests=300&points=6`);
      await expect(page.locator('html')).toHaveAttribute('data-view', view);
      await page.waitForLoadState('networkidle');
    }
  }
  for (const theme of THEMES) {
    await open(page, `?theme=${theme}`);
  }
}

const PAYLOADS = [
  '<script>window.__xss=1</script>',
  '"><img src=x onerror="window.__xss=1">',
  'javascript:window.__xss=1',
];
// Flags that read any value but their own as "off", without a notice.
const MAY_BE_SILENT = ['realistic', 'sim'];

/** What a key needs beside it to be read at all: a custom model's or GPU's fields only for a custom
 *  model or GPU, the draft model's and the head's keys only for that drafter. */
function needs(key) {
  if (key.startsWith('m_')) return { model: 'custom' };
  if (key.startsWith('g_')) return { gpu: 'custom' };
  if (key === 'draft') return { spec: 'draft' };
  if (key === 'headcost') return { spec: 'head' };
  return {};
}

// Keys read only while another is absent: `ctx`, the older context key, only without `in`
// (src/state/validation.rs).
const READ_WITHOUT = { ctx: 'in' };

/** Whether `a` and `b` can share a URL: neither sets a key the other needs otherwise or shadows. */
function compatible(a, b) {
  const [na, nb] = [needs(a), needs(b)];
  const clash = (k, n) => Object.prototype.hasOwnProperty.call(n, k);
  const shadows = READ_WITHOUT[a] === b || READ_WITHOUT[b] === a;
  return !shadows && !clash(a, nb) && !clash(b, na) && Object.keys(na).every((k) => !(k in nb) || na[k] === nb[k]);
}

/** The URL keys in groups of (at most) three that can share a URL, first fit in the keys' order. */
function keyGroups(keys) {
  const groups = [];
  for (const key of keys) {
    const open = groups.find((g) => g.length < PAYLOADS.length && g.every((k) => compatible(k, key)));
    if (open) open.push(key); else groups.push([key]);
  }
  return groups;
}

// Every URL key gets every payload, three keys per page load: in the load r of a group, its key i holds
// payload (i + r) mod 3, so a notice quoting a payload quotes one key's value. A third of the groups per
// test (69 keys: 72 loads in all, where one key per load took 207).
const PARTS = 3;
for (let part = 0; part < PARTS; part += 1) {
  test(`every payload in URL keys (part ${part + 1} of ${PARTS}) never runs and any notice quoting it shows it as text`, async ({ page, context }) => {
    test.setTimeout(300_000);
    const seen = await watch(context);
    const groups = keyGroups(urlKeys());
    expect(groups.flat().sort()).toEqual(urlKeys().sort());
    const silent = [];
    for (const group of groups.filter((_, g) => g % PARTS === part)) {
      for (let r = 0; r < PAYLOADS.length; r += 1) {
        const held = group.map((key, i) => [key, PAYLOADS[(i + r) % PAYLOADS.length]]);
        const extra = Object.assign({}, ...group.map(needs));
        const query = new URLSearchParams([...held, ...Object.entries(extra)]).toString();
        await page.goto(`index.html?${query}`);
        await expect(page.locator('#batch-table tbody tr').first()).toBeAttached();
        const dom = await page.evaluate(() => ({
          xss: window.__xss,
          scripts: Array.from(document.scripts, (s) => s.src || 'inline'),
          injected: document.querySelectorAll('img[src="x"], a[href^="javascript:" i], iframe, object, embed').length,
          handlers: Array.from(document.querySelectorAll('*'))
            .flatMap((el) => Array.from(el.attributes, (a) => a.name)).filter((name) => /^on/i.test(name)),
          notices: document.getElementById('notices')?.innerText ?? '',
          markup: document.getElementById('notices')?.querySelectorAll('script, img').length ?? 0,
        }));
        expect({ query, ...dom, notices: undefined }).toEqual(
          { query, xss: undefined, scripts: ['inline'], injected: 0, handlers: [], notices: undefined, markup: 0 });
        // Shown as text: the notice's markup holds the escaped value, not elements made from it.
        for (const [key, payload] of held) if (!dom.notices.includes(payload)) silent.push(`${key} (${payload})`);
      }
    }
    expect(silent.filter((k) => !MAY_BE_SILENT.includes(k.split(' ')[0]))).toEqual([]);
    expect(seen.violations).toEqual([]);
    expect(seen.errors).toEqual([]);
  });
}

test('a panic shows a banner with its message as text and a Reset link that reloads the defaults', async ({ page, context, baseURL }) => {
  const seen = await watch(context);
  await open(page, '?model=qwen3-8b&ctx=4096&theme=dark');
  const message = 'test panic <img src=x onerror="window.__xss=1"> & <b>bold</b>';
  const thrown = await page.evaluate((m) => {
    try { window.wasmBindings.panic_for_test(m); return 'returned'; } catch (e) { return String(e); }
  }, message);
  // panic = "abort": the hook runs, then the module traps.
  expect(thrown).toMatch(/RuntimeError: unreachable/);
  const banner = page.locator('#panic-banner');
  await expect(banner).toBeVisible();
  await expect(banner).toHaveAttribute('role', 'alert');
  await expect(banner.locator('.panic-title')).toHaveText(/^Something went wrong/);
  await expect(banner.locator('.panic-message')).toContainText(message);
  expect(await banner.evaluate((el) => el.querySelectorAll('img, b, script').length)).toBe(0);
  expect(await page.evaluate(() => window.__xss)).toBeUndefined();
  // On top of the page: the element at the banner's centre belongs to it.
  expect(await banner.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
  })).toBe(true);
  expect(seen.errors.join('\n')).toContain('test panic');
  expect(seen.violations).toEqual([]);

  // The page's own path, no query: the defaults (the app then writes them into the URL).
  await expect(page.locator('#panic-reset')).toHaveAttribute('href', `${new URL(baseURL).pathname}index.html`);
  await page.click('#panic-reset');
  await expect.poll(() => queryValue(page, 'model')).toBe('llama-3.1-8b');
  await expect(page.locator('#panic-banner')).toHaveCount(0);
  await expect(page.locator('#batch-table tbody tr').first()).toBeVisible();
  await waitForCharts(page);
  await urlSettled(page);
  expect([queryValue(page, 'in'), queryValue(page, 'theme')]).toEqual(['1920', null]);
});

for (const theme of ['light', 'dark', 'projector']) {
  test(`the panic banner passes axe's contrast and ARIA checks in the ${theme} look`, async ({ page }) => {
    await open(page, `?theme=${theme}`);
    await page.evaluate(() => { try { window.wasmBindings.panic_for_test('checked by axe'); } catch (e) { /* trapped */ } });
    await expect(page.locator('#panic-banner')).toBeVisible();
    await page.evaluate(AXE);
    const found = await page.evaluate(() => window.axe.run('#panic-banner', { resultTypes: ['violations'] }));
    expect(found.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.failureSummary).join(' | ')}`)).toEqual([]);
  });
}

test('the one-file build carries its own policy, hashes of its inline script and styles, and runs under it from file://', async ({ page, context }) => {
  const html = fs.readFileSync(SINGLE, 'utf8');
  const policies = metaPolicies(html);
  expect(policies).toHaveLength(1);
  const scripts = inlineHashes(html, 'script');
  expect(scripts).toHaveLength(1);
  expect(policies[0]).toEqual({
    'default-src': ["'none'"],
    'script-src': ["'wasm-unsafe-eval'", ...scripts],
    'style-src': inlineHashes(html, 'style'),
    'img-src': ['data:'],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
  });
  expect(policies[0]['style-src'].length).toBeGreaterThan(0);
  const seen = await watch(context);
  await page.goto(`${pathToFileURL(SINGLE).href}?sim=1&requests=300&points=6`);
  await expect(page.locator('#batch-table tbody tr').first()).toBeVisible();
  await waitForAllCharts(page);
  await expect(page.locator('#sim-goodput')).toHaveText(/req\/s/, { timeout: 20_000 });
  expect(seen.violations).toEqual([]);
  expect(seen.errors).toEqual([]);
});
