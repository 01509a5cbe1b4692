//! One reader for raw URL values (`state::read`): every boolean key takes the same words, every
//! enum key reads its [`UrlId`] ids in any case, bad values get a notice naming the key and what it
//! accepts, and the page still writes the same links.

use std::fmt::Debug;

use goodput_lab::core::calibration::Engine;
use goodput_lab::core::placement::{PlacementMode, Split};
use goodput_lab::core::precision::Precision;
use goodput_lab::core::sim::{Counting, LengthDist, LoadMode};
use goodput_lab::state::read::{url_ids, UrlId, FLAG_OFF, FLAG_ON};
use goodput_lab::state::search::{SortKey, SORTS};
use goodput_lab::state::sim::{ArrivalKind, SimInputs, ARRIVALS, COUNTINGS, LENGTHS, LOADS};
use goodput_lab::state::spec::SpecMode;
use goodput_lab::state::view::{Mode, Panel, Theme};
use goodput_lab::state::{
    from_page_query, page_query, to_query, CalibrationChoice, Inputs, Notice, DEFAULT_RATE_REQ_PER_S, KEYS,
    WORKED_EXAMPLE,
};

/// Every boolean key, with what it turns on as read from a page query.
const FLAG_KEYS: [(&str, fn(&str) -> bool); 6] = [
    ("present", |q| from_page_query(q).1.mode == Mode::Present),
    ("embed", |q| from_page_query(q).1.mode == Mode::Embed),
    ("sim", |q| from_page_query(q).0.sim.open),
    ("search", |q| from_page_query(q).0.search.open),
    ("realistic", |q| from_page_query(q).0.realistic().is_some()),
    ("tbo", |q| from_page_query(q).0.scenario.expert_load.two_batch_overlap),
];

fn notices(query: &str) -> Vec<Notice> {
    from_page_query(query).2
}

#[test]
fn every_flag_key_is_a_key_the_page_reads() {
    for (key, _) in FLAG_KEYS {
        assert!(KEYS.contains(&key), "{key}");
    }
}

#[test]
fn every_flag_key_accepts_the_same_words() {
    for (key, is_on) in FLAG_KEYS {
        for word in FLAG_ON {
            for typed in [word.to_string(), word.to_uppercase(), format!(" {word} ")] {
                let query = format!("{key}={typed}");
                assert!(is_on(&query), "{query} is on");
                assert!(notices(&query).is_empty(), "{query}: {:?}", notices(&query));
            }
        }
        for word in FLAG_OFF {
            for typed in [word.to_string(), word.to_uppercase()] {
                let query = format!("{key}={typed}");
                assert!(!is_on(&query), "{query} is off");
                assert!(notices(&query).is_empty(), "{query}: {:?}", notices(&query));
            }
        }
        assert!(!is_on(""), "{key} is off when absent");
    }
}

#[test]
fn a_bare_flag_key_is_on_for_every_flag() {
    for (key, is_on) in FLAG_KEYS {
        for query in [key.to_string(), format!("{key}=")] {
            assert!(is_on(&query), "?{query} is on");
            assert!(notices(&query).is_empty(), "{query}: {:?}", notices(&query));
        }
    }
}

#[test]
fn sim_yes_opens_the_simulator() {
    let (inputs, _, notices) = from_page_query("sim=yes");
    assert!(inputs.sim.open && notices.is_empty(), "{notices:?}");
}

#[test]
fn search_true_opens_the_search_without_a_notice() {
    let (inputs, _, notices) = from_page_query("search=true");
    assert!(inputs.search.open && notices.is_empty(), "{notices:?}");
}

#[test]
fn an_unknown_flag_word_gets_a_notice_naming_the_key_and_the_words() {
    for (key, is_on) in FLAG_KEYS {
        let query = format!("{key}=maybe");
        assert!(!is_on(&query), "{query} falls back to off");
        let notices = notices(&query);
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert_eq!(notices[0].key, key);
        let message = &notices[0].message;
        assert!(message.starts_with(&format!("{key}=")) && message.contains("maybe"), "{message}");
        for word in FLAG_ON.iter().chain(&FLAG_OFF) {
            assert!(message.contains(word), "{message} names {word}");
        }
    }
}

#[test]
fn every_on_word_writes_the_canonical_1_and_every_off_word_writes_nothing() {
    for (key, _) in FLAG_KEYS.iter().filter(|(key, _)| *key != "realistic") {
        let canonical = page(&format!("{key}=1"));
        assert!(canonical.contains(&format!("{key}=1")), "{canonical}");
        for word in FLAG_ON.iter().chain(&[""]) {
            assert_eq!(page(&format!("{key}={word}")), canonical, "{key}={word}");
        }
        for word in FLAG_OFF {
            assert_eq!(page(&format!("{key}={word}")), page(""), "{key}={word}");
        }
    }
}

