//! Web Workers from the main thread: the module-worker handle and pool, and the simulator's and search's runners over them.

pub(crate) mod pool;
pub(crate) mod search_runner;
pub(crate) mod sim_flight;
pub(crate) mod sim_runner;
pub(crate) mod sim_worker;
