//! Web Workers from the main thread: each worker bin's module compiled once, the module-worker handle, the one worker pool type, and the
//! simulator's and search's runners over it.

pub(crate) mod ahead;
pub(crate) mod compiled;
pub(crate) mod pool;
pub(crate) mod search_runner;
pub(crate) mod sim_flight;
pub(crate) mod sim_runner;
pub(crate) mod start;
pub(crate) mod worker_pool;
