//! Percentiles of the analytic steady state: the share of requests that must meet each target (the
//! page's attainment target, p90 by default as the simulator's), and the approximations that turn a
//! steady state's means into that percentile of TTFT and of TPOT.
//!
//! - **TTFT** waits in an M/G/1 queue for the prompt server (the leftover step budget, a prefill
//!   instance, or whole-prompt steps). Its wait uses the exponential-tail approximation
//!   P(W > w) = rho x exp(-rho x w / E[W]) with E[W] from Pollaczek-Khinchine,
//!   rho x S x (1 + cv^2) / (2 (1 - rho)): exact at w = 0 and in the mean, the right shape in the
//!   tail. The p-quantile is E[W] / rho x ln(rho / (1 - p)), 0 while rho <= 1 - p.
//! - **TPOT** of one request is the mean step over its answer. Two things move it: the prompt
//!   steps that land inside its answer (prompts arrive as Poisson, each costs its prompt's share of
//!   prefill steps) and the batch it shares (an M/G/inf count; its mean over a request's life has
//!   variance 2/3 of the batch, as for fixed lifetimes). Both are taken as normal; output lengths
//!   spread log-normally with the workload's CV, and a shorter answer sees fewer prompts and so
//!   spreads more (a 13-node mixture over the output length).
//!
//! A configuration meets the targets when the p-quantile of TTFT and the p-quantile of TPOT are
//! each inside its target: a marginal rule (the simulator counts requests meeting both, which is at
//! most p and at least 2p - 1 of them; one target usually binds and the other misses few).

use serde::{Deserialize, Serialize};

/// The attainment the analytic steady state is read at, and the workload's length spread.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Percentile {
    /// Share of requests that must meet each target, in (0, 1) (0.9: p90).
    pub share: f64,
    /// Coefficient of variation of prompt and output lengths (0 for fixed lengths).
    pub length_cv: f64,
}

impl Percentile {
    /// p90 over fixed lengths.
    pub const P90_FIXED: Percentile = Percentile { share: 0.9, length_cv: 0.0 };

    /// The share, kept inside (0.5, 0.9999) so every quantile below is finite: a mean-like p50 at
    /// the lowest, and "every request" read as p99.99.
    pub fn share_clamped(&self) -> f64 {
        if self.share.is_finite() {
            self.share.clamp(0.5, 0.9999)
        } else {
            0.9
        }
    }

    /// The length CV, finite and within [0, 4].
    pub fn cv(&self) -> f64 {
        if self.length_cv.is_finite() {
            self.length_cv.clamp(0.0, 4.0)
        } else {
            0.0
        }
    }
}

/// The p-quantile of the wait in an M/G/1 queue: Poisson arrivals at `rate_req_per_s`, services of
/// mean `service_s` and CV `service_cv`, under the exponential-tail approximation (module doc), in
/// s; infinite at rho >= 1.
pub fn wait_quantile_s(rate_req_per_s: f64, service_s: f64, service_cv: f64, percentile: &Percentile) -> f64 {
    let rho = rate_req_per_s * service_s;
    if !(rho < 1.0) {
        return f64::INFINITY;
    }
    let tail = 1.0 - percentile.share_clamped();
    if rho <= tail || service_s <= 0.0 {
        return 0.0;
    }
    let mean_wait_s = rho * service_s * (1.0 + service_cv * service_cv) / (2.0 * (1.0 - rho));
    mean_wait_s / rho * (rho / tail).ln()
}

/// What spreads one request's TPOT around the steady state's mean.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TpotSpread {
    /// The mean TPOT, in s.
    pub mean_s: f64,
    /// Variance from the batch a request shares (independent of its length), in s^2.
    pub batch_var_s2: f64,
    /// Variance from the prompt steps inside an answer of the mean output length, in s^2; an
    /// answer of o tokens sees mean / o times this.
    pub prefill_var_s2: f64,
}

/// Nodes of the mixture over output lengths: z from -6 to 6 in steps of 1, weighted by the normal
/// density and normalised (the trapezoid rule, which for a smooth integrand against a Gaussian
/// converges faster than any power of the step: about exp(-2 pi^2) = 3e-9 at a step of 1).
const NODES: u32 = 13;
const NODE_STEP: f64 = 1.0;

