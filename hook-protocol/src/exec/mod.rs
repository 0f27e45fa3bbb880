//! Execution: the only place in the workspace that starts a process.
//!
//! [`run`] runs one [`Invocation`] and returns its [`RawOutcome`](crate::RawOutcome), with a timeout as a value
//! ([`crate::Exit::TimedOut`]), never as an error. Errors are kept for what prevents a run:
//! a program that cannot be started, a working directory that does not exist, a zero timeout.

mod invocation;
mod run;

pub use invocation::{
    CommandSpec, Env, ExecError, Invocation, Leftovers, Limits, TimeoutError, timeout_from_secs,
};
pub use run::run;
