//! The theme picker: System, Light, Dark or Projector, written to the URL as `theme=`.

use leptos::prelude::*;

use crate::state::view::{Theme, View};
use crate::ui::widgets::PresetSelect;

/// A labelled menu of the themes; the charts and the style sheet follow the choice at once.
#[component]
pub fn ThemePicker(view: ReadSignal<View>, set_view: WriteSignal<View>) -> impl IntoView {
    let options = Theme::ALL.iter().map(|t| (t.id().to_string(), t.label().to_string())).collect();
    let pick = move |id: String| {
        let theme = Theme::ALL.into_iter().find(|t| t.id() == id).unwrap_or_default();
        set_view.update(|v| v.theme = theme);
    };
    view! {
        <PresetSelect id="theme-picker" label="Theme" options=options
            selected=Signal::derive(move || view.get().theme.id().to_string()) on_pick=pick/>
    }
}
