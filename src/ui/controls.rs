//! The control panel and its parts: menus, sliders and number boxes over bound fields, the keyboard and slider drags.

pub(crate) mod calibration;
pub(crate) mod custom_fields;
pub(crate) mod drag;
pub(crate) mod keys;
pub(crate) mod panel;
pub(crate) mod prefix;
pub(crate) mod speculative;
pub(crate) mod widgets;
