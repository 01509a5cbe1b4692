//! The simulator's "Traffic trace" block: paste, choose or drop a trace file, read it on the page
//! (nothing is sent anywhere), show its format, statistics and remarks or the error naming the line
//! and field; "Clear" and "Use its mean lengths". [`TraceState`] holds the loaded trace beside the
//! `trace` URL key, kept in step with it, for the simulator to replay.

use std::sync::Arc;

use leptos::prelude::*;

use crate::core::traffic::stats::{content_hash, LengthStats, TraceStats};
use crate::core::traffic::RequestTrace;
use crate::protocol::panel::ToPage;
use crate::state::measured::article;
use crate::state::trace::url::{resolve, Resolve, TraceKey, TraceSummary};
use crate::state::trace::{format_label, grouped, read_trace};
use crate::ui::context::panel::PanelContext;
use crate::ui::widgets::file_drop::{DropSpec, FileDrop, FileText};
use crate::view::format::{percent, significant, thousands};

/// A trace the page holds: the trace, its statistics and hash, where it came from and its remarks.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub trace: Arc<RequestTrace>,
    pub stats: TraceStats,
    pub hash: u64,
    pub source: String,
    pub remarks: Vec<String>,
}

impl Loaded {
    fn new(trace: RequestTrace, source: String, remarks: Vec<String>) -> Loaded {
        let (stats, hash) = (TraceStats::of(&trace), content_hash(&trace));
        Loaded { trace: Arc::new(trace), stats, hash, source, remarks }
    }
}

/// The simulator body's trace: the one loaded (or decoded from an inline `trace` key) and the last
/// file's error. Provided by the simulator's body; the `trace` key follows every load and clear.
#[derive(Clone, Copy)]
pub struct TraceState {
    pub loaded: RwSignal<Option<Loaded>>,
    pub error: RwSignal<Option<String>>,
    /// The body's context, taken once: a file's text arrives outside any reactive owner.
    ctx: PanelContext,
}

impl TraceState {
    /// Makes the state, provides it to the body and keeps it in step with the `trace` key: an
    /// inline key is decoded, a summary keeps the trace only when its hash matches, no key clears it.
    pub fn provide() -> TraceState {
        let ctx = PanelContext::get();
        let state = TraceState { loaded: RwSignal::new(None), error: RwSignal::new(None), ctx };
        provide_context(state);
        let inputs = ctx.inputs;
        let key = Memo::new(move |_| inputs.get().trace);
        Effect::new(move |_| {
            let held = state.loaded.with_untracked(|l| l.as_ref().map(|l| l.hash));
            match resolve(&key.get(), held) {
                Resolve::Keep => {}
                Resolve::Inline(trace) => {
                    state.loaded.set(Some(Loaded::new(trace, "The link".into(), Vec::new())))
                }
                Resolve::Clear | Resolve::Needed(_) => state.loaded.set(None),
            }
        });
        state
    }

    /// The body's state, as [`TraceState::provide`] provided it.
    pub fn get() -> TraceState {
        expect_context::<TraceState>()
    }

    /// The trace the simulator should replay, if any (tracked: a sweep follows a load or clear).
    /// The simulator's sweep wiring reads it (`TraceState::get().active()` in the body).
    pub fn active(self) -> Option<Arc<RequestTrace>> {
        self.loaded.with(|l| l.as_ref().map(|l| l.trace.clone()))
    }

    /// [`TraceState::active`], untracked (the sweep's request, inside the effect that tracks it).
    pub fn active_untracked(self) -> Option<Arc<RequestTrace>> {
        self.loaded.with_untracked(|l| l.as_ref().map(|l| l.trace.clone()))
    }

    /// Reads the first readable file of a load action into the page, or shows its error.
    fn load(self, files: Vec<FileText>) {
        let Some((name, text)) = files.into_iter().next() else { return };
        match text.map_err(|e| e.to_string()).and_then(|t| read_trace(&t).map_err(|e| e.message)) {
            Ok(upload) => {
                let key = TraceKey::of(&upload.trace);
                self.loaded.set(Some(Loaded::new(upload.trace, name, upload.remarks)));
                self.error.set(None);
                self.ctx.update(|i| i.trace = key);
            }
            Err(message) => self.error.set(Some(format!("{name}: {message}"))),
        }
    }

    fn clear(self) {
        self.loaded.set(None);
        self.error.set(None);
        self.ctx.update(|i| i.trace = TraceKey::None);
    }
}

/// The block: its input, then the trace's summary, statistics and buttons, or the error.
#[component]
pub fn TraceBlock() -> impl IntoView {
    let state = TraceState::get();
    view! {
        <section id="trace-block" class="trace-block" aria-labelledby="trace-heading">
            // Not a heading: the block sits under the simulator's heading at whatever level an embed gives it.
            <p id="trace-heading"><strong>"Traffic trace"</strong></p>
            <p class="hint">"Replay recorded traffic: a Mooncake trace (JSON lines), an Azure LLM inference trace or \
                BurstGPT CSV, or a CSV of arrival_s, prompt_tokens, output_tokens (optionally session). It is read on \
                this page and sent nowhere."</p>
            <TraceInput state=state/>
            <TraceNeeded state=state/>
            {move || state.error.get().map(|e| view! { <p id="trace-error" class="measured-error" role="alert">{e}</p> })}
            {move || state.loaded.get().map(|l| view! { <TraceSummaryView loaded=l/> })}
        </section>
    }
}

