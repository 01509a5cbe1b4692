// The shipped measured profile's constants, read from the generated source (src/core/calibration/
// profile.rs) and the bounds it is held to (bounds.rs), so browser tests compute expected step times
// and likely ranges from the same numbers the page ships, written out in their own arithmetic.
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '../..');
const PROFILE = fs.readFileSync(path.join(root, 'src/core/calibration/profile.rs'), 'utf8');
const BOUNDS = fs.readFileSync(path.join(root, 'src/core/calibration/bounds.rs'), 'utf8');
const DATA = fs.readFileSync(path.join(root, 'data/calibration.csv'), 'utf8');

/** CUDA's per-layer overhead, in s: the first of the stacks' (CUDA, ROCm, XLA). */
const CUDA_LAYER_S = Number(PROFILE.match(/layer_overhead_s: \[Some\(([^)]+)\)/)[1]);
/** Each engine's per-step overhead (vLLM, SGLang, TensorRT-LLM), in s. */
const ENGINE_S = PROFILE.match(/engine_step_overhead_s: \[([^\]]+)\]/)[1].split(',').map(Number);
/** A slot held at its prior reads at AIConfigurator's 0.8 of bandwidth (under H100's 95% ceiling). */
const MEMORY_PRIOR = Number(BOUNDS.match(/pub const MEMORY_PRIOR: f64 = ([\d.]+);/)[1]);
/** H100 SXM's slots (dense GEMMs, MoE GEMMs, GQA, MLA, compute); a held slot at its prior, an absent one null. */
const H100_SLOTS = PROFILE.match(/gpu_id: "h100-sxm", slots: \[([^\]]+)\]/)[1].split(', ')
  .map((v) => (v === 'Term::Held' ? MEMORY_PRIOR : v === 'Term::Absent' ? null : Number(v.replace(/^Term::Fitted\((.*)\)$/, '$1'))));
const [H100_DENSE, , H100_GQA] = H100_SLOTS;
/** Every shipped range as [low, high] factors: per software stack (CUDA, ROCm, XLA, the order of
 * `Stack::ALL`), each coverage class's, best covered first. */
const ALL_RANGES = [...PROFILE.matchAll(/ClassRange \{ low: ([^,]+), high: ([^,]+), rows/g)].map((m) => [Number(m[1]), Number(m[2])]);
const CLASSES = 6;
const RANGES_BY_STACK = Object.fromEntries(['cuda', 'rocm', 'xla'].map((stack, i) => [stack, ALL_RANGES.slice(i * CLASSES, (i + 1) * CLASSES)]));
/** The CUDA GPUs' ranges by class (H100, H200, B200 ...). */
const RANGES = RANGES_BY_STACK.cuda;
/** The published runs of vLLM the fit uses: closed-loop runs at a client concurrency (MLPerf's vLLM
 * rows are system-wide Server, Interactive and Offline runs, checked end to end, not fitted). */
const VLLM_RUNS = DATA.split('\n').filter((line) => line.includes(',vLLM,') && line.includes('closed-loop')).length;

const L8_WEIGHTS_B = 8.03e9 * 2;
const L8_KV_PER_SEQ_B = 2 * 32 * 8 * 128 * 2 * 2048;
const H100_BW = 3.35e12;

/** The worked example's measured step at `batch` with engine `engineIndex`, in ms: weights / (bw x
 * f_dense) + B x KV / (bw x f_gqa) + the engine's per step + 32 layers x CUDA's per layer. */
function measuredStepMs(batch, engineIndex) {
  const s = L8_WEIGHTS_B / (H100_BW * H100_DENSE) + (batch * L8_KV_PER_SEQ_B) / (H100_BW * H100_GQA)
    + ENGINE_S[engineIndex] + 32 * CUDA_LAYER_S;
  return s * 1e3;
}

/** The worked example's ideal step at batch 1, in ms. */
const IDEAL_FLOOR_MS = ((L8_WEIGHTS_B + L8_KV_PER_SEQ_B) / H100_BW) * 1e3;

module.exports = { RANGES, RANGES_BY_STACK, ALL_RANGES, VLLM_RUNS, measuredStepMs, IDEAL_FLOOR_MS };
