//! URL state: every control round-trips through the query string, and bad values fall back with a
//! notice instead of failing.

use goodput_lab::core::goodput::evaluate;
use goodput_lab::core::parallel::Parallelism;
use goodput_lab::core::placement::PlacementMode;
use goodput_lab::core::presets::Attention;
use goodput_lab::core::roofline::{CustomCalibration, Precision};
use goodput_lab::state::fields::{
    InputField, MBU_INPUT, OVERHEAD_INPUT, PRICE_INPUT, RATE_INPUT, TPOT_INPUT, UTIL_INPUT,
};
use goodput_lab::state::sim::{
    ATTAIN_INPUT, BURST_INPUT, LENGTH_CV_INPUT, POINTS_INPUT, REQUESTS_INPUT, SEED_INPUT,
};
use goodput_lab::state::view::{Mode, Panel, Theme};
use goodput_lab::state::{
    from_page_query, from_query, log_stops, measured, nearest_stop_index, page_query, parse_raw, to_query,
    Inputs, KEYS,
};

/// The worked example's state as its canonical query.
const WORKED_EXAMPLE_QUERY: &str =
    "model=llama-3.1-8b&gpu=h100-sxm&w=bf16&kv=bf16&tp=1&in=1920&out=256&tpot=10&ttft=2000&util=90&rate=100";

#[test]
fn empty_query_gives_the_worked_example_defaults_without_notices() {
    let (inputs, notices) = from_query("");
    assert_eq!(inputs, Inputs::default());
    assert!(notices.is_empty());
    assert_eq!(to_query(&inputs), WORKED_EXAMPLE_QUERY);
}

#[test]
fn a_url_with_every_key_opens_that_state() {
    let (inputs, notices) = from_query(
        "?model=qwen3-30b-a3b&gpu=h200-sxm&w=fp8&kv=fp4&tp=4&ctx=8192&out=512&tpot=25.5&ttft=800\
         &util=85&mbu=70&overhead=1.5&rate=42.5&price=3.1",
    );
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!((inputs.scenario.model.id, inputs.scenario.gpu.id), ("qwen3-30b-a3b", "h200-sxm"));
    assert_eq!(
        (inputs.scenario.weight_precision, inputs.scenario.kv_precision),
        (Precision::Fp8, Precision::Fp4)
    );
    assert_eq!(
        (inputs.scenario.parallel.tp, inputs.scenario.context_tokens, inputs.scenario.output_tokens),
        (4, 8192, 512)
    );
    assert!((inputs.scenario.tpot_target_s - 0.0255).abs() < 1e-12);
    assert!((inputs.scenario.ttft_target_s - 0.8).abs() < 1e-12);
    assert!((inputs.scenario.memory_utilization - 0.85).abs() < 1e-12);
    let c = inputs.realistic().expect("mbu and overhead turn realistic mode on");
    assert!((c.mbu - 0.7).abs() < 1e-12 && (c.step_overhead_s - 0.0015).abs() < 1e-12);
    // `price` with a preset GPU prices that GPU in the search's list (the capacity plan's price).
    assert!((inputs.rate_req_per_s - 42.5).abs() < 1e-12 && (inputs.usd_per_gpu_hour() - 3.1).abs() < 1e-12);
}

