//! The page's keys: what each does in each mode, and what it leaves alone (typing in a field,
//! keys with Ctrl, Alt or Meta, a focused slider's arrows, an embed).

use goodput_lab::state::keys::{action, step_panel, Focus, KeyAction};
use goodput_lab::state::view::{Mode, Panel};

#[test]
fn number_keys_load_lessons_one_to_nine_in_the_page_and_while_presenting() {
    for mode in [Mode::Page, Mode::Present] {
        for n in 1..=9_u8 {
            assert_eq!(action(&n.to_string(), false, mode, Focus::Other), Some(KeyAction::Lesson(n)));
        }
        assert_eq!(action("0", false, mode, Focus::Other), None);
    }
    assert_eq!(
        action("3", false, Mode::Page, Focus::Slider),
        Some(KeyAction::Lesson(3)),
        "sliders ignore digits"
    );
}

#[test]
fn typing_in_a_field_or_holding_a_modifier_never_triggers_a_key() {
    for key in ["1", "p", "?", "Escape", "ArrowRight", "ArrowDown"] {
        assert_eq!(action(key, false, Mode::Present, Focus::Field), None, "{key} typed in a field");
        assert_eq!(action(key, true, Mode::Present, Focus::Other), None, "{key} with a modifier");
    }
}

#[test]
fn p_toggles_presentation_and_escape_leaves_it() {
    assert_eq!(action("p", false, Mode::Page, Focus::Other), Some(KeyAction::TogglePresent));
    assert_eq!(action("P", false, Mode::Present, Focus::Slider), Some(KeyAction::TogglePresent));
    assert_eq!(action("Escape", false, Mode::Present, Focus::Slider), Some(KeyAction::LeavePresent));
    assert_eq!(action("Escape", false, Mode::Page, Focus::Other), None, "Escape is not claimed on the page");
}

#[test]
fn arrows_step_lessons_and_panels_only_while_presenting_and_never_on_a_slider() {
    let present = |key| action(key, false, Mode::Present, Focus::Other);
    assert_eq!(present("ArrowRight"), Some(KeyAction::StepLesson(1)));
    assert_eq!(present("PageDown"), Some(KeyAction::StepLesson(1)));
    assert_eq!(present("ArrowLeft"), Some(KeyAction::StepLesson(-1)));
    assert_eq!(present("PageUp"), Some(KeyAction::StepLesson(-1)));
    assert_eq!(present("ArrowDown"), Some(KeyAction::StepPanel(1)));
    assert_eq!(present("ArrowUp"), Some(KeyAction::StepPanel(-1)));
    for key in ["ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown", "PageUp", "PageDown"] {
        assert_eq!(action(key, false, Mode::Present, Focus::Slider), None, "{key} moves the focused slider");
        assert_eq!(action(key, false, Mode::Page, Focus::Other), None, "{key} scrolls the page");
    }
}

#[test]
fn an_embed_claims_no_key_and_tab_space_enter_and_a_are_never_claimed() {
    for key in ["1", "p", "?", "Escape", "ArrowRight"] {
        assert_eq!(action(key, false, Mode::Embed, Focus::Other), None, "{key} in an embed");
    }
    for key in ["Tab", " ", "Enter", "a", "A"] {
        assert_eq!(action(key, false, Mode::Present, Focus::Other), None, "{key:?}");
    }
}

#[test]
fn up_and_down_cycle_through_every_panel_and_wrap() {
    assert_eq!(step_panel(Panel::Rate, 1), Panel::Step);
    // The accuracy view is the page's last section.
    assert_eq!(step_panel(Panel::Rate, -1), Panel::Accuracy);
    assert_eq!(step_panel(Panel::Accuracy, 1), Panel::Rate);
    assert_eq!(step_panel(Panel::Sim, 1), Panel::Accuracy);
    let mut p = Panel::Rate;
    for _ in 0..Panel::ALL.len() {
        p = step_panel(p, 1);
    }
    assert_eq!(p, Panel::Rate);
}
