//! Base units and the constants that convert them for display (decimal GB and TB/s, as the worked example uses).
//!
//! Quantities live in bytes, seconds and FLOP everywhere in the model; these constants are applied
//! only where a number is shown or typed by a person.

/// Bytes in a decimal gigabyte (GB = 1e9 B), as datasheets and the worked example use.
pub const BYTES_PER_GB: f64 = 1e9;
/// Bytes in a kibibyte (KiB = 1024 B), the unit the worked example gives KV bytes per token in.
pub const BYTES_PER_KIB: f64 = 1024.0;
/// Bytes per second in one TB/s (1e12 B/s).
pub const BYTES_PER_S_PER_TB_PER_S: f64 = 1e12;
/// FLOP per second in one TFLOP/s (1e12 FLOP/s).
pub const FLOP_PER_S_PER_TFLOP_PER_S: f64 = 1e12;
/// Seconds in a millisecond.
pub const S_PER_MS: f64 = 1e-3;

/// ms = s / 1e-3.
pub fn s_to_ms(time_s: f64) -> f64 {
    time_s / S_PER_MS
}

/// s = ms x 1e-3.
pub fn ms_to_s(time_ms: f64) -> f64 {
    time_ms * S_PER_MS
}

/// GB = bytes / 1e9.
pub fn bytes_to_gb(size_bytes: f64) -> f64 {
    size_bytes / BYTES_PER_GB
}
