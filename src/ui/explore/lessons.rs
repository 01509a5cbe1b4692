//! The lesson bar: one button per lesson (pressed while its state is on screen), the lesson's
//! sentence as a polite status line, and the key legend (loading a lesson is
//! [`PageState::load_lesson`], which the keyboard shares).

use leptos::prelude::*;

use crate::state::lessons::{active, lesson, LESSONS};
use crate::ui::context::page::PageState;

/// The bar above the results.
#[component]
pub fn LessonBar() -> impl IntoView {
    let page = PageState::get();
    let PageState { inputs, view, legend, .. } = page;
    let current = Memo::new(move |_| active(&inputs.get(), &view.get()).map(|l| l.number));
    let buttons = LESSONS
        .iter()
        .map(|l| {
            let n = l.number;
            view! {
                <button type="button" class="lesson" data-lesson=n aria-keyshortcuts=n.to_string()
                    aria-pressed=move || (current.get() == Some(n)).to_string()
                    on:click=move |_| page.load_lesson(n)>
                    <span class="lesson-number">{n}</span>" "{l.title}
                </button>
            }
        })
        .collect_view();
    view! {
        <nav id="lessons" class="lessons" aria-label="Lessons">
            <div class="lesson-buttons" role="group" aria-label="Lessons: keys 1 to 9">{buttons}</div>
            <p id="lesson-caption" class="lesson-caption" role="status" aria-live="polite"
                data-lesson=move || current.get().map(|n| n.to_string())>
                {move || caption(current.get(), view.get().lesson)}
            </p>
            <KeyLegend legend=legend/>
        </nav>
    }
}

/// The active lesson's title and sentence; after a change, why it is gone; else how to start.
fn caption(current: Option<u8>, loaded: Option<u8>) -> impl IntoView {
    match (current.and_then(lesson), loaded) {
        (Some(l), _) => view! {
            <strong class="lesson-title">{format!("Lesson {}: {}. ", l.number, l.title)}</strong>
            <span class="lesson-text">{l.text}</span>
            " "<span class="lesson-calib">{l.calibration_note()}</span>
        }
        .into_any(),
        (None, Some(n)) => view! {
            <span class="lesson-changed">{format!(
                "A setting changed since lesson {n} loaded, so its sentence no longer describes the page; press {n} to reload it."
            )}</span>
        }
        .into_any(),
        (None, None) => view! {
            <span class="lesson-hint">"Six lessons walk through the worked example's argument, then disaggregation, speculative decoding and wide expert parallelism: pick one, or press 1 to 9. P presents."</span>
        }
        .into_any(),
    }
}

/// The keys, always shown while presenting; `?` shows it on the page.
#[component]
fn KeyLegend(legend: ReadSignal<bool>) -> impl IntoView {
    view! {
        <p id="key-legend" class="key-legend" class:open=move || legend.get()>
            <kbd>"1"</kbd>"–"<kbd>"9"</kbd>" lesson · "
            <kbd>"←"</kbd>" "<kbd>"→"</kbd>" previous, next · "
            <kbd>"↑"</kbd>" "<kbd>"↓"</kbd>" panel · "
            <kbd>"P"</kbd>" present · "
            <kbd>"Esc"</kbd>" leave · "
            <kbd>"?"</kbd>" keys"
        </p>
    }
}
