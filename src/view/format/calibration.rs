//! The measured engines' accuracy, coverage and likely range as the page prints them: the
//! calibration control's accuracy and provenance lines, and a range beside a time, a rate or a count.

use crate::core::calibration::bounds::Family;
use crate::core::calibration::coverage::GpuCoverage;
use crate::core::calibration::profile::PROFILE;
use crate::core::calibration::published::{fitted_rows, POINTS};
use crate::core::calibration::range::{likely_range, LikelyRange};
use crate::core::calibration::report::{summarize, tpot_errors};
use crate::core::calibration::transfer::Origin;
use crate::core::calibration::{CostModel, Engine};
use crate::core::scenario::Scenario;
use crate::view::format::references::signed_percent;
use crate::view::format::{ms, percent, thousands};

/// The range as signed shares of the number: "-13.7% to +21.6%".
pub fn range_text(r: &LikelyRange) -> String {
    format!("{} to {}", signed_percent(r.low - 1.0), signed_percent(r.high - 1.0))
}

/// A time's likely range in ms: "8.61–12.06".
pub fn range_ms(r: &LikelyRange, time_s: f64) -> String {
    let (lo, hi) = r.time_s(time_s);
    format!("{}–{}", ms(lo), ms(hi))
}

/// A rate's likely range, as whole numbers: "1,204–1,683".
pub fn range_rate(r: &LikelyRange, rate: f64) -> String {
    let (lo, hi) = r.rate(rate);
    format!("{}–{}", thousands(lo.round()), thousands(hi.round()))
}

/// Under the measured engines, what the calibrated numbers beside it rest on: "Measured engines
/// (vLLM), transferred: each calibrated time likely -20.3% to +27.3% of its value."; `None` under any
/// other cost model.
pub fn coverage_note(scenario: &Scenario) -> Option<String> {
    let CostModel::Measured(engine) = scenario.calibration else { return None };
    let r = likely_range(scenario)?;
    Some(format!(
        "Measured engines ({}), {}: each calibrated time likely {} of its value.",
        engine.name(),
        r.coverage.word(),
        range_text(&r)
    ))
}

/// "Measured engines (vLLM): median TPOT error 0.4% (worst 1.3%) on its 4 published runs; likely
/// range here -21.0% to +15.1% (fitted)", for the chosen engine, and what the data lack here.
pub fn accuracy_line(scenario: &Scenario, engine: Engine) -> String {
    let own: Vec<_> = POINTS.iter().filter(|p| p.engine == engine).copied().collect();
    let s = summarize(&tpot_errors(&own, &PROFILE));
    let measured = Scenario { calibration: CostModel::Measured(engine), ..*scenario };
    let range = likely_range(&measured)
        .map(|r| format!("; likely range here {} ({})", range_text(&r), r.coverage.word()))
        .unwrap_or_default();
    let family = Family::of(scenario.gpu.id);
    let on_family = fitted_rows(POINTS).iter().any(|p| p.engine == engine && Family::of(p.gpu_id) == family);
    let missing = if on_family {
        String::new()
    } else {
        format!(". No published run of {} on a GPU like the {}", engine.name(), scenario.gpu.name)
    };
    format!(
        "Measured engines ({}): median TPOT error {} (worst {}) on its {} published runs{range}{missing}",
        engine.name(),
        percent(s.median_abs_error),
        percent(s.worst_abs_error),
        s.count
    )
}

/// Where the scenario's measured terms come from when they are not fitted on its GPU, as a sentence;
/// `None` when every one is.
pub fn provenance_line(scenario: &Scenario) -> Option<String> {
    let measured = Scenario { calibration: CostModel::Measured(Engine::Vllm), ..*scenario };
    if likely_range(&measured).map(|r| r.coverage.gpu) == Some(GpuCoverage::NotMeasured) {
        return Some(format!(
            "Not measured: no published run on a GPU of the {}'s vendor and generation, so its terms are the \
             published priors (80% of HBM bandwidth, the large-GEMM ceiling, the link's all-reduce latency).",
            scenario.gpu.name
        ));
    }
    let borrowed: Vec<String> = PROFILE
        .provenance(scenario)
        .into_iter()
        .filter(|(_, r)| r.origin != Origin::Fitted)
        .map(|(slot, r)| match r.origin {
            Origin::SameGeneration(id) => format!("{} from {id} (same generation)", slot.label()),
            Origin::Held => format!(
                "{} at its published prior, {} (its rows do not identify it)",
                slot.label(),
                percent(r.value)
            ),
            _ => format!("{} at its published prior, {}", slot.label(), percent(r.value)),
        })
        .collect();
    (!borrowed.is_empty())
        .then(|| format!("Not fitted on the {}; transferred: {}.", scenario.gpu.name, borrowed.join("; ")))
}