#[test]
fn a_closed_simulator_under_a_lesson_that_opens_it_writes_sim_0_whatever_the_off_word() {
    let opens = |n: &u8| from_page_query(&format!("lesson={n}")).0.sim.open;
    let lesson = (1..=8).find(opens).expect("a lesson opens the simulator");
    let written = page(&format!("lesson={lesson}&sim=0"));
    assert!(written.contains("&sim=0&"), "{written}");
    for word in FLAG_OFF {
        assert_eq!(page(&format!("lesson={lesson}&sim={word}")), written, "sim={word}");
    }
}

fn page(query: &str) -> String {
    let (inputs, view, _) = from_page_query(query);
    page_query(&inputs, &view)
}

/// The claims every [`UrlId`] enum makes: each id reads back as its variant, ids are unique,
/// non-empty lowercase ASCII, and no variant is listed twice.
fn round_trips<T: UrlId + Debug>() -> Vec<&'static str> {
    let ids: Vec<&str> = T::VARIANTS.iter().map(|v| v.url_id()).collect();
    for variant in T::VARIANTS {
        assert_eq!(T::from_url_id(variant.url_id()), Some(*variant), "{variant:?}");
        let id = variant.url_id();
        assert!(!id.is_empty() && id.bytes().all(|b| !b.is_ascii_uppercase() && b.is_ascii()), "{id}");
    }
    for (i, id) in ids.iter().enumerate() {
        assert!(!ids[..i].contains(id), "{id} is unique");
    }
    assert_eq!(T::from_url_id("no-such-id"), None);
    ids
}

#[test]
fn every_url_id_round_trips() {
    round_trips::<Precision>();
    round_trips::<Engine>();
    round_trips::<PlacementMode>();
    round_trips::<LoadMode>();
    round_trips::<Counting>();
    round_trips::<LengthDist>();
    round_trips::<Panel>();
    round_trips::<Theme>();
    round_trips::<CalibrationChoice>();
    round_trips::<SortKey>();
    round_trips::<ArrivalKind>();
    round_trips::<SpecMode>();
}

#[test]
fn the_menus_tables_list_each_enum_in_its_url_id_order() {
    assert_eq!(LOADS.to_vec(), url_ids(LoadMode::VARIANTS));
    assert_eq!(COUNTINGS.to_vec(), url_ids(Counting::VARIANTS));
    assert_eq!(ARRIVALS.to_vec(), url_ids(ArrivalKind::VARIANTS));
    assert_eq!(LENGTHS.to_vec(), url_ids(LengthDist::VARIANTS));
    assert_eq!(SORTS.map(|(id, key, _)| (id, key)).to_vec(), url_ids(SortKey::VARIANTS));
    assert_eq!(goodput_lab::state::placement::MODES.to_vec(), url_ids(PlacementMode::VARIANTS));
    assert_eq!(goodput_lab::state::spec::MODES.to_vec(), ids_of(SpecMode::VARIANTS));
}

fn ids_of<T: UrlId>(values: &[T]) -> Vec<&'static str> {
    values.iter().map(|value| value.url_id()).collect()
}

/// Every enum-valued key with its ids, and what else the query needs for the key to apply.
fn enum_keys() -> Vec<(&'static str, Vec<&'static str>, &'static str)> {
    vec![
        ("w", ids_of(&Precision::WEIGHTS), ""),
        ("kv", ids_of(&Precision::KV), ""),
        ("calib", ids_of(CalibrationChoice::VARIANTS), "mbu=50&"),
        ("engine", ids_of(Engine::VARIANTS), "calib=measured&"),
        ("spec", ids_of(SpecMode::VARIANTS), ""),
        ("load", ids_of(LoadMode::VARIANTS), ""),
        ("count", ids_of(Counting::VARIANTS), ""),
        ("arrivals", ids_of(ArrivalKind::VARIANTS), ""),
        ("lengths", ids_of(LengthDist::VARIANTS), ""),
        ("place", ids_of(PlacementMode::VARIANTS), ""),
        ("ssort", ids_of(SortKey::VARIANTS), ""),
        ("splace", ids_of(PlacementMode::VARIANTS), ""),
        ("sw", ids_of(&Precision::WEIGHTS), ""),
        ("skv", ids_of(&Precision::KV), ""),
        ("view", ids_of(Panel::VARIANTS), ""),
        ("theme", ids_of(Theme::VARIANTS), ""),
    ]
}

