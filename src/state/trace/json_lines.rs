//! JSON lines, one request object per line: Mooncake's trace when the first object has
//! `input_length`, else a plain trace. Blank lines are skipped; a syntax error names its line.

use super::values::{Cell, Fields, Read};
use super::{mooncake, plain, Rows, TraceError, TraceFormat};
use serde_json::{Map, Value};

/// One object's fields by their exact names.
struct JsonFields<'a>(&'a Map<String, Value>);

impl Fields for JsonFields<'_> {
    fn get(&self, name: &str) -> Option<Cell<'_>> {
        self.0.get(name).map(Cell::Json).filter(|c| !c.is_blank())
    }
}

/// "an array", "a number", … for messages.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Every non-blank line as a request of the format the first one marks.
pub(super) fn read(text: &str) -> Result<(TraceFormat, Rows), TraceError> {
    let mut rows = Rows::default();
    let mut format = None;
    for (i, raw) in text.lines().enumerate() {
        let (line, trimmed) = (i as u64 + 1, raw.trim());
        if trimmed.is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(trimmed).map_err(|e| {
            let text = e.to_string();
            let what = text.split(" at line ").next().unwrap_or(&text).to_string();
            TraceError::line(line, format!("not valid JSON ({what}, column {})", e.column()))
        })?;
        let Value::Object(map) = &value else {
            return Err(TraceError::line(line, format!("{}, not a request object", kind(&value))));
        };
        let format = *format.get_or_insert(if map.contains_key(mooncake::MARK) {
            TraceFormat::Mooncake
        } else {
            TraceFormat::Plain
        });
        let fields = JsonFields(map);
        let read: Read = match format {
            TraceFormat::Mooncake => mooncake::row(&fields, line)?,
            _ => plain::row(&fields, line)?,
        };
        rows.take(read)?;
    }
    Ok((format.unwrap_or(TraceFormat::Plain), rows.finish()))
}
