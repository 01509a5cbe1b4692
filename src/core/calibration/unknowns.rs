//! The fit's unknowns ([`Param`]) and the profile they stand for ([`candidate`]), one row's prediction
//! under a candidate profile, the relative-error system linearized at the current unknowns (with the
//! priors' rows), and NNLS on unit-scaled columns.

use super::bounds::{Stack, LAYER_PRIOR_S, PRIOR_WEIGHT};
use super::nnls::{nnls, Matrix};
use super::predict::{predicted_tpot_s, scenario_of};
use super::published::PublishedPoint;
use super::transfer::{month_of, GpuProfile, Profile, Term};
use super::{CostModel, Engine, Slot};

/// The TPOT `profile` predicts for `row` with the row's engine at the row's release
/// ([`Profile::run_factor`]), in s (0 off the presets).
pub fn predict_with(profile: &Profile, row: &PublishedPoint) -> f64 {
    let Some(s) = scenario_of(row, CostModel::Ideal) else { return 0.0 };
    let terms = profile.terms(&s, row.engine);
    predicted_tpot_s(row, CostModel::Terms(terms)).unwrap_or(0.0) * profile.run_factor(row)
}

/// The newest of `rows`' publication months: the release a profile fitted on them describes.
pub fn reference_month(rows: &[&PublishedPoint]) -> f64 {
    rows.iter().map(|r| month_of(r.date_ymd())).fold(0.0, f64::max)
}

/// A ceiling's one-sided row weighs this many data rows: an offline maximum is a bound, not a
/// preference (at 100 a violation left by the other rows' pull is under 0.1%).
pub const CEILING_WEIGHT: f64 = 100.0;

/// The relative-error system at `x` over the unknowns `cols`: A = J / measured,
/// b = (measured - pred + J x) / measured for each data row, then one row per ceiling floor
/// ([`super::predict::ceiling_floors`]) the prediction falls below, the same weighted by
/// [`CEILING_WEIGHT`] (zero where the floor holds: one-sided), then (with `priors`) one row per
/// unknown with a prior, [`PRIOR_WEIGHT`] x (offset + x - prior) / prior.
pub fn linearized(
    data: (&[&PublishedPoint], &[PublishedPoint]),
    params: &[Param],
    x: &[f64],
    held: &[bool],
    cols: &[usize],
    priors: bool,
) -> (Matrix, Vec<f64>) {
    let (fitted, floors) = data;
    let rows: Vec<&PublishedPoint> = fitted.iter().copied().chain(floors.iter()).collect();
    let rows = rows.as_slice();
    let at = |x: &[f64]| -> Vec<f64> {
        let c = candidate(params, x, held, reference_month(fitted));
        rows.iter().map(|r| predict_with(&c.profile(), r)).collect()
    };
    let base = at(x);
    let prior_cols: Vec<usize> = if priors {
        cols.iter().copied().filter(|&k| params[k].prior_u().is_some()).collect()
    } else {
        Vec::new()
    };
    let n = cols.len();
    let mut a = Matrix {
        rows: rows.len() + prior_cols.len(),
        cols: n,
        data: vec![0.0; (rows.len() + prior_cols.len()) * n],
    };
    for (c, &k) in cols.iter().enumerate() {
        let mut moved = x.to_vec();
        moved[k] += params[k].step();
        for (r, v) in at(&moved).iter().enumerate() {
            a.data[r * n + c] = (v - base[r]) / params[k].step();
        }
    }
    let mut b = vec![0.0; a.rows];
    for (r, row) in rows.iter().enumerate() {
        let measured = row.tpot_s.unwrap_or(1.0);
        let floor = r >= fitted.len();
        let weight = match (floor, base[r] < measured) {
            (false, _) => 1.0,
            (true, true) => CEILING_WEIGHT,
            (true, false) => 0.0,
        };
        let jx: f64 = cols.iter().enumerate().map(|(c, &k)| a.at(r, c) * x[k]).sum();
        b[r] = weight * (measured - base[r] + jx) / measured;
        for c in 0..n {
            a.data[r * n + c] *= weight / measured;
        }
    }
    for (i, &k) in prior_cols.iter().enumerate() {
        let (r, prior) = (rows.len() + i, params[k].prior_u().unwrap_or(1.0));
        let c = cols.iter().position(|&j| j == k).unwrap_or(0);
        a.data[r * n + c] = PRIOR_WEIGHT / prior;
        b[r] = PRIOR_WEIGHT * (prior - params[k].offset()) / prior;
    }
    (a, b)
}

