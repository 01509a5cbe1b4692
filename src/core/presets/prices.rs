//! Default rental prices per GPU preset, in $ per GPU-hour, each with its source: editable defaults
//! for the configuration search's $ per million tokens, not quotes.
//!
//! One basis throughout: the on-demand (no commitment) rent of one GPU for one hour, as a 2026
//! market median or specialty-cloud midpoint (TPUs: Google's list price, their only seller). Where
//! no source prices a preset, the figure is derived from a cited one and the source says how.

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
pub const GPU_PRICES: [GpuPrice; 18] = [
    price(
        "h100-sxm",
        2.95,
        "AIMultiple, Cloud GPU Rental Price Index (aimultiple.com/gpu-index, updated 2026-05-20): \
         H100 listed by 37 providers, on-demand cohort median around $2.95/GPU-hour (Mercatus, \
         mercatus-ai.com/blog/cloud-gpu-pricing, May 2026: specialty clouds $2.50-$3.50)",
    ),
    price(
        "h100-pcie",
        2.21,
        "Derived: H100 SXM median $2.95 x 0.75, the PCIe/SXM on-demand ratio at RunPod \
         ($1.99/$2.69 = 0.74) and Lambda ($2.86/$3.78 = 0.76) in Alpha One Index's 2026-03-16 \
         snapshot (github.com/alpha-one-index/ai-infra-index, data/cloud-pricing.json)",
    ),
    price(
        "h100-nvl",
        2.84,
        "Derived: H100 SXM median $2.95 x 0.963, RunPod's H100 NVL/SXM on-demand ratio \
         ($2.59/$2.69) in Alpha One Index's 2026-03-16 snapshot (github.com/alpha-one-index/\
         ai-infra-index, data/cloud-pricing.json); gpu.blog/gpus/nvidia-h100-nvl1 lists $1.91-$3.07",
    ),
    price(
        "h200-sxm",
        4.0,
        "Mercatus, Cloud GPU pricing (mercatus-ai.com/blog/cloud-gpu-pricing, May 2026): H200 SXM5 \
         on-demand $3.50-$4.50 at specialty clouds; midpoint (Spheron, 2026-03-17: $4.54)",
    ),
    price(
        "h200-nvl",
        3.85,
        "Derived: no credible H200 NVL listing found; H200 SXM $4.00 x 0.963, the NVL/SXM ratio \
         of the H100 (RunPod $2.59/$2.69, Alpha One Index snapshot 2026-03-16)",
    ),
    price(
        "a100-40gb",
        0.94,
        "Derived: A100 80GB $1.30 x 0.72, the 40GB/80GB ratio in Signwl's GPU Market Report April \
         2026 (signwl.com/articles/gpu-market-report-april-2026: $1.76/$2.44) and at Lambda \
         ($1.48 vs $16.48/8 = $2.06, Alpha One Index snapshot 2026-03-16)",
    ),
    price(
        "a100-80gb",
        1.3,
        "Mercatus, Cloud GPU pricing (mercatus-ai.com/blog/cloud-gpu-pricing, May 2026): A100 80GB \
         on-demand $1.10-$1.50 at specialty clouds; midpoint",
    ),
    price(
        "l40s",
        0.92,
        "Ai Mining Co., L40S deep dive (aiminingco.com/insights/gpu-l40s-deep-dive-week-of-june-15-\
         2026): median of the 13 marketplaces' medians ($0.48-$2.48; the listing-weighted $1.46 \
         is half OVHcloud listings); Alpha One Index GCPI 2026-03-16: L40S median $0.865",
    ),
    price(
        "l4",
        0.44,
        "Alpha One Index, GPU Cloud Price Index (github.com/alpha-one-index/ai-infra-index, \
         data/gpu-price-index.json, 2026-03-16): L4 median $0.44 (RunPod on-demand); Signwl April \
         2026 report: L4 $0.47/hr",
    ),
    price(
        "b200",
        5.25,
        "Lyceum Technologies, NVIDIA B200 GPU Cloud Pricing 2026 (lyceum.technology/magazine, \
         2026-03-11): on-demand averages $4.50-$6.00/hr on specialized clouds; midpoint",
    ),
    price(
        "gb200",
        7.52,
        "Derived: midpoint of the two per-GPU on-demand listings found: Spheron $9.08 per GB200 \
         superchip of 2 GPUs = $4.54 (spheron.network/blog/nvidia-h200-vs-b200-vs-gb200, \
         2026-03-17) and a $42.00/h GB200 NVL72 4-GPU instance = $10.50 (gpu.blog/gpus/\
         nvidia-gb200-nvl72)",
    ),
    price(
        "gb300",
        8.78,
        "Derived: no on-demand GB300 listing found; GB200 $7.52 x 1.168, the B300/B200 on-demand \
         ratio of the two medians above ($6.13/$5.25), Blackwell Ultra over Blackwell in the same \
         package",
    ),
    price(
        "b300",
        6.13,
        "Ornn, NVIDIA B200 vs B300 (ornnai.com/research, 2026, from Ornn's GPU rental benchmark): \
         B300 on-demand $5.00-$7.25/hr neocloud range; midpoint",
    ),
    price(
        "mi300x",
        1.99,
        "Cliff Center, AMD inference economics (cliffcenter.com/research/amd-inference-economics, \
         2026-05-18): median MI300X $1.99/GPU-hr (TensorWave $1.50, Vultr $1.85, Azure/Oracle $6)",
    ),
    price(
        "mi325x",
        1.95,
        "Cliff Center, AMD inference economics (cliffcenter.com/research/amd-inference-economics, \
         2026-05-18): TensorWave MI325X $1.95/GPU-hr (Vultr $2.00, Alpha One Index 2026-03-16)",
    ),
    price(
        "mi355x",
        2.99,
        "Derived: no on-demand MI355X listing found; priced as its rival B200 ($5.25) x 0.57, \
         AMD's rental discount MI300X/H100 median $1.99/$3.49 (Cliff Center, cliffcenter.com/\
         research/amd-inference-economics, 2026-05-18)",
    ),
    price(
        "tpu-v5e",
        1.2,
        "Google Cloud list price via SkyPilot's catalog (github.com/skypilot-org/skypilot-catalog, \
         catalogs/v7/gcp/vms.csv, commit 017e250): tpu-v5litepod-256 us-central1 on-demand \
         $307.20/h for 256 chips = $1.20 per chip-hour",
    ),
    price(
        "tpu-v6e",
        2.7,
        "Google Cloud list price via SkyPilot's catalog (github.com/skypilot-org/skypilot-catalog, \
         catalogs/v7/gcp/vms.csv, commit 017e250): tpu-v6e-1 us-central1 on-demand $2.70/h; \
         Neowin on Google's Trillium GA (Dec 2024): from $2.70 per chip-hour",
    ),
];

const fn price(gpu_id: &'static str, usd_per_gpu_hour: f64, source: &'static str) -> GpuPrice {
    GpuPrice { gpu_id, usd_per_gpu_hour, source }
}

/// The default price of the preset with this id, if it has one.
pub fn default_price(gpu_id: &str) -> Option<&'static GpuPrice> {
    GPU_PRICES.iter().find(|p| p.gpu_id == gpu_id)
}
