//! One rule opens the panels (`state::open::is_open`): the `sim`, `search` and `place` keys and the
//! view. A closed page opens none; each key opens its own; a presentation or embed opens the panel
//! it shows; loading a search row opens the placement; and an open placement survives its link.

use goodput_lab::core::search::search;
use goodput_lab::state::open::is_open;
use goodput_lab::state::view::Panel;
use goodput_lab::state::{from_page_query, page_query};

const OPENED: [Panel; 3] = [Panel::Sim, Panel::Search, Panel::Placement];

/// The panels among [`OPENED`] open for `query`.
fn open_for(query: &str) -> Vec<Panel> {
    let (inputs, view, notices) = from_page_query(query);
    assert!(notices.is_empty(), "{query}: {notices:?}");
    OPENED.into_iter().filter(|p| is_open(&inputs, &view, *p)).collect()
}

#[test]
fn a_plain_page_opens_no_panel_and_shows_the_others() {
    assert_eq!(open_for(""), []);
    let (inputs, view, _) = from_page_query("");
    for panel in
        [Panel::Rate, Panel::Step, Panel::Interactivity, Panel::Table, Panel::Derivation, Panel::Accuracy]
    {
        assert!(is_open(&inputs, &view, panel), "{panel:?}");
    }
}

#[test]
fn each_key_opens_its_own_panel() {
    assert_eq!(open_for("?sim=1"), [Panel::Sim]);
    assert_eq!(open_for("?search=yes"), [Panel::Search]);
    assert_eq!(open_for("?place=colo"), [Panel::Placement]);
    assert_eq!(open_for("?place=disagg"), [Panel::Placement]);
}

#[test]
fn a_presentation_or_an_embed_opens_the_panel_it_shows() {
    assert_eq!(open_for("?present=1&view=sim"), [Panel::Sim]);
    assert_eq!(open_for("?embed=1&view=search"), [Panel::Search]);
    assert_eq!(open_for("?present=1&view=placement"), [Panel::Placement]);
    // On the page, `view=` alone opens nothing.
    assert_eq!(open_for("?view=sim"), []);
}

#[test]
fn loading_a_search_row_opens_the_placement_panel() {
    let (mut inputs, view, _) = from_page_query("");
    let row = search(&inputs.search_spec()).rows[0];
    inputs.load_config(&row.config);
    assert!(is_open(&inputs, &view, Panel::Placement));
}

#[test]
fn an_open_colocated_placement_is_written_as_place_colo_and_read_back_open() {
    let (mut inputs, view, _) = from_page_query("");
    inputs.placement.open = true;
    let query = page_query(&inputs, &view);
    assert!(query.contains("place=colo"), "{query}");
    let (back, view_back, _) = from_page_query(&format!("?{query}"));
    assert_eq!(back, inputs);
    assert!(is_open(&back, &view_back, Panel::Placement));
}

#[test]
fn a_bad_place_value_falls_back_colocated_and_closed() {
    let (inputs, view, notices) = from_page_query("?place=split");
    assert_eq!(notices.len(), 1);
    assert!(!is_open(&inputs, &view, Panel::Placement));
}

#[test]
fn loading_lesson_7_while_presenting_shows_and_opens_the_placement() {
    let (mut inputs, mut view, _) = from_page_query("?present=1&view=rate");
    assert!(view.load_lesson(7, &mut inputs));
    assert_eq!(view.lesson, Some(7));
    assert_eq!(view.panel, Panel::Placement);
    assert!(is_open(&inputs, &view, Panel::Placement));
    // On the page the view's panel stays; an unknown lesson changes nothing.
    let (mut inputs, mut view, _) = from_page_query("");
    assert!(view.load_lesson(7, &mut inputs));
    assert_eq!(view.panel, Panel::Rate);
    let before = (inputs, view);
    assert!(!view.load_lesson(99, &mut inputs));
    assert_eq!((inputs, view), before);
}

#[test]
fn exactly_the_panels_with_an_open_flag_are_closed_on_a_plain_page_and_opened_by_setting_it() {
    use goodput_lab::state::open::{has_open_flag, open_flag, set_open};
    use goodput_lab::state::view::View;
    let (plain, view, _) = from_page_query("");
    for panel in Panel::ALL {
        let mut opened = plain;
        set_open(&mut opened, panel, true);
        let flagged = open_flag(&opened, panel) && !is_open(&plain, &View::default(), panel);
        assert_eq!(has_open_flag(panel), flagged, "{panel:?}");
        assert_eq!(has_open_flag(panel), OPENED.contains(&panel), "{panel:?}");
        assert!(is_open(&opened, &view, panel), "{panel:?} opens");
    }
}
