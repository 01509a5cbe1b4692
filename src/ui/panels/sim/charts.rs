//! Canvas glue for the simulator's charts: redraw when a sweep lands, the box resizes or the theme
//! changes (once per frame, while in view: `crate::ui::canvas::frame_draw`). The drawing lives in `crate::chart::attainment` and `crate::chart::sim_throughput`.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::chart::{draw_attainment_chart, draw_sim_throughput_chart, AttainmentView};
use crate::core::plan::SimResult;
use crate::core::sim::{Counting, LoadMode};
use crate::state::view::Look;
use crate::ui::canvas::chart::{chart_figure, paint};
use crate::ui::canvas::export::{deliver_svg, export_buttons, render_svg};
use crate::ui::canvas::frame_draw::FrameDraw;
use crate::view::format::{percent, significant, sim_goodput, sim_goodput_range};

/// Which simulator chart a canvas shows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum SimChartKind {
    Attainment,
    Served,
}

impl SimChartKind {
    fn id(self) -> &'static str {
        match self {
            SimChartKind::Attainment => "chart-attainment",
            SimChartKind::Served => "chart-sim-throughput",
        }
    }

    fn title(self) -> &'static str {
        match self {
            SimChartKind::Attainment => "SLO attainment against request rate",
            SimChartKind::Served => "Served throughput and goodput against request rate",
        }
    }
}

/// A simulator chart on a canvas; blank until the first sweep lands.
#[component]
pub fn SimChart(kind: SimChartKind, result: Signal<Option<SimResult>>, look: Signal<Look>) -> impl IntoView {
    let canvas_ref = NodeRef::<Canvas>::new();
    let redraw = FrameDraw::new(canvas_ref, move |canvas, css| {
        let (Some(look), Some(Some(r))) = (look.try_get_untracked(), result.try_get_untracked()) else {
            return false;
        };
        let view =
            AttainmentView { attainment_target: r.attainment_target, counting: r.counting, load: r.load };
        paint(canvas, css, look, |root, style| match kind {
            SimChartKind::Attainment => draw_attainment_chart(root, &r.sweep, &view, style),
            SimChartKind::Served => draw_sim_throughput_chart(root, &r.sweep, &view, style),
        })
        .is_some()
    });
    Effect::new(move |_| {
        result.track();
        look.track();
        redraw.invalidate();
    });
    let description =
        move || result.get().map_or_else(|| format!("{}: simulating…", kind.title()), |r| describe(kind, &r));
    let render = move |size, look| {
        let r = result.get_untracked()?;
        let view =
            AttainmentView { attainment_target: r.attainment_target, counting: r.counting, load: r.load };
        render_svg(size, look, kind.title(), |root, style| match kind {
            SimChartKind::Attainment => draw_attainment_chart(root, &r.sweep, &view, style),
            SimChartKind::Served => draw_sim_throughput_chart(root, &r.sweep, &view, style),
        })
    };
    let svg = move |size, look, name: String| deliver_svg(render(size, look), &name);
    let what = kind.id().trim_start_matches("chart-");
    view! {
        <div class="sim-chart">
            {chart_figure(kind.id(), kind.title(), canvas_ref, description)}
            {export_buttons(kind.id(), what, kind.title(), look, svg)}
        </div>
    }
}

/// The chart's text alternative: the sweep's range, where attainment crosses the target, goodput.
fn describe(kind: SimChartKind, r: &SimResult) -> String {
    let (first, last) = match (r.sweep.points.first(), r.sweep.points.last()) {
        (Some(f), Some(l)) => (f, l),
        _ => return format!("{}: no load level was simulated.", kind.title()),
    };
    let what = if r.counting == Counting::Tokens { "tokens" } else { "requests" };
    let axis = if r.load == LoadMode::Closed { "achieved" } else { "offered" };
    let share = |p: &crate::core::sim::RatePoint| {
        if r.counting == Counting::Tokens {
            p.tokens.both
        } else {
            p.requests.both
        }
    };
    let over = r.sweep.points.iter().find(|p| p.overloaded).map_or(String::new(), |p| {
        format!(" From {} req/s, overloaded: the queue grows.", significant(p.rate_req_per_s))
    });
    format!(
        "{}. From {} to {} req/s {axis}, the share of {what} meeting both targets goes from {} to {}; \
         with a {} target, goodput is {} ({}).{over} The data table below lists every rate.",
        kind.title(),
        significant(first.rate_req_per_s),
        significant(last.rate_req_per_s),
        percent(share(first)),
        percent(share(last)),
        percent(r.attainment_target),
        sim_goodput(&r.sweep),
        sim_goodput_range(&r.sweep)
    )
}