#[test]
fn every_key_round_trips() {
    let preset = "model=llama-3.1-70b&gpu=mi300x&w=int4&kv=fp8&tp=2&in=2951&out=99&tpot=7.5&ttft=450\
                  &util=80&prefix=1000&hit=75&mbu=65&overhead=0.5&rate=12.5&prices=mi300x%3A1.75";
    let custom = "model=custom&m_params=20&m_active=4&m_layers=24&m_hidden=2880&m_heads=64&m_kv_heads=8\
                  &m_head_dim=64&m_experts=32&m_top_k=4&m_window=128&m_swa_layers=12&m_max_ctx=65536\
                  &gpu=custom&g_hbm=96&g_bw=4.2&g_bf16=900&g_fp8=1800&g_fp4=0&g_link=400\
                  &w=fp4&kv=bf16&tp=8&in=3596&out=1000&tpot=30&ttft=1000&util=90&rate=5&price=4\
                  &kwh=0.125&pue=1.3&hostw=150";
    let base =
        "model=llama-3.1-8b&gpu=h100-sxm&w=bf16&kv=bf16&tp=1&in=1920&out=256&tpot=10&ttft=2000&util=90\
                &rate=100";
    let sim_open = format!(
        "{base}&sim=1&load=closed&count=tokens&arrivals=bursty&burst=3&lengths=uniform&spread=20&requests=5000\
         &seed=7&seeds=3&chunk=1024&cap=32&prefill=free&attain=85&rate_max=40&points=24\
         &fleet=1&replicas=6&tier=512&turns=3&think=2.5&newtok=100\
         &trace=i%3A0-40-10-0_500-20-5-1"
    );
    let sim_closed = format!("{base}&lengths=fixed&seed=9&pct=p99");
    let disagg = format!("{base}&place=disagg&xp=3&tpp=2&yd=1&tpd=4&xfer=50");
    let colo_split = format!("{base}&yd=2&xfer=12.5");
    let search = format!(
        "{base}&search=1&ssort=cost&sgpu=b200&sw=fp8&skv=fp4&splace=disagg&prices=h100-sxm%3A2.1%2Cb200%3A4"
    );
    let spec_base = "model=llama-3.1-8b&gpu=h100-sxm&w=bf16&kv=bf16&tp=1&in=1920&out=256&tpot=10&ttft=2000\
                     &util=90";
    let spec_draft = format!("{spec_base}&spec=draft&draft=llama-3.2-3b&k=6&accept=0.55&rate=100");
    let spec_head = format!("{spec_base}&spec=head&headcost=0.25&k=2&accept=0.9&rate=100");
    let measured_engines =
        "model=llama-3.1-8b&gpu=h100-sxm&w=bf16&kv=bf16&tp=1&in=1920&out=256&tpot=10&ttft=2000\
                            &util=90&calib=measured&engine=sglang&rate=100";
    let wide =
        "model=deepseek-v3&gpu=h200-sxm&w=fp8&kv=bf16&tp=2&ep=16&dp=8&pp=2&nodes=5&nic=800&imb=1.35&tbo=1\
                &in=1920&out=256&tpot=10&ttft=2000&util=90&rate=100";
    for query in [
        preset,
        custom,
        wide,
        &sim_open,
        &sim_closed,
        &disagg,
        &colo_split,
        &search,
        &spec_draft,
        &spec_head,
        measured_engines,
    ] {
        let (inputs, notices) = from_query(query);
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(to_query(&inputs), query);
        assert_eq!(from_query(&to_query(&inputs)).0, inputs);
    }
    let view = format!("{base}&embed=1&view=table&theme=projector&mark=48");
    let (inputs, view_state, notices) = from_page_query(&view);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(page_query(&inputs, &view_state), view);
    let presenting = from_page_query(&format!("{base}&present=1")).1;
    assert_eq!(page_query(&inputs, &presenting), format!("{base}&present=1&view=rate"));
    let measured_query = format!("{base}&measured=1:7.9,16:8.2,64:11.5");
    let (inputs, view_state, mut notices) = from_page_query(&measured_query);
    let points = measured::read(&parse_raw(&measured_query), &mut notices);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(points.len(), 3);
    assert_eq!(measured::with_measured(page_query(&inputs, &view_state), &points), measured_query);
    let joined = [
        preset,
        custom,
        wide,
        &sim_open,
        &sim_closed,
        &disagg,
        &search,
        &view,
        "present=1",
        &measured_query,
        "lesson=1",
    ]
    .into_iter()
    .chain([spec_draft.as_str(), spec_head.as_str(), measured_engines])
    .collect::<Vec<_>>()
    .join("&");
    let covered: Vec<&str> = joined.split('&').map(|kv| kv.split('=').next().unwrap()).collect();
    // `realistic` and `ctx` are read from older links and never written (`ctx` gives way to `in`;
    // the_prompt_and_output_give_the_context_by_one_rule_and_round_trip_as_in_and_out reads it).
    for key in KEYS.iter().filter(|k| !matches!(**k, "realistic" | "ctx")) {
        assert!(covered.contains(key), "round trip misses key {key}");
    }
}

