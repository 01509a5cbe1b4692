//! The main thread's handle on the simulation Web Worker: a [`ModuleWorker`] on the simulator's
//! loader that sends [`Request`]s.

use super::worker::{ModuleWorker, Reply};
use crate::sim_protocol::{encode_request, Request};

/// The worker's entry script, relative to the page. Trunk names a worker's files after its bin
/// and never hashes them, so the name is fixed: the loader shim (`import init from
/// './sim_worker.js'; await init();`) makes it a module worker.
const LOADER_URL: &str = "./sim_worker_loader.js";

/// A running simulation worker. Dropping the handle terminates the worker.
pub struct SimWorker(ModuleWorker);

impl SimWorker {
    /// Creates the worker and calls `on_reply` with each reply, or with an `Err` once if the
    /// worker fails to load or crashes.
    pub fn spawn(on_reply: impl Fn(Reply) + 'static) -> Result<SimWorker, String> {
        ModuleWorker::spawn(LOADER_URL, on_reply).map(SimWorker)
    }

    /// Sends one request; queued until the worker is ready, the failure once it has failed.
    pub fn post(&self, request: &Request) -> Result<(), String> {
        self.0.post(encode_request(request))
    }
}
