// Accessibility: axe-core finds no violation of any rule it runs by default (every WCAG 2.0, 2.1
// and 2.2 A/AA rule it has, plus its best practices) in each mode of the page, each theme and at
// desktop and phone widths.
const { test, expect } = require('@playwright/test');
const { showPanel } = require('./helpers');

// axe's source, evaluated in the page: the page's CSP refuses an added inline <script> (addScriptTag).
const AXE = require('fs').readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const WIDTHS = [1280, 360];
/** Each theme as the reader gets it: the system's light or dark (theme=auto), or theme= chosen. */
const THEMES = [
  { name: 'system light', colorScheme: 'light', theme: 'auto', look: 'light' },
  { name: 'system dark', colorScheme: 'dark', theme: 'auto', look: 'dark' },
  { name: 'theme=dark', colorScheme: 'light', theme: 'dark', look: 'dark' },
  { name: 'theme=projector', colorScheme: 'dark', theme: 'projector', look: 'projector' },
];
const MODES = [
  { name: 'the page', query: '' },
  // Presenting, the system theme (theme=auto) gives the projector look.
  { name: 'presentation', query: '?present=1', autoLook: 'projector' },
  { name: 'the simulator panel open', query: '?sim=1&requests=300&points=6', ready: '#sim-goodput' },
  { name: 'the placement panel open', query: '?place=disagg', ready: '#placement-table' },
  { name: 'the configuration search open', query: '?search=1', ready: '#search-status[data-searches="1"]' },
  ...['rate', 'step', 'interactivity', 'table', 'derivation'].map((view) => (
    { name: `embed view=${view}`, query: `?embed=1&view=${view}` })),
  { name: 'embed view=search', query: '?embed=1&view=search', ready: '#search-status[data-searches="1"]' },
  { name: 'embed view=sim', query: '?embed=1&view=sim&requests=300&points=6', ready: '#sim-goodput' },
  { name: 'embed view=placement', query: '?embed=1&view=placement', ready: '#placement-table' },
  // The lazily loaded bodies, loaded: the custom boxes, the derivation's lines and the capacity plan.
  { name: 'the lazily loaded bodies loaded', query: '?model=custom&gpu=custom', ready: '#m_params', show: ['derivation', 'capacity'] },
];

/** The violations axe finds on the page as it is now, one line each with the first few nodes. */
async function violations(page) {
  const results = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return results.violations.map((v) => `${v.id} (${v.tags.filter((t) => t.startsWith('wcag')).join(' ')}): ${
    v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} ${n.failureSummary.replace(/\s+/g, ' ')}`).join(' | ')}`);
}

/** Switches theme= the way the picker does (the picker is hidden in embed mode, so set it directly). The
 * picker lives in the Share menu, built when the menu opens: open it by script (its button is hidden
 * in embed and presentation modes), then close it again, so axe sees the page as it was. */
async function setTheme(page, theme, look) {
  const shareButton = page.locator('#share-button');
  await shareButton.evaluate((button) => button.click());
  await expect(page.locator('#theme-picker')).toBeAttached();
  await page.evaluate((id) => {
    const picker = document.getElementById('theme-picker');
    picker.value = id;
    picker.dispatchEvent(new Event('change', { bubbles: true }));
  }, theme);
  await expect(page.locator('html')).toHaveAttribute('data-look', look);
  await shareButton.evaluate((button) => button.click());
  await expect(shareButton).toHaveAttribute('aria-expanded', 'false');
}

for (const mode of MODES) {
  test(`axe finds no violations in ${mode.name}, in every theme, at 1280 and 360 px`, async ({ page }) => {
    test.setTimeout(60_000);
    const errors = [];
    page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
    page.on('pageerror', (err) => errors.push(String(err)));
    await page.goto(`index.html${mode.query}`);
    await expect(page.locator('#batch-table tbody tr').first()).toBeAttached();
    if (mode.ready) await expect(page.locator(mode.ready)).toBeAttached({ timeout: 20_000 });
    for (const id of mode.show || []) await showPanel(page, id);
    await page.evaluate(AXE);
    const found = [];
    for (const t of THEMES) {
      await page.emulateMedia({ colorScheme: t.colorScheme });
      await setTheme(page, t.theme, t.theme === 'auto' && mode.autoLook ? mode.autoLook : t.look);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        for (const v of await violations(page)) found.push(`${t.name}, ${width} px: ${v}`);
      }
    }
    expect(found).toEqual([]);
    expect(errors).toEqual([]);
  });
}
