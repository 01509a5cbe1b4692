//! The configuration search natively (issue 14): the page's default search on one thread, its size
//! and time. The browser's figure (workers, request to merged rows) is bench/browser/search.js's.

use std::hint::black_box;

use crate::info;
use crate::measure::median_s;

/// Times the default state's full search (median of `repeats` after a warm-up).
pub fn search_time(repeats: u32) {
    let (inputs, _) = goodput_lab::state::from_query("");
    let spec = inputs.search_spec();
    let found = goodput_lab::core::search::search(&spec);
    let search_s = median_s(repeats, || goodput_lab::core::search::search(black_box(&spec)));
    info("search_default_configurations_evaluated", f64::from(found.evaluated), "configurations");
    info("search_default_rows", found.rows.len() as f64, "rows");
    info("search_default_one_thread_ms", search_s * 1e3, "ms");
}
