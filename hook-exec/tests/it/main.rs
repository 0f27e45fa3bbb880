//! Integration tests of `hook-exec`: runs with real processes, one module per area.

mod contain;
mod errors;
mod outcomes;
mod secrets;
mod stress;
mod support;
mod tree;
