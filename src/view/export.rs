//! What the export buttons download, as plain text: the batch table (and the simulator's data table)
//! as CSV with the page's printed values under unit-bearing headers, and file names that say the
//! scenario. Pure, so native tests check it; the browser half is `ui::export`.

mod sim;

pub use sim::{
    seed_range_cell, sim_row_cells, sim_sweep_csv, sim_table_csv, sim_table_headers, OVERLOADED_MARK,
    STEADY_MARK,
};

use crate::core::calibration::range::{likely_range, LikelyRange};
use crate::core::energy::{batch_energy, EnergyPrice};
use crate::core::roofline::{analyze, Precision};
use crate::core::scenario::Scenario;
use crate::core::table::{batch_table, BatchRow};
use crate::state::fields::{MBU, OVERHEAD, TPOT};
use crate::state::Inputs;
use crate::view::format::calibration::range_ms;
use crate::view::format::{gb, ms, req_per_s, significant, thousands, yes_no};

/// Every file name starts with this.
pub const FILE_PREFIX: &str = "goodput-lab";

/// The note the batch table prints beside a row (the knee, the pool, a batch that cannot run).
pub fn row_note(row: &BatchRow) -> &'static str {
    match (row.is_knee, row.is_kv_pool, row.fits_kv_pool) {
        (true, true, _) => "knee and KV-pool limit",
        (true, false, false) => "knee, but it exceeds the KV pool: cannot run",
        (true, false, true) => "knee: largest batch meeting both targets",
        (false, true, _) => "KV-pool limit",
        (false, false, false) => "exceeds the KV pool: cannot run",
        _ => "",
    }
}

/// The batch table's TTFT header, on the page and in the CSV: "TTFT, mean (ms)" with a prefix cache
/// (the column is h x hit + (1 - h) x miss, a mean over requests), else "TTFT (ms)".
pub fn ttft_header(prefix_on: bool) -> &'static str {
    if prefix_on {
        "TTFT, mean (ms)"
    } else {
        "TTFT (ms)"
    }
}

/// The CSV's headers: the page table's columns, each with its unit (the TTFT one says "mean" with a
/// prefix cache: [`ttft_header`]).
pub fn batch_table_headers(per_gpu: bool, prefix_on: bool) -> Vec<&'static str> {
    let mut h = vec![
        "Batch (sequences)",
        "Step time (ms)",
        "Throughput (tokens/s)",
        "Meets TPOT target (yes/no)",
        "Goodput (req/s)",
        ttft_header(prefix_on),
        "Meets TTFT target (yes/no)",
        "Weights read (GB/GPU)",
    ];
    if per_gpu {
        h.extend(["Throughput per GPU (tokens/s/GPU)", "Goodput per GPU (req/s/GPU)"]);
    }
    h.extend([ENERGY_HEADER, "Note"]);
    h
}

/// The batch table's energy column, on the page and in the CSV: joules per output token of the
/// batch's decode step ([`crate::core::energy::batch_energy`]).
pub const ENERGY_HEADER: &str = "Energy (J/token)";
/// The same column's heading on the page, short so the table stays on a 1280 px screen.
pub const ENERGY_COLUMN: &str = "J/token";

/// A row's joules per output token as printed (`0.109`): its decode step's power on the replica's
/// GPUs (with `energy`'s host power and PUE) over its tokens/s.
pub fn energy_cell(row: &BatchRow, scenario: &Scenario, energy: &EnergyPrice) -> String {
    significant(batch_energy(scenario, &row.point, energy).energy_j_per_token)
}

/// A row's ten numbers as the page prints them: batch, step time, tokens/s, meets TPOT, goodput,
/// TTFT, meets TTFT, weights read, then the per-GPU tokens/s and goodput. The page's table
/// (`ui::batch_rows`) and the CSV both print from here.
pub fn batch_row_numbers(row: &BatchRow) -> [String; 10] {
    let p = row.point;
    [
        thousands(f64::from(p.batch)),
        ms(p.step.step_s),
        thousands(p.tokens_per_s),
        yes_no(p.meets_tpot).to_string(),
        req_per_s(p.goodput_req_per_s),
        ms(p.ttft_mean_s),
        yes_no(p.meets_ttft).to_string(),
        gb(p.step.weight_read_bytes),
        thousands(p.tokens_per_s_per_gpu),
        req_per_s(p.goodput_per_gpu_req_per_s),
    ]
}

