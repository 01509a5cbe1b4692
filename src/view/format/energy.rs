//! The energy figures as the page prints them: which power is counted, a plan's power and its
//! energy's share of the cost ([`crate::core::energy`]).

use super::{fixed, significant, thousands};
use crate::core::energy::{EnergyPrice, ServingEnergy, DEFAULT_USD_PER_KWH};
use crate::core::presets::GpuSpec;

/// Which power the energy figures count, in words: "GPU board power only (no host power, PUE 1)",
/// or "with host and PUE: (GPU + 150 W host per GPU) × PUE 1.3".
pub fn energy_scope(e: &EnergyPrice) -> String {
    if e.board_only() {
        "GPU board power only (no host power, PUE 1)".to_string()
    } else {
        format!(
            "with host and PUE: (GPU + {} W host per GPU) × PUE {}",
            thousands(e.host_w_per_gpu),
            significant(e.pue)
        )
    }
}

/// Where the power figures come from: the GPU's board and idle power, and the price's default.
pub fn power_source(gpu: &GpuSpec, e: &EnergyPrice) -> String {
    let price = if e.usd_per_kwh == DEFAULT_USD_PER_KWH {
        "$0.08/kWh: the US industrial average (EIA, 8.06 cents per kWh in 2023)".to_string()
    } else {
        format!("${}/kWh as set", fixed(e.usd_per_kwh, 3))
    };
    format!(
        "{}: {} W board, {} W idle, power between them by how busy each step keeps the GPU; {price}.",
        gpu.name,
        thousands(gpu.board_power_w),
        thousands(gpu.idle_power_w)
    )
}

/// A power in the unit that reads best: "12.3 kW", "1.25 MW".
pub fn power_text(power_w: f64) -> String {
    if power_w >= 1e6 {
        format!("{} MW", significant(power_w / 1e6))
    } else if power_w >= 1e3 {
        format!("{} kW", significant(power_w / 1e3))
    } else {
        format!("{} W", significant(power_w))
    }
}

/// The plan's power line: "0.0123 MW for the load: 16 GPUs × 700 W at 100% busy; GPU board power
/// only (...)".
pub fn plan_power_text(gpus: u32, energy: &ServingEnergy, e: &EnergyPrice) -> String {
    format!(
        "{} MW for the load ({}): {} GPUs × {} W at {}% busy; {}",
        significant(energy.power_w / 1e6),
        power_text(energy.power_w),
        thousands(f64::from(gpus)),
        thousands(energy.gpu_power_w),
        fixed(energy.utilization * 100.0, 0),
        energy_scope(e)
    )
}

/// The plan's energy line: "0.109 J per output token, 9.2 million tokens/s per MW".
pub fn plan_energy_text(energy: &ServingEnergy) -> String {
    format!(
        "{} J per output token; {} tokens/s per MW",
        significant(energy.energy_j_per_token),
        thousands(energy.tokens_per_s_per_mw)
    )
}
