//! `data/wide-ep.csv` (InferenceX's multi-node and NVL72 wide expert-parallel runs, copied from the
//! team's shared reference) read into the core's typed rows ([`WideEpRow`]), with the mapping onto the
//! page's presets stated per field. Native tooling only (`cargo run --bin calibrate_wide_ep`,
//! `tests/it/wide_ep.rs`).
//!
//! Mapping: the GPU by the label's first word (GB200, GB300, B200, B300, H100 and H200 SXM, MI355X);
//! the engine by its name (Dynamo + SGLang and SGLang + MoRI: SGLang; Dynamo + TensorRT-LLM and
//! trtllm-serve: TensorRT-LLM); weights FP8 or FP4 by the field's first word; the decode worker's
//! parallelism from `decode_parallel_per_worker` and its GPUs (decode GPUs / decode workers, all the
//! GPUs for an aggregated row, [`decode_parallelism`]); lengths uniform in [0.8 L, L], so 0.9 L; MTP from `spec_decoding`; past
//! the knee from `notes`; aggregated from `mode`.

use crate::core::calibration::wide_ep::{decode_parallelism, WideEpRow};
use crate::core::calibration::Engine;
use crate::core::precision::Precision;

/// The shipped data file, at compile time.
pub const CSV: &str = include_str!("../data/wide-ep.csv");

/// Every row of `text` (the CSV with its header), or the first problem with its line.
pub fn read(text: &str) -> Result<Vec<WideEpRow>, String> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers = reader.headers().map_err(|e| e.to_string())?.clone();
    let mut rows = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let record = record.map_err(|e| format!("line {}: {e}", i + 2))?;
        let get = |name: &str| {
            headers
                .iter()
                .position(|h| h == name)
                .and_then(|k| record.get(k))
                .unwrap_or("")
                .trim()
                .to_string()
        };
        rows.push(row(&get).map_err(|e| format!("line {}: {e}", i + 2))?);
    }
    Ok(rows)
}

fn row(get: &dyn Fn(&str) -> String) -> Result<WideEpRow, String> {
    let number =
        |name: &str| get(name).parse::<f64>().map_err(|_| format!("{name} {:?} is not a number", get(name)));
    let workers = number("decode_workers")?.max(1.0) as u32;
    // Aggregated rows leave decode_gpus empty: their one engine runs on every GPU.
    let decode_gpus = number("decode_gpus").or_else(|_| number("num_gpus_total"))?;
    let gpus_per_worker = (decode_gpus / f64::from(workers)).round().max(1.0) as u32;
    let field = get("decode_parallel_per_worker");
    let uniform = get("length_dist").contains("[0.8L, L]");
    let length = |name: &str| number(name).map(|n| if uniform { 0.9 * n } else { n });
    Ok(WideEpRow {
        id: get("id"),
        date: get("date"),
        gpu_id: gpu_id(&get("gpu")).ok_or_else(|| format!("gpu {:?} is not a preset", get("gpu")))?,
        engine: engine(&get("engine")).ok_or_else(|| format!("engine {:?} is not known", get("engine")))?,
        engine_label: format!("{} {}", get("engine"), get("engine_version")),
        weight_precision: precision(&get("weight_precision")),
        mtp: get("spec_decoding").to_ascii_lowercase().starts_with("mtp"),
        aggregated: get("mode").starts_with("aggregated"),
        past_knee: get("notes").contains("beyond the TTFT knee"),
        decode_workers: workers,
        decode_parallel: decode_parallelism(&field, gpus_per_worker)
            .ok_or_else(|| format!("decode_parallel_per_worker {field:?} does not parse"))?,
        isl_mean: length("isl")?,
        osl_mean: length("osl")?,
        concurrency: number("concurrency")?,
        tpot_s: number("tpot_median_ms")? * 1e-3,
    })
}

fn gpu_id(label: &str) -> Option<&'static str> {
    let first = label.split_whitespace().next()?.to_ascii_lowercase();
    let ids: [(&str, &'static str); 7] = [
        ("gb200", "gb200"),
        ("gb300", "gb300"),
        ("b200", "b200"),
        ("b300", "b300"),
        ("h100", "h100-sxm"),
        ("h200", "h200-sxm"),
        ("mi355x", "mi355x"),
    ];
    ids.into_iter().find(|(name, _)| first == *name).map(|(_, id)| id)
}

fn engine(label: &str) -> Option<Engine> {
    let l = label.to_ascii_lowercase();
    match () {
        _ if l.contains("tensorrt-llm") => Some(Engine::Trtllm),
        _ if l.contains("sglang") => Some(Engine::Sglang),
        _ => None,
    }
}

fn precision(label: &str) -> Precision {
    match label.split_whitespace().next().unwrap_or("") {
        "fp4" => Precision::Fp4,
        "fp8" => Precision::Fp8,
        _ => Precision::Bf16,
    }
}
