//! `sweep "<query>" [trace file]`: runs the simulator natively for a page URL's query (replaying the
//! trace file, read as the page reads one, when given) and prints its goodput readout (and, with
//! `place=disagg`, both goodputs per GPU; with a trace, the replay as recorded; with `fleet=1`, the
//! fleet table's rows as `fleet` + tab-separated cells), so a browser test can check the page
//! against the native core.

use std::sync::Arc;

fn main() {
    let query = std::env::args().nth(1).unwrap_or_default();
    let (inputs, notices) = goodput_lab::state::from_query(&query);
    for n in notices {
        eprintln!("{}", n.message);
    }
    let plan = match std::env::args().nth(2) {
        Some(path) => {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let upload = goodput_lab::state::trace::read_trace(&text)
                .unwrap_or_else(|e| panic!("{path}: {}", e.message));
            inputs.sim_plan_with(Some(Arc::new(upload.trace)))
        }
        None => inputs.sim_plan(),
    };
    let result = goodput_lab::core::plan::compute(&plan, |_, _| {});
    if let Some(p) = &result.recorded {
        println!(
            "recorded {}",
            goodput_lab::view::format::sim::sim_recorded_line(p, result.requests_per_level)
        );
    }
    println!("goodput {}", goodput_lab::view::format::sim_goodput(&result.sweep));
    println!("range {}", goodput_lab::view::format::sim_goodput_range(&result.sweep));
    println!("points {}", result.sweep.points.len());
    for p in &result.sweep.points {
        let over = if p.overloaded { " overloaded" } else { "" };
        let rate = goodput_lab::view::format::significant(p.rate_req_per_s);
        println!("point {rate} both {}{over}", goodput_lab::view::format::percent(p.requests.both));
    }
    if let Some(p) = &result.placement {
        let per_gpu = goodput_lab::view::format::sim_goodput_per_gpu;
        println!("placement colo {}", per_gpu(&result.sweep, p.colocated_gpus));
        println!("placement disagg {}", per_gpu(&p.sweep, p.gpus));
        println!(
            "placement analytic {}",
            goodput_lab::view::format::significant(p.analytic.goodput_per_gpu_req_per_s)
        );
        println!("placement points {}", p.sweep.points.len());
    }
    for row in result.fleet.iter().flatten() {
        println!("fleet\t{}", goodput_lab::view::format::fleet::fleet_row_cells(row).join("\t"));
    }
    for c in &result.chunks {
        let p = &c.point;
        println!(
            "chunk {} ttft_p90 {} ms tpot_p90 {} ms both {}",
            c.chunk_tokens,
            goodput_lab::view::format::ms_or_dash(p.ttft.p90_s),
            goodput_lab::view::format::ms_or_dash(p.tpot.p90_s),
            goodput_lab::view::format::percent(p.requests.both)
        );
    }
}
