//! Prefix caching's keys: `prefix` (tokens of one shared prompt prefix, at most the context) and
//! `hit` (% of requests that find it cached), validated with a notice for each bad value, their
//! controls' fields and their canonical query pairs.

use super::fields::{InputField, NumberField};
use super::{Inputs, Notice, RawQuery};
use crate::core::prefix::PrefixCache;

/// The shared prefix, in tokens (at most the context; 0 = none).
pub const PREFIX: NumberField =
    NumberField::new("prefix", "Shared prefix", "tokens", (0.0, 1_048_576.0)).whole();
/// The prefix cache's hit rate (display %, base fraction).
pub const HIT: NumberField = NumberField::new("hit", "Prefix cache hit rate", "%", (0.0, 100.0)).scaled(0.01);

/// [`PREFIX`] in the scenario (the setter keeps it within the context).
pub const PREFIX_INPUT: InputField = PREFIX.bound(
    |i| f64::from(i.scenario.prefix.prefix_tokens),
    |i, v| i.scenario.prefix.prefix_tokens = (v.max(0.0) as u32).min(i.scenario.prompt_tokens()),
);
/// [`HIT`] in the scenario.
pub const HIT_INPUT: InputField =
    HIT.bound(|i| i.scenario.prefix.hit_rate, |i, v| i.scenario.prefix.hit_rate = v.clamp(0.0, 1.0));

/// Validates `prefix` (clamped to the prompt, `prompt_tokens`, with a notice) and `hit`; a bad
/// value falls back to no prefix or a 0% hit rate with a notice.
pub fn read(raw: &RawQuery, prompt_tokens: u32, notices: &mut Vec<Notice>) -> PrefixCache {
    let d = PrefixCache::NONE;
    let cap = (f64::from(prompt_tokens), "the prompt length");
    let prefix_tokens = PREFIX.read_capped(raw.get(PREFIX.key), f64::from(d.prefix_tokens), cap, notices);
    let hit_rate = HIT.read(raw.get(HIT.key), d.hit_rate, notices);
    PrefixCache { prefix_tokens: prefix_tokens as u32, hit_rate }
}

/// Query pairs in canonical order, each only when it is written as other than 0 (no prefix cache);
/// the prefix at most the context.
pub fn pairs(inputs: &Inputs) -> Vec<(&'static str, String)> {
    let p = inputs.scenario.prefix;
    let tokens = p.prefix_tokens.min(inputs.scenario.prompt_tokens());
    let written = [(PREFIX.key, PREFIX.write(f64::from(tokens))), (HIT.key, HIT.write(p.hit_rate))];
    written.into_iter().filter(|(_, v)| v != "0").collect()
}

/// The prefix slider's stops for a prompt of `context_tokens` tokens: 0 (no prefix), then log-spaced stops
/// from 64 tokens ([`super::log_stops`]) up to the context, in tokens.
pub fn prefix_stops(context_tokens: u32) -> Vec<u32> {
    let top = context_tokens.max(64);
    let mut stops = vec![0];
    stops.extend(super::log_stops(64, top).into_iter().filter(|&s| s <= context_tokens.max(1)));
    stops
}
