//! Energy per output token: how much power a step draws, and what the tokens it makes cost in joules,
//! in tokens per second per megawatt and in dollars.
//!
//! The model, stated:
//!
//! - **Power per GPU** = idle + (board - idle) x u, where board and idle are the GPU preset's
//!   [`GpuSpec::board_power_w`] and [`GpuSpec::idle_power_w`] and u is how busy the step keeps the
//!   GPU: the larger of its memory and compute utilizations as the roofline gives them,
//!   u = min(1, max(Σ groups' memory time, Σ groups' compute time) / step time)
//!   ([`step_utilization`]). A memory-bound decode step with no fixed cost (the ideal roofline) has
//!   u = 1 and draws board power; fixed costs (launches, all-reduces, the measured engines'
//!   overheads) are time at which the GPU is taken as idle.
//! - **Host and facility**: facility power per GPU = (GPU power + host W per GPU) x PUE
//!   ([`facility_power_w`]). With the defaults (no host power, PUE 1) it is GPU board power only;
//!   [`EnergyPrice::board_only`] says which.
//! - **Joules per output token** = facility power per GPU x GPUs / output tokens per second, which for
//!   a decode batch is power x GPUs x step time / B ([`serving_energy`]); **tokens/s per MW** =
//!   1e6 / (J/token); **energy cost** = J/token x 1e6 / 3.6e6 J/kWh x $/kWh, in $ per million
//!   output tokens, added to the GPUs' $/GPU-hour (set $/kWh to 0 where the GPU-hour price
//!   already includes power).
//!
//! Assumptions: board power is the datasheet's maximum (no power cap, no clock throttling); power is
//! linear in u between idle and board; the draft model of speculative decoding runs at the verify
//! step's u; prefill tokens are not output tokens, so a batch's J/token counts its decode steps only,
//! while a capacity plan's GPUs all draw at their unit's decode step's u at the operating batch
//! (rounding the GPU count up counts the spare GPUs at that power too: an upper bound).

use serde::{Deserialize, Serialize};

use super::goodput::BatchPoint;
use super::presets::GpuSpec;
use super::roofline::{step_time_at, Group, StepTerms};
use super::scenario::Scenario;

/// Joules in a kilowatt-hour.
pub const J_PER_KWH: f64 = 3.6e6;
/// Default electricity price: the US industrial average, 8.06 cents per kWh in 2023 (EIA, Electric
/// Power Monthly, average retail price to industrial customers), rounded to $0.08, in $/kWh.
pub const DEFAULT_USD_PER_KWH: f64 = 0.08;

/// What the power costs and what counts as power: the `kwh`, `pue` and `hostw` keys.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EnergyPrice {
    /// Electricity price, in $/kWh.
    pub usd_per_kwh: f64,
    /// Power usage effectiveness: facility power / IT power (1: the GPUs' board power only).
    pub pue: f64,
    /// Host power (CPU, memory, NICs, fans) per GPU, added before PUE, in W.
    pub host_w_per_gpu: f64,
}

impl EnergyPrice {
    /// The stated defaults: the US industrial average price, GPU board power only.
    pub const DEFAULT: EnergyPrice =
        EnergyPrice { usd_per_kwh: DEFAULT_USD_PER_KWH, pue: 1.0, host_w_per_gpu: 0.0 };

    /// Free power (0 $/kWh), board power only: a plan priced by its GPU-hours alone.
    pub const FREE: EnergyPrice = EnergyPrice { usd_per_kwh: 0.0, pue: 1.0, host_w_per_gpu: 0.0 };

    /// True when the power counted is the GPUs' board power alone (no host power, PUE 1).
    pub fn board_only(&self) -> bool {
        self.pue == 1.0 && self.host_w_per_gpu == 0.0
    }
}

impl Default for EnergyPrice {
    fn default() -> EnergyPrice {
        EnergyPrice::DEFAULT
    }
}

