//! The `trace` URL key.
