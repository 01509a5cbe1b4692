//! Chart drawing, one file per chart, each a function generic over plotters' `DrawingBackend` so the
//! page draws to a canvas and native tests draw the same charts to SVG.

pub mod attainment;
mod axes;
pub mod batch;
mod batch_draw;
pub mod frame;
pub mod hold;
mod interactivity;
mod legend;
mod marks;
pub mod path_batch;
pub mod placement_attainment;
mod rate;
pub mod recording;
pub mod references;
pub mod search;
pub mod sim_throughput;
mod step;
mod style;
pub mod triangle;

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

pub use attainment::{draw_attainment_chart, AttainmentView};
pub use axes::{
    axis_top, batch_axes, label_height, label_spots, pool_shade_legend, sweep_rate_desc, sweep_rate_max,
    tick_label, xy_axes, xy_axes_labelled, LabelSpots,
};
pub use frame::{ChartFrame, FrameResult};
pub use legend::{legend_and_plot, LegendItem, MarkerShape};
pub use marks::{
    band_label, batch_series, draw_band, draw_dashed, draw_note, goodput_label, mark_goodput, mark_knee,
    sweep_series, vertical_marker, vertical_marker_on, NO_GOODPUT_NOTE,
};
pub use placement_attainment::{draw_placement_attainment_chart, nearest_point, PlacementCurve};
pub use sim_throughput::draw_sim_throughput_chart;
pub use style::{
    presentation_zoom, ChartStyle, Layer, Palette, DASH_CSS_PX, IDEAL_OPACITY, MARKER_CSS_PX,
    PRESENT_SCREEN_CSS_PX, PRESENT_ZOOM_MAX, PRESENT_ZOOM_MIN,
};

/// A chart with continuous x and y axes.
pub type XyChart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The result every drawing function returns.
pub type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;
