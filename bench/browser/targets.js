//! The JS heap and wasm memory of a page and of every worker it runs, over CDP: the page's own
//! session, and its workers through Target.setAutoAttach (not flattened, so Playwright's session
//! can carry their messages: Target.sendMessageToTarget). Wasm memory is the sum of the
//! byteLength of every live WebAssembly.Memory's buffer (Runtime.queryObjects on its prototype):
//! the app needs no hook, and a module's glue need not export its memory.

/** Per context: a garbage collection, then the used JS heap and the wasm memories' bytes. */
async function measureContext(send) {
  await send('HeapProfiler.collectGarbage', {});
  const heap = await send('Runtime.getHeapUsage', {});
  const proto = await send('Runtime.evaluate', { expression: 'WebAssembly.Memory.prototype', objectGroup: 'soak' });
  const found = await send('Runtime.queryObjects', { prototypeObjectId: proto.result.objectId, objectGroup: 'soak' });
  const sum = await send('Runtime.callFunctionOn', {
    objectId: found.objects.objectId, returnByValue: true,
    functionDeclaration: 'function () { return this.reduce((s, m) => s + m.buffer.byteLength, 0); }',
  });
  await send('Runtime.releaseObjectGroup', { objectGroup: 'soak' });
  return { heapBytes: heap.usedSize, wasmBytes: sum.result.value };
}

/** Attaches to `page` and its workers (those running now and those started later). Resolves to
 *  { sample() }: resolves to { heapBytes, wasmBytes, targets: [{ type, url, heapBytes, wasmBytes }] }. */
async function attachAll(page) {
  const cdp = await page.context().newCDPSession(page);
  const workers = new Map();
  const pending = new Map();
  let nextId = 1;
  cdp.on('Target.attachedToTarget', (e) => workers.set(e.sessionId, e.targetInfo));
  cdp.on('Target.detachedFromTarget', (e) => workers.delete(e.sessionId));
  cdp.on('Target.receivedMessageFromTarget', (e) => {
    const msg = JSON.parse(e.message);
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (msg.error) p.reject(new Error(`${msg.error.message}`)); else p.resolve(msg.result);
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  const toWorker = (sessionId) => (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
    setTimeout(() => { if (pending.delete(id)) reject(new Error(`${method}: no answer in 30 s`)); }, 30_000);
  });
  const sample = async () => {
    const targets = [{ type: 'page', url: page.url(), ...(await measureContext((m, p) => cdp.send(m, p))) }];
    for (const [sessionId, info] of [...workers]) {
      try {
        targets.push({ type: info.type, url: info.url, ...(await measureContext(toWorker(sessionId))) });
      } catch (e) {
        targets.push({ type: info.type, url: info.url, heapBytes: 0, wasmBytes: 0, error: String(e) });
      }
    }
    const total = (k) => targets.reduce((a, t) => a + t[k], 0);
    return { heapBytes: total('heapBytes'), wasmBytes: total('wasmBytes'), targets };
  };
  return { sample };
}

module.exports = { attachAll };
