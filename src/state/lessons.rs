//! The nine lessons: the worked example's six teaching moments, disaggregation, speculative decoding and wide
//! expert parallelism, as data (number, title, sentence, the panel a
//! presentation shows, and the inputs each loads: the worked example's defaults plus the lesson's settings),
//! the `lesson=` key, and which lesson the current state still shows.
//!
//! Each sentence states numbers; `tests/it/lessons.rs` holds every one of them true for the state the
//! lesson loads.

use super::read;
use super::spec::default_draft;
use super::view::{Panel, View};
use super::{parse_raw, to_query, Inputs, Notice, RawQuery};
use crate::core::calibration::Engine;
use crate::core::parallel::Parallelism;
use crate::core::placement::{PlacementMode, Split};
use crate::core::presets::{gpu_by_id, model_by_id, GPUS, MODELS};
use crate::core::roofline::Precision;
use crate::core::spec::{Drafter, Speculation};

/// One teaching moment.
#[derive(Clone, Copy, Debug)]
pub struct Lesson {
    /// 1-based, as the number keys and `lesson=` name it.
    pub number: u8,
    /// Stable id for the page (`data-lesson`).
    pub id: &'static str,
    /// Short title for the lesson bar.
    pub title: &'static str,
    /// One or two sentences, with numbers true for [`Lesson::inputs`].
    pub text: &'static str,
    /// The panel a presentation brings up for this lesson.
    pub panel: Panel,
    /// The lesson's settings, applied to the worked example's defaults.
    apply: fn(&mut Inputs),
}

impl Lesson {
    /// The state the lesson loads: the worked example's defaults with the lesson's settings.
    pub fn inputs(&self) -> Inputs {
        let mut inputs = Inputs::default();
        (self.apply)(&mut inputs);
        inputs
    }

    /// The cost model the lesson's numbers come from, as its caption says it.
    pub fn calibration_note(&self) -> String {
        format!("Calibration: {}.", self.inputs().calibration_choice.label())
    }
}

/// The TPOT slider's loosest target, in s: the lab's stand-in for "no TPOT objective".
pub const LOOSEST_TPOT_S: f64 = 0.5;
/// The TTFT slider's loosest target, in s: the stand-in for "no TTFT objective".
pub const LOOSEST_TTFT_S: f64 = 60.0;

