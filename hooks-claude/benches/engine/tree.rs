//! The `tree` table: the one-hook cells again with the tree walk, the containment a harness
//! gets where it cannot make cgroups (its cgroup is not writable to it, as in many containers
//! and SSH sessions).
//!
//! The containment is chosen once per process, so when this process has cgroups the table
//! runs in a second one: this bench again, with `ENGINE_BENCH_CONTAIN=off` and
//! `ENGINE_BENCH_ONLY=tree`, which prints the rows alone and says by its exit status whether
//! their targets held.

use std::process::{Command, Stdio};
use std::sync::Arc;

use crate::setup::Form;
use crate::{Cell, Ctx, ONE_HOOK_CPU, SEQUENTIAL_RATIO, fail, header, measure, row};

/// The exit status of a nested run whose rows missed a target.
const MISSED: i32 = 3;
/// Set in the nested run's environment.
const NESTED: &str = "ENGINE_BENCH_NESTED";

/// Whether this process is the nested run of the table.
pub(crate) fn nested() -> bool {
    std::env::var_os(NESTED).is_some()
}

/// The rows, measured in this process (which runs the tree walk).
pub(crate) fn rows(ctx: &Arc<Ctx>) -> bool {
    header("tree walk (no cgroups) vs raw floor");
    let mut met = true;
    for form in [Form::Shell, Form::Direct] {
        let cell = Cell { form, hooks: 1, concurrent: false };
        let f = measure(ctx, cell);
        met &= row(cell, &f, Some(SEQUENTIAL_RATIO), Some(ONE_HOOK_CPU));
    }
    met
}

/// Exits the nested run, saying whether its targets held.
pub(crate) fn exit_nested(met: bool) -> ! {
    std::process::exit(if met { 0 } else { MISSED })
}

/// Runs the table in a second process with the tree walk; whether its targets held.
pub(crate) fn run_nested() -> bool {
    crate::enter("tree walk (a second process)");
    let exe = std::env::current_exe()
        .unwrap_or_else(|e| fail(&format!("cannot find this bench's program: {e}")));
    #[expect(clippy::disallowed_methods, reason = "the bench runs itself with the tree walk")]
    let status = Command::new(&exe)
        .args(std::env::args_os().skip(1))
        .env("ENGINE_BENCH_CONTAIN", "off")
        .env("ENGINE_BENCH_ONLY", "tree")
        .env(NESTED, "1")
        .stdin(Stdio::null())
        .status()
        .unwrap_or_else(|e| {
            fail(&format!("cannot run `{}` for the tree walk: {e}", exe.display()))
        });
    match status.code() {
        Some(0) => true,
        Some(MISSED) => false,
        _ => fail(&format!("the tree-walk run failed: {status}")),
    }
}