/// NNLS with every column scaled to unit length (and the solution scaled back).
pub fn scaled_nnls(mut a: Matrix, b: &[f64]) -> Vec<f64> {
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

/// The fitted terms (an owned [`Profile`]) and how each was found.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    pub layer_overhead_s: [Option<f64>; Stack::COUNT],
    pub quantize_layer_s: f64,
    pub expert_layer_s: f64,
    pub engine_step_overhead_s: [f64; Engine::COUNT],
    pub gpus: Vec<GpuProfile>,
    pub release_trend_per_month: [f64; Stack::COUNT],
    pub reference_month: f64,
    /// Every unknown with its value, prior and sensitivity.
    pub report: Vec<TermReport>,
    /// Gauss-Newton rounds run, over all passes.
    pub rounds: usize,
}

impl Fitted {
    pub fn profile(&self) -> Profile<'_> {
        Profile {
            layer_overhead_s: self.layer_overhead_s,
            quantize_layer_s: self.quantize_layer_s,
            expert_layer_s: self.expert_layer_s,
            engine_step_overhead_s: self.engine_step_overhead_s,
            gpus: &self.gpus,
            release_trend_per_month: self.release_trend_per_month,
            reference_month: self.reference_month,
        }
    }
}

/// One unknown of the fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Param {
    Layer(Stack),
    Quantize,
    /// Per MoE layer per step under expert parallelism (EP > 1), in s.
    ExpertLayer,
    Engine(Engine),
    Gpu(&'static str, Slot),
    /// A stack's release trend, per month ([`Profile::release_factor`]).
    Trend(Stack),
}

/// One unknown as the fit left it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TermReport {
    pub param: Param,
    /// The term's value: a fraction, or s.
    pub value: f64,
    /// Its prior, where it has one (a fraction, or s).
    pub prior: Option<f64>,
    /// The rows' relative TPOT change (root of summed squares) when the term moves by its prior's size.
    pub sensitivity: f64,
    /// Held at its prior: the data do not identify it.
    pub held: bool,
}

impl Param {
    /// A finite-difference step of the unknown's own scale.
    pub fn step(self) -> f64 {
        match self {
            Param::Gpu(..) => 1e-3,
            _ => 1e-6,
        }
    }

    /// The unknown's offset: value-space u = offset + x (1 / ceiling for a fraction, else 0).
    pub fn offset(self) -> f64 {
        match self {
            Param::Gpu(id, slot) => 1.0 / slot.ceiling(id).value,
            _ => 0.0,
        }
    }

    /// The prior in u-space (1 / prior fraction, or the overhead in s), where the term has one.
    pub fn prior_u(self) -> Option<f64> {
        match self {
            Param::Gpu(id, slot) => Some(1.0 / slot.prior(id)),
            Param::Layer(_) => Some(LAYER_PRIOR_S),
            Param::Quantize | Param::ExpertLayer | Param::Engine(_) | Param::Trend(_) => None,
        }
    }

    /// The term's value from u: a fraction 1 / u, or the overhead itself.
    pub fn value(self, u: f64) -> f64 {
        match self {
            Param::Gpu(..) => 1.0 / u,
            _ => u,
        }
    }
}

/// The profile the unknowns `x` stand for at `reference_month`; a held unknown is at its prior (a GPU
/// slot marked held).
pub fn candidate(params: &[Param], x: &[f64], held: &[bool], reference_month: f64) -> Fitted {
    let mut fitted = Fitted {
        layer_overhead_s: [None; Stack::COUNT],
        quantize_layer_s: 0.0,
        expert_layer_s: 0.0,
        engine_step_overhead_s: [0.0; Engine::COUNT],
        gpus: Vec::new(),
        release_trend_per_month: [0.0; Stack::COUNT],
        reference_month,
        report: Vec::new(),
        rounds: 0,
    };
    for (k, &param) in params.iter().enumerate() {
        let value = param.value(param.offset() + x[k]);
        match param {
            Param::Layer(stack) => fitted.layer_overhead_s[stack.index()] = (!held[k]).then_some(value),
            Param::Quantize => fitted.quantize_layer_s = value,
            Param::ExpertLayer => fitted.expert_layer_s = value,
            Param::Engine(e) => fitted.engine_step_overhead_s[e.index()] = value,
            Param::Trend(stack) => fitted.release_trend_per_month[stack.index()] = value,
            Param::Gpu(id, slot) => {
                let at = match fitted.gpus.iter().position(|g| g.gpu_id == id) {
                    Some(i) => i,
                    None => {
                        fitted.gpus.push(GpuProfile { gpu_id: id, slots: [Term::Absent; Slot::COUNT] });
                        fitted.gpus.len() - 1
                    }
                };
                fitted.gpus[at].slots[slot.index()] = if held[k] { Term::Held } else { Term::Fitted(value) };
            }
        }
    }
    fitted
}