#[test]
fn a_custom_model_builds_its_spec_from_the_url() {
    let (inputs, _) =
        from_query("model=custom&m_params=46.7&m_active=12.9&m_experts=8&m_top_k=2&m_kv_heads=4");
    assert_eq!(inputs.scenario.model.id, "custom");
    assert!((inputs.scenario.model.params - 46.7e9).abs() < 1.0);
    let moe = inputs.scenario.model.moe.expect("8 experts make it MoE");
    assert_eq!((moe.experts, moe.top_k), (8, 2));
    assert_eq!(inputs.scenario.model.attention, Attention::Gqa { kv_heads: 4, head_dim: 128 });
}

#[test]
fn a_bare_custom_model_and_gpu_start_from_the_default_presets() {
    let (inputs, notices) = from_query("model=custom&gpu=custom");
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!((inputs.scenario.model.id, inputs.scenario.gpu.id), ("custom", "custom"));
    assert_eq!(inputs.scenario.model.moe, None, "Llama 3.1 8B is dense: no experts");
    assert_eq!(
        (inputs.scenario.model.params, inputs.scenario.gpu.hbm_bandwidth_bytes_per_s),
        (8.03e9, 3.35e12)
    );
    let s = inputs.scenario;
    let worked_example = Inputs::default().scenario;
    assert_eq!(
        evaluate(&s, 64).step.step_s,
        evaluate(&worked_example, 64).step.step_s,
        "same numbers as the presets"
    );
}

#[test]
fn impossible_custom_combinations_are_repaired_with_notices() {
    let (inputs, notices) = from_query("model=custom&m_params=7&m_active=70&m_experts=4&m_top_k=9");
    let moe = inputs.scenario.model.moe.unwrap();
    assert_eq!(moe.top_k, 4);
    assert!(inputs.scenario.model.active_params <= inputs.scenario.model.params);
    let keys: Vec<&str> = notices.iter().map(|n| n.key).collect();
    assert_eq!(keys, ["m_active", "m_top_k"]);
}

#[test]
fn realistic_mode_is_off_unless_the_url_asks() {
    assert_eq!(from_query("").0.realistic(), None);
    let on = from_query("realistic=1").0.realistic().unwrap();
    assert_eq!(on, CustomCalibration::REALISTIC_DEFAULT);
    assert_eq!(from_query("overhead=2").0.realistic().unwrap().mbu, CustomCalibration::REALISTIC_DEFAULT.mbu);
}

#[test]
fn realistic_mode_at_the_ideal_calibration_stays_on_through_a_link() {
    let (inputs, notices) = from_query("mbu=100&overhead=0");
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(inputs.realistic(), Some(CustomCalibration::IDEAL), "on, with the ideal numbers");
    let query = to_query(&inputs);
    assert!(query.contains("mbu=100&overhead=0"), "{query}");
    assert_eq!(from_query(&query).0, inputs);
    let off = inputs.with_realistic(None);
    assert_eq!(
        (off.realistic(), off.scenario.calibration),
        (None, goodput_lab::core::roofline::CostModel::Ideal)
    );
    assert!(!to_query(&off).contains("mbu"), "{}", to_query(&off));
}

#[test]
fn a_calibration_in_the_scenario_always_reaches_the_url() {
    let calibration = CustomCalibration { mbu: 0.6, step_overhead_s: 2e-3 };
    let mut inputs = Inputs::default();
    inputs.scenario.calibration = calibration.into();
    assert_eq!(inputs.realistic(), Some(calibration), "what the core analyzes is what the page says");
    assert_eq!(from_query(&to_query(&inputs)).0, inputs.with_realistic(Some(calibration)));
}

#[test]
fn context_is_clamped_to_the_models_maximum() {
    let (inputs, notices) = from_query("model=gemma-2-9b&ctx=131072");
    assert_eq!(inputs.scenario.context_tokens, 8192);
    assert_eq!(notices.len(), 1);
    assert!(notices[0].message.contains("8192 tokens"), "{}", notices[0].message);
}

