//! The state the batch charts and the batch table share: the hovered batch (pointer, touch or
//! keyboard), the marked batch (`mark=`, from the view), and the read-out of whichever is shown.

use leptos::prelude::*;

use crate::core::goodput::{evaluate, BatchPoint};
use crate::core::roofline::Analysis;
use crate::core::scenario::Scenario;
use crate::state::view::View;

/// Signals every linked chart and the table read and write. Cheap to copy into closures.
#[derive(Clone, Copy)]
pub struct Linked {
    /// The batch under the pointer or the keyboard's cursor, if any.
    pub hovered: ReadSignal<Option<u32>>,
    set_hovered: WriteSignal<Option<u32>>,
    pub view: ReadSignal<View>,
    set_view: WriteSignal<View>,
    pub scenario: Memo<Scenario>,
    pub analysis: Memo<Analysis>,
    /// The marked batch's point, drawn on every chart.
    pub marked: Memo<Option<BatchPoint>>,
    /// The hovered batch's point, shown by the crosshairs.
    pub hovered_point: Memo<Option<BatchPoint>>,
    /// What the read-outs show: the hovered batch, else the marked one.
    pub shown: Memo<Option<BatchPoint>>,
    /// True while the animate control sweeps.
    pub animating: RwSignal<bool>,
}

impl Linked {
    /// Nothing hovered; the mark as `view` holds it.
    pub fn new(
        (view, set_view): (ReadSignal<View>, WriteSignal<View>),
        scenario: Memo<Scenario>,
        analysis: Memo<Analysis>,
    ) -> Self {
        let (hovered, set_hovered) = signal(None::<u32>);
        let point = move |b: Option<u32>| b.map(|b| evaluate(&scenario.get(), b));
        let marked = Memo::new(move |_| point(view.get().mark_batch));
        let hovered_point = Memo::new(move |_| point(hovered.get()));
        let shown = Memo::new(move |_| hovered_point.get().or(marked.get()));
        let animating = RwSignal::new(false);
        Linked {
            hovered,
            set_hovered,
            view,
            set_view,
            scenario,
            analysis,
            marked,
            hovered_point,
            shown,
            animating,
        }
    }

    /// Shows `batch` on every chart and in the table (`None` clears it); no-op when unchanged.
    pub fn hover(&self, batch: Option<u32>) {
        if self.hovered.get_untracked() != batch {
            self.set_hovered.set(batch);
        }
    }

    /// The marked batch, if any (untracked: for event handlers).
    pub fn mark_now(&self) -> Option<u32> {
        self.view.with_untracked(|v| v.mark_batch)
    }

    /// Marks `batch` on every chart (`None` clears the mark); no-op when unchanged.
    pub fn set_mark(&self, batch: Option<u32>) {
        if self.mark_now() != batch {
            self.set_view.update(|v| v.mark_batch = batch);
        }
    }

    /// Marks `batch`, or clears the mark when `batch` is the one marked already.
    pub fn toggle_mark(&self, batch: u32) {
        let next = if self.mark_now() == Some(batch) { None } else { Some(batch) };
        self.set_mark(next);
    }
}
