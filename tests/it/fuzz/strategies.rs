//! The fuzz tests' generators (proptest strategies): values for every URL key, valid and hostile,
//! whole query strings in several encodings, measured files, and typed structs at their edges.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::Union;
use proptest::string::string_regex;

use goodput_lab::core::calibration::Engine;
use goodput_lab::core::parallel::{Cluster, ExpertLoad, Parallelism};
use goodput_lab::core::presets::{CustomGpu, CustomModel, GpuSpec, ModelSpec, GPUS, MODELS};
use goodput_lab::core::roofline::{CostModel, CustomCalibration, Precision, TP_CHOICES};
use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::spec::{Drafter, Speculation};
use goodput_lab::state::custom::{GPU_FIELDS, MODEL_FIELDS};
use goodput_lab::state::energy::{HOSTW, KWH, PUE};
use goodput_lab::state::fields::{
    NumberField, CTX, MBU, OUT, OVERHEAD, PRICE, PROMPT, RATE, TPOT, TTFT, UTIL,
};
use goodput_lab::state::placement::{DECODE_INSTANCES, MODES, PREFILL_INSTANCES, TRANSFER};
use goodput_lab::state::prefix::{HIT, PREFIX};
use goodput_lab::state::sim::{
    ARRIVALS, ATTAIN, BURST, CAP, CHUNK, COUNTINGS, LENGTHS, LENGTH_CV, LOADS, PERCENTILES, POINTS, PREFILLS,
    RATE_MAX, REQUESTS, SEED,
};
use goodput_lab::state::spec::{ACCEPTANCE, DRAFT_TOKENS, HEAD_COST, MODES as SPEC_MODES};
use goodput_lab::state::view::{Panel, Theme, MARK_MAX};
use goodput_lab::state::{parallel, CalibrationChoice, KEYS};

/// Texts that are almost numbers, or numbers no field accepts: NaN and infinity spelled every way,
/// overflow, underflow, separators, signs, hex, full-width and Arabic-Indic digits.
pub const SPECIAL: &[&str] = &[
    "",
    " ",
    "NaN",
    "nan",
    "-NaN",
    "inf",
    "-inf",
    "+inf",
    "Infinity",
    "-Infinity",
    "infinity",
    "1e400",
    "-1e400",
    "1e-400",
    "-0",
    "0",
    "0.0",
    "-0.0",
    "1",
    "-1",
    "1,000",
    "1_000",
    "10,000,000",
    "1e7",
    "1E7",
    "0x10",
    "+5",
    ".5",
    "5.",
    "1.5e3",
    "  42  ",
    "4294967295",
    "4294967296",
    "18446744073709551616",
    "-2147483649",
    "auto",
    "AUTO",
    "1 000",
    "٣",
    "１２",
    "1e",
    "e5",
    "--1",
    "1..2",
    ",",
    "_",
    "1e308",
    "-1e308",
    "2.2250738585072014e-308",
    "5e-324",
    "0.0005",
    "0.0004999",
    "999999999999999999999",
];

/// Parallel degrees deployments use: powers of two, an NVL72 rack's 72 and its divisors' 9 and 36.
const DEGREES: &[u32] = &[1, 1, 2, 3, 4, 8, 9, 16, 32, 36, 64, 72, 128, 256];

/// Markup and URL syntax a value might smuggle in.
pub const MARKUP: &[&str] = &[
    "<script>alert(1)</script>",
    "\"><img src=x onerror=alert(1)>",
    "javascript:alert(1)",
    "a&b=c",
    "=",
    "&&&",
    "%",
    "%G1",
    "%FF%FE",
    "%C3%28",
    "%00",
    "+",
    "#frag",
    "\u{202e}evil",
    "\u{feff}1",
    "e\u{301}",
    "🦀",
];

/// Every numeric field a URL key reads, by key.
pub fn field_of(key: &str) -> Option<NumberField> {
    let top = [
        CTX, PROMPT, OUT, TPOT, TTFT, UTIL, MBU, OVERHEAD, RATE, PRICE, BURST, LENGTH_CV, REQUESTS, SEED,
        CHUNK, CAP, ATTAIN, RATE_MAX, POINTS, PREFIX, HIT, KWH, PUE, HOSTW,
    ];
    let placement = [PREFILL_INSTANCES, DECODE_INSTANCES, TRANSFER, DRAFT_TOKENS, ACCEPTANCE, HEAD_COST];
    let parallel = [parallel::EP, parallel::DP, parallel::PP, parallel::NODES, parallel::NIC, parallel::IMB];
    let custom = MODEL_FIELDS.iter().map(|f| f.field).chain(GPU_FIELDS.iter().map(|f| f.field));
    top.into_iter().chain(placement).chain(parallel).chain(custom).find(|f| f.key == key)
}