/// How busy a step keeps the GPU: min(1, max(Σ memory_s, Σ compute_s) over its kernel groups /
/// step_s), 0 for a step of no time.
pub fn step_utilization(terms: &StepTerms) -> f64 {
    let memory_s: f64 = Group::ALL.iter().map(|&g| terms.group(g).memory_s).sum();
    let compute_s: f64 = Group::ALL.iter().map(|&g| terms.group(g).compute_s).sum();
    let u = memory_s.max(compute_s) / terms.step_s;
    if u.is_finite() {
        u.clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// The decode step's utilization at `batch` sequences ([`step_time_at`], [`step_utilization`]).
pub fn decode_utilization(scenario: &Scenario, batch: f64) -> f64 {
    if batch.is_finite() && batch > 0.0 {
        step_utilization(&step_time_at(scenario, batch).terms)
    } else {
        0.0
    }
}

/// One GPU's power at utilization `u`: idle + (board - idle) x u, in W.
pub fn gpu_power_w(gpu: &GpuSpec, u: f64) -> f64 {
    gpu.idle_power_w + (gpu.board_power_w - gpu.idle_power_w) * u.clamp(0.0, 1.0)
}

/// The facility's power for one GPU drawing `gpu_power_w`: (GPU + host per GPU) x PUE, in W.
pub fn facility_power_w(gpu_power_w: f64, energy: &EnergyPrice) -> f64 {
    (gpu_power_w + energy.host_w_per_gpu) * energy.pue
}

/// Dollars per hour of `power_w` at `usd_per_kwh`: power / 1000 x price, in $/h.
pub fn energy_usd_per_hour(power_w: f64, usd_per_kwh: f64) -> f64 {
    power_w / 1000.0 * usd_per_kwh
}

/// What `gpus` GPUs at utilization `u` draw and what their `tokens_per_s` output tokens cost.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServingEnergy {
    /// How busy the step keeps each GPU, 0 to 1.
    pub utilization: f64,
    /// One GPU's board power at that utilization, in W.
    pub gpu_power_w: f64,
    /// Every GPU with its host power, times PUE, in W.
    pub power_w: f64,
    /// power / output tokens per second, in J per output token.
    pub energy_j_per_token: f64,
    /// 1e6 / J per token, in output tokens/s per MW.
    pub tokens_per_s_per_mw: f64,
    /// power at the price, in $/h.
    pub energy_usd_per_hour: f64,
    /// J per token x 1e6 / 3.6e6 x $/kWh, in $ per million output tokens.
    pub energy_usd_per_million_tokens: f64,
}

/// [`ServingEnergy`] of `gpus` GPUs of type `gpu` at utilization `u` making `tokens_per_s` output
/// tokens per second; per-token figures are 0 where no token is made.
pub fn serving_energy(
    gpu: &GpuSpec,
    u: f64,
    gpus: u32,
    tokens_per_s: f64,
    energy: &EnergyPrice,
) -> ServingEnergy {
    let gpu_power = gpu_power_w(gpu, u);
    let power_w = facility_power_w(gpu_power, energy) * f64::from(gpus);
    let energy_j_per_token = ratio_or_zero(power_w, tokens_per_s);
    ServingEnergy {
        utilization: u.clamp(0.0, 1.0),
        gpu_power_w: gpu_power,
        power_w,
        energy_j_per_token,
        tokens_per_s_per_mw: ratio_or_zero(1e6, energy_j_per_token),
        energy_usd_per_hour: energy_usd_per_hour(power_w, energy.usd_per_kwh),
        energy_usd_per_million_tokens: energy_j_per_token * 1e6 / J_PER_KWH * energy.usd_per_kwh,
    }
}

/// A batch's energy: its decode step's utilization on the replica's GPUs at its tokens/s (power x
/// GPUs x step / B).
pub fn batch_energy(scenario: &Scenario, point: &BatchPoint, energy: &EnergyPrice) -> ServingEnergy {
    let u = step_utilization(&point.step.terms);
    serving_energy(&scenario.gpu, u, scenario.parallel.gpus(), point.tokens_per_s, energy)
}

/// a / b, or 0 where that is not a finite number.
fn ratio_or_zero(a: f64, b: f64) -> f64 {
    let r = a / b;
    if r.is_finite() {
        r
    } else {
        0.0
    }
}
