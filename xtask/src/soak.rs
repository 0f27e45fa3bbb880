//! `cargo xtask soak`: the load and leak test of the process runner (not part of `ci`).
//!
//! Builds and runs `hook-protocol`'s `soak` example in release mode: 10,000 invocations, 64 in
//! flight, mixing well-behaved, slow, timing-out, flooding and crashing hooks, then checks for
//! zombies, file descriptors, resident memory and that every invocation is accounted for.
//! `--runs N` and `--in-flight N` change the load.

use crate::util::{Result, cargo, run as step};

/// `cargo xtask soak` entry point.
pub(crate) fn run(args: &[String]) -> Result {
    let mut cmd = cargo();
    cmd.args(["run", "--release", "--locked", "-p", "hook-protocol", "--example", "soak"]);
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let var = match arg.as_str() {
            "--runs" => "SOAK_RUNS",
            "--in-flight" => "SOAK_IN_FLIGHT",
            other => return Err(format!("unknown `soak` argument `{other}`").into()),
        };
        let value = args.next().ok_or_else(|| format!("`{arg}` needs a number"))?;
        if !value.parse::<usize>().is_ok_and(|n| n > 0) {
            return Err(format!("`{arg}` takes a positive whole number, got `{value}`").into());
        }
        cmd.env(var, value);
    }
    step("soak (release)", &mut cmd)
}
