//! The low level of reading a link: one raw URL value -> its typed value, or a fallback and a
//! [`Notice`] naming the key and what it accepts. Flags, choices (an enum by its [`UrlId`], or a row
//! of a table), TP degrees (among a GPU's choices), bounded numbers, numbers-or-`auto` and optional whole numbers.
//!
//! The layers, as ripgrep's low and high arguments: [`RawQuery`] holds the strings as typed; these
//! readers turn one value into a domain type and nothing more; the modules above them (`view`, `sim`,
//! `search`, `placement`, `calibration`, `spec`, `validation`) combine the typed values into the
//! validated structs ([`super::Inputs`], [`super::view::View`]) and never parse text themselves.

use super::fields::{quoted, NumberField};
use super::{Notice, RawQuery};
use crate::core::roofline::TP_CHOICES;
pub use crate::core::url_id::UrlId;

/// The words a flag reads as on (as is a bare key, `?sim`), in the order notices list them.
pub const FLAG_ON: [&str; 4] = ["1", "true", "yes", "on"];
/// The words a flag reads as off.
pub const FLAG_OFF: [&str; 4] = ["0", "false", "no", "off"];

/// A flag as the page writes it: `1` on, `0` off.
pub fn flag_word(on: bool) -> &'static str {
    if on {
        "1"
    } else {
        "0"
    }
}

/// A boolean key, off when absent. [`FLAG_ON`]'s words and an empty value (a bare `?sim`) are on,
/// [`FLAG_OFF`]'s are off, trimmed and in any case; anything else is off with a notice naming the
/// key and the words.
pub fn flag(raw: &RawQuery, key: &'static str, notices: &mut Vec<Notice>) -> bool {
    let Some(text) = raw.get(key) else { return false };
    let word = text.trim().to_ascii_lowercase();
    if word.is_empty() || FLAG_ON.contains(&word.as_str()) {
        return true;
    }
    if !FLAG_OFF.contains(&word.as_str()) {
        let words: Vec<&str> = FLAG_ON.iter().zip(FLAG_OFF).flat_map(|(on, off)| [*on, off]).collect();
        let message =
            format!("{key}={} is not one of {}; using {}.", quoted(text), words.join(", "), flag_word(false));
        notices.push(Notice { key, message });
    }
    false
}

/// An enum value by its URL id: absent is `default`; an unknown id is `default` with a notice.
pub fn choice<T: UrlId>(raw: &RawQuery, key: &'static str, default: T, notices: &mut Vec<Notice>) -> T {
    choice_in(raw, key, T::VARIANTS, default, notices)
}

/// As [`choice`], among `allowed` only (the KV cache's precisions).
pub fn choice_in<T: UrlId>(
    raw: &RawQuery,
    key: &'static str,
    allowed: &[T],
    default: T,
    notices: &mut Vec<Notice>,
) -> T {
    choice_by(raw, key, &url_ids(allowed), default, notices)
}

/// Each of `values` beside its URL id, as [`choice_by`] takes them.
pub fn url_ids<T: UrlId>(values: &[T]) -> Vec<(&'static str, T)> {
    values.iter().map(|value| (value.url_id(), *value)).collect()
}

