//! Charts on canvases: the plotters backend over the canvas 2D API, sizing and redraw timing, the batch charts' part under their data kept as a bitmap, their interactive layer and the exports.

pub(crate) mod backend;
pub(crate) mod calls;
pub(crate) mod chart;
pub(crate) mod export;
pub(crate) mod frame_draw;
pub(crate) mod layers;
pub(crate) mod overlay;
pub(crate) mod text_measure;
