// The entry script of every module Web Worker of the page (the simulator's, the search's;
// src/ui/workers/pool.rs starts each worker on it). The page fetches and compiles each worker's wasm
// once and posts here, as the worker's first message, the name of the bin's wasm-bindgen glue and
// the compiled WebAssembly.Module; this imports the glue and instantiates that module, so a pool of
// workers asks for the .wasm once and compiles it once. The wasm's start function then installs the
// worker's own message handler and posts "ready" (src/worker_scope.rs). A failure is rethrown
// outside the promise, so it reaches the page as the worker's `error` event.
const GLUE = /^\.\/[a-z_]+\.js$/;

self.addEventListener('message', async (event) => {
  try {
    const { glue, module } = event.data || {};
    if (!GLUE.test(glue) || !(module instanceof WebAssembly.Module)) {
      throw new Error('worker_boot.js: the first message must name the glue and carry the compiled module');
    }
    const bindings = await import(glue);
    await bindings.default({ module_or_path: module });
  } catch (error) {
    setTimeout(() => { throw error; });
  }
}, { once: true });
