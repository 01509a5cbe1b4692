//! The measured-data panel: paste, choose or drop a `vllm bench serve` result or a CSV of (batch,
//! TPOT ms); the points go on the step-time chart, and the fitted achieved bandwidth (MBU) and
//! per-step overhead are shown with a button that turns realistic mode on with them.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use web_sys::{DragEvent, File, FileReader, HtmlInputElement};

use super::channel::{panel_body, Changes};
use crate::core::fit::{fitted_step_s, Fit, FitError, FitWarning, MeasuredPoint};
use crate::core::roofline::{Calibration, Scenario};
use crate::core::units::s_to_ms;
use crate::format::{fixed, ms, percent, thousands};
use crate::panel_protocol::{PanelKind, PanelState, ToPage};
use crate::state::fields::{trim_decimal, MBU, OVERHEAD};
use crate::state::measured::{parse_upload, BATCH_FIELD, TPOT_FIELD};
use crate::state::{Inputs, Notice};

/// Files larger than this are refused before reading (a detailed vLLM result is a few MB).
const MAX_FILE_BYTES: f64 = 32e6;

/// What the last paste, file or drop gave.
#[derive(Clone, Debug, PartialEq)]
enum Status {
    Idle,
    /// A one-line summary and any remarks.
    Loaded(String, Vec<String>),
    /// What was wrong and where.
    Failed(String),
}

/// The panel: its heading and what it reads, then its body once asked for (or at once when the
/// link carries points). `points` is the page's measured state (also in the URL); `fit` is its fit.
#[component]
pub fn MeasuredPanel(
    inputs: ReadSignal<Inputs>,
    scenario: Memo<Scenario>,
    points: ReadSignal<Vec<MeasuredPoint>>,
    fit: Memo<Result<Fit, FitError>>,
) -> impl IntoView {
    let state = expect_context::<Memo<PanelState>>();
    let (asked, set_asked) = signal(!points.get_untracked().is_empty());
    let ask = move || {
        view! {
            <button type="button" id="measured-open" on:click=move |_| set_asked.set(true)>"Add measured step times"</button>
        }
    };
    view! {
        <section id="measured" class="panel measured" aria-labelledby="measured-title">
            <h2 id="measured-title">"Measured step times"</h2>
            <Intro/>
            <Show when=move || asked.get() fallback=ask>
                {panel_body(PanelKind::Measured, state, move || view! {
                    <MeasuredBody inputs=inputs scenario=scenario points=points fit=fit/>
                }.into_any())}
            </Show>
        </section>
    }
}

/// The body: paste, choose or drop a file; what it gave; the fit and the points. Its changes go to
/// the page through the [`Changes`] in context.
#[component]
pub fn MeasuredBody(
    inputs: ReadSignal<Inputs>,
    scenario: Memo<Scenario>,
    points: ReadSignal<Vec<MeasuredPoint>>,
    fit: Memo<Result<Fit, FitError>>,
) -> impl IntoView {
    let changes = Changes::from_context();
    let (status, set_status) = signal(Status::Idle);
    let load = move |source: String, text: Result<String, String>| {
        let parsed = text.and_then(|t| parse_upload(&t));
        match parsed {
            Ok(u) => {
                let n = u.points.len();
                let summary =
                    format!("{source}: {n} point{} from a {}.", if n == 1 { "" } else { "s" }, u.format);
                changes.send(ToPage::Measured(u.points));
                set_status.set(Status::Loaded(summary, u.remarks));
            }
            Err(e) => set_status.set(Status::Failed(format!("{source}: {e}"))),
        }
    };
    let clear = move || {
        changes.send(ToPage::Measured(Vec::new()));
        set_status.set(Status::Idle);
    };
    view! {
        <MeasuredInput load=load/>
        <StatusLine status=status/>
        <Show when=move || !points.get().is_empty()>
            <FitReadout inputs=inputs fit=fit clear=clear/>
            <PointsTable scenario=scenario points=points fit=fit/>
        </Show>
    }
}

