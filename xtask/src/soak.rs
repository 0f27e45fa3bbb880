//! `cargo xtask soak`: the load and leak tests of the process runner and of the Claude engine
//! (not part of `ci`).
//!
//! Builds and runs `hook-protocol`'s `soak` example in release mode: 10,000 invocations, 64 in
//! flight, mixing well-behaved, slow, timing-out, flooding and crashing hooks, then checks for
//! zombies, file descriptors, resident memory and that every invocation is accounted for.
//! `--runs N` and `--in-flight N` change the load. Then `hooks-claude`'s `soak_engine`
//! example: 100,000 PreToolUse events through one engine, 16 in flight, with the heap's
//! growth, resident memory, descriptors and children checked and the memory per event printed;
//! `--events N` and `--events-in-flight N` change it.

use crate::util::{Result, cargo, run as step};

/// `cargo xtask soak` entry point.
pub(crate) fn run(args: &[String]) -> Result {
    let mut runner = cargo();
    runner.args(["run", "--release", "--locked", "-p", "hook-protocol", "--example", "soak"]);
    let mut engine = cargo();
    engine.args(["run", "--release", "--locked", "-p", "hooks-claude", "--example", "soak_engine"]);
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let (cmd, var) = match arg.as_str() {
            "--runs" => (&mut runner, "SOAK_RUNS"),
            "--in-flight" => (&mut runner, "SOAK_IN_FLIGHT"),
            "--events" => (&mut engine, "SOAK_EVENTS"),
            "--events-in-flight" => (&mut engine, "SOAK_EVENTS_IN_FLIGHT"),
            other => return Err(format!("unknown `soak` argument `{other}`").into()),
        };
        let value = args.next().ok_or_else(|| format!("`{arg}` needs a number"))?;
        if !value.parse::<usize>().is_ok_and(|n| n > 0) {
            return Err(format!("`{arg}` takes a positive whole number, got `{value}`").into());
        }
        cmd.env(var, value);
    }
    step("soak (release): the process runner", &mut runner)?;
    step("soak (release): the Claude engine", &mut engine)
}