/// The trace's drop zone: one file at a time.
#[component]
fn TraceInput(state: TraceState) -> impl IntoView {
    let spec = DropSpec {
        drop_id: "trace-drop",
        text_id: "trace-input",
        text_label: "Paste a trace",
        rows: 3,
        placeholder: "arrival_s,prompt_tokens,output_tokens\n0,512,128",
        button_id: "trace-read",
        button_label: "Read trace",
        file_id: "trace-file",
        file_label: "Choose a file",
        multiple: false,
        accept: ".jsonl,.json,.csv,.txt,application/json,text/csv",
        hint: "or drop one here",
    };
    let load = move |files: Vec<FileText>| state.load(files);
    view! { <FileDrop spec=spec load=load/> }
}

/// A link's summary key naming a trace this page does not hold: which trace to load.
#[component]
fn TraceNeeded(state: TraceState) -> impl IntoView {
    let PanelContext { inputs, .. } = PanelContext::get();
    let needed = Memo::new(move |_| {
        let held = state.loaded.with(|l| l.as_ref().map(|l| l.hash));
        match resolve(&inputs.get().trace, held) {
            Resolve::Needed(summary) => Some(summary),
            _ => None,
        }
    });
    move || {
        needed.get().map(|s: TraceSummary| view! {
        <p id="trace-needed" class="notice" role="status">
            {format!("This link replays a trace of {} that is not in this page: load that file here. Until then the \
                simulator uses its own arrivals and lengths.", s.describe())}
        </p>
    })
    }
}

/// "mean 937 · p50 600 · p90 1,536 · p99 1,536 · max 1,536".
fn lengths_text(l: &LengthStats) -> String {
    let n = |x: u32| thousands(f64::from(x));
    format!(
        "mean {} · p50 {} · p90 {} · p99 {} · max {}",
        significant(l.mean),
        n(l.p50),
        n(l.p90),
        n(l.p99),
        n(l.max)
    )
}

/// The statistics table's rows: (what, value).
fn stats_rows(l: &Loaded) -> Vec<(&'static str, String)> {
    let s = &l.stats;
    let rate = s.rate_req_per_s.map_or("all at once".to_string(), |r| format!("{} req/s", significant(r)));
    let gaps =
        format!("mean {} s, CV {}", significant(s.inter_arrival_mean_s), significant(s.inter_arrival_cv));
    let mut rows = vec![
        ("Format", format_label(l.trace.format).to_string()),
        ("Requests", grouped(u64::from(s.requests))),
        ("Duration", format!("{} s", significant(s.duration_s))),
        ("Mean rate", rate),
        ("Inter-arrival", gaps),
        ("Prompt tokens", lengths_text(&s.prompt_tokens)),
        ("Output tokens", lengths_text(&s.output_tokens)),
    ];
    if s.sessions > 0 {
        rows.insert(2, ("Sessions", grouped(u64::from(s.sessions))));
    }
    let blocks = format!("{} (blocks of {} tokens)", percent(s.reuse_ceiling), l.trace.block_tokens);
    rows.push(("Reuse ceiling", blocks));
    rows.push(("Content hash", format!("{:016x}", l.hash)));
    rows
}

/// The loaded trace: where from, its statistics and remarks, and the two buttons.
#[component]
fn TraceSummaryView(loaded: Loaded) -> impl IntoView {
    let state = TraceState::get();
    let ctx = state.ctx;
    let (prompt, output) = (loaded.stats.prompt_tokens.mean, loaded.stats.output_tokens.mean);
    let use_lengths = move |_| {
        let round = |x: f64| x.round().max(1.0) as u32;
        ctx.send(ToPage::Lengths { prompt_tokens: round(prompt), output_tokens: round(output) });
    };
    let (n, label) = (loaded.stats.requests, format_label(loaded.trace.format));
    let plural = if n == 1 { "" } else { "s" };
    let summary = format!(
        "{}: {} request{plural} from {} {label}.",
        loaded.source,
        grouped(u64::from(n)),
        article(label)
    );
    let rows = stats_rows(&loaded);
    view! {
        <div id="trace-status" class="measured-status" role="status">
            <p>{summary}</p>
            <ul id="trace-remarks">{loaded.remarks.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()}</ul>
        </div>
        <table id="trace-stats" class="trace-stats">
            <tbody>{rows.into_iter().map(|(k, v)| view! { <tr><th scope="row">{k}</th><td>{v}</td></tr> }).collect_view()}</tbody>
        </table>
        <div class="measured-actions">
            <button type="button" id="trace-use-lengths" on:click=use_lengths>"Use its mean lengths"</button>
            <button type="button" id="trace-clear" on:click=move |_| state.clear()>"Clear"</button>
        </div>
    }
}
