// The batch table leaves nothing behind in the page's wasm memory when its rows come and go (issue 26,
// the soak's "left" item): reactive_graph 0.2 keeps a dropped effect's entry in its sources' subscriber
// lists until the effect runs again, which a removed row's effects never do, so every row removed (a
// model with fewer rows) and every per-GPU cell hidden (TP back to 1) used to keep about 2 KB for good.
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
 *  page's effects run after each (a macrotask between changes); resolves to the table shapes seen, as
 *  "rows x cells of the first row". */
async function cycleSelect({ id, values, times }) {
  const select = document.getElementById(id);
  const shapes = new Set();
  for (let k = 0; k < times; k += 1) {
    select.value = values[k % values.length];
    select.dispatchEvent(new Event('change', { bubbles: true }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    const rows = document.querySelectorAll('#batch-table tbody tr');
    shapes.add(`${rows.length} x ${rows[0] ? rows[0].children.length : 0}`);
  }
  return Array.from(shapes).sort();
}

// Measured before the fix (src/ui/explore/batch_rows.rs, scoped_memo), 600 changes: TP +576 KiB, model
// +192-256 KiB; after: 0 and 0-64 KiB (the allocator asks for 64 KiB pages). 1,500 changes with a
// 192 KiB bound leave a wide margin on both sides.
const CHANGES = 1500;
const GROWTH_BYTES_MAX = 192 * 1024;

for (const { id, values, what, shapes } of [
  // 8 rows of 11 cells (the two per-GPU columns), then 7 of 9 (TP 2's KV pool holds one more listed batch).
  { id: 'tp', values: ['2', '1'], what: 'showing and hiding the per-GPU cells (TP 2, then 1)', shapes: ['7 x 9', '8 x 11'] },
  // 7 rows, then 8 (the 1B model's KV pool holds a larger batch: one more listed batch runs).
  { id: 'model', values: ['llama-3.1-8b', 'llama-3.2-1b'], what: 'removing and adding a row (an 8B model, then a 1B one)', shapes: ['7 x 9', '8 x 9'] },
]) {
  test(`${what} ${CHANGES} times keeps the page's wasm memory flat`, async ({ page }) => {
    test.setTimeout(180_000);
    const errors = await openApp(page, '?gpu=h100-sxm&tp=1');
    // Warm up: every state this test goes through is seen once before the baseline.
    await page.evaluate(cycleSelect, { id, values, times: 40 });
    const before = await wasmBytes(page);
    const seen = await page.evaluate(cycleSelect, { id, values, times: CHANGES });
    const after = await wasmBytes(page);
    expect(seen).toEqual(shapes);
    expect(after - before, `wasm memory ${before} -> ${after} bytes`).toBeLessThanOrEqual(GROWTH_BYTES_MAX);
    expect(errors).toEqual([]);
  });
}
