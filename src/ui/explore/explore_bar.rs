//! The explore bar above the charts: Animate/Stop (and the `a` key) sweeping the marked batch or the
//! TPOT target on a timer, and the mark's Unmark button; beside it the polite live region that reads
//! out the hovered or marked batch.

use std::time::Duration;

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::state::animation::{batch_animation, tpot_animation, AnimationKind};
use crate::state::Inputs;
use crate::ui::context::linked::Linked;
use crate::ui::context::page::{PageMemos, PageState};
use crate::view::batch_chart::readout_sentence;
use crate::view::format::thousands;

/// One value the animation applies (a marked batch or a TPOT target; not a simulator step).
#[derive(Clone, Copy)]
enum AnimationStep {
    Mark(u32),
    Tpot(f64),
}

/// The running sweep's next step's timer, if any.
type Timer = StoredValue<Option<TimeoutHandle>>;

/// Animate/Stop, what to sweep, Unmark, and the live read-out.
#[component]
pub fn ExploreBar() -> impl IntoView {
    let (linked, set_inputs) = (PageMemos::get().linked, PageState::get().set_inputs);
    let (kind, set_kind) = signal(AnimationKind::Batch);
    let timer: Timer = StoredValue::new(None);
    let toggle = move || {
        if linked.animating.get_untracked() {
            stop(timer, linked);
        } else {
            start(kind.get_untracked(), timer, linked, set_inputs);
        }
    };
    let keys = window_event_listener(ev::keydown, move |e| {
        if is_animate_key(&e) {
            e.prevent_default();
            toggle();
        }
    });
    on_cleanup(move || {
        keys.remove();
        stop(timer, linked);
    });
    let mark = move || linked.view.get().mark_batch;
    let on_kind = move |e: ev::Event| {
        let tpot = event_target_value(&e) == "tpot";
        set_kind.set(if tpot { AnimationKind::Tpot } else { AnimationKind::Batch })
    };
    view! {
        <div class="explore-bar" role="group" aria-label="Explore the charts">
            <button type="button" id="animate" aria-pressed=move || linked.animating.get().to_string()
                aria-keyshortcuts="a" on:click=move |_| toggle()>
                {move || if linked.animating.get() { "Stop" } else { "Animate" }}
            </button>
            <label for="animate-what">"Sweep"</label>
            <select id="animate-what" on:change=on_kind prop:disabled=move || linked.animating.get()>
                <option value="batch" selected=true>"the marked batch"</option>
                <option value="tpot">"the TPOT target"</option>
            </select>
            <Show when=move || mark().is_some()>
                <button type="button" id="unmark" on:click=move |_| {
                    stop(timer, linked);
                    linked.set_mark(None);
                }>{move || format!("Unmark batch {}", thousands(f64::from(mark().unwrap_or(0))))}</button>
            </Show>
            <p class="explore-hint">"Point at a chart, or click a table row to mark a batch."</p>
        </div>
        <p id="explore-live" class="visually-hidden" aria-live="polite" aria-busy=move || linked.animating.get().to_string()>
            {move || linked.shown.get().map(|p| readout_sentence(&p)).unwrap_or_default()}
        </p>
    }
}

/// `a` with no modifier, not typed into a field.
fn is_animate_key(e: &web_sys::KeyboardEvent) -> bool {
    if e.key() != "a" || e.ctrl_key() || e.meta_key() || e.alt_key() || e.repeat() || e.default_prevented() {
        return false;
    }
    let target = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    let typing =
        |el: web_sys::Element| el.closest("input, textarea, select, [contenteditable]").ok().flatten();
    target.is_none_or(|el| typing(el).is_none())
}

/// True when the reader asks for reduced motion.
fn prefers_reduced_motion() -> bool {
    let query =
        web_sys::window().and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten());
    query.is_some_and(|q| q.matches())
}

/// Plans the sweep from the current scenario, applies its first step and starts the timer.
fn start(kind: AnimationKind, timer: Timer, linked: Linked, set_inputs: WriteSignal<Inputs>) {
    stop(timer, linked);
    let reduced = prefers_reduced_motion();
    let (steps, interval_ms): (Vec<AnimationStep>, u32) = match kind {
        AnimationKind::Batch => {
            let plan = linked.analysis.with_untracked(|analysis| batch_animation(analysis, reduced));
            (plan.steps.into_iter().map(AnimationStep::Mark).collect(), plan.interval_ms)
        }
        AnimationKind::Tpot => {
            let plan = linked.scenario.with_untracked(|scenario| {
                linked.analysis.with_untracked(|analysis| tpot_animation(scenario, analysis, reduced))
            });
            (plan.steps.into_iter().map(AnimationStep::Tpot).collect(), plan.interval_ms)
        }
    };
    let apply = move |step: AnimationStep| match step {
        AnimationStep::Mark(b) => linked.set_mark(Some(b)),
        AnimationStep::Tpot(t) => set_inputs.update(|i| i.scenario.tpot_target_s = t),
    };
    let Some(&first) = steps.first() else { return };
    apply(first);
    linked.animating.set(true);
    let sweep = AnimationSweep { steps, interval: Duration::from_millis(u64::from(interval_ms)), apply };
    schedule(sweep, 1, timer, linked);
}

/// The animation running: its steps, the time each is shown, and how a step is applied (not the
/// simulator's `core::sim::Sweep`).
struct AnimationSweep<F> {
    steps: Vec<AnimationStep>,
    interval: Duration,
    apply: F,
}

/// Arms the timer for step `next`, a full interval from now: each step is shown at least that
/// long, however late the previous one came (an interval timer keeps its cadence, so a late tick
/// is followed by an early one: two jumps well under a second apart with reduced motion).
fn schedule<F: Fn(AnimationStep) + 'static>(
    sweep: AnimationSweep<F>,
    next: usize,
    timer: Timer,
    linked: Linked,
) {
    let interval = sweep.interval;
    let tick = move || match sweep.steps.get(next) {
        Some(&step) => {
            (sweep.apply)(step);
            schedule(sweep, next + 1, timer, linked);
        }
        None => stop(timer, linked),
    };
    match set_timeout_with_handle(tick, interval) {
        Ok(handle) => timer.set_value(Some(handle)),
        Err(e) => {
            leptos::logging::warn!("animate: no timer: {e:?}");
            stop(timer, linked);
        }
    }
}

/// Clears the timer, if one runs, and says the sweep is over.
fn stop(timer: Timer, linked: Linked) {
    if let Some(handle) = timer.get_value() {
        handle.clear();
        timer.set_value(None);
    }
    if linked.animating.get_untracked() {
        linked.animating.set(false);
    }
}
