//! The one workload both simulators run (issue 6): Llama 3.1 8B in BF16 on one H100 SXM, Poisson
//! arrivals, fixed 2,048-token prompts and 256-token outputs, a 512-token step budget and at most 64
//! running sequences, judged against a 10 ms TPOT target (the worked example's) and a 2,000 ms TTFT target
//! (Goodput Lab's default, MLPerf's server TTFT for llama3.1-8b).

/// Everything that defines a run, shared by both drivers.
#[derive(Clone, Copy, Debug)]
pub struct Workload {
    pub prompt_tokens: u32,
    pub output_tokens: u32,
    /// Tokens one step may carry: decodes plus prompt chunks (vLLM's max_num_batched_tokens).
    pub step_budget_tokens: u32,
    /// Most sequences running at once (vLLM's max_num_seqs).
    pub max_seqs: u32,
    pub tpot_target_s: f64,
    pub ttft_target_s: f64,
    /// Share of requests that must meet both targets for a rate to count as good (DistServe's 90%).
    pub attainment_target: f64,
}

/// The issue's workload and the targets goodput is judged against.
pub const ISSUE: Workload = Workload {
    prompt_tokens: 2048,
    output_tokens: 256,
    step_budget_tokens: 512,
    max_seqs: 64,
    tpot_target_s: 0.010,
    ttft_target_s: 2.0,
    attainment_target: 0.9,
};

/// One run's requests: how many, at what Poisson rate (req/s), from which seed.
#[derive(Clone, Copy, Debug)]
pub struct Run {
    pub requests: u32,
    pub rate_req_per_s: f64,
    pub seed: u64,
}

/// What a run measured, in the same terms for both simulators.
#[derive(Clone, Copy, Debug, Default)]
pub struct Outcome {
    pub requests: u32,
    /// Requests that finished with TTFT <= target and mean TPOT <= target.
    pub met_both: u32,
    /// First arrival to last departure, in simulated s.
    pub duration_s: f64,
    /// Median per-request mean TPOT and TTFT, in s.
    pub tpot_p50_s: f64,
    pub ttft_p50_s: f64,
}

impl Outcome {
    /// Share of requests meeting both targets, in [0, 1].
    pub fn attainment(&self) -> f64 {
        f64::from(self.met_both) / f64::from(self.requests.max(1))
    }

    /// Requests meeting both targets per simulated second: met_both / duration, in req/s.
    pub fn goodput_req_per_s(&self) -> f64 {
        f64::from(self.met_both) / self.duration_s.max(f64::MIN_POSITIVE)
    }

    /// Counts per-request (ttft, tpot) pairs, in s, against the targets and takes their medians; of
    /// `requests` sent, any without a pair (refused) counts as a miss.
    pub fn from_latencies(w: &Workload, requests: u32, latencies: &[(f64, f64)], duration_s: f64) -> Outcome {
        let met = |l: &&(f64, f64)| l.0 <= w.ttft_target_s && l.1 <= w.tpot_target_s;
        Outcome {
            requests,
            met_both: latencies.iter().filter(met).count() as u32,
            duration_s,
            ttft_p50_s: median(latencies.iter().map(|l| l.0).collect()),
            tpot_p50_s: median(latencies.iter().map(|l| l.1).collect()),
        }
    }
}

/// The median (upper for even counts) of `v`; NaN sorts last; 0 for an empty slice.
pub fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}