#[test]
fn garbage_values_fall_back_to_defaults_with_one_notice_each() {
    let (inputs, notices) =
        from_query("model=gpt-9&gpu=toaster&w=int3&kv=int4&tp=3&ctx=lots&out=-&tpot=NaN&ttft=soon&util=x&mbu=%&rate=&price=free");
    assert_eq!(inputs, Inputs::default().with_realistic(Some(CustomCalibration::REALISTIC_DEFAULT)));
    let keys: Vec<&str> = notices.iter().map(|n| n.key).collect();
    assert_eq!(
        keys,
        ["model", "gpu", "w", "kv", "tp", "ctx", "out", "tpot", "ttft", "util", "mbu", "rate", "price"]
    );
    assert!(notices[0].message.contains("gpt-9") && notices[0].message.contains("Llama 3.1 8B"));
}

#[test]
fn out_of_range_numbers_are_clamped_with_a_notice() {
    let (inputs, notices) = from_query("ctx=1&tpot=0&out=10000000");
    // ctx clamps to 128, which beside 16,384 out leaves the shortest prompt, 16 in: 16 + 8,192.
    assert_eq!(inputs.scenario.context_tokens, 8208);
    assert_eq!(inputs.scenario.tpot_target_s, 0.001);
    assert_eq!(inputs.scenario.output_tokens, 16_384);
    assert_eq!(notices.len(), 3);
    assert!(notices.iter().all(|n| n.message.contains("outside")));
}

#[test]
fn markup_in_a_value_is_quoted_as_text_and_truncated() {
    let long = "<script>alert(1)</script>".repeat(5);
    let (_, notices) = from_query(&format!("model={long}"));
    assert!(notices[0].message.contains("“<script>alert(1)</script><script>alert(1…”"));
}

#[test]
fn context_slider_stops_are_log_spaced_and_include_the_worked_example() {
    let stops = log_stops(128, 131_072);
    assert_eq!((stops[0], *stops.last().unwrap()), (128, 131_072));
    assert!(stops.contains(&2048) && stops.contains(&256));
    for pair in stops.windows(2) {
        let ratio = f64::from(pair[1]) / f64::from(pair[0]);
        assert!(ratio > 1.1 && ratio <= 1.26, "{pair:?}");
    }
    assert_eq!(stops[nearest_stop_index(&stops, 2048)], 2048);
    assert_eq!(stops[nearest_stop_index(&stops, 3000)], 3072);
}

#[test]
fn output_slider_reaches_one_and_the_worked_examples_256() {
    let stops = log_stops(1, 16_384);
    assert_eq!(stops[0], 1);
    assert!(stops.contains(&256));
}

#[test]
fn bad_view_values_fall_back_with_a_notice_each() {
    let (_, view, notices) = from_page_query("present=maybe&view=pie&theme=neon&mark=0");
    assert_eq!(
        (view.mode, view.panel, view.theme, view.mark_batch),
        (Mode::Page, Panel::Rate, Theme::Auto, None)
    );
    let keys: Vec<&str> = notices.iter().map(|n| n.key).collect();
    assert_eq!(keys, ["present", "view", "theme", "mark"]);
}

#[test]
fn embed_wins_over_present() {
    let (_, view, notices) = from_page_query("present=1&embed=1&view=Step");
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!((view.mode, view.panel), (Mode::Embed, Panel::Step));
}

