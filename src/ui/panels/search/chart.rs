//! Canvas glue for the search chart (drawn by `crate::chart::search`): every shown row a point, the
//! frontier of the shown rows, the TPOT target; hovering a point highlights it and its table row
//! (the shared [`SearchView::hovered`]), clicking loads it; PNG/SVG export like every chart.

use std::cell::Cell;
use std::rc::Rc;

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::chart::search::{draw_search_chart, point_at};
use crate::chart::ChartFrame;
use crate::protocol::panel::ToPage;
use crate::state::view::Look;
use crate::ui::canvas::chart::{chart_figure, paint};
use crate::ui::canvas::export::{deliver_svg, export_buttons, render_svg};
use crate::ui::canvas::frame_draw::FrameDraw;
use crate::ui::context::panel::PanelContext;
use crate::ui::panels::search::view::SearchView;
use crate::view::format::search::config_id;
use crate::view::search_chart::{chart_data, describe, TITLE};

const ID: &str = "chart-search";

/// The chart on a canvas, with its export buttons.
#[component]
pub fn SearchChart(look: Signal<Look>) -> impl IntoView {
    let SearchView { run, shown, hovered } = expect_context::<SearchView>();
    let signals = PanelContext::get();
    let inputs = signals.inputs;
    let data = Memo::new(move |_| {
        let tpot = inputs.get().scenario.tpot_target_s;
        run.found.with(|f| f.as_ref().map(|f| shown.with(|s| chart_data(&f.rows, s, hovered.get(), tpot))))
    });
    let canvas_ref = NodeRef::<Canvas>::new();
    let frame: Rc<Cell<Option<ChartFrame>>> = Rc::new(Cell::new(None));
    let drawn = frame.clone();
    let redraw = FrameDraw::new(canvas_ref, move |canvas, css| {
        let (Some(look), Some(Some(d))) = (look.try_get_untracked(), data.try_get_untracked()) else {
            return false;
        };
        let result = paint(canvas, css, look, |root, style| draw_search_chart(root, &d, style));
        drawn.set(result);
        result.is_some()
    });
    Effect::new(move |_| {
        data.track();
        look.track();
        redraw.invalidate();
    });
    // The shown row under the pointer, from the canvas's CSS pixels to the plot's device pixels.
    let under = move |ev: &web_sys::MouseEvent, frame: &Cell<Option<ChartFrame>>| -> Option<usize> {
        let canvas = canvas_ref.get_untracked()?;
        let scale = f64::from(canvas.width()) / f64::from(canvas.client_width().max(1));
        let f = frame.get()?;
        let d = data.get_untracked()?;
        let at = point_at(
            &d,
            &f,
            (f64::from(ev.offset_x()) * scale, f64::from(ev.offset_y()) * scale),
            8.0 * scale,
        )?;
        shown.with_untracked(|s| s.get(at).copied())
    };
    let (f1, f2) = (frame.clone(), frame);
    let on_move = move |ev: web_sys::MouseEvent| hovered.set(under(&ev, &f1));
    let on_click = move |ev: web_sys::MouseEvent| {
        let row = under(&ev, &f2)
            .and_then(|i| run.found.with_untracked(|f| f.as_ref().and_then(|f| f.rows.get(i).copied())));
        if let Some(row) = row {
            signals.changes.send(ToPage::LoadConfig(row.config));
        }
    };
    let description = move || data.with(|d| describe(d.as_ref()));
    let hovered_id = move || hovered_config(run, hovered);
    let svg = move |size, look, name: String| {
        let d = data.get_untracked().unwrap_or_default();
        deliver_svg(
            render_svg(size, look, TITLE, |root, style| draw_search_chart(root, &d, style).map(drop)),
            &name,
        )
    };
    view! {
        <div class="search-chart" data-hovered=hovered_id on:mousemove=on_move on:mouseleave=move |_| hovered.set(None) on:click=on_click>
            {chart_figure(ID, TITLE, canvas_ref, description)}
        </div>
        {export_buttons(ID, "search", TITLE, look, svg)}
    }
}

/// The hovered configuration's id (tests read it; empty when none).
fn hovered_config(
    run: crate::ui::workers::search_runner::SearchRun,
    hovered: RwSignal<Option<usize>>,
) -> String {
    let at = hovered.get();
    run.found.with(|f| {
        at.zip(f.as_ref()).and_then(|(i, f)| f.rows.get(i)).map(|r| config_id(&r.config)).unwrap_or_default()
    })
}
