//! The control panel and its parts: the menus and sliders over bound fields, the cost model's, the
//! parallelism's, the prefix cache's, speculation's and the custom model's and GPU's controls, and
//! the keyboard.

pub(crate) mod calibration;
pub(crate) mod custom_fields;
pub(crate) mod keys;
pub(crate) mod panel;
pub(crate) mod parallel;
pub(crate) mod prefix;
pub(crate) mod speculative;
