//! The configuration search: its rows are the placement's own numbers, its frontier is the
//! dominance order, its shards cover the space once, and it counts what it evaluates.

use crate::common::{wait_p90_by_hand, Z90};
use goodput_lab::core::capacity::S_PER_HOUR;
use goodput_lab::core::energy::EnergyPrice;
use goodput_lab::core::model::prefill_attention_flop;
use goodput_lab::core::parallel::Parallelism;
use goodput_lab::core::placement::{best_split, compare, disaggregated, Percentile, Split};
use goodput_lab::core::precision::Precision;
use goodput_lab::core::presets::GPU_PRICES;
use goodput_lab::core::roofline::{step_terms, StepMix, TP_CHOICES};
use goodput_lab::core::search::pareto::frontier;
use goodput_lab::core::search::{
    groups, row_for, search, shard_groups, Config, Layout, Row, SearchSpec, GPU_COUNT,
};
use goodput_lab::protocol::search::{decode_reply, decode_request, respond, SearchReply, SearchRequest};
use goodput_lab::state::WORKED_EXAMPLE;

fn spec() -> SearchSpec {
    SearchSpec {
        scenario: WORKED_EXAMPLE,
        chunk_tokens: 512,
        load_req_per_s: 100.0,
        usd_per_gpu_hour: GPU_PRICES.map(|p| p.usd_per_gpu_hour),
        link_bytes_per_s: None,
        percentile: Percentile::P90_FIXED,
        energy: EnergyPrice::FREE,
    }
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-300)
}

fn worked_example_config(layout: Layout) -> Config {
    Config { gpu_index: 0, weight_precision: Precision::Bf16, kv_precision: Precision::Bf16, layout }
}

#[test]
fn search_prices_tp_1_to_8_of_every_group_a_pipeline_only_where_needed_and_one_split_per_decode_shape() {
    let found = search(&spec());
    let groups_n = (GPU_COUNT * Precision::WEIGHTS.len() * Precision::KV.len()) as u32;
    assert_eq!(groups().len() as u32, groups_n);
    // Llama 3.1 8B is dense: TP 1, 2, 4, 8 always, PP 2 and 4 only where half the stages do not hold
    // the weights, EP = DP = 1; each decode shape pairs with at most 4 prefill TPs, each priced at
    // most twice per y <= 8.
    let (tp_only, colocated_max) = (groups_n * 4, groups_n * 12);
    assert!(found.evaluated > tp_only && found.evaluated <= colocated_max + groups_n * 12 * 4 * 16);
    // At most 12 colocated rows and 12 splits (one per decode shape) per group, and many fit.
    assert!(found.rows.len() as u32 <= groups_n * 24);
    assert!(found.rows.len() > 1000, "{} rows", found.rows.len());
}

/// The worked example's chunked replica (512-token budget, 1,920-token prompts, 256 out) at `rate`
/// by the equations of README "Placement, stated", priced by the per-operator step alone: the mean
/// step t solves t = t_d + rate x k x t x (t_p - t_d) with B = rate x 256 x t, a prompt step carrying
/// s = min(512 - B, 1,920 x max(1, rate x t)) tokens and k = 1,920 / s of them per prompt. An
/// answer's TPOT is normal (fixed lengths): variance = its prompt steps' (Poisson(rate x 256 x t)
/// prompts of k steps each, each t_p - t_d longer, over 256 steps) + its batch's (2/3 B sequences,
/// each one decode slope) + twice their covariance (a prompt landing in an answer decodes beside it
/// for half of it). TTFT = max(k, 1) t_p + the M/G/1 wait's p90 for a server clearing a prompt in
/// 1,920 / (512 - B) prompt steps. Returns (p90 TPOT, p90 TTFT), in s.
fn chunked_p90_by_hand(rate: f64) -> (f64, f64) {
    let (prompt, output) = (1920.0, 256.0);
    let s = WORKED_EXAMPLE;
    let steps = |t: f64| {
        let batch = rate * output * t;
        let chunk = (512.0 - batch).min(prompt * (rate * t).max(1.0));
        let decode = StepMix::decode(batch, 2048.0);
        let prompt_mix = StepMix {
            prefill_tokens: chunk,
            prefill_kv_tokens: (prompt - chunk) / 2.0,
            prefill_attention_flop: chunk / prompt * prefill_attention_flop(&s.model, 1920),
            ..decode
        };
        (batch, chunk, step_terms(&s, &decode).step_s, step_terms(&s, &prompt_mix).step_s)
    };
    let mut t = 0.0;
    for _ in 0..100_000 {
        let (_, chunk, t_d, t_p) = steps(t);
        let next = t_d + rate * prompt / chunk * t * (t_p - t_d);
        let done = (next - t).abs() <= 1e-15;
        t = next;
        if done {
            break;
        }
    }
    let (batch, chunk, t_d, t_p) = steps(t);
    let (k, delta) = (prompt / chunk, t_p - t_d);
    let slope = step_terms(&s, &StepMix::decode(batch + 1.0, 2048.0)).step_s - t_d;
    let prompts_var = delta * delta * rate * t * k * k / output;
    let batch_var = slope * slope * 2.0 / 3.0 * batch;
    let covariance = delta * k * slope * rate * t / 2.0;
    let tpot = t + Z90 * (prompts_var + batch_var + 2.0 * covariance).sqrt();
    let ttft = k.max(1.0) * t_p + wait_p90_by_hand(rate, prompt / (512.0 - batch) * t_p, 0.0);
    (tpot, ttft)
}

