//! Default rental prices per GPU preset, in $ per GPU-hour, each with its source: editable defaults
//! for the configuration search's $ per million tokens, not quotes.

/// One GPU preset's default price.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GpuPrice {
    /// The preset's URL id, as in [`super::GPUS`].
    pub gpu_id: &'static str,
    /// On-demand rent of one GPU for one hour, in $.
    pub usd_per_gpu_hour: f64,
    /// Where the figure comes from: publisher, page, date and what it states.
    pub source: &'static str,
}

/// One price per GPU preset, in [`super::GPUS`] order (a test checks the ids line up).
pub const GPU_PRICES: [GpuPrice; 17] = [
    price("h100-sxm", 2.95, "AIMultiple, Cloud GPU Rental Price Index (aimultiple.com/gpu-index, updated 2026-05-20): H100 on-demand cohort median around $2.95/GPU-hour"),
    price("h100-pcie", 2.5, "provisional: to be sourced"),
    price("h100-nvl", 2.8, "provisional: to be sourced"),
    price("h200-sxm", 4.0, "Mercatus, Cloud GPU pricing (mercatus-ai.com/blog/cloud-gpu-pricing, May 2026): H200 SXM5 on-demand $3.50-$4.50 at specialty clouds; midpoint"),
    price("h200-nvl", 3.8, "provisional: to be sourced"),
    price("a100-40gb", 1.79, "Signwl, GPU market pulse, week of 2026-04-06 (signwl.com): A100 40GB blended $1.79/hr"),
    price("a100-80gb", 1.3, "Mercatus, Cloud GPU pricing (mercatus-ai.com/blog/cloud-gpu-pricing, May 2026): A100 80GB on-demand $1.10-$1.50 at specialty clouds; midpoint"),
    price("l40s", 1.0, "provisional: to be sourced"),
    price("l4", 0.8, "provisional: to be sourced"),
    price("b200", 7.52, "Signwl, GPU market pulse, week of 2026-04-06 (signwl.com): B200 blended $7.52/hr"),
    price("gb200", 12.47, "Signwl, GPU market pulse, week of 2026-04-06 (signwl.com): GB200 $12.47/hr in North America"),
    price("b300", 10.31, "Signwl, GPU market pulse, week of 2026-04-06 (signwl.com): B300 $10.31/hr in North America"),
    price("mi300x", 1.99, "Cliff Center, AMD inference economics (cliffcenter.com/research/amd-inference-economics, 2026-05-18): median MI300X $1.99/GPU-hr"),
    price("mi325x", 1.95, "Cliff Center, AMD inference economics (cliffcenter.com/research/amd-inference-economics, 2026-05-18): TensorWave MI325X $1.95/GPU-hr"),
    price("mi355x", 3.0, "provisional: to be sourced"),
    price("tpu-v5e", 1.2, "provisional: to be sourced"),
    price("tpu-v6e", 2.7, "provisional: to be sourced"),
];

const fn price(gpu_id: &'static str, usd_per_gpu_hour: f64, source: &'static str) -> GpuPrice {
    GpuPrice { gpu_id, usd_per_gpu_hour, source }
}

/// The default price of the preset with this id, if it has one.
pub fn default_price(gpu_id: &str) -> Option<&'static GpuPrice> {
    GPU_PRICES.iter().find(|p| p.gpu_id == gpu_id)
}
