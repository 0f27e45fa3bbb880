//! Execution with real processes.

mod errors;
mod outcomes;
mod secrets;
mod stress;
mod support;
mod tree;
