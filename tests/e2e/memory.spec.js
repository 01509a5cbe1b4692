// Views that come and go leave nothing behind in the page's wasm memory (issue 26, the soak's "left"
// item): reactive_graph 0.2 keeps a dropped effect's entry in a memo's subscriber list until the effect
// runs again, which a removed view's effects never do, so every batch-table row removed (a model with
// fewer rows), every per-GPU cell hidden (TP back to 1) and every ideal-roofline note hidden (a measured
// cost model) used to keep its effects' entries for good (ui::shell::page::scoped_memo is the fix).
// Measured as the byteLength of the page's WebAssembly.Memory buffers (found over CDP, so the app needs
// no hook), which never shrinks: bytes kept per change show up as growth over many changes.
const { test, expect } = require('@playwright/test');
const { openApp } = require('./helpers');

/** The page's wasm memory in bytes: every live WebAssembly.Memory's buffer, summed. */
async function wasmBytes(page) {
  const cdp = await page.context().newCDPSession(page);
  const proto = await cdp.send('Runtime.evaluate', { expression: 'WebAssembly.Memory.prototype' });
  const found = await cdp.send('Runtime.queryObjects', { prototypeObjectId: proto.result.objectId });
  const sum = await cdp.send('Runtime.callFunctionOn', {
    objectId: found.objects.objectId, returnByValue: true,
    functionDeclaration: 'function () { return this.reduce((s, m) => s + m.buffer.byteLength, 0); }',
  });
  await cdp.detach();
  return sum.result.value;
}

/** Runs in the page: sets select `id` to each of `values` in turn, `times` changes in all, letting the
 *  page's effects run after each (a macrotask between changes); resolves to the shapes seen, as "rows x
 *  cells of the table's first row, notes" (the ideal-roofline notes shown), then the search table's
 *  row count and first row when it is open. */
async function cycleSelect({ id, values, times }) {
  const select = document.getElementById(id);
  const shapes = new Set();
  for (let k = 0; k < times; k += 1) {
    select.value = values[k % values.length];
    select.dispatchEvent(new Event('change', { bubbles: true }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    const rows = document.querySelectorAll('#batch-table tbody tr');
    const notes = document.querySelectorAll('.ideal-note').length;
    const found = document.querySelectorAll('#search-table tbody tr');
    const search = found.length ? `; search ${found.length}, first ${found[0].dataset.config}` : '';
    shapes.add(`${rows.length} x ${rows[0] ? rows[0].children.length : 0}, ${notes}${search}`);
  }
  return Array.from(shapes).sort();
}

// Measured before the fix, 1,500 changes: TP +1,344 KiB, model +448-512 KiB; after: 0-64 KiB each (the
// allocator asks for 64 KiB pages). The cost model, 3,000 changes: +640-704 KiB before, +192 KiB after
// (what remains is elsewhere). The bound, 192 KiB per 1,500 changes, leaves a margin on both sides.
const CHANGES = 1500;
const GROWTH_BYTES_MAX = 192 * 1024;

for (const { id, values, what, shapes, changes = CHANGES, search = false } of [
  // 8 rows of 12 cells (the two per-GPU columns), then 7 of 10 (TP 2's KV pool holds one more listed batch).
  // Every row has the J/token cell since issue 40.
  { id: 'tp', values: ['2', '1'], what: 'showing and hiding the per-GPU cells (TP 2, then 1)', shapes: ['7 x 10, 4', '8 x 12, 4'] },
  // 7 rows, then 8 (the 1B model's KV pool holds a larger batch: one more listed batch runs).
  { id: 'model', values: ['llama-3.1-8b', 'llama-3.2-1b'], what: 'removing and adding a row (an 8B model, then a 1B one)', shapes: ['7 x 10, 4', '8 x 10, 4'] },
  // The four planning panels' ideal-roofline notes hidden (a measured cost model, whose table adds the
  // likely-range column: 11 cells), then shown again.
  { id: 'calib', values: ['measured', 'ideal'], what: 'hiding and showing the ideal-roofline notes (measured, then ideal)', shapes: ['7 x 10, 4', '8 x 11, 0'], changes: 3000 },
  // The search's rows rebuilt in another order (by cost, then by goodput), each reading the hovered row
  // (through RowsHover in src/ui/panels/search/table.rs: read directly, +6.6 MiB here; with it, 0).
  { id: 'search-sort', values: ['cost', 'goodput'], what: 'rebuilding the search table\'s rows (sorted by cost, then by goodput)', shapes: ['7 x 10, 4; search 50, first gb300/fp4/fp4/tp1', '7 x 10, 4; search 50, first mi355x/fp4/fp4/tp1'], search: true },
]) {
  test(`${what} ${changes} times keeps the page's wasm memory flat`, async ({ page }) => {
    test.setTimeout(180_000);
    const errors = await openApp(page, `?gpu=h100-sxm&tp=1${search ? '&search=1' : ''}`);
    if (search) await expect(page.locator('#search-table tbody tr').first()).toBeAttached({ timeout: 30_000 });
    // Warm up: every state this test goes through is seen once before the baseline.
    await page.evaluate(cycleSelect, { id, values, times: 40 });
    const before = await wasmBytes(page);
    const seen = await page.evaluate(cycleSelect, { id, values, times: changes });
    const after = await wasmBytes(page);
    expect(seen).toEqual(shapes);
    expect(after - before, `wasm memory ${before} -> ${after} bytes`).toBeLessThanOrEqual(GROWTH_BYTES_MAX * changes / CHANGES);
    expect(errors).toEqual([]);
  });
}
