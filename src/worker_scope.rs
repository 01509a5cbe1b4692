//! The worker side of every module Web Worker (the simulator's, the search's): install one message
//! handler on the dedicated worker's global scope, post `"ready"`, answer each message's postcard
//! bytes with replies posted as `Uint8Array`s, then signal that it answered and how large its wasm
//! memory is. Compiled for wasm32 only; the bins call [`serve`] from `main`.

use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, WorkerGlobalScope};

use crate::protocol::codec::WorkerSignal;

/// True in a dedicated worker's global scope.
pub fn in_worker() -> bool {
    js_sys::global().is_instance_of::<DedicatedWorkerGlobalScope>()
}

/// The worker's clock (`performance.now()` of its global scope), in ms; 0 outside a worker.
pub fn now_ms() -> f64 {
    js_sys::global()
        .dyn_into::<WorkerGlobalScope>()
        .ok()
        .and_then(|s| s.performance())
        .map_or(0.0, |p| p.now())
}

/// In a worker scope, answers every message with `answer(bytes, post)`; `name` labels console
/// errors. Outside one (a page importing the module for its benchmark export) it does nothing.
pub fn serve(name: &'static str, answer: impl Fn(&[u8], &mut dyn FnMut(Vec<u8>)) + 'static) {
    console_error_panic_hook::set_once();
    if !in_worker() {
        return;
    }
    if let Err(err) = listen(name, answer) {
        web_sys::console::error_2(&format!("{name}: cannot listen:").into(), &err);
    }
}

fn listen(
    name: &'static str,
    answer: impl Fn(&[u8], &mut dyn FnMut(Vec<u8>)) + 'static,
) -> Result<(), JsValue> {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().dyn_into()?;
    let reply_to = scope.clone();
    let start_memory_bytes = memory_bytes();
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
        let bytes = event.data().dyn_into::<js_sys::Uint8Array>().map(|a| a.to_vec()).unwrap_or_default();
        answer(&bytes, &mut |reply: Vec<u8>| {
            let message = js_sys::Uint8Array::from(reply.as_slice());
            if let Err(err) = reply_to.post_message(&message) {
                web_sys::console::error_2(&format!("{name}: cannot post the reply:").into(), &err);
            }
        });
        let answered = WorkerSignal::Answered { memory_bytes: memory_bytes(), start_memory_bytes };
        if let Err(err) = reply_to.post_message(&JsValue::from_str(&answered.to_text())) {
            web_sys::console::error_2(&format!("{name}: cannot post its signal:").into(), &err);
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker does.
    on_message.forget();
    scope.post_message(&JsValue::from_str(&WorkerSignal::Ready.to_text()))
}

/// The byte length of this module's wasm linear memory (0 if it cannot be read).
fn memory_bytes() -> u64 {
    wasm_bindgen::memory()
        .dyn_into::<js_sys::WebAssembly::Memory>()
        .ok()
        .and_then(|memory| memory.buffer().dyn_into::<js_sys::ArrayBuffer>().ok())
        .map_or(0, |buffer| u64::from(buffer.byte_length()))
}
