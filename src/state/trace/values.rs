//! One field of one trace line -> its typed value, or a [`TraceError`] naming the line and the
//! field: whole token counts, arrival times (numbers in a unit, or datetimes), ids and block hashes.

use super::grouped;
use super::{TraceError, MAX_TIME_S, MAX_TOKENS};
use crate::state::fields::{compact, quoted};
use serde_json::Value;

/// A field's value as the line holds it: CSV text or a JSON value.
#[derive(Clone, Copy, Debug)]
pub(super) enum Cell<'a> {
    Text(&'a str),
    Json(&'a Value),
}

impl Cell<'_> {
    /// The value as quoted in a message.
    fn shown(self) -> String {
        match self {
            Cell::Text(t) => quoted(t.trim()),
            Cell::Json(Value::String(s)) => quoted(s),
            Cell::Json(v) => quoted(&v.to_string()),
        }
    }

    /// The value as a finite number: a JSON number, or text (or a JSON string) that reads as one.
    fn number(self) -> Option<f64> {
        let x = match self {
            Cell::Json(Value::Number(n)) => n.as_f64(),
            Cell::Json(Value::String(s)) => s.trim().parse().ok(),
            Cell::Text(t) => t.trim().parse().ok(),
            Cell::Json(_) => None,
        };
        x.filter(|x: &f64| x.is_finite())
    }

    /// Empty text or JSON null: a field present but without a value.
    pub(super) fn is_blank(self) -> bool {
        match self {
            Cell::Text(t) => t.trim().is_empty(),
            Cell::Json(Value::Null) => true,
            Cell::Json(Value::String(s)) => s.trim().is_empty(),
            Cell::Json(_) => false,
        }
    }
}

/// A token count: a whole number from `min` (0 or 1) to [`MAX_TOKENS`].
pub(super) fn tokens(cell: Cell, line: u64, field: &str, min: u32) -> Result<u32, TraceError> {
    let x = cell.number().filter(|x| x.fract() == 0.0 && *x >= f64::from(min) && *x <= f64::from(MAX_TOKENS));
    x.map(|x| x as u32).ok_or_else(|| {
        let range = format!("from {min} to {}", grouped(u64::from(MAX_TOKENS)));
        TraceError::at(line, field, format!("{} is not a whole number {range}", cell.shown()))
    })
}

/// A time in `unit_s` seconds (1e-3 for ms) as whole µs: finite, at least 0, at most
/// [`MAX_TIME_S`]; or, when the text is a datetime (`2023-11-16 18:15:46.6805900`), its µs since
/// 1970-01-01 (UTC unless the text says otherwise: a trailing `Z` or `+00:00` only).
pub(super) fn time_us(cell: Cell, line: u64, field: &str, unit_s: f64) -> Result<i64, TraceError> {
    if let Some(x) = cell.number() {
        let s = x * unit_s;
        if (0.0..=MAX_TIME_S).contains(&s) {
            return Ok((s * 1e6).round() as i64);
        }
        let max = compact(MAX_TIME_S / unit_s);
        return Err(TraceError::at(line, field, format!("{} is not a time from 0 to {max}", cell.shown())));
    }
    let text = match cell {
        Cell::Text(t) => Some(t),
        Cell::Json(Value::String(s)) => Some(s.as_str()),
        Cell::Json(_) => None,
    };
    text.and_then(datetime_us).ok_or_else(|| {
        TraceError::at(line, field, format!("{} is not a number or a date and time", cell.shown()))
    })
}