/// Every lesson: the worked example's six in its order, then disaggregation, speculative decoding and
/// wide expert parallelism.
pub const LESSONS: [Lesson; 9] = [
    Lesson {
        number: 1,
        id: "cliff",
        title: "The cliff",
        text: "At a 10 ms TPOT target the largest batch is 64: each step takes 9.92 ms and goodput is \
               25.2 req/s. Batch 96 takes 12.49 ms, so every request in it misses and goodput falls to 0 \
               while throughput keeps climbing.",
        panel: Panel::Rate,
        apply: |_| {},
    },
    Lesson {
        number: 2,
        id: "fp8-kv",
        title: "FP8 KV cache",
        text: "An FP8 KV cache halves KV per sequence to 134 MB, so the largest batch under 10 ms becomes \
               129 (the worked example rounds it to 130), about twice 64, and goodput roughly doubles to 50.6 req/s.",
        panel: Panel::Step,
        apply: |i| i.scenario.kv_precision = Precision::Fp8,
    },
    Lesson {
        number: 3,
        id: "offline",
        title: "No SLO",
        text: "With no latency objective (offline generation, evals, backfills) goodput equals \
               throughput, so run the largest batch the KV pool holds: 208 sequences of 2,048 tokens, \
               37.9 req/s. The lab has no switch that removes a target, so this lesson sets the loosest \
               its sliders offer: 500 ms TPOT and 60 s TTFT.",
        panel: Panel::Rate,
        apply: |i| {
            i.scenario.tpot_target_s = LOOSEST_TPOT_S;
            i.scenario.ttft_target_s = LOOSEST_TTFT_S;
        },
    },
    Lesson {
        number: 4,
        id: "loose",
        title: "Loose 50 ms",
        text: "At a 50 ms TPOT target, reading speed for chat, the TPOT knee would be 518, far past the \
               208 sequences the KV pool holds, so memory caps the batch: the knee a server reaches is \
               208, and goodput equals throughput again: 37.9 req/s at 21.46 ms per step.",
        panel: Panel::Step,
        apply: |i| i.scenario.tpot_target_s = 0.05,
    },
    Lesson {
        number: 5,
        id: "every-request",
        title: "Every request or p90",
        text: "Requiring every request to meet both targets, the simulated server (random arrivals, \
               varied lengths, batch capped at the knee) reaches 9.10 req/s of goodput; set the share \
               to p90 and it reaches 12.3 req/s (medians of 7 seeds). The headline's 11.0 req/s is the \
               analytic steady state read at p99.99: a steady state has no slowest request; a finite run does.",
        panel: Panel::Sim,
        apply: |i| {
            i.sim.open = true;
            i.sim.attainment_target = 1.0;
        },
    },
    Lesson {
        number: 6,
        id: "attainment",
        title: "Realistic attainment",
        text: "With Poisson arrivals and log-normal lengths the cliff becomes a slope: every request \
               meets both targets up to 6.30 req/s, 87.9% at 12.6 req/s and 20.1% at 15.7 req/s, so \
               goodput at 90% attainment is 12.3 req/s. The misses are TPOT: 64 decodes sharing a step \
               with a 448-token prompt chunk take 13.50 ms, because the chunk makes the GEMMs \
               compute-bound while the attention still reads every decode's KV.",
        panel: Panel::Sim,
        apply: |i| i.sim.open = true,
    },
    Lesson {
        number: 7,
        id: "disaggregation",
        title: "Disaggregation",
        text: "With 8,192-token prompts, 128-token answers, a 500 ms TTFT and a 20 ms TPOT at p90, \
               prefill is most of the work: whole-prompt colocation serves 3.56 req/s per GPU, until \
               TPOT binds; the best split, 2 × TP2 prefill : 1 × TP1 decode, serves 3.54 (17.7 req/s on \
               5 GPUs), bound by its prefill side. Chunked colocation serves the least, 3.05, because \
               TTFT binds first: a 512-token step budget cuts each prompt into 16 steps, and a prompt \
               waits for those of every prompt ahead of it, so here the split buys no goodput per GPU \
               but a TPOT that prompts never stretch.",
        panel: Panel::Placement,
        apply: |i| {
            let s = &mut i.scenario;
            (s.context_tokens, s.output_tokens) = (8192, 128);
            (s.ttft_target_s, s.tpot_target_s) = (0.5, 0.02);
            i.placement.mode = PlacementMode::Disaggregated;
            // The split `core::placement::best_split` finds for this state on the GPU's interconnect
            // (tests/it/lesson_disaggregation.rs holds it so); stated, not searched, to keep the search
            // out of the page's first module.
            i.placement.split = Split {
                prefill_instances: 2,
                prefill_tp: 2,
                decode_instances: 1,
                decode_tp: 1,
                link_bytes_per_s: None,
            };
        },
    },
    Lesson {
        number: 8,
        id: "speculative",
        title: "Speculative decoding",
        text: "A Llama 3.2 1B draft proposing 4 tokens, each accepted with probability 0.7, yields 2.77 \
               tokens per sequence per step, so a 27.58 ms draft-and-verify step at batch 102 is 9.95 ms \
               per token: the knee moves from 64 to 102 and goodput from 25.2 to 40.1 req/s, though the \
               draft's weights and KV shrink the KV pool from 208 to 159 sequences. At 2,048 tokens of \
               context speculation pays at every batch, because the verify step reads each KV cache once \
               for 2.77 tokens; at 256 tokens it stops paying at batch 141, where verifying 5 tokens per \
               sequence makes the GEMMs compute-bound.",
        panel: Panel::Table,
        apply: |i| {
            i.scenario.speculation = Speculation {
                drafter: Drafter::Model(default_draft()),
                draft_tokens: 4,
                acceptance: 0.7,
            };
        },
    },
    Lesson {
        number: 9,
        id: "wide-ep",
        title: "Wide EP",
        text: "DeepSeek-V3 in FP8 on one node of 8 H200 at a 50 ms TPOT: TP 8 keeps the MLA latent on every \
               GPU, so 597 sequences fit and it serves 1,894 tokens/s per GPU, while TP1 EP8 DP8 keeps it \
               once per DP rank, fits 3,113, runs 2,423 and serves 6,058 tokens/s per GPU (3.2×), though \
               the all-to-all takes 14.67 ms of each 49.99 ms step. At a 30 ms TPOT the order flips, because \
               each DP rank reads its attention and dense weights alone: TP 8 serves 788 tokens/s per GPU, \
               wide EP 213.",
        panel: Panel::Derivation,
        apply: |i| {
            i.set_measured(Engine::Sglang);
            let s = &mut i.scenario;
            s.model = *model_by_id("deepseek-v3").unwrap_or(&MODELS[0]);
            s.gpu = *gpu_by_id("h200-sxm").unwrap_or(&GPUS[0]);
            (s.weight_precision, s.kv_precision) = (Precision::Fp8, Precision::Fp8);
            s.parallel = Parallelism { tp: 1, ep: 8, dp: 8, pp: 1 };
            s.tpot_target_s = 0.05;
        },
    },
];

