//! The serde form of a model or GPU: a preset travels as its id, a custom entry as its numbers, so a
//! spec (whose names and sources are `&'static str`) can cross a channel between wasm modules.

use serde::{Deserialize, Deserializer, Serialize};

use super::{gpu_by_id, model_by_id, CustomGpu, CustomModel, GpuSpec, ModelSpec, CUSTOM_ID};

/// A model as it crosses a channel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ModelWire {
    /// A preset, by its URL id.
    Preset(String),
    /// The custom model, by its editable numbers.
    Custom(CustomModel),
}

/// A GPU as it crosses a channel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum GpuWire {
    Preset(String),
    Custom(CustomGpu),
}

impl From<ModelSpec> for ModelWire {
    fn from(spec: ModelSpec) -> ModelWire {
        if spec.id == CUSTOM_ID {
            ModelWire::Custom(CustomModel::from_spec(&spec))
        } else {
            ModelWire::Preset(spec.id.to_string())
        }
    }
}

impl TryFrom<ModelWire> for ModelSpec {
    type Error = String;

    /// Fails only for an id that names no preset (a sender built from another version).
    fn try_from(wire: ModelWire) -> Result<ModelSpec, String> {
        match wire {
            ModelWire::Preset(id) => model_by_id(&id).copied().ok_or(format!("no model preset {id}")),
            ModelWire::Custom(custom) => Ok(custom.to_spec()),
        }
    }
}

impl From<GpuSpec> for GpuWire {
    fn from(spec: GpuSpec) -> GpuWire {
        if spec.id == CUSTOM_ID {
            GpuWire::Custom(CustomGpu::from_spec(&spec))
        } else {
            GpuWire::Preset(spec.id.to_string())
        }
    }
}

impl TryFrom<GpuWire> for GpuSpec {
    type Error = String;

    fn try_from(wire: GpuWire) -> Result<GpuSpec, String> {
        match wire {
            GpuWire::Preset(id) => gpu_by_id(&id).copied().ok_or(format!("no GPU preset {id}")),
            GpuWire::Custom(custom) => Ok(custom.to_spec()),
        }
    }
}

/// Read through [`ModelWire`] (a derive would tie the spec's `&'static str` fields to the input).
impl<'de> Deserialize<'de> for ModelSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ModelSpec, D::Error> {
        ModelWire::deserialize(deserializer)?.try_into().map_err(serde::de::Error::custom)
    }
}

/// Read through [`GpuWire`].
impl<'de> Deserialize<'de> for GpuSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<GpuSpec, D::Error> {
        GpuWire::deserialize(deserializer)?.try_into().map_err(serde::de::Error::custom)
    }
}