/// A row of `choices` by its id (trimmed, in any case): absent is `default`; an id not in the table
/// is `default` with a notice listing the ids.
pub fn choice_by<T: PartialEq + Copy>(
    raw: &RawQuery,
    key: &'static str,
    choices: &[(&'static str, T)],
    default: T,
    notices: &mut Vec<Notice>,
) -> T {
    let Some(text) = raw.get(key) else { return default };
    find(text, choices).unwrap_or_else(|| {
        let ids: Vec<&str> = choices.iter().map(|(id, _)| *id).collect();
        let used = choice_id(choices, default);
        let message = format!("{key}={} is not one of {}; using {used}.", quoted(text), ids.join(", "));
        notices.push(Notice { key, message });
        default
    })
}

/// A filter: absent or `all` is `None` (everything); a row of `choices` by its id (trimmed, in any
/// case) is its value; anything else is `None` with a notice. Long lists (the GPU presets) are named
/// by `kind`, so the notice stays short.
pub fn choice_or_all<T: Copy>(
    raw: &RawQuery,
    key: &'static str,
    choices: &[(&str, T)],
    kind: &str,
    notices: &mut Vec<Notice>,
) -> Option<T> {
    let text = raw.get(key)?;
    if text.trim().eq_ignore_ascii_case("all") {
        return None;
    }
    let found = find(text, choices);
    if found.is_none() {
        let ids: Vec<&str> = choices.iter().map(|(id, _)| *id).collect();
        let expected = if ids.len() > 6 { kind.to_string() } else { format!("one of {}", ids.join(", ")) };
        let message = format!("{key}={} is not all or {expected}; using all.", quoted(text.trim()));
        notices.push(Notice { key, message });
    }
    found
}

/// The id of `value` among `choices` (the first row's when it has none).
pub fn choice_id<T: PartialEq + Copy>(choices: &[(&'static str, T)], value: T) -> &'static str {
    choices.iter().find(|(_, row)| *row == value).map_or(choices[0].0, |(id, _)| id)
}

fn find<T: Copy>(text: &str, choices: &[(&str, T)]) -> Option<T> {
    choices.iter().find(|(id, _)| id.eq_ignore_ascii_case(text.trim())).map(|(_, value)| *value)
}

/// A tensor-parallel degree, one of [`TP_CHOICES`]; absent is 1, anything else 1 with a notice.
pub fn tp(raw: &RawQuery, key: &'static str, notices: &mut Vec<Notice>) -> u32 {
    tp_in(raw, key, &TP_CHOICES, notices)
}

/// As [`tp`], among `choices` (the page's `tp`: the GPU's domain's, up to 72 on NVL72).
pub fn tp_in(raw: &RawQuery, key: &'static str, choices: &[u32], notices: &mut Vec<Notice>) -> u32 {
    let Some(text) = raw.get(key) else { return 1 };
    match text.trim().parse::<u32>() {
        Ok(tp) if choices.contains(&tp) => tp,
        _ => {
            let choices: Vec<String> = choices.iter().map(u32::to_string).collect();
            let message = format!("{key}={} is not one of {}; using 1.", quoted(text), choices.join(", "));
            notices.push(Notice { key, message });
            1
        }
    }
}

/// `field`'s key as a number in base units ([`NumberField::read`]: absent is `default_base`,
/// malformed is the default with a notice, outside the range is clamped with a notice).
pub fn number(raw: &RawQuery, field: &NumberField, default_base: f64, notices: &mut Vec<Notice>) -> f64 {
    field.read(raw.get(field.key), default_base, notices)
}

/// An optional number, in base units: absent or `auto` (any case) is `None`, automatic, and so is
/// text that is not a number of the field's kind (with a notice); a number outside the field's range
/// is clamped into it, with a notice.
pub fn number_or_auto(raw: &RawQuery, field: &NumberField, notices: &mut Vec<Notice>) -> Option<f64> {
    let text = raw.get(field.key)?;
    if text.trim().eq_ignore_ascii_case("auto") {
        return None;
    }
    let number = text.trim().replace([',', '_'], "").parse::<f64>().ok();
    if !number.is_some_and(|x| x.is_finite() && (!field.whole || x.fract() == 0.0)) {
        let message =
            format!("{}={} is not {} or auto; using auto.", field.key, quoted(text), field.expected());
        notices.push(Notice { key: field.key, message });
        return None;
    }
    Some(field.read(Some(text), field.to_base(field.min), notices))
}

/// An optional whole number in `range` (inclusive): absent is `None`; anything else outside it is
/// `None` with the notice "`key`=… is not `noun` from `min` to `max`; `otherwise`." (`mark=`,
/// `lesson=`).
pub fn whole_or_none(
    raw: &RawQuery,
    key: &'static str,
    (min, max): (u32, u32),
    (noun, otherwise): (&str, &str),
    notices: &mut Vec<Notice>,
) -> Option<u32> {
    let text = raw.get(key)?;
    let number = text.trim().parse::<u32>().ok().filter(|n| (min..=max).contains(n));
    if number.is_none() {
        let message = format!("{key}={} is not {noun} from {min} to {max}; {otherwise}.", quoted(text));
        notices.push(Notice { key, message });
    }
    number
}
