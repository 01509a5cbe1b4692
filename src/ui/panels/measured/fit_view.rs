//! The measured panel's fit: achieved bandwidth, overhead and residuals with the button that uses them,
//! and the points beside the fitted and roofline step times.

use crate::core::fit::{fitted_step_s, Fit, FitError, FitWarning};
use crate::core::units::s_to_ms;
use crate::protocol::panel::ToPage;
use crate::state::calibration::clamped;
use crate::ui::context::panel::PanelContext;
use crate::view::format::{fixed, ms, percent, thousands};
use leptos::prelude::*;

/// The fit's numbers and warnings, "Use this fit" and "Clear".
#[component]
pub(crate) fn FitReadout(
    fit: Memo<Result<Fit, FitError>>,
    clear: impl Fn() + Copy + 'static,
) -> impl IntoView {
    let PanelContext { inputs, changes, .. } = PanelContext::get();
    let (applied, set_applied) = signal(Vec::<String>::new());
    let apply = move |_| {
        if let Ok(f) = fit.get_untracked() {
            let (calibration, notes) = clamped(&f);
            changes.send(ToPage::Realistic(calibration));
            set_applied.set(notes);
        }
    };
    let in_use = move || fit.get().ok().map(|f| clamped(&f).0) == inputs.get().realistic();
    view! {
        {move || match fit.get() {
            Ok(f) => fit_numbers(&f).into_any(),
            Err(e) => view! { <p id="fit-error" class="measured-error" role="alert">{fit_error(e)}</p> }.into_any(),
        }}
        <div class="measured-actions">
            <button type="button" id="use-fit" class="fix" on:click=apply disabled=move || fit.get().is_err()>
                "Use this fit"
            </button>
            <button type="button" id="clear-measured" on:click=move |_| { clear(); set_applied.set(Vec::new()); }>
                "Clear"
            </button>
            <span id="fit-in-use" class="hint">{move || in_use().then_some("Realistic mode uses this fit.")}</span>
        </div>
        <ul id="fit-applied" class="measured-notes">
            {move || applied.get().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
        </ul>
    }
}

/// MBU, overhead, residual, R² and points used, then the warnings.
pub(crate) fn fit_numbers(f: &Fit) -> impl IntoView {
    let r2 = f.r_squared.map_or_else(|| "–".to_string(), |r| fixed(r, 4));
    let warnings: Vec<String> = f.warnings.iter().map(|w| warning_text(*w)).collect();
    view! {
        <dl id="fit" class="plan fit">
            <dt>"Achieved bandwidth (MBU)"</dt><dd id="fit-mbu">{percent(f.mbu)}</dd>
            <dt>"Overhead per step"</dt><dd id="fit-overhead">{format!("{} ms", ms(f.step_overhead_s))}</dd>
            <dt>"Residual (RMS)"</dt><dd id="fit-rms">{format!("{} ms", fixed(s_to_ms(f.rms_residual_s), 3))}</dd>
            <dt>"R²"</dt><dd id="fit-r2">{r2}</dd>
            <dt>"Points used"</dt><dd id="fit-points">{f.points_used}</dd>
        </dl>
        <ul id="fit-warnings" class="measured-notes warn">
            {warnings.into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}
        </ul>
    }
}

/// Why there is no fit, and what to check.
pub(crate) fn fit_error(e: FitError) -> &'static str {
    match e {
        FitError::NoPoints => "No points to fit.",
        FitError::NoSlope => {
            "No fit: the measured TPOT does not grow with the bytes a step reads, so no bandwidth explains it. \
             Check that the model, GPU and context above match the benchmark."
        }
        FitError::NoBytes => "No fit: this scenario reads no bytes per step.",
    }
}

/// One warning as a sentence.
pub(crate) fn warning_text(w: FitWarning) -> String {
    match w {
        FitWarning::OverheadFixedAtZero => "All points share one batch, so the overhead cannot be told apart from the \
            bandwidth: it is fixed at 0 and MBU alone is fitted. Measure two or more concurrencies."
            .to_string(),
        FitWarning::NegativeOverhead => "The fitted overhead is negative: your step time grows faster with the batch \
            than this scenario's bytes do. Check the context length (input plus half the output) and the KV precision."
            .to_string(),
        FitWarning::MbuAboveOne => "MBU above 100%: your steps are faster than peak bandwidth allows. Check that \
            the model, GPU, precisions and context match the benchmark (prefix caching and speculative decoding also do this)."
            .to_string(),
        FitWarning::ComputeBound { batch } => format!(
            "From batch {} on the roofline is compute-bound; the fit assumes memory-bound steps, so those points bias it.",
            thousands(f64::from(batch))
        ),
    }
}

/// The points as text: batch, measured TPOT and the fit's step time there.
#[component]
pub(crate) fn PointsTable(fit: Memo<Result<Fit, FitError>>) -> impl IntoView {
    let PanelContext { scenario, your_points: points, .. } = PanelContext::get();
    let rows = move || {
        let (s, f) = (scenario.get(), fit.get().ok());
        let mut pts = points.get();
        pts.sort_by_key(|p| p.batch);
        pts.into_iter()
            .map(|p| {
                let fitted = f.as_ref().map_or_else(|| "–".to_string(), |f| ms(fitted_step_s(&s, f, p.batch)));
                view! { <tr><th scope="row">{thousands(f64::from(p.batch))}</th><td>{ms(p.tpot_s)}</td><td>{fitted}</td></tr> }
            })
            .collect_view()
    };
    view! {
        <details class="measured-points">
            <summary>"Points"</summary>
            <table id="measured-table">
                <thead><tr>
                    <th scope="col">"Batch"</th><th scope="col">"Your TPOT (ms)"</th><th scope="col">"Fit (ms)"</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </details>
    }
}
