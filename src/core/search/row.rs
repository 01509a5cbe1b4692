//! One configuration's row: its operating point (highest rate inside both targets) and what that
//! means per GPU, per user, for a target load and in $ per million output tokens.

use serde::{Deserialize, Serialize};

use super::{Config, SearchSpec};
pub use crate::capacity::Point;
use crate::capacity::{gpus_for, unit_point, usd_per_million_tokens, Placing};
use crate::energy::serving_energy;
use crate::placement::{Binds, PlacementMode};

/// A configuration at its operating point.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub config: Config,
    /// GPUs of one replica (TP) or one disaggregated system (x x TP_p + y x TP_d).
    pub gpus: u32,
    /// The replica's or system's highest rate inside both targets, in requests/s.
    pub rate_req_per_s: f64,
    /// rate / gpus, in requests/s per GPU.
    pub goodput_per_gpu_req_per_s: f64,
    /// rate x output tokens / gpus, in tokens/s per GPU.
    pub tokens_per_s_per_gpu: f64,
    /// 1 / TPOT at the operating point, in tokens/s per user.
    pub tokens_per_s_per_user: f64,
    /// TPOT's p-quantile at the operating point (disaggregated: the decode instances' step at their knee batch,
    /// an upper bound when the prefill side binds), in s.
    pub tpot_s: f64,
    /// TTFT's p-quantile at the operating point, in s.
    pub ttft_s: f64,
    /// What stops the rate from rising further.
    pub binds: Binds,
    /// Replicas or systems for the load (rounded up), times their GPUs; 0 is no plan: no load, or
    /// more GPUs than a u32 counts (see `gpus_for`).
    pub gpus_for_load: u32,
    /// Those GPUs at the preset's $/GPU-hour plus their energy at the search's $/kWh over the load's
    /// output tokens (no load: one system at its own rate), in $ per million output tokens.
    pub usd_per_million_tokens: f64,
    /// The GPUs' power at the operating point's utilization (with the host power and PUE the spec
    /// sets) over the output tokens they make, in J per output token ([`crate::energy`]).
    pub energy_j_per_token: f64,
    /// The energy's share of `usd_per_million_tokens`, in $ per million output tokens.
    pub energy_usd_per_million_tokens: f64,
}

/// The row of `config` on `spec`, or `None` when it serves nothing inside both targets.
pub fn row_for(spec: &SearchSpec, config: &Config) -> Option<Row> {
    let placing = Placing {
        mode: config
            .split(spec.link_bytes_per_s)
            .map_or(PlacementMode::Colocated, |_| PlacementMode::Disaggregated),
        split: config.split(spec.link_bytes_per_s).unwrap_or_default(),
        chunk_tokens: spec.chunk_tokens,
        percentile: spec.percentile,
    };
    row_at(spec, config, &unit_point(&config.scenario(&spec.scenario), &placing)?)
}

/// The row of `config` running at `point`, or `None` when it serves nothing.
pub fn row_at(spec: &SearchSpec, config: &Config, point: &Point) -> Option<Row> {
    let &Point { rate_req_per_s: rate, gpus, tpot_s, ttft_s, binds, utilization } = point;
    if !(rate > 0.0 && rate.is_finite() && tpot_s > 0.0 && gpus > 0) {
        return None;
    }
    let output_tokens = spec.scenario.output_tokens;
    let gpus_for_load = gpus_for(spec.load_req_per_s, rate, gpus);
    let price_index = usize::from(config.gpu_index).min(spec.usd_per_gpu_hour.len() - 1);
    let usd_per_gpu_hour = spec.usd_per_gpu_hour[price_index];
    let (billed_gpus, billed_rate) =
        if gpus_for_load > 0 { (gpus_for_load, spec.load_req_per_s) } else { (gpus, rate) };
    let gpu = config.scenario(&spec.scenario).gpu;
    let billed_tokens_per_s = billed_rate * f64::from(output_tokens);
    let energy = serving_energy(&gpu, utilization, billed_gpus, billed_tokens_per_s, &spec.energy);
    let billed_usd_per_hour = f64::from(billed_gpus) * usd_per_gpu_hour + energy.energy_usd_per_hour;
    Some(Row {
        config: *config,
        gpus,
        rate_req_per_s: rate,
        goodput_per_gpu_req_per_s: rate / f64::from(gpus),
        tokens_per_s_per_gpu: rate * f64::from(output_tokens) / f64::from(gpus),
        tokens_per_s_per_user: 1.0 / tpot_s,
        tpot_s,
        ttft_s,
        binds,
        gpus_for_load,
        usd_per_million_tokens: usd_per_million_tokens(billed_usd_per_hour, billed_rate, output_tokens),
        energy_j_per_token: energy.energy_j_per_token,
        energy_usd_per_million_tokens: energy.energy_usd_per_million_tokens,
    })
}
