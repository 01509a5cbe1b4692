//! The page <-> lazily loaded panels channel: every state the page can hold crosses it unchanged,
//! garbage is refused, and a panel's change takes effect in exactly the part of the state it names.

use goodput_lab::core::fit::MeasuredPoint;
use goodput_lab::core::presets::{GpuSpec, ModelSpec, ModelWire, GPUS, MODELS};
use goodput_lab::core::roofline::Calibration;
use goodput_lab::panel_protocol::{
    apply, from_bytes, to_bytes, Mount, PanelKind, PanelState, ToPage, ToPanel,
};
use goodput_lab::state::{from_page_query, from_query, to_query, Inputs};

fn state_of(query: &str) -> PanelState {
    let (inputs, view, _) = from_page_query(query);
    let measured =
        vec![MeasuredPoint { batch: 1, tpot_s: 0.0079 }, MeasuredPoint { batch: 64, tpot_s: 0.0115 }];
    PanelState { inputs, view, measured }
}

#[test]
fn every_preset_pair_crosses_the_channel_unchanged() {
    for &model in MODELS.iter() {
        for &gpu in GPUS.iter() {
            let mut inputs = Inputs::default();
            inputs.scenario.model = model;
            inputs.scenario.gpu = gpu;
            let message = ToPanel::State(PanelState { inputs, ..PanelState::default() });
            assert_eq!(
                from_bytes::<ToPanel>(&to_bytes(&message)),
                Some(message),
                "{} on {}",
                model.id,
                gpu.id
            );
        }
    }
}

#[test]
fn a_custom_model_and_gpu_with_the_view_and_points_cross_unchanged() {
    let query = "model=custom&m_params=12&m_layers=40&m_experts=8&m_top_k=2&m_active=3&gpu=custom&g_bw=4.8\
                 &g_fp8=0&tp=2&mbu=70&overhead=0.5&sim=1&lengths=lognormal&seed=9&theme=dark&mark=32&present=1";
    let state = state_of(query);
    assert_eq!(state.inputs.scenario.model.id, "custom");
    assert_eq!(state.inputs.scenario.gpu.fp8_flop_per_s, None);
    let mount = Mount { panel: PanelKind::Sim, state: state.clone() };
    let back: Mount = from_bytes(&to_bytes(&mount)).expect("decodes");
    assert_eq!(back, mount);
    assert_eq!(to_query(&back.state.inputs), to_query(&state.inputs), "the same URL state on both sides");
}

#[test]
fn garbage_and_unknown_presets_are_refused() {
    assert_eq!(from_bytes::<ToPanel>(&[0xff, 0xff, 0xff]), None);
    assert_eq!(from_bytes::<ToPage>(&[]), None);
    let unknown = to_bytes(&ModelWire::Preset("no-such-model".into()));
    assert_eq!(from_bytes::<ModelSpec>(&unknown), None);
    let known = to_bytes(&ModelWire::Preset("llama-3.1-70b".into()));
    assert_eq!(from_bytes::<ModelSpec>(&known).map(|m| m.name), Some("Llama 3.1 70B"));
    assert_eq!(from_bytes::<GpuSpec>(&to_bytes(&GPUS[3])), Some(GPUS[3]));
}

#[test]
fn a_simulator_change_sets_only_the_simulator() {
    let PanelState { mut inputs, mut measured, .. } = state_of("ctx=4096&sim=1");
    let before = (inputs, measured.clone());
    let mut sim = inputs.sim;
    sim.requests = 777;
    sim.seed = 5;
    let message: ToPage = from_bytes(&to_bytes(&ToPage::Sim(sim))).expect("decodes");
    apply(message, &mut inputs, &mut measured);
    assert_eq!(inputs.sim, sim);
    assert_eq!(Inputs { sim: before.0.sim, ..inputs }, before.0, "nothing else moved");
    assert_eq!(measured, before.1);
    let query = to_query(&inputs);
    assert!(query.contains("requests=777") && query.contains("seed=5"), "{query}");
}

#[test]
fn using_a_fit_turns_realistic_mode_on_with_its_calibration() {
    let (mut inputs, _) = from_query("ctx=4096");
    let mut measured = Vec::new();
    apply(ToPage::Realistic(Calibration { mbu: 0.75, overhead_s: 0.0012 }), &mut inputs, &mut measured);
    let (expected, _) = from_query("ctx=4096&mbu=75&overhead=1.2");
    assert_eq!(inputs, expected);
}

#[test]
fn measured_points_are_replaced_and_cleared() {
    let PanelState { mut inputs, mut measured, .. } = state_of("");
    let before = inputs;
    let points = vec![MeasuredPoint { batch: 8, tpot_s: 0.0081 }];
    apply(ToPage::Measured(points.clone()), &mut inputs, &mut measured);
    assert_eq!(measured, points);
    apply(ToPage::Measured(Vec::new()), &mut inputs, &mut measured);
    assert!(measured.is_empty());
    assert_eq!(inputs, before);
}