/// The largest rate in (0, 100] req/s for which `passes` holds, by 60 halvings (it holds up to some
/// rate and fails past it).
fn largest_rate_by_hand(passes: impl Fn(f64) -> bool) -> f64 {
    let (mut lo, mut hi) = (0.0_f64, 100.0_f64);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if passes(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

#[test]
fn colocated_row_is_the_placement_panels_chunked_point_with_its_arithmetic() {
    let s = spec();
    let row = row_for(&s, &worked_example_config(Layout::Colocated { parallel: Parallelism::tp(1) }))
        .expect("the worked example serves");
    let chunked = compare(&WORKED_EXAMPLE, 512, &Split::default(), &Percentile::P90_FIXED).chunked;
    assert_eq!(row.rate_req_per_s, chunked.rate_req_per_s);
    eprintln!("worked example, colocated chunked: {:?}", row);
    // 16.94 req/s until issue 25 (mean TTFT and TPOT); at p90 with prefill steps counted, the rate
    // whose p90 TPOT is 10 ms, by the README's equations on one GPU.
    let by_hand = largest_rate_by_hand(|rate| chunked_p90_by_hand(rate).0 <= 0.010);
    let (_, ttft_by_hand) = chunked_p90_by_hand(by_hand);
    assert!(ttft_by_hand < 2.0, "the 2 s TTFT target does not bind: {ttft_by_hand}");
    let per_gpu = row.goodput_per_gpu_req_per_s;
    assert!(close(per_gpu, by_hand, 1e-6), "{per_gpu} vs {by_hand}");
    assert!(close(row.ttft_s, ttft_by_hand, 1e-6), "p90 TTFT {} vs {ttft_by_hand}", row.ttft_s);
    assert_eq!(row.tpot_s, chunked.tpot_s.unwrap());
    // Written out: tokens/s per GPU = rate x 256 / 1; per user = 1 / TPOT; GPUs for 100 req/s =
    // ceil(100 / rate) x 1; $/Mtok = GPUs x price / (100 x 256 x 3600) x 1e6.
    assert!(close(row.tokens_per_s_per_gpu, row.rate_req_per_s * 256.0, 1e-12));
    assert!(close(row.tokens_per_s_per_user, 1.0 / row.tpot_s, 1e-12));
    let gpus = (100.0 / row.rate_req_per_s).ceil();
    assert_eq!(f64::from(row.gpus_for_load), gpus);
    let usd = gpus * GPU_PRICES[0].usd_per_gpu_hour / (100.0 * 256.0 * S_PER_HOUR) * 1e6;
    assert!(close(row.usd_per_million_tokens, usd, 1e-12), "{} vs {usd}", row.usd_per_million_tokens);
    // At p90 the 10 ms TPOT target binds: an answer that sees more prompt steps than most misses it.
    assert_eq!(row.binds, goodput_lab::core::placement::Binds::Tpot);
    assert!(close(row.tpot_s, 0.010, 1e-6), "{}", row.tpot_s);
}

#[test]
fn disaggregated_row_is_the_best_split_of_its_decode_shape_by_brute_force() {
    let s = spec();
    let found = search(&s);
    let pct = Percentile::P90_FIXED;
    let rows = found.rows.iter().filter(|r| {
        r.config.gpu_index == 0
            && r.config.weight_precision == Precision::Bf16
            && r.config.kv_precision == Precision::Bf16
    });
    let mut checked = 0;
    for row in rows {
        let Layout::Disaggregated { prefill, decode, .. } = row.config.layout else { continue };
        assert!(prefill.tp_only(), "{:?}: prefill instances are TP alone", row.config);
        let split = row.config.split(None).unwrap();
        let scenario = row.config.scenario(&WORKED_EXAMPLE);
        let d = disaggregated(&scenario, &split, &pct);
        assert_eq!(row.rate_req_per_s, d.rate_req_per_s);
        assert_eq!(row.gpus, split.prefill_instances * prefill.tp + split.decode_instances * decode.gpus());
        // Every prefill TP, every x, y of at most 8 instances and 72 GPUs a side.
        let mut best = 0.0_f64;
        for prefill_tp in TP_CHOICES {
            for x in 1..=8 {
                for y in (1..=8).filter(|y| y * decode.gpus() <= 72) {
                    let other = Split { prefill_instances: x, prefill_tp, decode_instances: y, ..split };
                    best = best.max(disaggregated(&scenario, &other, &pct).goodput_per_gpu_req_per_s);
                }
            }
        }
        assert!(
            close(row.goodput_per_gpu_req_per_s, best, 1e-12),
            "{:?}: {} vs {best}",
            row.config,
            row.goodput_per_gpu_req_per_s
        );
        checked += 1;
    }
    // TP 1, 2, 4, 8 (no pipeline: TP 1 holds the weights), one split each.
    assert_eq!(checked, 4, "one split per decode shape of the worked example's group");
    // The placement panel's best split (TP alone, 8 GPUs a side) is one the search could pick.
    let (_, panel) = best_split(&WORKED_EXAMPLE, None, &pct).unwrap();
    let top = found
        .rows
        .iter()
        .filter(|r| r.config.gpu_index == 0 && r.config.weight_precision == Precision::Bf16)
        .filter(|r| {
            r.config.kv_precision == Precision::Bf16
                && matches!(r.config.layout, Layout::Disaggregated { .. })
        })
        .map(|r| r.goodput_per_gpu_req_per_s)
        .fold(0.0, f64::max);
    assert!(
        top >= panel.goodput_per_gpu_req_per_s * (1.0 - 1e-12),
        "{top} vs {}",
        panel.goodput_per_gpu_req_per_s
    );
}

fn dominates(a: &Row, b: &Row) -> bool {
    let (ua, ga, ub, gb) =
        (a.tokens_per_s_per_user, a.tokens_per_s_per_gpu, b.tokens_per_s_per_user, b.tokens_per_s_per_gpu);
    ua >= ub && ga >= gb && (ua > ub || ga > gb)
}

#[test]
fn frontier_rows_are_undominated_and_every_other_row_is_dominated() {
    let rows = search(&spec()).rows;
    let on = frontier(&rows);
    assert!(!on.is_empty());
    for w in on.windows(2) {
        let (a, b) = (&rows[w[0]], &rows[w[1]]);
        assert!(
            a.tokens_per_s_per_user < b.tokens_per_s_per_user
                && a.tokens_per_s_per_gpu > b.tokens_per_s_per_gpu
        );
    }
    for &i in &on {
        assert!(!rows.iter().any(|r| dominates(r, &rows[i])), "frontier row {i} is dominated");
    }
    for (i, row) in rows.iter().enumerate().filter(|(i, _)| !on.contains(i)) {
        let by_frontier = on.iter().any(|&j| dominates(&rows[j], row) || rows[j] == *row);
        let tied = on.iter().any(|&j| {
            rows[j].tokens_per_s_per_user == row.tokens_per_s_per_user
                && rows[j].tokens_per_s_per_gpu == row.tokens_per_s_per_gpu
        });
        assert!(by_frontier || tied, "row {i} is off the frontier but nothing on it beats it");
    }
}

#[test]
fn three_shards_cover_every_group_once_and_give_the_single_threads_rows() {
    let all = groups();
    let mut seen: Vec<_> = (0..3).flat_map(|k| shard_groups(k, 3)).collect();
    assert_eq!(seen.len(), all.len());
    seen.sort_by_key(|g| all.iter().position(|a| a == g).unwrap());
    assert_eq!(seen, all);
    let s = spec();
    let mut rows = Vec::new();
    let mut evaluated = 0;
    let mut progress = 0;
    for shard in 0..3 {
        let request = SearchRequest { seq: 7, shard, shards: 3, spec: s };
        let bytes = goodput_lab::protocol::search::encode_request(&request);
        let decoded = decode_request(&bytes).expect("a request round-trips");
        respond(&decoded, |reply| match decode_reply(&reply).expect("a reply round-trips") {
            SearchReply::Progress { seq, done, total, .. } => {
                assert_eq!(seq, 7);
                assert!(done < total);
                progress += 1;
            }
            SearchReply::Done { seq, found, .. } => {
                assert_eq!(seq, 7);
                evaluated += found.evaluated;
                rows.extend(found.rows);
            }
        });
    }
    let single = search(&s);
    assert_eq!(evaluated, single.evaluated);
    assert_eq!(rows.len(), single.rows.len());
    assert!(single.rows.iter().all(|r| rows.contains(r)));
    assert!(progress >= 3, "{progress} progress replies");
    assert!(decode_request(b"not a request").is_none());
}

#[test]
fn a_model_that_fits_no_gpu_at_tp_1_gets_no_tp_1_colocated_rows_for_small_gpus() {
    // Llama 3.1 405B in BF16 is 810 GB: no single GPU holds it, so no TP-1 colocated row exists.
    let model = *goodput_lab::core::presets::model_by_id("llama-3.1-405b").expect("a 405B preset");
    let s =
        SearchSpec { scenario: goodput_lab::core::scenario::Scenario { model, ..WORKED_EXAMPLE }, ..spec() };
    let found = search(&s);
    assert!(!found
        .rows
        .iter()
        .any(|r| r.config.layout == Layout::Colocated { parallel: Parallelism::tp(1) }
            && r.config.weight_precision == Precision::Bf16));
}
