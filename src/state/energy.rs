//! The energy keys, `kwh` ($/kWh), `pue` (power usage effectiveness) and `hostw` (host W per GPU):
//! read once here (a malformed value falls back to its default with a notice, an out-of-range one
//! is clamped), written only off their defaults, and bound to the capacity plan's boxes.

use super::fields::{InputField, NumberField};
use super::{Inputs, Notice, RawQuery};
use crate::core::energy::EnergyPrice;

/// Electricity price.
pub const KWH: NumberField = NumberField::new("kwh", "Electricity", "$/kWh", (0.0, 10.0));
/// Power usage effectiveness: facility power over IT power (1 counts the IT power alone).
pub const PUE: NumberField = NumberField::new("pue", "PUE", "", (1.0, 3.0));
/// Host power per GPU (CPU, memory, NICs, fans), added before PUE.
pub const HOSTW: NumberField = NumberField::new("hostw", "Host power per GPU", "W", (0.0, 5000.0));

/// [`KWH`] in the inputs.
pub const KWH_INPUT: InputField = KWH.bound(|i| i.energy.usd_per_kwh, |i, v| i.energy.usd_per_kwh = v);
/// [`PUE`] in the inputs.
pub const PUE_INPUT: InputField = PUE.bound(|i| i.energy.pue, |i, v| i.energy.pue = v);
/// [`HOSTW`] in the inputs.
pub const HOSTW_INPUT: InputField =
    HOSTW.bound(|i| i.energy.host_w_per_gpu, |i, v| i.energy.host_w_per_gpu = v);

/// The energy keys validated, in key order.
pub fn read(raw: &RawQuery, notices: &mut Vec<Notice>) -> EnergyPrice {
    let d = EnergyPrice::DEFAULT;
    EnergyPrice {
        usd_per_kwh: KWH.read(raw.get("kwh"), d.usd_per_kwh, notices),
        pue: PUE.read(raw.get("pue"), d.pue, notices),
        host_w_per_gpu: HOSTW.read(raw.get("hostw"), d.host_w_per_gpu, notices),
    }
}

/// The energy keys whose value differs from the default, in key order.
pub fn pairs(inputs: &Inputs) -> Vec<(&'static str, String)> {
    let (e, d) = (inputs.energy, EnergyPrice::DEFAULT);
    [(KWH, e.usd_per_kwh, d.usd_per_kwh), (PUE, e.pue, d.pue), (HOSTW, e.host_w_per_gpu, d.host_w_per_gpu)]
        .into_iter()
        .filter(|(field, value, default)| field.write(*value) != field.write(*default))
        .map(|(field, value, _)| (field.key, field.write(value)))
        .collect()
}
