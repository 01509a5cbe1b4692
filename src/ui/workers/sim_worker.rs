//! The main thread's handle on the simulation Web Workers: [`ModuleWorker`]s on the simulator's
//! loader that take [`Job`]s, started as a pool (one per core, see [`crate::ui::workers::pool::pool_size`]).

use crate::ui::workers::pool::{spawn_pool, ModuleWorker, Reply};
use crate::protocol::sim::{encode_job, Job};

/// The worker's entry script, relative to the page. Trunk names a worker's files after its bin
/// and never hashes them, so the name is fixed: the loader shim (`import init from
/// './sim_worker.js'; await init();`) makes it a module worker.
const LOADER_URL: &str = "./sim_worker_loader.js";

/// A running simulation worker. Dropping the handle terminates the worker.
pub struct SimWorker(ModuleWorker);

impl SimWorker {
    /// Starts up to `n` workers, each calling its own `handler()` with each reply, or with an `Err`
    /// once if it fails to load or crashes; fails with why if not even one can be created.
    pub fn spawn_pool<F: Fn(Reply) + 'static>(
        n: usize,
        handler: impl Fn() -> F,
    ) -> Result<Vec<SimWorker>, String> {
        Ok(spawn_pool(LOADER_URL, n, handler)?.into_iter().map(SimWorker).collect())
    }

    /// Sends one job; queued until the worker is ready, the failure once it has failed.
    pub fn post(&self, job: &Job) -> Result<(), String> {
        self.0.post(encode_job(job))
    }
}