/// What the panel reads and the assumption it makes.
#[component]
fn Intro() -> impl IntoView {
    view! {
        <p class="measured-intro">
            "Overlay your own measurements on the step-time chart and fit the realistic calibration to them. "
            "A " <code>"vllm bench serve"</code> " result (" <code>"--save-result"</code> "; one JSON object, an array, "
            "or JSON lines from " <code>"--append-result"</code> ", one run per concurrency) gives one point per run: "
            <code>{BATCH_FIELD}</code> " is taken as the decode batch (with the default unlimited request rate the "
            "benchmark keeps that many requests running) and " <code>{TPOT_FIELD}</code> " as its step time. "
            "A CSV needs two columns: batch, TPOT in ms. The fit uses the scenario set above, so match the model, GPU, "
            "precisions and tensor parallelism, and set the context to the benchmark's input length plus half its output."
        </p>
    }
}

/// The textarea with its button, the file chooser and the drop zone around them.
#[component]
fn MeasuredInput(load: impl Fn(String, Result<String, String>) + Copy + 'static) -> impl IntoView {
    let (text, set_text) = signal(String::new());
    let (dragging, set_dragging) = signal(false);
    let on_file = move |ev: leptos::ev::Event| {
        let input = event_target::<HtmlInputElement>(&ev);
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            read_file(file, load);
        }
        input.set_value("");
    };
    let on_drop = move |ev: DragEvent| {
        ev.prevent_default();
        set_dragging.set(false);
        let data = ev.data_transfer();
        if let Some(file) = data.as_ref().and_then(|d| d.files()).and_then(|f| f.get(0)) {
            read_file(file, load);
        } else if let Some(t) = data.and_then(|d| d.get_data("text/plain").ok()).filter(|t| !t.is_empty()) {
            load("Dropped text".to_string(), Ok(t));
        }
    };
    let on_dragover = move |ev: DragEvent| {
        ev.prevent_default();
        set_dragging.set(true);
    };
    view! {
        <div id="measured-drop" class="measured-drop" class:dragging=move || dragging.get()
            on:dragover=on_dragover on:dragleave=move |_| set_dragging.set(false) on:drop=on_drop>
            <label for="measured-text">"Paste a result (JSON) or CSV rows (batch, TPOT ms)"</label>
            <textarea id="measured-text" rows="4" spellcheck="false" placeholder="1,7.9\n16,8.2\n64,11.5"
                prop:value=move || text.get() on:input=move |ev| set_text.set(event_target_value(&ev))></textarea>
            <div class="measured-actions">
                <button type="button" id="measured-plot" on:click=move |_| load("Pasted text".to_string(), Ok(text.get_untracked()))>
                    "Plot and fit"
                </button>
                <label for="measured-file" class="file-label">"Choose a file"</label>
                <input type="file" id="measured-file" accept=".json,.jsonl,.csv,.tsv,.txt,application/json,text/csv"
                    on:change=on_file/>
                <span class="hint">"or drop one here"</span>
            </div>
        </div>
    }
}

/// Reads `file` as text and hands it to `load` under its name; a file too large or unreadable gets
/// a message instead.
fn read_file(file: File, load: impl Fn(String, Result<String, String>) + Copy + 'static) {
    let name = file.name();
    if file.size() > MAX_FILE_BYTES {
        let mb = thousands(file.size() / 1e6);
        return load(name, Err(format!("the file is {mb} MB; the page reads files up to 32 MB.")));
    }
    let Ok(reader) = FileReader::new() else {
        return load(name, Err("the browser cannot read files.".into()));
    };
    let (done, failed) = (reader.clone(), name.clone());
    let on_load = Closure::once_into_js(move || match done.result().ok().and_then(|v| v.as_string()) {
        Some(text) => load(name, Ok(text)),
        None => load(name, Err("the file could not be read as text.".to_string())),
    });
    let on_error =
        Closure::once_into_js(move || load(failed, Err("the file could not be read.".to_string())));
    reader.set_onload(Some(on_load.unchecked_ref()));
    reader.set_onerror(Some(on_error.unchecked_ref()));
    if reader.read_as_text(&file).is_err() {
        leptos::logging::warn!("reading a measured file failed to start");
    }
}

