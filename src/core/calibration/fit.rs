//! The measured profile's fit: the cost model's terms that best predict the published TPOTs within
//! their published bounds, by a procedure, never by hand (`cargo run --bin calibrate` runs it on
//! `data/calibration.csv` and writes `profile.rs`; `tests/it/calibration.rs` fails when the shipped
//! profile differs from what it gives).
//!
//! Unknowns, each >= 0: the per-layer overhead of each software stack the rows run on, the
//! quantization cost per layer of 8-bit-or-smaller weights, each engine's per-step overhead (SGLang's
//! 0 by convention: one model per GPU cannot tell a per-step cost from a per-layer one, so the common
//! part is per layer and the per-step term is what an engine adds), and for each GPU the slots its
//! rows use ([`Slot`]) as u = 1 / fraction = 1 / ceiling + x: a fraction never exceeds the GPU's
//! published ceiling ([`super::bounds`]). All-reduce latencies are priced from the link, not fitted.
//!
//! The objective is the sum of squared relative TPOT errors over the rows [`UseClass::fitted`]
//! selects, each predicted by [`predicted_tpot_s`], plus one row per term with a prior (the
//! per-layer overheads, the fractions): [`PRIOR_WEIGHT`](super::bounds::PRIOR_WEIGHT) x (term / prior - 1). The step is linear in
//! every unknown while each kernel group keeps its bound, so the fit is projected Gauss-Newton:
//! linearize at the current terms (finite differences, exact on a linear piece), solve the bounded
//! least squares by NNLS, repeat until nothing moves (at most 60 rounds). Then the Jacobian says
//! which terms the data identify ([`identified`]): a term whose change by its prior's size moves the
//! rows' TPOTs by less than [`IDENTIFY_MIN`] (root of the summed squares) is held at its prior, and the
//! fit runs again without it, until no more terms are held.
//!
//! [`UseClass::fitted`]: super::published::UseClass::fitted

use super::predict::{ceiling_floors, scenario_of};
use super::published::PublishedPoint;
use super::transfer::scenario_slots;
use super::unknowns::{candidate, linearized, reference_month, scaled_nnls};
use super::{CostModel, Engine, Slot};
use crate::calibration::bounds::Family;

pub use super::published::fitted_rows;
pub use super::unknowns::{predict_with, Fitted, Param, TermReport};

/// A term is identified when moving it by its prior's size moves the fitted rows' relative TPOTs by
/// at least this much (the root of their summed squares).
pub const IDENTIFY_MIN: f64 = 0.05;

fn params_of(rows: &[&PublishedPoint], release_trend: bool) -> Vec<Param> {
    let mut params = Vec::new();
    let mut add = |p: Param| {
        if !params.contains(&p) {
            params.push(p);
        }
    };
    for row in rows {
        add(Param::Layer(Family::of(row.gpu_id).stack()));
        let moe = crate::presets::model_by_id(row.model_id).is_some_and(|m| m.moe.is_some());
        if release_trend && moe {
            add(Param::Trend(Family::of(row.gpu_id).stack()));
        }
        if row.engine != Engine::Sglang {
            add(Param::Engine(row.engine));
        }
        let Some(s) = scenario_of(row, CostModel::Ideal) else { continue };
        if super::transfer::quantized(s.weight_precision) {
            add(Param::Quantize);
        }
        if row.ep > 1 {
            add(Param::ExpertLayer);
        }
        let (gemm, attention) = scenario_slots(&s);
        for slot in [gemm, attention, Slot::Compute] {
            add(Param::Gpu(row.gpu_id, slot));
        }
    }
    params
}

/// Fits the profile to `points` (see the module's procedure), with each stack's release trend.
pub fn fit(points: &[PublishedPoint]) -> Fitted {
    fit_with(points, true)
}

/// Fits the profile to `points`, with or without the release trend (without: every release of an
/// engine priced alike, the model before issue 48; the report's before-and-after).
pub fn fit_with(points: &[PublishedPoint], release_trend: bool) -> Fitted {
    let rows = fitted_rows(points);
    let floors = ceiling_floors(points);
    let params = params_of(&rows, release_trend);
    let at_prior = |k: usize| params[k].prior_u().map_or(0.0, |u| (u - params[k].offset()).max(0.0));
    let mut held = vec![false; params.len()];
    // A held term's sensitivity as it was when it was held (held, it no longer moves the rows).
    let mut held_sensitivity = vec![0.0; params.len()];
    let mut x: Vec<f64> = (0..params.len()).map(at_prior).collect();
    let mut rounds = 0;
    loop {
        rounds += gauss_newton((&rows, &floors), &params, &held, &mut x);
        let mut sensitivity = sensitivities(&rows, &params, &x, &held);
        let newly: Vec<usize> = (0..params.len())
            .filter(|&k| !held[k] && params[k].prior_u().is_some() && sensitivity[k] < IDENTIFY_MIN)
            .collect();
        if newly.is_empty() {
            for k in (0..params.len()).filter(|&k| held[k]) {
                sensitivity[k] = held_sensitivity[k];
            }
            let mut fitted = candidate(&params, &x, &held, reference_month(&rows));
            fitted.report = report(&params, &x, &held, &sensitivity);
            fitted.rounds = rounds;
            return fitted;
        }
        for k in newly {
            held[k] = true;
            held_sensitivity[k] = sensitivity[k];
            x[k] = at_prior(k);
        }
    }
}

/// Projected Gauss-Newton on the free unknowns (held ones stay put), with the offline maxima's
/// one-sided floors; the rounds it ran.
fn gauss_newton(
    (rows, floors): (&[&PublishedPoint], &[PublishedPoint]),
    params: &[Param],
    held: &[bool],
    x: &mut [f64],
) -> usize {
    let free: Vec<usize> = (0..params.len()).filter(|&k| !held[k]).collect();
    for round in 1..=60 {
        let (a, b) = linearized((rows, floors), params, x, held, &free, true);
        let z = scaled_nnls(a, &b);
        let moved = free.iter().zip(&z).any(|(&k, z)| (z - x[k]).abs() > 1e-6 * params[k].step());
        for (&k, z) in free.iter().zip(z) {
            x[k] = z;
        }
        if !moved {
            return round;
        }
    }
    60
}

/// Each unknown's sensitivity: the norm of its Jacobian column over the data rows (no priors) times
/// its prior's size in u-space (0 for a term without a prior).
fn sensitivities(rows: &[&PublishedPoint], params: &[Param], x: &[f64], held: &[bool]) -> Vec<f64> {
    let all: Vec<usize> = (0..params.len()).collect();
    let (a, _) = linearized((rows, &[]), params, x, held, &all, false);
    (0..params.len())
        .map(|k| {
            let norm = (0..a.rows).map(|r| a.at(r, k).powi(2)).sum::<f64>().sqrt();
            norm * params[k].prior_u().unwrap_or(0.0)
        })
        .collect()
}

fn report(params: &[Param], x: &[f64], held: &[bool], sensitivity: &[f64]) -> Vec<TermReport> {
    (0..params.len())
        .map(|k| {
            let p = params[k];
            TermReport {
                param: p,
                value: p.value(p.offset() + x[k]),
                prior: p.prior_u().map(|u| p.value(u)),
                sensitivity: sensitivity[k],
                held: held[k],
            }
        })
        .collect()
}
