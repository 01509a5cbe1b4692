//! One load action (a paste, a chooser's selection or a drop of several files): each file read in
//! order, its points added after those already on the page, a bad file named with its own message
//! without dropping the others' points, and the [`MAX_POINTS`] cap kept with a message.

use super::{parse_upload, MAX_POINTS};
use crate::core::fit::YourPoint;

/// What one file gave.
#[derive(Clone, Debug, PartialEq)]
pub enum FileOutcome {
    /// “runs.jsonl: 6 points from a vLLM benchmark result.” and its remarks.
    Read { summary: String, remarks: Vec<String> },
    /// “bad.csv: line 3: TPOT “abc” is not a number.”
    Failed(String),
}

/// The points after a load action, each file's outcome in order, and a note when the cap cut some.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    pub points: Vec<YourPoint>,
    pub files: Vec<FileOutcome>,
    pub note: Option<String>,
}

/// “a” or “an” before `word`, by its first letter (“an AIPerf”, “a CSV”, “a vLLM”).
pub fn article(word: &str) -> &'static str {
    match word.chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

/// `existing` with each file's points added in order. Each file is `(name, its text or why it could
/// not be read)`.
pub fn add_files(existing: &[YourPoint], files: Vec<(String, Result<String, String>)>) -> Loaded {
    let mut points = existing.to_vec();
    let mut outcomes = Vec::with_capacity(files.len());
    let mut left_out = 0;
    for (source, text) in files {
        match text.and_then(|t| parse_upload(&t)) {
            Ok(upload) => {
                let n = upload.points.len();
                let room = MAX_POINTS.saturating_sub(points.len());
                left_out += n.saturating_sub(room);
                points.extend(upload.points.into_iter().take(room));
                let summary = format!(
                    "{source}: {n} point{} from {} {}.",
                    if n == 1 { "" } else { "s" },
                    article(upload.format),
                    upload.format
                );
                outcomes.push(FileOutcome::Read { summary, remarks: upload.remarks });
            }
            Err(e) => outcomes.push(FileOutcome::Failed(format!("{source}: {e}"))),
        }
    }
    let note = (left_out > 0).then(|| {
        format!(
            "{left_out} point{} left out: the page plots at most {MAX_POINTS}. Clear, then load fewer runs.",
            if left_out == 1 { "" } else { "s" }
        )
    });
    Loaded { points, files: outcomes, note }
}