/// The last load's summary and remarks, or what was wrong with it.
#[component]
fn StatusLine(status: ReadSignal<Status>) -> impl IntoView {
    move || match status.get() {
        Status::Idle => ().into_any(),
        Status::Loaded(summary, remarks) => view! {
            <div id="measured-status" class="measured-status" role="status">
                <p>{summary}</p>
                <ul>{remarks.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()}</ul>
            </div>
        }
        .into_any(),
        Status::Failed(message) => view! {
            <p id="measured-error" class="measured-error" role="alert">{message}</p>
        }
        .into_any(),
    }
}

/// The fit's numbers and warnings, "Use this fit" and "Clear".
#[component]
fn FitReadout(
    inputs: ReadSignal<Inputs>,
    fit: Memo<Result<Fit, FitError>>,
    clear: impl Fn() + Copy + 'static,
) -> impl IntoView {
    let (applied, set_applied) = signal(Vec::<String>::new());
    let changes = Changes::from_context();
    let apply = move |_| {
        if let Ok(f) = fit.get_untracked() {
            let (calibration, notes) = clamped_calibration(&f);
            changes.send(ToPage::Realistic(calibration));
            set_applied.set(notes);
        }
    };
    let in_use = move || fit.get().ok().map(|f| clamped_calibration(&f).0) == inputs.get().realistic();
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
fn fit_numbers(f: &Fit) -> impl IntoView {
    let r2 = f.r_squared.map_or_else(|| "–".to_string(), |r| fixed(r, 4));
    let warnings: Vec<String> = f.warnings.iter().map(|w| warning_text(*w)).collect();
    view! {
        <dl id="fit" class="plan fit">
            <dt>"Achieved bandwidth (MBU)"</dt><dd id="fit-mbu">{percent(f.mbu)}</dd>
            <dt>"Overhead per step"</dt><dd id="fit-overhead">{format!("{} ms", ms(f.overhead_s))}</dd>
            <dt>"Residual (RMS)"</dt><dd id="fit-rms">{format!("{} ms", fixed(s_to_ms(f.rms_residual_s), 3))}</dd>
            <dt>"R²"</dt><dd id="fit-r2">{r2}</dd>
            <dt>"Points used"</dt><dd id="fit-points">{f.points_used}</dd>
        </dl>
        <ul id="fit-warnings" class="measured-notes warn">
            {warnings.into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}
        </ul>
    }
}

/// The fit as a calibration inside the MBU and overhead controls' ranges, with a note for each
/// value that had to be clamped (the same message a URL value gets).
fn clamped_calibration(f: &Fit) -> (Calibration, Vec<String>) {
    let mut notices: Vec<Notice> = Vec::new();
    let mbu_text = trim_decimal(MBU.to_display(f.mbu));
    let overhead_text = trim_decimal(OVERHEAD.to_display(f.overhead_s));
    let d = Calibration::REALISTIC_DEFAULT;
    let mbu = MBU.read(Some(&mbu_text), d.mbu, &mut notices);
    let overhead_s = OVERHEAD.read(Some(&overhead_text), d.overhead_s, &mut notices);
    let notes = notices
        .into_iter()
        .map(|notice| format!("The fit is outside the control's range: {}", notice.message));
    (Calibration { mbu, overhead_s }, notes.collect())
}

/// Why there is no fit, and what to check.
fn fit_error(e: FitError) -> &'static str {
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
fn warning_text(w: FitWarning) -> String {
    match w {
        FitWarning::OverheadFixedAtZero => "All points share one batch, so the overhead cannot be told apart from the \
            bandwidth: it is fixed at 0 and MBU alone is fitted. Measure two or more concurrencies."
            .to_string(),
        FitWarning::NegativeOverhead => "The fitted overhead is negative: the measured step grows faster with the batch \
            than this scenario's bytes do. Check the context length (input plus half the output) and the KV precision."
            .to_string(),
        FitWarning::MbuAboveOne => "MBU above 100%: the measured steps are faster than peak bandwidth allows. Check that \
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
fn PointsTable(
    scenario: Memo<Scenario>,
    points: ReadSignal<Vec<MeasuredPoint>>,
    fit: Memo<Result<Fit, FitError>>,
) -> impl IntoView {
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
                    <th scope="col">"Batch"</th><th scope="col">"Measured TPOT (ms)"</th><th scope="col">"Fit (ms)"</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </details>
    }
}
