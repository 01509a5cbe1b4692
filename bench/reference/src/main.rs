//! The reference page for `make bench` (issue 26): Leptos CSR, one range input and one plotters line
//! chart of 256 points on a canvas, redrawn on every input. The canvas's `data-draws` counts redraws.

mod canvas;

use leptos::prelude::*;
use plotters::prelude::*;
use web_sys::HtmlCanvasElement;

const POINTS: usize = 256;

/// Draws the chart for slider value `k` (0..=100): axes with labels and one line.
fn draw(canvas: &HtmlCanvasElement, k: u32) -> Option<()> {
    let root = canvas::CanvasBackend::new(canvas.clone())?.into_drawing_area();
    root.fill(&WHITE).ok()?;
    let f = f64::from(k) / 100.0;
    let points = (0..POINTS).map(|i| {
        let x = i as f64 / (POINTS - 1) as f64;
        (x, (x * 12.0 + f * std::f64::consts::TAU).sin() * (0.4 + f))
    });
    let mut chart = ChartBuilder::on(&root)
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(40)
        .build_cartesian_2d(0.0..1.0, -1.5..1.5)
        .ok()?;
    chart.configure_mesh().draw().ok()?;
    chart.draw_series(LineSeries::new(points, &BLUE)).ok()?;
    root.present().ok()
}

#[component]
fn App() -> impl IntoView {
    let (k, set_k) = signal(50u32);
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let mut draws = 0u32;
    Effect::new(move |_| {
        let k = k.get();
        if let Some(c) = canvas.get() {
            if draw(&c, k).is_some() {
                draws += 1;
                let _ = c.set_attribute("data-draws", &draws.to_string());
            }
        }
    });
    view! {
        <main>
            <input type="range" id="k" min="0" max="100" step="1" style="width: 600px"
                prop:value=move || k.get().to_string()
                on:input=move |ev| set_k.set(event_target_value(&ev).parse().unwrap_or(0)) />
            <canvas node_ref=canvas width="800" height="400"></canvas>
        </main>
    }
}

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}
