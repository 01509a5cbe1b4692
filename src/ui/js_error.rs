//! The text of a JavaScript error value (a thrown `Error`, a rejected promise's reason), for the
//! sentences the page shows and logs.

use wasm_bindgen::{JsCast, JsValue};

/// An `Error`'s message, a string as itself, anything else as its debug form.
pub fn message(error: &JsValue) -> String {
    match error.dyn_ref::<js_sys::Error>() {
        Some(error) => String::from(error.message()),
        None => error.as_string().unwrap_or_else(|| format!("{error:?}")),
    }
}
