//! `data/calibration.csv` (the published measurements, copied from the team's shared reference) read
//! into the core's typed rows, with the mapping onto the page's presets stated per field. Native
//! tooling only (`cargo run --bin calibrate`, `tests/it/calibration.rs`); the page ships the generated rows.
//!
//! Mapping: DeepSeek-R1 is priced as the DeepSeek-V3 preset (the same architecture), Llama 3.3 70B and
//! Llama 2 70B as Llama 3.1 70B (80 layers, hidden 8192, 8 KV heads; the vocabulary differs), Qwen3-8B
//! and the Llama 3.1 presets as themselves. A KV precision the source does not state (`n/s`, `auto`) is
//! BF16, the engines' default for these checkpoints. Lengths: the stated mean where given (ShareGPT);
//! InferenceX draws uniformly in [0.8 L, L], so 0.9 L; a fixed length as itself. Rows whose mean prompt
//! length is not stated (MLPerf's OpenOrca, "input <= 1024") or that ran speculative decoding (MTP: the TPOT is per
//! accepted token and no acceptance rate is stated) keep an empty model id and are listed, not priced.
//! Attention data parallelism (`dp-attention on` in the notes, MLPerf's `attention-DP`) runs as many
//! DP ranks as the stated TP; pipeline stages come from `pp`.

use crate::core::calibration::published::{PublishedPoint, UseClass};
use crate::core::calibration::Engine;
use crate::core::precision::Precision;

/// The shipped data file, at compile time.
pub const CSV: &str = include_str!("../data/calibration.csv");

/// Every row of `text` (the CSV with its header), or the first problem with its line.
pub fn read(text: &str) -> Result<Vec<PublishedPoint>, String> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers = reader.headers().map_err(|e| e.to_string())?.clone();
    let mut points = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let record = record.map_err(|e| format!("line {}: {e}", i + 2))?;
        let row = Row { headers: &headers, record: &record };
        points.push(point(&row).map_err(|e| format!("line {}: {e}", i + 2))?);
    }
    Ok(points)
}

/// One record with its header, read by column name.
struct Row<'a> {
    headers: &'a csv::StringRecord,
    record: &'a csv::StringRecord,
}

impl Row<'_> {
    /// The named column's value ("" when absent).
    fn get(&self, name: &str) -> &str {
        self.headers.iter().position(|h| h == name).and_then(|k| self.record.get(k)).unwrap_or("")
    }
}

/// A string that lives as long as the program (the rows are read once per run).
fn keep(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

fn point(row: &Row) -> Result<PublishedPoint, String> {
    let get = |name: &str| row.get(name).to_string();
    let number = |name: &str| get(name).trim().parse::<f64>().ok();
    let uniform = get("length_dist").contains("[0.8L, L]");
    let (isl, osl) = (mean_length(&get("isl"), uniform), mean_length(&get("osl"), uniform));
    let model = model_id(&get("model"));
    let speculative = !matches!(get("spec_decoding").trim(), "" | "none");
    let priced = isl.is_some() && osl.is_some() && !speculative;
    let concurrency = number("concurrency");
    let use_class = match (get("use_class").as_str(), concurrency) {
        ("A_step", _) => UseClass::Step,
        ("B_curve", Some(_)) => UseClass::Curve,
        ("B_curve", None) => UseClass::Load,
        ("C_ceiling", _) => UseClass::Ceiling,
        (other, _) => return Err(format!("use_class {other:?} is not A_step, B_curve or C_ceiling")),
    };
    let tpot_ms = number("tpot_mean_ms").or_else(|| number("tpot_median_ms"));
    let tp = number("tp").unwrap_or(1.0).max(1.0) as u32;
    let notes = get("notes");
    let dp_attention = notes.contains("dp-attention on") || notes.contains("attention-DP");
    let engine = engine(&get("engine")).ok_or_else(|| format!("engine {:?} is not known", get("engine")))?;
    Ok(PublishedPoint {
        id: keep(&get("id")),
        source: keep(&get("source")),
        date: keep(&get("date")),
        engine,
        engine_label: keep(&format!("{} {}", get("engine"), get("engine_version"))),
        release: keep(&release(engine, &get("engine_version"))),
        model_label: keep(&get("model")),
        model_id: if priced { model } else { "" },
        gpu_id: gpu_id(&get("gpu")).ok_or_else(|| format!("gpu {:?} is not a preset", get("gpu")))?,
        weight_precision: precision(&get("weight_precision")),
        kv_precision: precision(&get("kv_precision")),
        tp,
        ep: number("ep").unwrap_or(1.0).max(1.0) as u32,
        dp: if dp_attention { tp } else { 1 },
        pp: number("pp").unwrap_or(1.0).max(1.0) as u32,
        speculative,
        gpus: number("num_gpus").unwrap_or(1.0) as u32,
        use_class,
        concurrency,
        isl_mean: isl.unwrap_or(0.0),
        osl_mean: osl.unwrap_or(0.0),
        tpot_s: tpot_ms.map(|ms| ms * 1e-3),
        output_tokens_per_s: number("out_tok_s_total"),
    })
}

/// A length field's mean: a bare number (x 0.9 when drawn uniformly in [0.8 L, L]), or the number
/// after "mean"; `None` when neither is there.
fn mean_length(text: &str, uniform: bool) -> Option<f64> {
    if let Ok(n) = text.trim().parse::<f64>() {
        return Some(if uniform { 0.9 * n } else { n });
    }
    let after = text.split("mean ").nth(1)?;
    let digits: String = after.chars().take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',').collect();
    digits.replace(',', "").parse().ok()
}

