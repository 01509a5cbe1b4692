//! The configuration search's share of the fuzz tests: on any validated state every row it returns
//! is a finite, positive operating point whose derived numbers follow from it, and it never panics.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use goodput_lab::core::presets::GPUS;
use goodput_lab::core::search::pareto::frontier;
use goodput_lab::core::search::space::parallelisms;
use goodput_lab::core::search::{groups, search, Row};
use goodput_lab::state::from_page_query;

use super::check;
use super::strategies::valid_query;

/// One row's numbers: positive and finite, per GPU = rate / GPUs, enough GPUs for the load.
fn row_ok(row: &Row, load_req_per_s: f64) -> Result<(), TestCaseError> {
    let numbers = [row.rate_req_per_s, row.tokens_per_s_per_gpu, row.tokens_per_s_per_user, row.tpot_s];
    prop_assert!(numbers.iter().all(|x| x.is_finite() && *x > 0.0), "{row:?}");
    prop_assert!(row.ttft_s.is_finite() && row.ttft_s >= 0.0, "{row:?}");
    prop_assert!(row.usd_per_million_tokens.is_finite() && row.usd_per_million_tokens >= 0.0, "{row:?}");
    let per_gpu = row.rate_req_per_s / f64::from(row.gpus);
    prop_assert!((row.goodput_per_gpu_req_per_s - per_gpu).abs() <= 1e-12 * per_gpu, "{row:?}");
    if load_req_per_s > 0.0 && row.gpus_for_load > 0 {
        let served = f64::from(row.gpus_for_load / row.gpus) * row.rate_req_per_s;
        prop_assert!(served >= load_req_per_s * (1.0 - 1e-9), "{row:?} serves {served} of {load_req_per_s}");
    }
    Ok(())
}

#[test]
fn the_search_on_any_validated_state_gives_finite_rows_and_an_undominated_frontier() {
    check(
        "the_search_on_any_validated_state_gives_finite_rows_and_an_undominated_frontier",
        valid_query(),
        |q| {
            let (inputs, _, _) = from_page_query(&q);
            let spec = inputs.search_spec();
            let found = search(&spec);
            let shapes: usize = (groups().iter())
                .map(|g| parallelisms(&spec.scenario.model, &GPUS[usize::from(g.gpu_index)]))
                .map(|shapes| shapes.iter().filter(|p| p.pp == 1).count())
                .sum();
            // Every shape without a pipeline is priced (a pipeline only where it is needed).
            prop_assert!(found.evaluated as usize >= shapes);
            for row in &found.rows {
                row_ok(row, spec.load_req_per_s)?;
            }
            let on = frontier(&found.rows);
            prop_assert_eq!(on.is_empty(), found.rows.is_empty());
            for pair in on.windows(2) {
                let (a, b) = (&found.rows[pair[0]], &found.rows[pair[1]]);
                prop_assert!(a.tokens_per_s_per_user < b.tokens_per_s_per_user);
                prop_assert!(a.tokens_per_s_per_gpu > b.tokens_per_s_per_gpu);
            }
            Ok(())
        },
    );
}
