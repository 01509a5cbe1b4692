//! The one CSV reader every upload shares (measured results, traffic traces): no header assumed,
//! ragged rows allowed, cells trimmed, `#` starting a comment, and one delimiter rule ([`delimiter`]).

/// The delimiter: the first of comma, tab and semicolon that the first line holding any text (not
/// a `#` comment) contains; a comma when it holds none of them.
pub fn delimiter(text: &str) -> u8 {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#')).unwrap_or("");
    [b',', b'\t', b';'].into_iter().find(|d| first.as_bytes().contains(d)).unwrap_or(b',')
}

/// A reader of `text`'s records under the shared rules.
pub fn reader(text: &str) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .comment(Some(b'#'))
        .delimiter(delimiter(text))
        .from_reader(text.as_bytes())
}