#[test]
fn every_bound_control_writes_the_value_its_url_key_carries() {
    let bound: [InputField; 12] = [
        UTIL_INPUT,
        TPOT_INPUT,
        MBU_INPUT,
        OVERHEAD_INPUT,
        RATE_INPUT,
        PRICE_INPUT,
        BURST_INPUT,
        LENGTH_CV_INPUT,
        POINTS_INPUT,
        REQUESTS_INPUT,
        SEED_INPUT,
        ATTAIN_INPUT,
    ];
    for input in bound {
        let field = input.field;
        let display = (field.min + (field.max - field.min) / 3.0).round().max(field.min);
        let value = field.to_base(display);
        let mut inputs = from_query("realistic=1&sim=1").0;
        (input.set)(&mut inputs, value);
        assert_eq!((input.get)(&inputs), value, "{} reads back what it wrote", field.key);
        // A preset GPU's price travels in the search's `prices` list (`h100-sxm:333`).
        let pair = match field.key {
            "price" => format!("prices={}%3A{}", inputs.scenario.gpu.id, field.write(value)),
            key => format!("{key}={}", field.write(value)),
        };
        assert!(to_query(&inputs).split('&').any(|p| p == pair), "{pair} in {}", to_query(&inputs));
    }
    let mut ideal = Inputs::default();
    (MBU_INPUT.set)(&mut ideal, 0.5);
    assert_eq!(ideal, Inputs::default(), "the calibration sliders write nothing while realistic mode is off");
}

#[test]
fn garbage_in_an_automatic_key_falls_back_to_auto_not_to_its_minimum() {
    for query in ["sim=1&cap=lots", "sim=1&cap=2.5", "sim=1&rate_max=fast"] {
        let (inputs, notices) = from_query(query);
        assert_eq!(inputs.sim.cap, None, "{query}");
        assert_eq!(inputs.sim.rate_max_req_per_s, None, "{query}");
        assert_eq!(notices.len(), 1, "{query}: {notices:?}");
        assert!(notices[0].message.ends_with("or auto; using auto."), "{}", notices[0].message);
    }
    let (inputs, notices) = from_query("sim=1&cap=0");
    assert_eq!(notices.len(), 1);
    assert_eq!(inputs.sim.cap, Some(1), "an out-of-range number is still clamped");
}

#[test]
fn a_disaggregated_link_opens_its_split_and_writes_every_placement_key() {
    let (inputs, notices) = from_query("place=disagg&xp=2&yd=3&tpd=2");
    assert!(notices.is_empty(), "{notices:?}");
    let split = inputs.placement.split;
    assert_eq!(inputs.placement.mode, PlacementMode::Disaggregated);
    assert_eq!(
        (split.prefill_instances, split.prefill_tp, split.decode_instances, split.decode_tp),
        (2, 1, 3, 2)
    );
    assert_eq!(split.link_bytes_per_s, None, "no xfer: the GPU's interconnect");
    assert!(
        to_query(&inputs).ends_with("&place=disagg&xp=2&tpp=1&yd=3&tpd=2&xfer=auto"),
        "{}",
        to_query(&inputs)
    );
    assert_eq!(from_query("xfer=50").0.placement.split.link_bytes_per_s, Some(50e9));
}

#[test]
fn bad_placement_values_fall_back_with_one_notice_each() {
    let (inputs, notices) = from_query("place=split&xp=0&tpp=3&yd=nine&tpd=16&xfer=fast");
    let keys: Vec<&str> = notices.iter().map(|n| n.key).collect();
    assert_eq!(keys, ["place", "xp", "tpp", "yd", "tpd", "xfer"], "{notices:?}");
    let split = inputs.placement.split;
    assert_eq!(inputs.placement.mode, PlacementMode::Colocated);
    assert_eq!((split.prefill_instances, split.prefill_tp, split.decode_tp), (1, 1, 1));
    assert_eq!(split.decode_instances, 1, "not a number: the default");
    assert_eq!(split.link_bytes_per_s, None);
    assert_eq!(from_query("xp=20").0.placement.split.prefill_instances, 8, "clamped to 8");
}

#[test]
fn every_models_prompt_slider_ends_where_the_context_reaches_the_models_maximum() {
    for model in goodput_lab::core::presets::MODELS {
        let inputs = Inputs::default().with_model(*model);
        let stops = inputs.prompt_stops();
        let max = inputs.prompt_tokens_max();
        // context = prompt + output / 2 at the last stop is the model's maximum context.
        assert_eq!(max + 256 / 2, inputs.context_tokens_max(), "{}", model.id);
        assert_eq!(stops.last(), Some(&max), "{}: the slider's end is the longest prompt", model.id);
        assert!(stops.iter().all(|&s| s <= max), "{}: no stop past the maximum", model.id);
    }
    let llama = Inputs::default();
    assert_eq!(llama.prompt_stops().last(), Some(&(131_072 - 128)));
}