/// One row's cells exactly as the page prints them: the numbers (the per-GPU two only when
/// `per_gpu`), the J/token cell ([`energy_cell`] on `scenario` at `energy`), then the note.
pub fn batch_row_cells(
    row: &BatchRow,
    per_gpu: bool,
    (scenario, energy): (&Scenario, &EnergyPrice),
) -> Vec<String> {
    let shown = if per_gpu { 10 } else { 8 };
    let mut cells: Vec<String> = batch_row_numbers(row).into_iter().take(shown).collect();
    cells.push(energy_cell(row, scenario, energy));
    cells.push(row_note(row).to_string());
    cells
}

/// The batch table of `scenario` as CSV (RFC 4180: commas inside a value are quoted), per-GPU
/// columns when the replica spans several GPUs, the TTFT header saying "mean" with a prefix cache
/// and J/token at `energy`, as on the page.
pub fn batch_table_csv(
    rows: &[BatchRow],
    per_gpu: bool,
    prefix_on: bool,
    at: (&Scenario, &EnergyPrice),
) -> String {
    batch_csv(rows, (per_gpu, prefix_on), None, at)
}

/// The batch table the page shows for `inputs`, as CSV ([`batch_table_csv`]): what the table's
/// CSV button downloads. The lazy module computes it from the page's state, so the page's
/// module carries no CSV writer.
/// Under the measured engines a "Step time, likely range (ms)" column follows the step time.
pub fn table_csv(inputs: &Inputs) -> String {
    let s = inputs.scenario;
    let rows = batch_table(&s, &analyze(&s));
    batch_csv(
        &rows,
        (s.parallel.gpus() > 1, s.prefix.active()),
        likely_range(&s).as_ref(),
        (&s, &inputs.energy),
    )
}

/// The CSV with the page's optional columns: with speculation, the step column is the time per
/// token and the whole draft-and-verify step follows it; under the measured engines the likely
/// range comes right after the step column.
fn batch_csv(
    rows: &[BatchRow],
    (per_gpu, prefix_on): (bool, bool),
    range: Option<&LikelyRange>,
    at: (&Scenario, &EnergyPrice),
) -> String {
    let speculating = rows.iter().any(|r| r.point.step.speculative.is_some());
    let mut headers = batch_table_headers(per_gpu, prefix_on);
    headers[1] = step_header(speculating);
    if speculating {
        headers.insert(2, SPEC_STEP_HEADER);
    }
    if range.is_some() {
        headers.insert(2, RANGE_HEADER);
    }
    let body = rows.iter().map(|r| {
        let mut cells = batch_row_cells(r, per_gpu, at);
        if let Some(step) = spec_step_ms(r).filter(|_| speculating) {
            cells.insert(2, step);
        }
        if let Some(range) = range {
            cells.insert(2, range_ms(range, r.point.step.step_s));
        }
        cells
    });
    write_csv(&headers, body)
}

/// The step column's header: "Step time (ms)", or with speculative decoding "Time per token (ms)"
/// (the step column is then (draft + verify) / E).
pub fn step_header(speculating: bool) -> &'static str {
    if speculating {
        "Time per token (ms)"
    } else {
        "Step time (ms)"
    }
}

/// The header of the column speculative decoding adds: one whole draft-and-verify step.
pub const SPEC_STEP_HEADER: &str = "Draft + verify step (ms)";

/// A row's whole draft-and-verify step as printed (`27.58`), when it speculates.
pub fn spec_step_ms(row: &BatchRow) -> Option<String> {
    row.point.step.speculative.map(|spec| ms(spec.step_s()))
}

