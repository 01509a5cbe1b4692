//! Chart drawing, one file per chart, each a function generic over plotters' `DrawingBackend` so the
//! page draws to a canvas and native tests draw the same charts to SVG.

pub mod attainment;
mod axes;
pub mod batch;
pub mod frame;
pub mod hold;
pub mod interactivity;
mod legend;
mod marks;
pub mod path_batch;
pub mod placement_attainment;
pub mod rate;
pub mod recording;
pub mod references;
pub mod search;
pub mod sim_throughput;
pub mod step;
mod style;
pub mod triangle;

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

pub use attainment::{draw_attainment_chart, AttainmentView};
pub use axes::{
    axis_top, batch_axes, pool_shade_legend, sweep_rate_desc, sweep_rate_max, tick_label, xy_axes,
    xy_axes_labelled,
};
pub use frame::{ChartFrame, FrameResult};
pub use interactivity::{
    draw_interactivity_chart, draw_interactivity_chart_held, draw_interactivity_chart_marked,
};
pub use legend::{legend_and_plot, LegendItem, MarkerShape};
pub use marks::{
    band_label, batch_series, draw_band, draw_dashed, draw_note, goodput_label, mark_goodput, mark_knee,
    sweep_series, vertical_marker, vertical_marker_on, NO_GOODPUT_NOTE,
};
pub use placement_attainment::{draw_placement_attainment_chart, nearest_point, PlacementCurve};
pub use rate::{draw_rate_chart, draw_rate_chart_held, draw_rate_chart_marked};
pub use sim_throughput::draw_sim_throughput_chart;
pub use step::{draw_step_chart, draw_step_chart_held, draw_step_chart_marked};
pub use style::{
    presentation_zoom, ChartStyle, Layer, Look, Palette, DASH_CSS_PX, IDEAL_OPACITY, MARKER_CSS_PX,
    PRESENT_SCREEN_CSS_PX, PRESENT_ZOOM_MAX, PRESENT_ZOOM_MIN,
};

/// A chart with continuous x and y axes.
pub type XyChart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// An [`XyChart`] whose x axis is the batch size.
pub type BatchChart<'a, DB> = XyChart<'a, DB>;

/// The result every drawing function returns.
pub type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;
