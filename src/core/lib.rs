//! The pure model, the `goodput-core` crate: roofline, presets, batch table, calibration, simulator, search.
//!
//! Nothing here knows about the page. Every function takes validated plain data and returns plain
//! data; none of them can fail or panic, whatever the numbers.

pub mod calibration;
pub mod capacity;
pub mod curves;
pub mod derivation;
pub mod energy;
pub mod fit;
pub mod goodput;
pub mod measured_runs;
pub mod model;
pub mod nearest;
pub mod parallel;
pub mod placement;
pub mod plan;
pub mod precision;
pub mod prefill;
pub mod prefix;
pub mod presets;
pub mod roofline;
pub mod scenario;
pub mod search;
pub mod sim;
pub mod spec;
pub mod table;
pub mod traffic;
pub mod units;
pub mod url_id;
