//! The batch charts' view model (`goodput_lab::view::batch_chart`): each chart's text alternative
//! says what the chart shows at the batch a server reaches, with the numbers the core computes for
//! that batch, and each chart is the one `view=` panel names.

use goodput_lab::core::curves::curves;
use goodput_lab::core::goodput::evaluate;
use goodput_lab::core::roofline::analyze;
use goodput_lab::core::scenario::Scenario;
use goodput_lab::state::WORKED_EXAMPLE;
use goodput_lab::view::batch_chart::BatchChart;
use goodput_lab::view::batch_chart::{describe, readout_sentence};
use goodput_lab::view::format::{ms, req_per_s, thousands};

#[test]
fn every_batch_chart_is_the_chart_its_view_panel_shows() {
    for kind in BatchChart::ALL {
        assert_eq!(BatchChart::of_panel(kind.panel()), Some(kind));
    }
}

#[test]
fn the_worked_example_rate_description_names_knee_64_and_its_goodput() {
    let scenario = WORKED_EXAMPLE;
    let c = curves(&scenario, &analyze(&scenario));
    let text = describe(BatchChart::Rate, &c);
    // The seed's knee: batch 64 decodes at 9.9 ms, under the 10 ms target; 65 would not.
    assert!(text.to_lowercase().contains("the knee is batch 64"), "{text}");
    let goodput = evaluate(&scenario, 64).goodput_req_per_s;
    assert!(text.contains(&format!("goodput {} req/s", req_per_s(goodput))), "{text}");
}

#[test]
fn the_step_description_gives_the_knee_step_time_under_the_target() {
    let scenario = WORKED_EXAMPLE;
    let c = curves(&scenario, &analyze(&scenario));
    let text = describe(BatchChart::Step, &c);
    let step_s = evaluate(&scenario, 64).step.step_s;
    assert!(step_s < scenario.tpot_target_s);
    assert!(text.contains(&format!("with a {} ms step", ms(step_s))), "{text}");
}

#[test]
fn with_a_loose_target_the_descriptions_say_the_kv_pool_binds() {
    // 50 ms TPOT: the seed's reversal, the knee moves past the pool (about 200 sequences).
    let scenario = Scenario { tpot_target_s: 0.050, ..WORKED_EXAMPLE };
    let c = curves(&scenario, &analyze(&scenario));
    assert!(c.knee_batch > c.kv_pool_batch);
    for kind in BatchChart::ALL {
        let text = describe(kind, &c);
        let lower = text.to_lowercase();
        assert!(
            lower.contains(&format!("the kv pool, batch {}, is the largest that runs", c.kv_pool_batch)),
            "{kind:?}: {text}"
        );
        assert!(!lower.contains("the knee is batch"), "{kind:?}: {text}");
    }
}

#[test]
fn the_readout_of_batch_64_meets_both_targets_and_of_128_misses_tpot() {
    let at_64 = evaluate(&WORKED_EXAMPLE, 64);
    let text = readout_sentence(&at_64);
    assert!(
        text.starts_with(&format!(
            "Batch 64: {} ms per step, {} tokens/s",
            ms(at_64.step.step_s),
            thousands(at_64.tokens_per_s)
        )),
        "{text}"
    );
    assert!(text.contains("meets the TPOT target and the TTFT target"), "{text}");
    let at_128 = evaluate(&WORKED_EXAMPLE, 128);
    let text = readout_sentence(&at_128);
    assert!(text.contains("misses the TPOT target"), "{text}");
    assert!(text.ends_with("goodput 0 requests/s."), "{text}");
}
