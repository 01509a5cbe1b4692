//! The two cost models priced on identical steps, so a difference in the simulators' results can
//! be traced to the step times rather than to scheduling or to the random arrivals.

use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::sim::{StepCost, StepWork};
use inference_lab::compute::ComputeEngine;
use inference_lab::config::ParallelConfig;
use inference_lab::request::Request;

use crate::workload::Workload;

/// One step: `decodes` sequences each holding `held_tokens` of KV, plus one prompt chunk of
/// `chunk_tokens` starting after `chunk_start` prompt tokens already prefilled.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub name: &'static str,
    pub decodes: u32,
    pub held_tokens: u32,
    pub chunk_tokens: u32,
    pub chunk_start: u32,
}

/// Steps the workload runs: a full decode batch mid-way through its outputs, the same batch
/// sharing the 512-token budget with a prompt chunk, and a prompt's last chunk alone.
pub const SHAPES: [Shape; 3] = [
    Shape { name: "decode64", decodes: 64, held_tokens: 2176, chunk_tokens: 0, chunk_start: 0 },
    Shape { name: "mixed63+449", decodes: 63, held_tokens: 2176, chunk_tokens: 449, chunk_start: 1024 },
    Shape { name: "prefill512", decodes: 0, held_tokens: 0, chunk_tokens: 512, chunk_start: 1536 },
];

/// Our step time for the shape, in s: decodes and the chunk read every token of KV held before the
/// step (the chunk's earlier prompt tokens included).
pub fn ours_s(s: &Scenario, shape: &Shape) -> f64 {
    let cost = StepCost::new(s);
    let work = StepWork {
        decode_tokens: shape.decodes,
        prefill_tokens: shape.chunk_tokens,
        prefill_attention_flop: cost.chunk_attention_flop(shape.chunk_start, shape.chunk_tokens),
        kv_tokens: f64::from(shape.decodes) * f64::from(shape.held_tokens),
        prefill_kv_tokens: f64::from(shape.chunk_start),
    };
    cost.step_s(&work)
}

/// The peer's step time for the same shape, in s, from its own compute engine and presets.
pub fn peer_s(w: &Workload, shape: &Shape) -> f64 {
    let hardware = inference_lab::catalog::hardware("h100").expect("peer preset h100");
    let model = inference_lab::catalog::model("llama-3.1-8b-instruct").expect("peer preset llama");
    let engine = ComputeEngine::new(hardware, ParallelConfig::default(), model);
    let mut reqs: Vec<Request> = (0..shape.decodes).map(|i| decoding(w, i, shape.held_tokens)).collect();
    let mut tokens = vec![1; reqs.len()];
    if shape.chunk_tokens > 0 {
        let mut p = Request::new("prefill".into(), 0, 0.0, w.prompt_tokens, w.output_tokens);
        p.num_computed_tokens = shape.chunk_start;
        reqs.push(p);
        tokens.push(shape.chunk_tokens);
    }
    let refs: Vec<&Request> = reqs.iter().collect();
    engine.step_cost(&refs, &tokens).time
}

/// A peer request decoding with `held` positions resident (prompt plus outputs but the newest).
fn decoding(w: &Workload, i: u32, held: u32) -> Request {
    let mut r = Request::new(format!("d{i}"), 0, 0.0, w.prompt_tokens, w.output_tokens);
    r.num_computed_tokens = held;
    r.num_output_tokens = held.saturating_sub(w.prompt_tokens) + 1;
    r
}
