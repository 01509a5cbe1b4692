//! The page <-> lazily loaded panels channel: every state the page can hold crosses it unchanged,
//! garbage is refused, and a panel's change takes effect in exactly the part of the state it names.

use goodput_lab::core::fit::YourPoint;
use goodput_lab::core::placement::PlacementMode;
use goodput_lab::core::presets::{
    CustomGpu, CustomModel, GpuSpec, ModelSpec, ModelWire, CUSTOM_ID, GPUS, MODELS,
};
use goodput_lab::core::roofline::CustomCalibration;
use goodput_lab::core::scenario::Scenario;
use goodput_lab::protocol::panel::{
    apply, changes, from_bytes, to_bytes, LazyBody, Mount, PanelState, ToPage, ToPanel,
};
use goodput_lab::state::{from_page_query, from_query, to_query, Inputs};

fn state_of(query: &str) -> PanelState {
    let (inputs, view, _) = from_page_query(query);
    let your_points = vec![YourPoint::new(1, 0.0079), YourPoint::new(64, 0.0115)];
    PanelState { inputs, view, your_points }
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
    let mount = Mount { panel: LazyBody::Sim, state: state.clone() };
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
    let PanelState { mut inputs, mut your_points, .. } = state_of("ctx=4096&sim=1");
    let before = (inputs, your_points.clone());
    let mut sim = inputs.sim;
    sim.requests = 777;
    sim.seed = 5;
    let message: ToPage = from_bytes(&to_bytes(&ToPage::Sim(sim))).expect("decodes");
    apply(message, &mut inputs, &mut your_points);
    assert_eq!(inputs.sim, sim);
    assert_eq!(Inputs { sim: before.0.sim, ..inputs }, before.0, "nothing else moved");
    assert_eq!(your_points, before.1);
    let query = to_query(&inputs);
    assert!(query.contains("requests=777") && query.contains("seed=5"), "{query}");
}

#[test]
fn using_a_fit_chooses_your_measurements_with_its_calibration() {
    let (mut inputs, _) = from_query("ctx=4096");
    let mut measured = Vec::new();
    apply(
        ToPage::Realistic(CustomCalibration { mbu: 0.75, step_overhead_s: 0.0012 }),
        &mut inputs,
        &mut measured,
    );
    let (expected, _) = from_query("ctx=4096&calib=fit&mbu=75&overhead=1.2");
    assert_eq!(inputs, expected);
}

#[test]
fn measured_points_are_replaced_and_cleared() {
    let PanelState { mut inputs, mut your_points, .. } = state_of("");
    let before = inputs;
    let points = vec![YourPoint::new(8, 0.0081)];
    apply(ToPage::Measured(points.clone()), &mut inputs, &mut your_points);
    assert_eq!(your_points, points);
    apply(ToPage::Measured(Vec::new()), &mut inputs, &mut your_points);
    assert!(your_points.is_empty());
    assert_eq!(inputs, before);
}

/// `message` after a postcard round trip (what the page receives from the lazy module).
fn sent(message: ToPage) -> ToPage {
    let back: ToPage = from_bytes(&to_bytes(&message)).expect("decodes");
    assert_eq!(back, message, "crosses unchanged");
    back
}

#[test]
fn a_capacity_change_sets_only_the_load_and_the_price() {
    let PanelState { mut inputs, mut your_points, .. } = state_of("ctx=4096&sim=1&tpot=20");
    let before = (inputs, your_points.clone());
    apply(
        sent(ToPage::Capacity { rate_req_per_s: 42.5, price_per_gpu_hour: 3.1 }),
        &mut inputs,
        &mut your_points,
    );
    assert_eq!((inputs.rate_req_per_s, inputs.price_per_gpu_hour), (42.5, 3.1));
    let unchanged = Inputs {
        rate_req_per_s: before.0.rate_req_per_s,
        price_per_gpu_hour: before.0.price_per_gpu_hour,
        ..inputs
    };
    assert_eq!(unchanged, before.0, "nothing else moved");
    assert_eq!(your_points, before.1);
    // `price` is a custom GPU's; a preset's price lives in the search's `prices` (the capacity
    // plan's box edits that list, which travels as ToPage::Search).
    let query = to_query(&inputs);
    assert!(query.contains("rate=42.5") && !query.contains("price="), "{query}");
    let mut edited = inputs;
    edited.set_usd_per_gpu_hour(3.1);
    assert_eq!(changes(&inputs, &edited), vec![ToPage::Search(edited.search)]);
    assert_eq!(from_query(&to_query(&edited)).0.usd_per_gpu_hour(), 3.1, "{}", to_query(&edited));
}

#[test]
fn a_custom_model_change_sets_only_the_model_and_is_reconciled() {
    let PanelState { mut inputs, mut your_points, .. } = state_of("model=custom&ctx=4096&tp=2");
    let before = (inputs, your_points.clone());
    let mut custom = CustomModel::from_spec(&inputs.scenario.model);
    custom.params = 16.06e9;
    custom.active_params = 20e9; // more than the total: the page uses the total
    apply(sent(ToPage::CustomModel(custom)), &mut inputs, &mut your_points);
    let now = CustomModel::from_spec(&inputs.scenario.model);
    assert_eq!(inputs.scenario.model.id, CUSTOM_ID);
    assert_eq!((now.params, now.active_params), (16.06e9, 16.06e9));
    let model_only = Scenario { model: before.0.scenario.model, ..inputs.scenario };
    assert_eq!(Inputs { scenario: model_only, ..inputs }, before.0, "nothing else moved");
    assert_eq!(your_points, before.1);
    assert!(to_query(&inputs).contains("m_params=16.06"), "{}", to_query(&inputs));
}