/// The lesson numbered `number`, if any.
pub fn lesson(number: u8) -> Option<&'static Lesson> {
    LESSONS.iter().find(|l| l.number == number)
}

/// The lesson `view` names, while the inputs are still exactly the state it loaded (compared as
/// the canonical query, so equal states compare equal whatever their float history). Changing
/// any control drops the lesson; moving it back restores it.
pub fn active(inputs: &Inputs, view: &View) -> Option<&'static Lesson> {
    // Opening or closing the simulator panel only shows more; the lesson's state still holds.
    view.lesson.and_then(lesson).filter(|l| {
        let wanted = l.inputs();
        let mut shown = *inputs;
        shown.sim.open = wanted.sim.open;
        to_query(&wanted) == to_query(&shown)
    })
}

/// The lesson after (`delta` = 1) or before (-1) `current`, clamped to the lessons; from no lesson,
/// lesson 1.
pub fn step(current: Option<u8>, delta: i32) -> u8 {
    let last = LESSONS.len() as i32;
    match current {
        None => 1,
        Some(n) => (i32::from(n) + delta).clamp(1, last) as u8,
    }
}

/// Reads `lesson=N` (1 to 9); anything else is no lesson, with a notice.
pub fn read_number(raw: &RawQuery, notices: &mut Vec<Notice>) -> Option<u8> {
    let lessons = (1, LESSONS.len() as u32);
    let number = read::whole_or_none(raw, "lesson", lessons, ("a lesson", "no lesson is loaded"), notices);
    number.map(|n| n as u8)
}

/// The query a link with `lesson=N` stands for: the lesson's state, with every other key the link
/// carries applied on top (so `?lesson=2` alone loads the lesson, and a page-written link, whose
/// keys equal the lesson's, reopens exactly). Without a valid lesson, the query as it is.
pub fn under_lesson(raw: &RawQuery) -> RawQuery {
    let Some(l) = raw.get("lesson").and_then(|t| t.trim().parse::<u8>().ok()).and_then(lesson) else {
        return raw.clone();
    };
    let mut merged = parse_raw(&to_query(&l.inputs()));
    merged.values.extend(raw.values.iter().map(|(k, v)| (*k, v.clone())));
    merged
}

impl View {
    /// Loads lesson `number`: `inputs` become its state, this view marks it and, while presenting,
    /// shows its panel. An unknown number changes nothing and returns false.
    pub fn load_lesson(&mut self, number: u8, inputs: &mut Inputs) -> bool {
        let Some(l) = lesson(number) else { return false };
        *inputs = l.inputs();
        self.lesson = Some(number);
        if self.mode == super::view::Mode::Present {
            self.panel = l.panel;
        }
        true
    }
}