/// The engine's release: its name and the version's first word with a digit, up to a build suffix
/// (`-cu130`, `-rocm700-mi30x`), so `v0.5.9-cu130` and `v0.5.9-rocm700-mi30x` are one release of
/// SGLang. Where the source states no engine version this names what it does state (MLPerf's
/// TensorRT version, a container tag).
fn release(engine: Engine, version: &str) -> String {
    let mut words = version.split_whitespace();
    let word = words.find(|w| w.chars().any(|c| c.is_ascii_digit())).unwrap_or("");
    let word = word.split('-').next().unwrap_or(word);
    format!("{} {}", engine.name(), word.trim_end_matches(','))
}

fn model_id(label: &str) -> &'static str {
    let l = label.to_ascii_lowercase();
    match () {
        _ if l.contains("deepseek-r1") || l.contains("deepseek-v3") => "deepseek-v3",
        _ if l.contains("qwen3-8b") => "qwen3-8b",
        _ if l.contains("llama-3.1-8b") => "llama-3.1-8b",
        _ if l.contains("llama-3.1-405b") => "llama-3.1-405b",
        _ if l.contains("llama-3.3-70b") || l.contains("llama-2-70b") || l.contains("llama-3.1-70b") => {
            "llama-3.1-70b"
        }
        _ => "",
    }
}

fn gpu_id(label: &str) -> Option<&'static str> {
    let l = label.to_ascii_lowercase();
    [
        ("h100-sxm", "h100-sxm"),
        ("h200-sxm", "h200-sxm"),
        ("b200", "b200"),
        ("gb200", "gb200"),
        ("mi300x", "mi300x"),
        ("mi325x", "mi325x"),
        ("mi355x", "mi355x"),
    ]
    .into_iter()
    .find(|(prefix, _)| l.starts_with(prefix))
    .map(|(_, id)| id)
}

fn engine(label: &str) -> Option<Engine> {
    let l = label.to_ascii_lowercase();
    match () {
        _ if l.starts_with("vllm") => Some(Engine::Vllm),
        _ if l.starts_with("sglang") => Some(Engine::Sglang),
        _ if l.starts_with("tensorrt") => Some(Engine::Trtllm),
        _ if l.starts_with("amd atom") => Some(Engine::Atom),
        _ => None,
    }
}

fn precision(label: &str) -> Precision {
    let l = label.trim().to_ascii_uppercase();
    match () {
        _ if l.starts_with("FP8") => Precision::Fp8,
        _ if l.starts_with("FP4") => Precision::Fp4,
        _ if l.starts_with("INT4") => Precision::Int4,
        _ => Precision::Bf16,
    }
}
