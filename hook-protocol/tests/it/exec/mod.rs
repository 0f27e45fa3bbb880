//! Execution with real processes.

mod contain;
mod errors;
mod outcomes;
mod secrets;
mod stress;
mod support;
mod tree;
