//! Reading JSON for the measured uploads' messages: a value quoted, its kind in words, and the
//! value at a dotted path (shared by the vLLM, GuideLLM and AIPerf readers).

use serde_json::{Map, Value};

use crate::state::fields::quoted;

/// A JSON value as quoted in a message.
pub(super) fn show(v: &Value) -> String {
    match v {
        Value::String(s) => quoted(s),
        other => quoted(&other.to_string()),
    }
}

/// "an array", "a number", ... for messages.
pub(super) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a true/false value",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The value at `path` under `map`; a missing or null step is named, dotted, for the message
/// (“`metrics.inter_token_latency_ms` is missing”).
pub(super) fn lookup<'a>(map: &'a Map<String, Value>, path: &[&str]) -> Result<&'a Value, String> {
    let mut value: Option<&Value> = None;
    for (i, key) in path.iter().enumerate() {
        let next = match value {
            None => map.get(*key),
            Some(v) => v.get(*key),
        };
        match next {
            Some(Value::Null) => return Err(format!("`{}` is null", path[..=i].join("."))),
            Some(v) => value = Some(v),
            None => return Err(format!("`{}` is missing", path[..=i].join("."))),
        }
    }
    value.ok_or_else(|| "no field named".to_string())
}