/// The ids a choice key accepts (flags included), if `key` is one.
fn choices_of(key: &str) -> Option<Vec<String>> {
    let ids = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let with_custom = |mut v: Vec<String>| {
        v.push("custom".into());
        v
    };
    Some(match key {
        "model" => with_custom(MODELS.iter().map(|m| m.id.to_string()).collect()),
        "gpu" => with_custom(GPUS.iter().map(|g| g.id.to_string()).collect()),
        "w" => Precision::WEIGHTS.iter().map(|p| p.id().to_string()).collect(),
        "kv" => Precision::KV.iter().map(|p| p.id().to_string()).collect(),
        "tp" => TP_CHOICES.iter().chain(&[16, 32, 64, 72]).map(u32::to_string).collect(),
        "tpp" | "tpd" => TP_CHOICES.iter().map(u32::to_string).collect(),
        "place" => MODES.iter().map(|m| m.0.to_string()).collect(),
        "spec" => SPEC_MODES.iter().map(|m| m.to_string()).collect(),
        "draft" => MODELS.iter().map(|m| m.id.to_string()).collect(),
        "realistic" | "sim" | "present" | "embed" | "tbo" => {
            ids(&["1", "0", "true", "on", "off", "yes", "no", ""])
        }
        "load" => LOADS.iter().map(|c| c.0.to_string()).collect(),
        "count" => COUNTINGS.iter().map(|c| c.0.to_string()).collect(),
        "arrivals" => ARRIVALS.iter().map(|c| c.0.to_string()).collect(),
        "lengths" => LENGTHS.iter().map(|c| c.0.to_string()).collect(),
        "prefill" => PREFILLS.iter().map(|c| c.0.to_string()).collect(),
        "pct" => PERCENTILES.iter().map(|c| c.0.to_string()).collect(),
        "view" => Panel::ALL.iter().map(|p| p.id().to_string()).collect(),
        "theme" => Theme::ALL.iter().map(|t| t.id().to_string()).collect(),
        "lesson" => ids(&["1", "2", "3", "4", "5", "6", "7", "8"]),
        "calib" => CalibrationChoice::ALL.iter().map(|c| c.id().to_string()).collect(),
        "engine" => Engine::ALL.iter().map(|e| e.id().to_string()).collect(),
        _ => return None,
    })
}

/// Speculative decoding at its edges: off, any preset drafting, or a head, with k and alpha in range.
pub fn speculation() -> BoxedStrategy<Speculation> {
    let drafter = prop_oneof![
        2 => Just(Drafter::Off),
        2 => select(MODELS.to_vec()).prop_map(Drafter::Model),
        1 => base(HEAD_COST).prop_map(|f| Drafter::Head { layer_cost_fraction: f }),
    ];
    (drafter, base(DRAFT_TOKENS), base(ACCEPTANCE))
        .prop_map(|(drafter, k, acceptance)| Speculation { drafter, draft_tokens: k as u32, acceptance })
        .boxed()
}

/// A number inside `f`'s range (display units): either end, uniform, log-uniform, as typed.
pub fn in_range(f: NumberField) -> BoxedStrategy<f64> {
    let (lo, hi) = (f.min, f.max);
    let log = (lo.ln_1p()..=hi.ln_1p()).prop_map(f64::exp_m1).prop_map(move |x| x.clamp(lo, hi));
    let x = prop_oneof![1 => Just(lo), 1 => Just(hi), 2 => lo..=hi, 2 => log];
    if f.whole {
        x.prop_map(f64::round).boxed()
    } else {
        x.boxed()
    }
}

/// A number for `f` as a URL carries it: in range (plain, 3 decimals, or with thousands commas), or
/// just outside it.
fn number_for(f: NumberField) -> BoxedStrategy<String> {
    let outside = prop_oneof![Just(f.min - 1.0), Just(f.max + 1.0), Just(-f.max), Just(f.max * 1e3)];
    prop_oneof![
        6 => in_range(f).prop_map(|x| format!("{x}")),
        2 => in_range(f).prop_map(|x| format!("{x:.3}")),
        1 => in_range(f).prop_map(|x| with_commas(x.round())),
        1 => outside.prop_map(|x| format!("{x}")),
    ]
    .boxed()
}