/// The likely-range column's CSV header.
pub const RANGE_HEADER: &str = "Step time, likely range (ms)";

/// The search table's rows `shown` (indices into `rows`, filtered and sorted: every one, not only
/// the page's top N) as CSV, with the page's printed values.
pub fn search_csv(rows: &[crate::core::search::Row], shown: &[usize]) -> String {
    let body =
        shown.iter().filter_map(|&i| rows.get(i)).map(|r| crate::view::format::search::cells(r).to_vec());
    write_csv(&crate::view::format::search::HEADERS, body)
}

/// The accuracy view's rows `shown` (filtered) as CSV, each with the cells the page prints.
pub fn accuracy_csv(shown: &[&crate::core::calibration::accuracy::AccuracyRow]) -> String {
    let body = shown.iter().map(|r| crate::view::format::accuracy::cells(r).to_vec());
    write_csv(&crate::view::format::accuracy::HEADERS, body)
}

/// The accuracy view's CSV file name: it lists the repository's data, not the page's scenario.
pub const ACCURACY_FILE: &str = "goodput-lab_published-accuracy.csv";

/// Headers then rows, through the csv crate's quoting, lines ending in CRLF as RFC 4180 asks.
fn write_csv(headers: &[&str], rows: impl Iterator<Item = Vec<String>>) -> String {
    let mut writer = csv::WriterBuilder::new().terminator(csv::Terminator::CRLF).from_writer(Vec::new());
    let written = std::iter::once(writer.write_record(headers))
        .chain(rows.map(|r| writer.write_record(&r)))
        .all(|r| r.is_ok());
    let bytes = writer.into_inner().unwrap_or_default();
    if written {
        String::from_utf8(bytes).unwrap_or_default()
    } else {
        String::new()
    }
}

/// `goodput-lab_llama-3.1-8b_h100-sxm_bf16-kv_ctx2048_tpot10ms_step.svg`: the model, the GPU (with
/// `tp2` etc. past one GPU, `tp1-ep8-dp8` past TP alone), the weight precision when it is not
/// BF16, the KV precision, context, TPOT target, the calibration in realistic mode, then `what` and
/// the extension.
pub fn file_name(inputs: &Inputs, what: &str, ext: &str) -> String {
    let mut parts =
        vec![FILE_PREFIX.to_string(), slug(inputs.scenario.model.id), slug(inputs.scenario.gpu.id)];
    let parallel = inputs.scenario.parallel;
    if !parallel.tp_only() {
        // `tp1-ep8-dp8`: every degree past TP alone, as the label names them.
        parts.push(parallel.label().to_ascii_lowercase().replace(' ', "-"));
    } else if parallel.tp > 1 {
        parts.push(format!("tp{}", parallel.tp));
    }
    if inputs.scenario.weight_precision != Precision::Bf16 {
        parts.push(format!("{}-w", inputs.scenario.weight_precision.id()));
    }
    parts.push(format!("{}-kv", inputs.scenario.kv_precision.id()));
    parts.push(format!("ctx{}", inputs.scenario.context_tokens));
    parts.push(format!("tpot{}ms", TPOT.write(inputs.scenario.tpot_target_s)));
    if let Some(c) = inputs.realistic() {
        parts.push(format!("mbu{}-overhead{}ms", MBU.write(c.mbu), OVERHEAD.write(c.step_overhead_s)));
    }
    if let Some(e) = inputs.engine() {
        parts.push(format!("measured-{}", e.id()));
    }
    parts.push(slug(what));
    format!("{}.{}", parts.join("_"), slug(ext))
}

/// Lower-case letters, digits, `.` and `-` kept; anything else becomes `-` (safe on every file system).
fn slug(text: &str) -> String {
    let s: String = text
        .trim()
        .chars()
        .map(|c| c.to_ascii_lowercase())
        .map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c } else { '-' })
        .collect();
    if s.is_empty() {
        "x".to_string()
    } else {
        s
    }
}