/// `YYYY-MM-DD[ T]HH:MM:SS[.fraction][Z|+00:00]` as µs since 1970-01-01 00:00 UTC (the fraction
/// rounded to 1 µs); years 1970 to 2300.
pub(super) fn datetime_us(text: &str) -> Option<i64> {
    let t = text.trim();
    let t = t.strip_suffix('Z').or_else(|| t.strip_suffix("+00:00")).unwrap_or(t);
    let (date, time) = t.split_once([' ', 'T'])?;
    let mut d = date.split('-').map(|p| p.parse::<i64>().ok());
    let (y, m, day) = (d.next()??, d.next()??, d.next()??);
    let (hms, fraction) = time.split_once('.').unwrap_or((time, ""));
    let mut c = hms.split(':').map(|p| p.parse::<i64>().ok());
    let (h, min, s) = (c.next()??, c.next()??, c.next()??);
    let ok = (1970..=2300).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&day);
    if !ok || d.next().is_some() || c.next().is_some() || h > 23 || min > 59 || s > 60 {
        return None;
    }
    if fraction.len() > 9 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let fraction_us = format!("0.{fraction}0").parse::<f64>().ok()? * 1e6;
    let seconds = days_from_civil(y, m, day) * 86_400 + h * 3_600 + min * 60 + s;
    Some(seconds * 1_000_000 + fraction_us.round() as i64)
}

/// Days from 1970-01-01 to the proleptic Gregorian date `y-m-d` (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// An id (a session or a prefix): text or a JSON string or integer, trimmed; `None` when blank.
pub(super) fn id(cell: Cell, line: u64, field: &str) -> Result<Option<String>, TraceError> {
    if cell.is_blank() {
        return Ok(None);
    }
    match cell {
        Cell::Text(t) => Ok(Some(t.trim().to_string())),
        Cell::Json(Value::String(s)) => Ok(Some(s.trim().to_string())),
        Cell::Json(Value::Number(n)) if n.is_u64() || n.is_i64() => Ok(Some(n.to_string())),
        Cell::Json(_) => Err(TraceError::at(
            line,
            field,
            format!("{} is not an id (text or a whole number)", cell.shown()),
        )),
    }
}

/// Block hashes: a JSON array of whole numbers from 0 to 2^64 − 1, or text holding one (`[1, 2]`)
/// or the numbers separated by spaces or semicolons (`1 2 3`, `1;2;3`).
pub(super) fn hashes(cell: Cell, line: u64, field: &str) -> Result<Vec<u64>, TraceError> {
    let bad = |what: String| TraceError::at(line, field, what);
    let items: Vec<Value> = match cell {
        Cell::Json(Value::Array(items)) => items.clone(),
        Cell::Text(t) if t.trim_start().starts_with('[') => match serde_json::from_str::<Value>(t.trim()) {
            Ok(Value::Array(items)) => items,
            _ => return Err(bad(format!("{} is not a list of block hashes", cell.shown()))),
        },
        Cell::Text(t) => {
            let parts = t.split([' ', ';']).filter(|p| !p.trim().is_empty());
            return parts
                .map(|p| {
                    p.trim()
                        .parse::<u64>()
                        .map_err(|_| bad(format!("item {} is not a whole number", quoted(p))))
                })
                .collect();
        }
        Cell::Json(_) => return Err(bad(format!("{} is not a list of block hashes", cell.shown()))),
    };
    items
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.as_u64().ok_or_else(|| {
                bad(format!(
                    "item {} {} is not a whole number from 0 to 2^64 − 1",
                    i + 1,
                    Cell::Json(v).shown()
                ))
            })
        })
        .collect()
}

/// One data line's fields by name.
pub(super) trait Fields {
    /// The field `name` if the line has it and it is not blank.
    fn get(&self, name: &str) -> Option<Cell<'_>>;

    /// The first of `names` the line has.
    fn any(&self, names: &[&'static str]) -> Option<(&'static str, Cell<'_>)> {
        names.iter().find_map(|n| self.get(n).map(|c| (*n, c)))
    }

    /// The field `name`, or an error naming it as missing on `line`.
    fn required(&self, name: &str, line: u64) -> Result<Cell<'_>, TraceError> {
        self.get(name).ok_or_else(|| TraceError::at(line, name, "is missing"))
    }
}

/// What one data line gives: a request, or a reason to skip it (counted in a remark).
pub(super) enum Read {
    Row(super::Row),
    Skip(&'static str),
}