#[test]
fn the_prompt_and_output_give_the_context_by_one_rule_and_round_trip_as_in_and_out() {
    let (i, notices) = from_query("in=2048&out=300");
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(
        (i.scenario.prompt_tokens(), i.scenario.output_tokens, i.scenario.context_tokens),
        (2048, 300, 2198)
    );
    let query = to_query(&i);
    assert!(query.contains("in=2048&out=300") && !query.contains("ctx="), "{query}");
    assert_eq!(from_query(&query).0, i);
    // A link from before the prompt control gives its context; the prompt is what it stands for.
    let (old, notices) = from_query("ctx=2048&out=256");
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!((old.scenario.context_tokens, old.scenario.prompt_tokens()), (2048, 1920));
    // Changing the output keeps the prompt; the context follows.
    let mut longer = i;
    longer.set_output_tokens(1000);
    assert_eq!((longer.scenario.prompt_tokens(), longer.scenario.context_tokens), (2048, 2548));
    // A prompt past what the model accepts is clamped so the context stays within it, with a notice.
    let (capped, notices) = from_query("in=200000&out=256");
    assert_eq!(capped.scenario.context_tokens, 131_072);
    assert_eq!(notices.len(), 1, "{notices:?}");
}

/// The parallelism a query opens: (TP, EP, DP, PP), the nodes and the notices' keys.
fn parallel_of(query: &str) -> ((u32, u32, u32, u32), u32, Vec<&'static str>) {
    let (inputs, notices) = from_query(query);
    let p = inputs.scenario.parallel;
    ((p.tp, p.ep, p.dp, p.pp), inputs.scenario.cluster.nodes, notices.iter().map(|n| n.key).collect())
}

#[test]
fn wide_expert_parallelism_opens_from_a_link_and_writes_back_exactly() {
    let query = "model=deepseek-v3&gpu=h200-sxm&w=fp8&kv=bf16&tp=1&ep=8&dp=8&nic=800&imb=1.25&tbo=1&in=1920\
                 &out=256&tpot=10&ttft=2000&util=90&rate=100";
    let (inputs, notices) = from_query(query);
    assert!(notices.is_empty(), "{notices:?}");
    let s = inputs.scenario;
    assert_eq!((s.parallel.label(), s.parallel.gpus(), s.cluster.nodes), ("TP1 EP8 DP8".to_string(), 8, 1));
    assert_eq!((s.cluster.nic_bytes_per_s, s.expert_load.imbalance), (100e9, Some(1.25)));
    assert!(s.expert_load.two_batch_overlap);
    assert_eq!(to_query(&inputs), query);
}

#[test]
fn parallelism_values_that_are_not_numbers_zero_or_out_of_range_fall_back_with_a_notice() {
    let m = "model=deepseek-v3&tp=8";
    assert_eq!(parallel_of(&format!("{m}&ep=lots")), ((8, 1, 1, 1), 1, vec!["ep"]));
    assert_eq!(parallel_of(&format!("{m}&dp=0")), ((8, 1, 1, 1), 1, vec!["dp"]));
    assert_eq!(parallel_of(&format!("{m}&pp=-2")), ((8, 1, 1, 1), 1, vec!["pp"]));
    assert_eq!(parallel_of(&format!("{m}&nodes=1000")), ((8, 1, 1, 1), 64, vec!["nodes"]));
    let (inputs, notices) = from_query(&format!("{m}&nic=0&imb=0.5"));
    assert_eq!(notices.iter().map(|n| n.key).collect::<Vec<_>>(), ["nic", "imb"]);
    assert_eq!(
        (inputs.scenario.cluster.nic_bytes_per_s, inputs.scenario.expert_load.imbalance),
        (1.25e8, Some(1.0))
    );
    // An imbalance is kept to the 3 decimals the URL writes, so it writes back exactly.
    let (inputs, _) = from_query(&format!("{m}&imb=1.23456"));
    assert_eq!(inputs.scenario.expert_load.imbalance, Some(1.235));
    assert!(to_query(&inputs).contains("&imb=1.235&"), "{}", to_query(&inputs));
}

