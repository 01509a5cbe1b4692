//! CSV traces: the header row says the format (`ContextTokens`: Azure's, `Request tokens`:
//! BurstGPT's, else a plain trace whose header names its columns), then each data row is read by
//! its column names (in any case). Cells are split as every upload's are (`state::csv_text`: commas,
//! tabs or semicolons, told from the header); blank rows and `#` comments are skipped.

use super::columns::{self, Columns};
use super::values::{Cell, Fields, Read};
use super::{plain, Rows, TraceError, TraceFormat};
use std::collections::HashMap;

/// One record's cells by the header's (lower-cased) names.
struct CsvFields<'a> {
    columns: &'a HashMap<String, usize>,
    record: &'a csv::StringRecord,
}

impl Fields for CsvFields<'_> {
    fn get(&self, name: &str) -> Option<Cell<'_>> {
        let i = *self.columns.get(&name.to_ascii_lowercase())?;
        self.record.get(i).map(Cell::Text).filter(|c| !c.is_blank())
    }
}

/// The format a header names, or why it names none a trace needs.
/// `Some` columns for a fixed-column format, `None` for a plain trace.
type Format = (TraceFormat, Option<&'static Columns>);

fn format_of(columns: &HashMap<String, usize>, line: u64) -> Result<Format, TraceError> {
    let has = |name: &str| columns.contains_key(&name.to_ascii_lowercase());
    if let Some(c) = columns::FORMATS.iter().find(|c| has(c.mark)) {
        return Ok((c.format, Some(c)));
    }
    let time = plain::TIME.iter().any(|(n, _)| has(n));
    if !time || !plain::PROMPT.iter().any(|n| has(n)) || !plain::OUTPUT.iter().any(|n| has(n)) {
        let missing = if !time {
            "arrival_s"
        } else if !plain::PROMPT.iter().any(|n| has(n)) {
            "prompt_tokens"
        } else {
            "output_tokens"
        };
        let what = "is not in the header: a CSV trace's first row names its columns (`arrival_s`, `prompt_tokens`, \
                    `output_tokens`; or Azure's `TIMESTAMP`, `ContextTokens`, `GeneratedTokens`; or BurstGPT's)";
        return Err(TraceError::at(line, missing, what));
    }
    Ok((TraceFormat::Plain, None))
}

/// The header row, then every data row as a request of the format the header names.
pub(super) fn read(text: &str) -> Result<(TraceFormat, Rows), TraceError> {
    let mut reader = crate::state::csv_text::reader(text);
    let mut records = reader.records();
    let mut columns: Option<(HashMap<String, usize>, Format)> = None;
    let mut rows = Rows::default();
    while let Some(record) = records.next() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(1, |p| p.line());
            TraceError::line(line, format!("the CSV could not be read ({e})"))
        })?;
        let line = record.position().map_or(1, |p| p.line());
        if record.iter().all(|c| c.is_empty()) {
            continue;
        }
        let Some((names, format)) = &columns else {
            let mut names: HashMap<String, usize> = HashMap::new();
            for (i, c) in record.iter().enumerate() {
                names.entry(c.to_ascii_lowercase()).or_insert(i);
            }
            let format = format_of(&names, line)?;
            columns = Some((names, format));
            continue;
        };
        let fields = CsvFields { columns: names, record: &record };
        let read: Read = match format.1 {
            Some(c) => columns::row(c, &fields, line)?,
            None => plain::row(&fields, line)?,
        };
        rows.take(read)?;
    }
    let format = columns.map_or(TraceFormat::Plain, |(_, f)| f.0);
    Ok((format, rows.finish()))
}
