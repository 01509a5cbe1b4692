//! The Custom model's and GPU's fields: URL keys, ranges, and how each reads and writes its number.

use super::fields::NumberField;
use super::Notice;
use crate::core::presets::{CustomGpu, CustomModel};

/// One editable number of a custom spec: its field plus how to read and write it in base units.
pub struct CustomField<T> {
    pub field: NumberField,
    pub get: fn(&T) -> f64,
    pub set: fn(&mut T, f64),
}

const fn field(
    key: &'static str,
    label: &'static str,
    unit: &'static str,
    range: (f64, f64),
    scale: f64,
    whole: bool,
) -> NumberField {
    NumberField { key, label, unit, min: range.0, max: range.1, whole, scale }
}

macro_rules! whole_field {
    ($key:literal, $label:literal, $unit:literal, $range:expr, $name:ident) => {
        CustomField {
            field: field($key, $label, $unit, $range, 1.0, true),
            get: |m| f64::from(m.$name),
            set: |m, v| m.$name = v as u32,
        }
    };
}

macro_rules! real_field {
    ($key:literal, $label:literal, $unit:literal, $range:expr, $scale:expr, $name:ident) => {
        CustomField {
            field: field($key, $label, $unit, $range, $scale, false),
            get: |m| m.$name,
            set: |m, v| m.$name = v,
        }
    };
}

/// The custom model's fields, in form order.
pub const MODEL_FIELDS: [CustomField<CustomModel>; 12] = [
    real_field!("m_params", "Total parameters", "billion", (0.001, 10_000.0), 1e9, params),
    real_field!("m_active", "Active parameters", "billion", (0.001, 10_000.0), 1e9, active_params),
    whole_field!("m_layers", "Layers", "layers", (1.0, 1024.0), layers),
    whole_field!("m_hidden", "Hidden size", "elements", (1.0, 131_072.0), hidden_size),
    whole_field!("m_heads", "Attention heads", "heads", (1.0, 1024.0), heads),
    whole_field!("m_kv_heads", "KV heads", "heads", (1.0, 1024.0), kv_heads),
    whole_field!("m_head_dim", "Head dimension", "elements", (1.0, 4096.0), head_dim),
    whole_field!("m_experts", "Routed experts (0 = dense)", "experts", (0.0, 4096.0), experts),
    whole_field!("m_top_k", "Experts per token", "experts", (1.0, 4096.0), top_k),
    whole_field!("m_window", "Sliding window (0 = none)", "tokens", (0.0, 10_000_000.0), window_tokens),
    whole_field!("m_swa_layers", "Sliding layers", "layers", (0.0, 1024.0), sliding_layers),
    whole_field!("m_max_ctx", "Maximum context", "tokens", (128.0, 10_000_000.0), context_tokens_max),
];

/// The custom GPU's fields, in form order.
pub const GPU_FIELDS: [CustomField<CustomGpu>; 6] = [
    real_field!("g_hbm", "HBM", "GB", (1.0, 100_000.0), 1e9, hbm_bytes),
    real_field!("g_bw", "HBM bandwidth", "TB/s", (0.01, 1000.0), 1e12, hbm_bandwidth_bytes_per_s),
    real_field!("g_bf16", "BF16 dense", "TFLOP/s", (1.0, 1e6), 1e12, bf16_flop_per_s),
    real_field!("g_fp8", "FP8 dense (0 = none)", "TFLOP/s", (0.0, 1e6), 1e12, fp8_flop_per_s),
    real_field!("g_fp4", "FP4 dense (0 = none)", "TFLOP/s", (0.0, 1e6), 1e12, fp4_flop_per_s),
    real_field!(
        "g_link",
        "Interconnect per direction",
        "GB/s",
        (1.0, 100_000.0),
        1e9,
        interconnect_bytes_per_s
    ),
];

/// Reads every field of `fields` from `lookup` into a copy of `base`, with a notice per repair.
pub fn read_fields<T: Copy>(
    fields: &[CustomField<T>],
    base: &T,
    lookup: impl Fn(&str) -> Option<String>,
    notices: &mut Vec<Notice>,
) -> T {
    let mut spec = *base;
    for f in fields {
        let value = f.field.read(lookup(f.field.key).as_deref(), (f.get)(base), notices);
        (f.set)(&mut spec, value);
    }
    spec
}

/// Every field of `fields` as (key, value) pairs for the URL.
pub fn write_fields<T>(fields: &[CustomField<T>], spec: &T) -> Vec<(&'static str, String)> {
    fields.iter().map(|f| (f.field.key, f.field.write((f.get)(spec)))).collect()
}

/// Repairs combinations no single range can catch: active <= total, top-k <= experts, sliding
/// layers <= layers. Each repair adds a notice.
pub fn reconcile_model(m: &mut CustomModel, notices: &mut Vec<Notice>) {
    if m.active_params > m.params {
        m.active_params = m.params;
        let message = "m_active is larger than m_params; using the total.".to_string();
        notices.push(Notice { key: "m_active", message });
    }
    if m.experts > 1 && m.top_k > m.experts {
        m.top_k = m.experts;
        let message = format!("m_top_k is larger than m_experts; using {}.", m.experts);
        notices.push(Notice { key: "m_top_k", message });
    }
    if m.sliding_layers > m.layers {
        m.sliding_layers = m.layers;
        let message = format!("m_swa_layers is larger than m_layers; using {}.", m.layers);
        notices.push(Notice { key: "m_swa_layers", message });
    }
}
