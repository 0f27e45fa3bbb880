//! Execution with real processes.

mod errors;
mod outcomes;
mod stress;
mod support;
mod tree;
