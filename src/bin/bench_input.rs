//! `bench_input sim|search|trace "<query>" [requests]`: what the workers' benchmark exports
//! (`bench_simulate`, `bench_sweep`, `bench_search`) take for a page URL's query: the validated
//! `SimPlan` or `SearchSpec` as postcard bytes, printed as comma-separated decimals for
//! `bench/browser` to pass in. `trace` is the `sim` plan with a recorded trace of `requests`
//! requests ([`bench_trace`]). The URL parser stays out of the workers' wasm: it runs here, natively.

use std::sync::Arc;

use goodput_lab::core::sim::{requests, Arrivals, LengthDist, Lengths};
use goodput_lab::core::traffic::{RequestTrace, TraceRequest};
use goodput_lab::protocol::codec::to_bytes;

/// A trace of `count` requests standing in for a recorded one: Poisson arrivals at 1 request/s,
/// log-normal prompt and output lengths (CV 1) around the plan's means, seed 1, no sessions.
fn bench_trace(means: (f64, f64), count: u32) -> RequestTrace {
    let lengths = Lengths { dist: LengthDist::LogNormal, length_cv: 1.0 };
    let drawn = requests(Arrivals::Poisson, lengths, means, count.max(2), 1.0, 1);
    let request = |r: &goodput_lab::core::sim::Request| {
        TraceRequest::unhashed(r.arrival_s, r.prompt_tokens, r.output_tokens)
    };
    RequestTrace::unhashed(drawn.iter().map(request).collect())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (kind, query) = (args.next().unwrap_or_default(), args.next().unwrap_or_default());
    let count: u32 = args.next().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let (inputs, notices) = goodput_lab::state::from_query(&query);
    for n in notices {
        eprintln!("{}", n.message);
    }
    let bytes = match kind.as_str() {
        "sim" => to_bytes(&inputs.sim_plan()),
        "search" => to_bytes(&inputs.search_spec()),
        "trace" => {
            let mut plan = inputs.sim_plan();
            let s = &plan.config.scenario;
            let means = (f64::from(s.prompt_tokens()), f64::from(s.output_tokens));
            plan.config.trace = Some(Arc::new(bench_trace(means, count)));
            to_bytes(&plan)
        }
        _ => {
            eprintln!("usage: bench_input sim|search|trace \"<query>\" [requests]");
            std::process::exit(2);
        }
    };
    let text: Vec<String> = bytes.iter().map(u8::to_string).collect();
    println!("{}", text.join(","));
}
