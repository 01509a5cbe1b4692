//! The measured profile's fit: the cost model's terms that best predict the published TPOTs, by a
//! procedure, never by hand (`cargo run --bin calibrate` runs it on `data/calibration.csv` and writes
//! `profile.rs`; `tests/it/calibration.rs` fails when the shipped profile differs from what it gives).
//!
//! Unknowns: the per-layer overhead (one for every GPU), each engine's per-step overhead (SGLang's 0
//! by convention: the data, one model per GPU, cannot tell a per-step cost from a per-layer one, so
//! the common part is the per-layer term and the per-step term is what an engine adds), and for each
//! GPU the slots its rows use ([`Slot`]): memory fractions as u = 1 / f >= 1, the compute fraction the
//! same way, the all-reduce latency >= 0. The objective is the sum of squared relative TPOT errors
//! over the rows [`UseClass::fitted`] selects, each predicted by [`predicted_tpot_s`]. The step is
//! linear in every unknown while each kernel group keeps its bound, so the fit is projected
//! Gauss-Newton: linearize at the current terms (finite differences, exact on a linear piece), solve
//! the bounded least squares by NNLS, repeat until nothing moves (at most 60 rounds). A slot whose
//! column is zero at the end (no row's time depends on it: a compute fraction where every group is
//! memory-bound) is left out of the profile, so the transfer rule fills it.

use super::nnls::{nnls, Matrix};
use super::predict::{predicted_tpot_s, scenario_of};
use super::published::PublishedPoint;
use super::transfer::scenario_slots;
use super::transfer::{GpuProfile, Profile};
use super::{CostModel, Engine, Slot};

/// The fitted terms (an owned [`Profile`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    pub layer_overhead_s: f64,
    pub engine_step_overhead_s: [f64; 3],
    pub gpus: Vec<GpuProfile>,
    /// Gauss-Newton rounds run.
    pub rounds: usize,
}