/// The output-length mixture for one CV: each node's weight and the factor (mean / o) its prompt
/// part's variance takes.
struct Mixture {
    nodes: [(f64, f64); NODES as usize],
    count: usize,
}

impl Mixture {
    fn new(length_cv: f64) -> Mixture {
        let sigma2 = (1.0 + length_cv * length_cv).ln();
        let mut nodes = [(1.0, 1.0); NODES as usize];
        if sigma2 <= 0.0 {
            return Mixture { nodes, count: 1 };
        }
        let mut total = 0.0;
        for (i, node) in nodes.iter_mut().enumerate() {
            let z = (i as f64 - f64::from(NODES / 2)) * NODE_STEP;
            // o / mean = exp(sigma z - sigma^2 / 2); the prompt part's variance scales as mean / o.
            *node = ((-0.5 * z * z).exp(), (-(sigma2.sqrt() * z) + sigma2 / 2.0).exp());
            total += node.0;
        }
        nodes.iter_mut().for_each(|n| n.0 /= total);
        Mixture { nodes, count: NODES as usize }
    }

    /// P(TPOT <= `tpot_s`): a normal per output length, mixed.
    fn share_within(&self, spread: &TpotSpread, tpot_s: f64) -> f64 {
        let share_at = |scale: f64| {
            let sd_s = (spread.batch_var_s2 + spread.prefill_var_s2 * scale).max(0.0).sqrt();
            if sd_s <= 0.0 {
                return if tpot_s >= spread.mean_s { 1.0 } else { 0.0 };
            }
            normal_cdf((tpot_s - spread.mean_s) / sd_s)
        };
        self.nodes[..self.count].iter().map(|&(weight, scale)| weight * share_at(scale)).sum()
    }
}

/// P(TPOT <= `tpot_s`) over requests: a normal per output length, mixed over log-normal lengths.
pub fn tpot_share_within(spread: &TpotSpread, length_cv: f64, tpot_s: f64) -> f64 {
    Mixture::new(length_cv).share_within(spread, tpot_s)
}

/// Whether TPOT's p-quantile is within `target_s`: one mixture evaluation where
/// [`tpot_quantile_s`] takes sixty, for the bisections that only ask pass or fail.
pub fn tpot_meets(spread: &TpotSpread, percentile: &Percentile, target_s: f64) -> bool {
    spread.mean_s <= target_s
        && tpot_share_within(spread, percentile.cv(), target_s) >= percentile.share_clamped()
}

/// The p-quantile of TPOT at `percentile`, in s: the smallest t with [`tpot_share_within`] >= p
/// (30 halvings of twelve deviations: within 1e-8 deviations).
pub fn tpot_quantile_s(spread: &TpotSpread, percentile: &Percentile) -> f64 {
    let (share, cv) = (percentile.share_clamped(), percentile.cv());
    if !spread.mean_s.is_finite() {
        return f64::INFINITY;
    }
    let mixture = Mixture::new(cv);
    let variance_s2 = spread.batch_var_s2 + spread.prefill_var_s2 * (1.0 + cv * cv).powi(4);
    // Bisection: `tpot_lo_s` falls short of the share, `tpot_hi_s` reaches it.
    let tpot_sd_s = variance_s2.max(0.0).sqrt();
    let (mut tpot_lo_s, mut tpot_hi_s) = (spread.mean_s, spread.mean_s + 12.0 * tpot_sd_s);
    if mixture.share_within(spread, tpot_lo_s) >= share {
        return tpot_lo_s;
    }
    for _ in 0..30 {
        let tpot_mid_s = 0.5 * (tpot_lo_s + tpot_hi_s);
        if mixture.share_within(spread, tpot_mid_s) >= share {
            tpot_hi_s = tpot_mid_s;
        } else {
            tpot_lo_s = tpot_mid_s;
        }
    }
    tpot_hi_s
}

/// The standard normal CDF, by the complementary error function (Numerical Recipes' erfc,
/// fractional error below 1.2e-7).
pub fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - 0.5 * erfc
    } else {
        0.5 * erfc
    }
}