#[test]
fn a_custom_model_with_a_shorter_maximum_clamps_the_context() {
    let (mut inputs, _) = from_query("model=custom&ctx=32768");
    let mut custom = CustomModel::from_spec(&inputs.scenario.model);
    custom.context_tokens_max = 8192;
    apply(sent(ToPage::CustomModel(custom)), &mut inputs, &mut Vec::new());
    assert_eq!(inputs.scenario.context_tokens, 8192);
}

#[test]
fn a_custom_gpu_change_sets_only_the_gpu() {
    let PanelState { mut inputs, mut your_points, .. } = state_of("gpu=custom&model=llama-3.1-70b&tp=4");
    let before = (inputs, your_points.clone());
    let mut custom = CustomGpu::from_spec(&inputs.scenario.gpu);
    custom.hbm_bandwidth_bytes_per_s = 6.7e12;
    apply(sent(ToPage::CustomGpu(custom)), &mut inputs, &mut your_points);
    assert_eq!(inputs.scenario.gpu.id, CUSTOM_ID);
    assert_eq!(inputs.scenario.gpu.hbm_bandwidth_bytes_per_s, 6.7e12);
    let gpu_only = Scenario { gpu: before.0.scenario.gpu, ..inputs.scenario };
    assert_eq!(Inputs { scenario: gpu_only, ..inputs }, before.0, "nothing else moved");
    assert_eq!(your_points, before.1);
    assert!(to_query(&inputs).contains("g_bw=6.7"), "{}", to_query(&inputs));
}

#[test]
fn a_bound_control_in_a_panel_sends_exactly_the_part_it_changed() {
    let (before, _) = from_query("sim=1");
    assert_eq!(changes(&before, &before), Vec::new(), "no change, no message");
    let mut rate = before;
    rate.rate_req_per_s = 250.0;
    assert_eq!(
        changes(&before, &rate),
        vec![ToPage::Capacity { rate_req_per_s: 250.0, price_per_gpu_hour: before.price_per_gpu_hour }]
    );
    let mut sim = before;
    sim.sim.requests = 777;
    assert_eq!(changes(&before, &sim), vec![ToPage::Sim(sim.sim)]);
    let mut elsewhere = before;
    elsewhere.scenario.context_tokens = 8192;
    assert_eq!(changes(&before, &elsewhere), Vec::new(), "a panel holds no control of the scenario");
    for message in changes(&before, &rate) {
        let (mut inputs, mut measured) = (before, Vec::new());
        apply(message, &mut inputs, &mut measured);
        assert_eq!(inputs, rate, "applying the messages reproduces the change");
    }
}

#[test]
fn every_panel_has_its_own_element_and_mounts_across_the_channel() {
    let panels = [
        LazyBody::Sim,
        LazyBody::Measured,
        LazyBody::Derivation,
        LazyBody::Capacity,
        LazyBody::CustomModel,
        LazyBody::CustomGpu,
        LazyBody::Share,
        LazyBody::Placement,
        LazyBody::Search,
        LazyBody::Accuracy,
    ];
    let ids: std::collections::BTreeSet<_> = panels.iter().map(|p| p.element_id()).collect();
    assert_eq!(ids.len(), panels.len(), "{ids:?}");
    for panel in panels {
        let mount = Mount { panel, state: state_of("model=custom&gpu=custom") };
        assert_eq!(from_bytes::<Mount>(&to_bytes(&mount)), Some(mount.clone()), "{panel:?}");
        assert_eq!(from_bytes::<ToPanel>(&to_bytes(&ToPanel::Unmount(panel))), Some(ToPanel::Unmount(panel)));
    }
}

#[test]
fn a_placement_change_sets_only_the_placement_and_reaches_the_url() {
    let PanelState { mut inputs, mut your_points, .. } = state_of("ctx=8192&sim=1&xp=2");
    let before = (inputs, your_points.clone());
    let mut placement = inputs.placement;
    placement.mode = PlacementMode::Disaggregated;
    placement.split.decode_tp = 4;
    let mut changed = inputs;
    changed.placement = placement;
    assert_eq!(changes(&inputs, &changed), vec![ToPage::Placement(placement)], "the control names its part");
    apply(sent(ToPage::Placement(placement)), &mut inputs, &mut your_points);
    assert_eq!(inputs.placement, placement);
    assert_eq!(Inputs { placement: before.0.placement, ..inputs }, before.0, "nothing else moved");
    assert_eq!(your_points, before.1);
    assert!(
        to_query(&inputs).ends_with("place=disagg&xp=2&tpp=1&yd=1&tpd=4&xfer=auto"),
        "{}",
        to_query(&inputs)
    );
}