impl Fitted {
    pub fn profile(&self) -> Profile<'_> {
        Profile {
            layer_overhead_s: self.layer_overhead_s,
            engine_step_overhead_s: self.engine_step_overhead_s,
            gpus: &self.gpus,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Param {
    Layer,
    Engine(Engine),
    Gpu(&'static str, Slot),
}

impl Param {
    /// A finite-difference step of the unknown's own scale.
    fn step(self) -> f64 {
        match self {
            Param::Gpu(_, s) if s != Slot::CollectiveLatency => 1e-3,
            _ => 1e-6,
        }
    }
}

/// The rows the fit uses: TPOT at a known concurrency, on preset models and GPUs.
pub fn fitted_rows(points: &[PublishedPoint]) -> Vec<&PublishedPoint> {
    points
        .iter()
        .filter(|p| p.use_class.fitted() && p.tpot_s.is_some() && p.concurrency.is_some())
        .filter(|p| scenario_of(p, CostModel::Ideal).is_some())
        .collect()
}

fn params_of(rows: &[&PublishedPoint]) -> Vec<Param> {
    let mut params = vec![Param::Layer];
    let mut add = |p: Param| {
        if !params.contains(&p) {
            params.push(p);
        }
    };
    for row in rows {
        if row.engine != Engine::Sglang {
            add(Param::Engine(row.engine));
        }
        let Some(s) = scenario_of(row, CostModel::Ideal) else { continue };
        let (gemm, attention) = scenario_slots(&s);
        for slot in [gemm, attention, Slot::Compute] {
            add(Param::Gpu(row.gpu_id, slot));
        }
        if row.tp > 1 {
            add(Param::Gpu(row.gpu_id, Slot::CollectiveLatency));
        }
    }
    params
}

/// The profile the unknowns `x` stand for; `keep[k]` false leaves a GPU slot out.
fn candidate(params: &[Param], x: &[f64], keep: &[bool]) -> Fitted {
    let mut fitted =
        Fitted { layer_overhead_s: 0.0, engine_step_overhead_s: [0.0; 3], gpus: Vec::new(), rounds: 0 };
    for (k, &param) in params.iter().enumerate() {
        match param {
            Param::Layer => fitted.layer_overhead_s = x[k],
            Param::Engine(e) => fitted.engine_step_overhead_s[e.index()] = x[k],
            Param::Gpu(id, slot) => {
                let value = if slot == Slot::CollectiveLatency { x[k] } else { 1.0 / (1.0 + x[k]) };
                let at = match fitted.gpus.iter().position(|g| g.gpu_id == id) {
                    Some(i) => i,
                    None => {
                        fitted.gpus.push(GpuProfile { gpu_id: id, slots: [None; Slot::COUNT] });
                        fitted.gpus.len() - 1
                    }
                };
                if keep[k] {
                    fitted.gpus[at].slots[slot.index()] = Some(value);
                }
            }
        }
    }
    fitted
}

/// The TPOT `profile` predicts for `row` with the row's engine, in s (0 off the presets).
pub fn predict_with(profile: &Profile, row: &PublishedPoint) -> f64 {
    let Some(s) = scenario_of(row, CostModel::Ideal) else { return 0.0 };
    let terms = profile.terms(&s, row.engine);
    predicted_tpot_s(row, CostModel::Terms(terms)).unwrap_or(0.0)
}

/// Fits the profile to `points` (see the module's procedure).
pub fn fit(points: &[PublishedPoint]) -> Fitted {
    let rows = fitted_rows(points);
    let params = params_of(&rows);
    let mut x = vec![0.0; params.len()];
    let mut rounds = 0;
    while rounds < 60 {
        rounds += 1;
        let (a, b) = linearized(&rows, &params, &x);
        let z = scaled_nnls(a, &b);
        let moved = z.iter().zip(&x).zip(&params).any(|((z, x), p)| (z - x).abs() > 1e-6 * p.step());
        x = z;
        if !moved {
            break;
        }
    }
    let (a, _) = linearized(&rows, &params, &x);
    let keep: Vec<bool> = (0..params.len()).map(|k| (0..a.rows).any(|r| a.at(r, k) != 0.0)).collect();
    let keep: Vec<bool> = keep.iter().zip(&params).map(|(&k, p)| k || !matches!(p, Param::Gpu(..))).collect();
    Fitted { rounds, ..candidate(&params, &x, &keep) }
}

/// The relative-error system at `x`: A = J / measured, b = (measured - pred + J x) / measured.
fn linearized(rows: &[&PublishedPoint], params: &[Param], x: &[f64]) -> (Matrix, Vec<f64>) {
    let all = vec![true; params.len()];
    let at = |x: &[f64]| -> Vec<f64> {
        let c = candidate(params, x, &all);
        rows.iter().map(|r| predict_with(&c.profile(), r)).collect()
    };
    let base = at(x);
    let mut a = Matrix { rows: rows.len(), cols: params.len(), data: vec![0.0; rows.len() * params.len()] };
    for (k, p) in params.iter().enumerate() {
        let mut moved = x.to_vec();
        moved[k] += p.step();
        for (r, v) in at(&moved).iter().enumerate() {
            a.data[r * params.len() + k] = (v - base[r]) / p.step();
        }
    }
    let mut b = vec![0.0; rows.len()];
    for (r, row) in rows.iter().enumerate() {
        let measured = row.tpot_s.unwrap_or(1.0);
        let jx: f64 = (0..params.len()).map(|k| a.at(r, k) * x[k]).sum();
        b[r] = (measured - base[r] + jx) / measured;
        for k in 0..params.len() {
            a.data[r * params.len() + k] /= measured;
        }
    }
    (a, b)
}

/// NNLS with every column scaled to unit length (and the solution scaled back).
fn scaled_nnls(mut a: Matrix, b: &[f64]) -> Vec<f64> {
    let norms: Vec<f64> = (0..a.cols)
        .map(|c| (0..a.rows).map(|r| a.at(r, c).powi(2)).sum::<f64>().sqrt())
        .map(|n| if n > 0.0 { n } else { 1.0 })
        .collect();
    for r in 0..a.rows {
        for c in 0..a.cols {
            a.data[r * a.cols + c] /= norms[c];
        }
    }
    nnls(&a, b).iter().zip(&norms).map(|(x, n)| x / n).collect()
}
