//! Entry point: install the panic hook and mount the app (browser only).

#[cfg(target_arch = "wasm32")]
fn main() {
    goodput_lab::ui::start();
}

/// Natively there is no page to mount; `cargo test` exercises the library instead.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("goodput-lab runs in the browser: use `make serve`.");
}

/// Test hook, not used by the page: panics with `message`, so the browser tests can check the error
/// banner (`window.wasmBindings.panic_for_test("…")`; Trunk's loader puts the exports there).
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn panic_for_test(message: String) {
    panic!("{message}");
}
