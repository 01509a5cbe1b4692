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