/// `1234567` as `1,234,567`.
fn with_commas(x: f64) -> String {
    let digits = format!("{}", x.abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if x < 0.0 {
        format!("-{out}")
    } else {
        out
    }
}

/// `measured=` pairs: valid `batch:TPOT` mostly, any text sometimes; sometimes more than fit.
pub fn measured_value() -> BoxedStrategy<String> {
    let batch = prop_oneof![3 => (1u32..=1024).prop_map(|b| b.to_string()), 1 => number_text()];
    let tpot = prop_oneof![3 => (0.001f64..500.0).prop_map(|t| format!("{t:.3}")), 1 => number_text()];
    let length = prop_oneof![3 => (1.0f64..100_000.0).prop_map(|x| format!("{x:.3}")), 1 => number_text()];
    let pair = prop_oneof![
        8 => (batch.clone(), tpot.clone()).prop_map(|(b, t)| format!("{b}:{t}")),
        2 => (batch, tpot, length.clone(), length).prop_map(|(b, t, i, o)| format!("{b}:{t}@{i}/{o}")),
        1 => hostile_value(),
    ];
    prop_oneof![
        12 => vec(pair.clone(), 0..12),
        1 => vec(pair, 190..230),
    ]
    .prop_map(|pairs| pairs.join(","))
    .boxed()
}

/// A value `key` accepts (or, for numbers, one just outside the range it clamps).
pub fn valid_value(key: &'static str) -> BoxedStrategy<String> {
    if let Some(f) = field_of(key).filter(|_| !matches!(key, "ep" | "dp" | "pp" | "nodes")) {
        if matches!(key, "cap" | "rate_max" | "xfer") {
            return prop_oneof![5 => number_for(f), 1 => Just("auto".to_string())].boxed();
        }
        return number_for(f);
    }
    if let Some(ids) = choices_of(key) {
        let cased = (select(ids), any::<bool>());
        return cased.prop_map(|(id, upper)| if upper { id.to_uppercase() } else { id }).boxed();
    }
    match key {
        // Degrees as deployments use them, beside any in the field's range (mostly repaired).
        "ep" | "dp" | "pp" | "nodes" => {
            let f = field_of(key).expect("a degree's field");
            prop_oneof![3 => select(DEGREES).prop_map(|d| d.to_string()), 1 => number_for(f)].boxed()
        }
        "mark" => prop_oneof![Just(1), Just(MARK_MAX), 1..=MARK_MAX].prop_map(|b: u32| b.to_string()).boxed(),
        "measured" => measured_value(),
        _ => number_text(),
    }
}

/// Text read as a number by no field, or by some: floats and integers of any size, specials.
pub fn number_text() -> BoxedStrategy<String> {
    prop_oneof![
        3 => select(SPECIAL).prop_map(String::from),
        3 => any::<f64>().prop_map(|x| x.to_string()),
        1 => any::<f64>().prop_map(|x| format!("{x:e}")),
        2 => any::<i64>().prop_map(|x| x.to_string()),
        1 => any::<u64>().prop_map(|x| x.to_string()),
    ]
    .boxed()
}

/// Any text: numbers that are not, unicode (control characters included), markup, percent escapes.
pub fn hostile_value() -> BoxedStrategy<String> {
    prop_oneof![
        4 => number_text(),
        2 => vec(any::<char>(), 0..16).prop_map(|c| c.into_iter().collect()),
        1 => string_regex("\\PC{0,24}").expect("a valid regex"),
        1 => select(MARKUP).prop_map(String::from),
        1 => vec(any::<u8>(), 0..12).prop_map(|b| b.iter().map(|x| format!("%{x:02X}")).collect()),
    ]
    .boxed()
}

/// Keys the page ignores.
const UNKNOWN_KEYS: [&str; 5] = ["x", "model_", "M", "ctx ", ""];

/// A (key, value) pair: a key the page reads (or now and then one it ignores) with a value from
/// `value`. Built once from one strategy per key, so drawing a pair builds no strategy.
fn pair(value: impl Fn(&'static str) -> BoxedStrategy<String>) -> BoxedStrategy<(&'static str, String)> {
    let known = KEYS.iter().map(|&k| (19, (Just(k), value(k)).boxed()));
    let unknown = UNKNOWN_KEYS.iter().map(|&k| (1, (Just(k), value(k)).boxed()));
    Union::new_weighted(known.chain(unknown).collect::<Vec<_>>()).boxed()
}

/// How a pair is written into the query.
fn written(key: &str, value: &str, how: u8) -> String {
    match how {
        0 => format!("{key}={value}"),
        1 => serde_urlencoded::to_string([(key, value)]).unwrap_or_default(),
        _ => {
            let escape = |s: &str| s.bytes().map(|b| format!("%{b:02X}")).collect::<String>();
            format!("{}={}", escape(key), escape(value))
        }
    }
}

/// Pairs joined into a query (with or without `?`), each written raw, form-encoded or with every
/// byte percent-escaped.
fn join(question: bool, pairs: Vec<((&'static str, String), u8)>) -> String {
    let body: Vec<String> = pairs.iter().map(|((k, v), how)| written(k, v, *how)).collect();
    let body = body.join("&");
    if question {
        format!("?{body}")
    } else {
        body
    }
}

/// A query of any keys with values valid, clamped or hostile.
pub fn hostile_query() -> BoxedStrategy<String> {
    let hostile = hostile_value();
    let pair = pair(|k| prop_oneof![3 => valid_value(k), 2 => hostile.clone()].boxed());
    (any::<bool>(), vec((pair, 0u8..3), 0..16)).prop_map(|(q, pairs)| join(q, pairs)).boxed()
}

/// A query whose values the page accepts or clamps, often a custom model or GPU: the states the
/// controls and links produce.
pub fn valid_query() -> BoxedStrategy<String> {
    let pair = pair(valid_value);
    let custom =
        |k: &'static str| prop_oneof![2 => Just(None), 1 => Just(Some(((k, "custom".to_string()), 0)))];
    (custom("model"), custom("gpu"), vec((pair, 0u8..2), 0..24))
        .prop_map(|(m, g, pairs)| join(false, m.into_iter().chain(g).chain(pairs).collect()))
        .boxed()
}

/// Text pasted or dropped as measured step times: vLLM-like JSON (objects, arrays, JSON lines)
/// with any values, CSV-like rows, or any text.
pub fn upload_text() -> BoxedStrategy<String> {
    let json_number = prop_oneof![
        3 => number_text(),
        1 => Just("null".to_string()),
        1 => hostile_value().prop_map(|s| serde_json::to_string(&s).unwrap_or_default()),
    ];
    let object = (json_number.clone(), json_number.clone(), json_number, any::<bool>()).prop_map(
        |(b, t, r, extra)| {
            let rate = if extra { format!(",\"request_rate\":{r},\"failed\":{r}") } else { String::new() };
            format!("{{\"max_concurrency\":{b},\"mean_tpot_ms\":{t}{rate}}}")
        },
    );
    let json = (vec(object, 0..8), 0u8..3).prop_map(|(objs, how)| match how {
        0 => objs.join("\n"),
        1 => format!("[{}]", objs.join(",")),
        _ => objs.first().cloned().unwrap_or_default(),
    });
    let cell = prop_oneof![3 => number_text(), 1 => hostile_value()];
    let row =
        vec(cell, 0..4).prop_flat_map(|cells| select(&[",", "\t", ";"][..]).prop_map(move |d| cells.join(d)));
    let csv = vec(row, 0..12).prop_map(|rows| rows.join("\n"));
    prop_oneof![2 => json, 2 => csv, 1 => hostile_value(), 1 => vec(any::<char>(), 0..64).prop_map(|c| c.into_iter().collect())]
        .boxed()
}

/// A value of `f` in base units, anywhere in its range, ends included.
fn base(f: NumberField) -> BoxedStrategy<f64> {
    in_range(f).prop_map(move |x| f.to_base(x)).boxed()
}

/// A custom model with every field anywhere in its range, ends included, unreconciled (active may
/// exceed total, top-k the experts, sliding layers the layers).
fn custom_model() -> BoxedStrategy<ModelSpec> {
    let f = |i: usize| base(MODEL_FIELDS[i].field);
    let (a, b) = ((f(0), f(1), f(2), f(3), f(4), f(5)), (f(6), f(7), f(8), f(9), f(10), f(11)));
    (a, b)
        .prop_map(|(a, b)| {
            let mut m = CustomModel::from_spec(&MODELS[0]);
            let values = [a.0, a.1, a.2, a.3, a.4, a.5, b.0, b.1, b.2, b.3, b.4, b.5];
            for (field, v) in MODEL_FIELDS.iter().zip(values) {
                (field.set)(&mut m, v);
            }
            m.to_spec()
        })
        .boxed()
}

/// A custom GPU with every field anywhere in its range, ends included.
fn custom_gpu() -> BoxedStrategy<GpuSpec> {
    let f = |i: usize| base(GPU_FIELDS[i].field);
    (f(0), f(1), f(2), f(3), f(4), f(5))
        .prop_map(|v| {
            let mut g = CustomGpu::from_spec(&GPUS[0]);
            for (field, x) in GPU_FIELDS.iter().zip([v.0, v.1, v.2, v.3, v.4, v.5]) {
                (field.set)(&mut g, x);
            }
            g.to_spec()
        })
        .boxed()
}

/// A replica's asked degrees (TP any the page offers, EP, DP and PP as deployments use them, often
/// TP alone), a NIC per GPU and an expert load, uniform or anywhere in its range, with or without
/// two-batch overlap.
fn replica() -> BoxedStrategy<(Parallelism, f64, ExpertLoad)> {
    let tp = select(TP_CHOICES.iter().chain(&[16, 32, 64, 72]).copied().collect::<Vec<u32>>());
    let degree = || prop_oneof![2 => Just(1u32), 1 => select(DEGREES)];
    let asked = (tp, degree(), degree(), prop_oneof![3 => Just(1u32), 1 => 1u32..=8])
        .prop_map(|(tp, ep, dp, pp)| Parallelism { tp, ep, dp, pp });
    let asked = prop_oneof![1 => asked.clone().prop_map(|p| Parallelism::tp(p.tp)), 2 => asked];
    let imbalance = prop_oneof![2 => Just(None), 1 => base(parallel::IMB).prop_map(Some)];
    let load = (imbalance, any::<bool>())
        .prop_map(|(imbalance, two_batch_overlap)| ExpertLoad { imbalance, two_batch_overlap });
    (asked, base(parallel::NIC), load).boxed()
}

/// A scenario built directly from typed values at the edges of every validated range: any preset
/// or custom model and GPU, any precision and replica ([`replica`]), context up to the field's
/// maximum whatever the model's, any targets, utilization and calibration.
pub fn edge_scenario() -> BoxedStrategy<Scenario> {
    let model = prop_oneof![1 => select(MODELS.to_vec()), 2 => custom_model()];
    let gpu = prop_oneof![1 => select(GPUS.to_vec()), 2 => custom_gpu()];
    let precisions = (select(Precision::WEIGHTS.to_vec()), select(Precision::KV.to_vec()));
    let lengths = (replica(), base(CTX), base(OUT));
    let targets = (base(TPOT), base(TTFT), base(UTIL));
    let custom = (base(MBU), base(OVERHEAD))
        .prop_map(|(mbu, step_overhead_s)| CustomCalibration { mbu, step_overhead_s }.into());
    let measured = select(Engine::ALL.to_vec()).prop_map(CostModel::Measured);
    let calibration = prop_oneof![1 => Just(CostModel::Ideal), 1 => custom, 1 => measured];
    // The prefix as a share of the context (0 and 1 included) and any hit rate.
    let prefix =
        prop_oneof![1 => Just((0.0, 0.0)), 3 => (prop_oneof![Just(0.0), Just(1.0), 0.0..=1.0], base(HIT))];
    (model, gpu, precisions, lengths, targets, (calibration, prefix, speculation()))
        .prop_map(
            |(
                model,
                gpu,
                (w, kv),
                ((asked, nic, expert_load), ctx, out),
                (tpot, ttft, util),
                (cal, (share, hit), speculation),
            )| {
                // The degrees as validation leaves them: EP 1 on a dense model, the nodes to hold it.
                let (parallel, nodes) = parallel::fit(&model, &gpu, (asked, 1), &mut Vec::new());
                Scenario {
                    model,
                    gpu,
                    weight_precision: w,
                    kv_precision: kv,
                    parallel,
                    cluster: Cluster { nodes, nic_bytes_per_s: nic },
                    expert_load,
                    context_tokens: ctx as u32,
                    output_tokens: out as u32,
                    tpot_target_s: tpot,
                    ttft_target_s: ttft,
                    memory_utilization: util,
                    calibration: cal,
                    speculation,
                    prefix: goodput_lab::core::prefix::PrefixCache {
                        prefix_tokens: (share * ctx).floor() as u32,
                        hit_rate: hit,
                    },
                }
            },
        )
        .boxed()
}
