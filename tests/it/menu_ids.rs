//! The menus' option values are the URL's ids: every `id()` a menu offers (precision, engine,
//! calibration, theme, embedded view, the search's filters), written under its URL key, reads back
//! as the same value without a notice, and every `from_id` a menu reads a pick with gives it back.

use goodput_lab::core::calibration::Engine;
use goodput_lab::core::precision::Precision;
use goodput_lab::state::view::{Panel, Theme, View};
use goodput_lab::state::{from_page_query, CalibrationChoice, Inputs};

/// The state `query` reads, failing on any notice: each id below must be taken as written.
fn read_cleanly(query: &str) -> (Inputs, View) {
    let (inputs, view, notices) = from_page_query(query);
    assert!(notices.is_empty(), "{query}: {notices:?}");
    (inputs, view)
}

/// The old `id()` methods give the menus their option values (precision, engine, calibration,
/// theme, embedded view, the search's filters) and `from_id` reads a pick back: each id a menu
/// offers, under its URL key, reads as the same value with no notice, and the KV menu's `from_id`
/// refuses INT4 (weight-only), as `kv=int4` does.
#[test]
fn every_id_a_menu_offers_reads_back_under_its_url_key_as_the_same_value() {
    for p in Precision::WEIGHTS {
        assert_eq!(read_cleanly(&format!("w={}", p.id())).0.scenario.weight_precision, p);
        assert_eq!(read_cleanly(&format!("sw={}", p.id())).0.search.filters.weight_precision, Some(p));
    }
    for p in Precision::KV {
        assert_eq!(read_cleanly(&format!("kv={}", p.id())).0.scenario.kv_precision, p);
        assert_eq!(read_cleanly(&format!("skv={}", p.id())).0.search.filters.kv_precision, Some(p));
        assert_eq!(Precision::from_id(p.id(), &Precision::KV), Some(p));
    }
    assert_eq!(Precision::from_id(Precision::Int4.id(), &Precision::KV), None, "INT4 is weights only");
    assert_eq!(from_page_query("kv=int4").2.len(), 1, "and the KV key refuses it too");
    for e in Engine::ALL {
        assert_eq!(read_cleanly(&format!("calib=measured&engine={}", e.id())).0.engine(), Some(e));
        assert_eq!(Engine::from_id(e.id()), Some(e));
    }
    for c in CalibrationChoice::ALL {
        assert_eq!(read_cleanly(&format!("mbu=50&calib={}", c.id())).0.calibration_choice, c);
        assert_eq!(CalibrationChoice::from_id(c.id()), Some(c));
    }
    for t in Theme::ALL {
        assert_eq!(read_cleanly(&format!("theme={}", t.id())).1.theme, t);
    }
    for panel in Panel::ALL {
        assert_eq!(read_cleanly(&format!("embed=1&view={}", panel.id())).1.panel, panel);
    }
}
