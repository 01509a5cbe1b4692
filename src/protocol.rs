//! The messages between the wasm modules and workers, each a closed set of enums, postcard-encoded
//! (pure and native-testable; both sides of each channel import these files).

pub mod codec; // the postcard bytes every channel carries
pub mod panel; // page <-> lazy bodies (the second wasm module)
pub mod search; // page <-> configuration search workers
pub mod sim; // page <-> simulator workers