#[test]
fn every_enum_key_reads_its_ids_in_any_case_without_a_notice() {
    for (key, ids, context) in enum_keys() {
        for id in ids {
            let lower = format!("{context}{key}={id}");
            let upper = format!("{context}{key}={}", id.to_uppercase());
            assert!(notices(&lower).is_empty(), "{lower}: {:?}", notices(&lower));
            assert!(notices(&upper).is_empty(), "{upper}: {:?}", notices(&upper));
            assert_eq!(page(&upper), page(&lower), "{upper}");
        }
    }
}

#[test]
fn an_unknown_enum_id_gets_one_notice_naming_the_key_and_every_id() {
    for (key, ids, context) in enum_keys() {
        let query = format!("{context}{key}=nonsense");
        let notices = notices(&query);
        assert_eq!(notices.len(), 1, "{query}: {notices:?}");
        assert_eq!(notices[0].key, key);
        for id in ids {
            assert!(notices[0].message.contains(id), "{} names {id}", notices[0].message);
        }
    }
}

#[test]
fn tp_keys_share_one_reader() {
    for key in ["tp", "tpp", "tpd"] {
        let notices = notices(&format!("{key}=3"));
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert_eq!(notices[0].message, format!("{key}=“3” is not one of 1, 2, 4, 8; using 1."));
    }
}

#[test]
fn cap_rate_max_and_xfer_read_auto_and_numbers_alike() {
    for key in ["cap", "rate_max", "xfer"] {
        for auto in ["auto", "AUTO", " Auto "] {
            assert!(notices(&format!("{key}={auto}")).is_empty(), "{key}={auto}");
        }
        assert!(notices(&format!("{key}=1,000")).len() <= 1, "a thousands separator reads as a number");
        let bad = notices(&format!("{key}=lots"));
        assert_eq!(bad.len(), 1, "{bad:?}");
        assert!(bad[0].message.ends_with("or auto; using auto."), "{}", bad[0].message);
    }
}

/// The worked example's canonical query, spelled out from the presets (not from the writer).
fn worked_example_query() -> String {
    let s = WORKED_EXAMPLE;
    format!(
        "model={}&gpu={}&w=bf16&kv=bf16&tp={}&in={}&out={}&tpot={}&ttft={}&util={}&rate={}",
        s.model.id,
        s.gpu.id,
        s.parallel.tp,
        s.prompt_tokens(),
        s.output_tokens,
        (s.tpot_target_s * 1e3).round(),
        (s.ttft_target_s * 1e3).round(),
        (s.memory_utilization * 1e2).round(),
        DEFAULT_RATE_REQ_PER_S,
    )
}

#[test]
fn written_queries_for_the_default_and_typical_states_are_unchanged() {
    let base = worked_example_query();
    assert_eq!(to_query(&Inputs::default()), base);
    let split = Split::default();
    let disaggregated = format!(
        "{base}&place=disagg&xp={}&tpp={}&yd={}&tpd={}&xfer=auto",
        split.prefill_instances, split.prefill_tp, split.decode_instances, split.decode_tp
    );
    let d = SimInputs::default();
    let sim = format!(
        "{base}&sim=1&load=open&count=requests&arrivals=poisson&burst={}&lengths=lognormal&spread={}\
         &requests={}&seed={}&seeds={}&chunk={}&cap=auto&prefill=chunked&pct=p90&rate_max=auto&points={}",
        d.burst_cv,
        d.length_cv * 100.0,
        d.requests,
        d.seed,
        d.seeds,
        d.chunk_tokens,
        d.rate_points
    );
    let cases = [
        ("search=yes", format!("{base}&search=1")),
        ("present=on", format!("{base}&present=1&view=rate")),
        ("embed=TRUE&view=Table", format!("{base}&embed=1&view=table")),
        ("theme=dark&mark=48", format!("{base}&theme=dark&mark=48")),
        ("place=DISAGG", disaggregated),
        ("sim", sim),
        ("calib=measured&engine=SGLang", base.replace("&rate=", "&calib=measured&engine=sglang&rate=")),
        // The parallelism's keys at their defaults, spelled out, write nothing.
        ("ep=1&dp=1&pp=01&nodes=1&nic=400&tbo=0&imb=", base.clone()),
    ];
    for (query, expected) in cases {
        assert_eq!(page(query), expected, "{query}");
    }
}