#[test]
fn expert_parallelism_falls_back_on_a_dense_model_and_to_a_divisor_within_the_experts() {
    let (dense, notices) = from_query("model=llama-3.1-8b&ep=8&dp=8");
    assert_eq!(dense.scenario.parallel.label(), "TP1 DP8");
    assert_eq!(notices[0].message, "ep=8: Llama 3.1 8B is dense (no routed experts); using 1.");
    // TP x DP = 6: EP 4 does not divide it, 3 is the largest that does.
    assert_eq!(parallel_of("model=deepseek-v3&tp=2&dp=3&ep=4"), ((2, 3, 3, 1), 1, vec!["ep"]));
    // Qwen3-30B-A3B routes over 128 experts: EP 256 falls back to 128; 256 GPUs need 32 nodes.
    assert_eq!(
        parallel_of("model=qwen3-30b-a3b&tp=8&dp=32&ep=256"),
        ((8, 128, 32, 1), 32, vec!["nodes", "ep"])
    );
}

#[test]
fn a_replica_beyond_the_system_raises_the_nodes_up_to_the_cap_then_falls_back() {
    let (inputs, notices) = from_query("model=deepseek-v3&tp=8&dp=2");
    assert_eq!(inputs.scenario.cluster.nodes, 2);
    assert_eq!(notices[0].message, "TP × DP × PP = 16 GPUs need 2 nodes of 8; using nodes=2.");
    // 64 nodes of 8 hold 512 GPUs: DP 128 at TP 8 falls back to 64.
    assert_eq!(parallel_of("model=deepseek-v3&tp=8&dp=128"), ((8, 1, 64, 1), 64, vec!["dp", "nodes"]));
    // An NVL72 rack holds TP 8 x DP 9 in one domain.
    assert_eq!(parallel_of("model=deepseek-v3&gpu=gb200&tp=8&dp=9&ep=72"), ((8, 72, 9, 1), 1, vec![]));
    // PP past the layers falls back to them: Llama 3.1 8B has 32.
    assert_eq!(parallel_of("pp=40"), ((1, 1, 1, 32), 4, vec!["pp", "nodes"]));
}

#[test]
fn tensor_parallelism_reaches_the_nvlink_domain_and_keeps_its_notice_elsewhere() {
    assert_eq!(parallel_of("gpu=gb200&tp=72"), ((72, 1, 1, 1), 1, vec![]));
    let (_, notices) = from_query("gpu=h100-sxm&tp=16");
    assert_eq!(notices[0].message, "tp=“16” is not one of 1, 2, 4, 8; using 1.");
    let (_, notices) = from_query("gpu=gb200&tp=3");
    assert_eq!(notices[0].message, "tp=“3” is not one of 1, 2, 4, 8, 16, 32, 64, 72; using 1.");
}

#[test]
fn the_controls_transitions_keep_the_parallelism_valid() {
    let (mut inputs, _) = from_query("model=deepseek-v3&gpu=gb200&tp=72");
    inputs.set_gpu(*goodput_lab::core::presets::gpu_by_id("h100-sxm").unwrap());
    assert_eq!(inputs.scenario.parallel.tp, 8);
    inputs.set_parallel(Parallelism { tp: 8, ep: 16, dp: 2, pp: 1 });
    assert_eq!(
        (inputs.scenario.parallel.label().as_str(), inputs.scenario.cluster.nodes),
        ("TP8 EP16 DP2", 2)
    );
    // Fewer nodes than the replica needs stay at what it needs.
    inputs.set_nodes(1);
    assert_eq!(inputs.scenario.cluster.nodes, 2);
    let dense = inputs.with_model(*goodput_lab::core::presets::model_by_id("llama-3.1-70b").unwrap());
    assert_eq!(dense.scenario.parallel.label(), "TP8 DP2");
    inputs.set_nic_gbps(800.0);
    inputs.set_imbalance(Some(1.5));
    inputs.set_two_batch_overlap(true);
    assert_eq!(from_query(&to_query(&inputs)), (inputs, vec![]));
}
