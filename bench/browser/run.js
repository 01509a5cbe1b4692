//! `node bench/browser/run.js [load] [sim] [search] [latency] [drag] [cpu] [compare]`: the browser benchmarks
//! of dist/ (build it first with `make dist`; `compare` also needs the reference page, `make bench-reference`)
//! in headless Debian Chromium on loopback; every part unless some are named. Prints one line per metric
//! (name, value, unit, budget, PASS/FAIL; lines starting with # are detail) and writes bench/browser/results.json. BENCH_INPUTS sets inputs per slider (200).
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { ROOT, DIST, serve, launch, results } = require('./lib');
const { latency } = require('./latency');
const { load } = require('./load');
const { sim } = require('./sim');
const { search } = require('./search');
const { cpu } = require('./cpu');
const { dragBench } = require('./drag');
const { compare } = require('./compare');

/** The machine, as BENCHMARKS.md records it. */
function machine() {
  const cpu = execFileSync('lscpu', { encoding: 'utf8' }).match(/^Model name:\s*(.*)$/m);
  return {
    nproc: os.cpus().length,
    cpu: cpu ? cpu[1].trim() : os.cpus()[0].model,
    chromium: execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    node: process.version,
    loadavg: os.loadavg().map((x) => x.toFixed(2)).join(' '),
  };
}

async function main() {
  if (!fs.existsSync(path.join(ROOT, DIST, 'index.html'))) throw new Error(`no ${DIST}/index.html: run \`make dist\` first`);
  const started = Date.now();
  const info = machine();
  console.log(`# machine: nproc ${info.nproc}, ${info.cpu}, ${info.chromium}, node ${info.node}, load average ${info.loadavg}`);
  const { server, base } = await serve();
  const browser = await launch();
  const out = { machine: info, date: new Date().toISOString() };
  const parts = process.argv.slice(2);
  const want = (part) => parts.length === 0 || parts.includes(part);
  try {
    if (want('load')) {
      console.log('# load: cold loads of dist/index.html');
      out.load = await load(browser, base);
    }
    if (want('sim')) {
      console.log('# simulator in wasm');
      out.sim = await sim(browser, base);
    }
    if (want('search')) {
      console.log('# configuration search: one thread of its wasm, and in the page over its workers');
      out.search = await search(browser, base);
    }
    if (want('latency')) {
      console.log('# interaction latency: slider input to the end of the frame showing it');
      out.latency = await latency(browser, base);
    }
    if (want('drag')) {
      console.log('# frames dropped while a slider is dragged (one Chromium mouse move per frame)');
      out.drag = await dragBench(browser, base);
    }
    if (want('cpu')) {
      console.log('# main-thread CPU time per slider input (traced; excludes waiting for a core)');
      out.cpu = await cpu(browser, base);
    }
    if (want('compare')) {
      console.log('# side by side with the reference page (bench/reference/dist, built in the same run)');
      out.compare = await compare(browser, base);
    }
  } finally {
    await browser.close();
    server.close();
  }
  out.metrics = results;
  out.machine.loadavgAfter = os.loadavg().map((x) => x.toFixed(2)).join(' ');
  out.seconds = (Date.now() - started) / 1e3;
  fs.writeFileSync(path.join(__dirname, 'results.json'), `${JSON.stringify(out, null, 2)}\n`);
  const failed = results.filter((r) => r.verdict === 'FAIL').length;
  console.log(`# ${results.filter((r) => r.verdict === 'PASS').length} PASS, ${failed} FAIL in ${out.seconds.toFixed(0)} s; `
    + `load average ${out.machine.loadavgAfter}; wrote bench/browser/results.json`);
  // A budget missed fails the run (as bench/native does), so `make bench` reports it.
  if (failed > 0) process.exitCode = 1;
}

main().catch((e) => { console.error(e); process.exit(1); });
