//! The batch table and headline print the worked example's numbers exactly as the reference prints them.

use crate::common::{worked_example, worked_example_fp8_kv};
use goodput_lab::core::roofline::analyze;
use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::table::{batch_table, BatchRow};
use goodput_lab::view::format::{
    fixed, headline, ms, percent, percent_trimmed, req_per_s, thousands, yes_no,
};

/// A row as the page prints it: batch, step (ms), tokens/s, meets TPOT, goodput (req/s).
fn printed(row: &BatchRow) -> [String; 5] {
    let p = &row.point;
    [
        thousands(f64::from(p.batch)),
        ms(p.step.step_s),
        thousands(p.tokens_per_s),
        yes_no(p.meets_tpot).to_string(),
        req_per_s(p.goodput_req_per_s),
    ]
}

#[test]
fn worked_example_rows_print_exactly_as_the_reference() {
    let s = worked_example();
    let rows = batch_table(&s, &analyze(&s));
    let expect = [
        ["16", "6.08", "2,633", "yes", "10.3"],
        ["32", "7.36", "4,349", "yes", "17.0"],
        ["64", "9.92", "6,450", "yes", "25.2"],
        ["96", "12.49", "7,688", "no", "0"],
        ["128", "15.05", "8,505", "no", "0"],
    ];
    for want in expect {
        let row = rows.iter().find(|r| thousands(f64::from(r.point.batch)) == want[0]).expect("row listed");
        assert_eq!(printed(row), want.map(String::from));
    }
}

#[test]
fn table_lists_one_the_worked_example_batches_the_knee_and_the_pool_in_order() {
    let s = worked_example();
    let rows = batch_table(&s, &analyze(&s));
    let batches: Vec<u32> = rows.iter().map(|r| r.point.batch).collect();
    assert_eq!(batches, [1, 16, 32, 64, 96, 128, 208]);
    let knee: Vec<u32> = rows.iter().filter(|r| r.is_knee).map(|r| r.point.batch).collect();
    let pool: Vec<u32> = rows.iter().filter(|r| r.is_kv_pool).map(|r| r.point.batch).collect();
    assert_eq!((knee, pool), (vec![64], vec![208]));
}

#[test]
fn fp8_kv_adds_the_knee_row_129() {
    let s = worked_example_fp8_kv();
    let rows = batch_table(&s, &analyze(&s));
    let knee = rows.iter().find(|r| r.is_knee).expect("knee row");
    assert_eq!(knee.point.batch, 129);
    assert!(knee.point.meets_tpot && knee.fits_kv_pool);
}

#[test]
fn rows_past_the_pool_are_marked_as_not_fitting() {
    let s = Scenario { context_tokens: 131_072, ..worked_example() };
    let a = analyze(&s);
    assert_eq!(a.kv_pool_batch, 3);
    for row in batch_table(&s, &a) {
        assert_eq!(row.fits_kv_pool, row.point.batch <= 3, "batch {}", row.point.batch);
    }
}

#[test]
fn headline_states_the_worked_example_lesson_with_live_numbers() {
    let s = worked_example();
    assert_eq!(
        headline(&s, &analyze(&s)),
        "Largest batch meeting 10 ms: 64, goodput 25.2 req/s; at 128 throughput is 8,505 tokens/s (32% more) and goodput 0."
    );
}

#[test]
fn headline_says_the_pool_binds_at_a_50_ms_target() {
    let s = Scenario { tpot_target_s: 0.05, ..worked_example() };
    let text = headline(&s, &analyze(&s));
    assert!(
        text.starts_with("The KV pool binds: it holds 208 sequences of 2,048 tokens, fewer than the 518"),
        "{text}"
    );
}

#[test]
fn headline_explains_an_unreachable_target() {
    let s = Scenario { tpot_target_s: 0.001, ..worked_example() };
    let text = headline(&s, &analyze(&s));
    assert!(text.starts_with("No batch meets 1 ms: even a batch of 1 takes 4.87 ms"), "{text}");
}

#[test]
fn numbers_format_with_separators_and_never_as_nan() {
    assert_eq!(thousands(8504.7), "8,505");
    assert_eq!(thousands(1_234_567.0), "1,234,567");
    assert_eq!(fixed(1234.567, 2), "1,234.57");
    assert_eq!(req_per_s(0.0), "0");
    assert_eq!(req_per_s(17.0), "17.0");
    for bad in [f64::NAN, f64::INFINITY] {
        assert_eq!(thousands(bad), "–");
        assert_eq!(ms(bad), "–");
    }
}

#[test]
fn shares_print_as_percentages_with_one_decimal_or_trimmed() {
    assert_eq!(
        (percent(0.9), percent(0.975), percent(1.0)),
        ("90.0%".into(), "97.5%".into(), "100.0%".into())
    );
    let trimmed = (percent_trimmed(0.9), percent_trimmed(0.825), percent_trimmed(0.995));
    assert_eq!(trimmed, ("90%".into(), "82.5%".into(), "99.5%".into()));
}
