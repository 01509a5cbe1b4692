//! The JS heap and wasm memory of a page and of every worker it runs, over CDP: the page's own
//! session, and its workers through Target.setAutoAttach (not flattened, so Playwright's session
//! can carry their messages: Target.sendMessageToTarget). Wasm memory is the sum of the
//! byteLength of every WebAssembly.Memory's buffer (found with Runtime.queryObjects on its
//! prototype): the app needs no hook, and a module's glue need not export its memory.

/** The context's live WebAssembly.Memory objects, found once (Runtime.queryObjects walks the heap,
 *  so it runs when a context is first seen, not at every sample, or until it finds one); held in the
 *  objectGroup 'soak'. A module instantiated later in a context whose memories were found is missed. Resolves to the array's objectId. */
async function findMemories(send) {
  const proto = await send('Runtime.evaluate', { expression: 'WebAssembly.Memory.prototype', objectGroup: 'soak' });
  const found = await send('Runtime.queryObjects', { prototypeObjectId: proto.result.objectId, objectGroup: 'soak' });
  return found.objects.objectId;
}

/** Per context: the used JS heap (after a garbage collection on the page's main thread, and on a
 *  worker only when `collect` says every worker is idle: a collection or heap walk forced on a worker
 *  busy in wasm crashed the renderer twice) and the wasm memories' bytes (the byteLength of each held
 *  Memory's buffer, which grows in place). */
async function measureContext(send, ctx, collect) {
  if (ctx.gc || collect) await send('HeapProfiler.collectGarbage', {});
  const heap = await send('Runtime.getHeapUsage', {});
  if (!ctx.memories) ctx.memories = await findMemories(send);
  const sum = await send('Runtime.callFunctionOn', {
    objectId: ctx.memories, returnByValue: true,
    functionDeclaration: 'function () { return this.reduce((s, m) => s + m.buffer.byteLength, 0); }',
  });
  // None found yet (a worker seen before it instantiated its module, as a fresh one replacing a grown
  // one can be): look again at the next sample.
  if (sum.result.value === 0) ctx.memories = null;
  return { heapBytes: heap.usedSize, wasmBytes: sum.result.value };
}

/** A worker's name (the app names each after its bin) or else its script's file name. */
const label = (info) => (info.title && !info.title.includes('/') ? info.title : info.url.split('/').pop());

/** Attaches to `page` and its workers (those running now and those started later). Resolves to
 *  { sample(idle) }: resolves to { heapBytes, wasmBytes, targets: [{ type, url, label, heapBytes, wasmBytes }] };
 *  with `idle` (the caller knows no worker is running a job) the workers' garbage is collected too. */
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
  const contexts = new Map([['page', { gc: true }]]);
  const sample = async (idle = false) => {
    const targets = [{ type: 'page', url: page.url(), label: 'page', ...(await measureContext((m, p) => cdp.send(m, p), contexts.get('page'))) }];
    for (const [sessionId, info] of [...workers]) {
      if (!contexts.has(sessionId)) contexts.set(sessionId, { gc: false });
      try {
        targets.push({ type: info.type, url: info.url, label: label(info), ...(await measureContext(toWorker(sessionId), contexts.get(sessionId), idle)) });
      } catch (e) {
        targets.push({ type: info.type, url: info.url, label: label(info), heapBytes: 0, wasmBytes: 0, error: String(e) });
      }
    }
    const total = (k) => targets.reduce((a, t) => a + t[k], 0);
    return { heapBytes: total('heapBytes'), wasmBytes: total('wasmBytes'), targets };
  };
  return { sample };
}

module.exports = { attachAll };
