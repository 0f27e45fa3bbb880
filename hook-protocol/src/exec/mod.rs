//! Execution: the only place in the workspace that starts a process.
//!
//! [`run`] runs one [`Invocation`] and returns its [`RawOutcome`](crate::RawOutcome), with a
//! timeout as a value ([`crate::Exit::TimedOut`]), never as an error. Errors are kept for what
//! prevents a run: a program that cannot be started, a working directory that does not exist,
//! a zero timeout.
//!
//! # The algorithm
//!
//! 1. **Spawn.** Shell form runs `/bin/sh -c LINE`; exec form runs the program with its
//!    arguments, no shell (a bare name is searched on the `PATH` of the invocation's
//!    environment, a relative path is taken from its working directory; a program without a
//!    `#!` line runs as `/bin/sh PATH ARGS...`, as `execvp` runs it). The environment is
//!    exactly the invocation's [`Env`], plus [`RUN_MARKER`]`=<our pid>.<counter>`, unique to
//!    the run, less the inherited credentials a [`Scrub`] names when one is set
//!    ([`Env::scrub_credentials`]). The hook leads a new process group; stdin, stdout and
//!    stderr are pipes; it starts with an empty signal mask and the usual signals (SIGPIPE,
//!    SIGTERM, SIGINT, ...) at their default disposition, even where the harness ignores them.
//!    It is started with `posix_spawn` (no `fork` of the harness), with the environment packed
//!    once per run. The payload goes on stdin only, never in the arguments.
//! 2. **Write stdin.** What fits the pipe buffer (64 KiB on Linux) is written at once with a
//!    non-blocking write, and stdin is closed; a larger payload is written as the hook reads it,
//!    from the same task. A hook that never reads, or exits first, is not an error: the outcome
//!    records [`StdinOutcome::Unread`](crate::StdinOutcome::Unread) with the bytes written.
//!    Without a payload, stdin is `/dev/null`.
//! 3. **Drain and wait.** One task pumps the three pipes (non-blocking, registered with the
//!    reactor) and watches the leader's exit through a pidfd, until the leader exits or the
//!    deadline passes. Output is kept up to its cap and read and counted past it, so a hook
//!    printing a gigabyte costs bounded memory and never blocks on a full pipe. An invocation's
//!    [`LineTap`] is told the first line of stdout as soon as it is complete.
//! 4. **Exit.** The leader exited: stdout and stderr get `leak_window` to reach end of file;
//!    past it reading stops and the outcome records `leaked` (a background process kept a
//!    pipe). The end of the run never waits on a pipe beyond that. What the hook left running
//!    is left alone ([`Leftovers::Leave`], the default: hooks start daemons on purpose) or
//!    SIGKILLed ([`Leftovers::Kill`], recorded as `leftovers_killed`).
//! 5. **Timeout.** The deadline passed: SIGTERM (then SIGCONT, for stopped members) to the
//!    hook's whole tree, `grace` during which output is still drained, then SIGKILL to what is
//!    left (`escalated`), then `leak_window` for the pipes. A run returns by
//!    `timeout + grace + leak_window` plus the time a few `/proc` scans take.
//!
//! The **tree** of a hook is its process group, every process whose parent chain leads to the
//! hook, and every process of our user whose initial environment carries the run's marker: a
//! descendant that left the group with `setsid` and whose parent died is reparented to init,
//! and only the inherited marker still ties it to the hook. `/proc` is scanned only when
//! killing, never on the normal path; each process found is signalled through a pidfd after
//! checking that its pid still names the process the scan saw. A process that clears its
//! environment and leaves both the group and the parent chain escapes; none of Claude Code's
//! hooks do that.
//!
//! # Invariants
//!
//! - The hook's process group is signalled only while its leader is not reaped, so the group
//!   id cannot have been reused: the leader's exit is noticed through a pidfd (or
//!   `waitid(WNOWAIT)` polled with a backoff, where pidfds are unavailable), which leaves the
//!   zombie in place, and the leader is reaped after the last signal.
//! - Every process started is reaped: by the run, or, when the future is dropped, by the drop
//!   (which first SIGKILLs the whole tree), or by a short-lived thread when the leader takes
//!   longer to die than a drop should block.
//! - Memory per run is bounded by the two caps plus one 64 KiB scratch buffer.
//! - No thread hop, no `spawn_blocking`, no extra task on the normal path: the work of a run
//!   happens in the task that awaits it.
//!
//! # Platforms
//!
//! Unix only; the whole tree is found on Linux (`/proc`, pidfds), elsewhere the tree is the
//! process group. Windows is not supported yet ([`run`] does not exist there). Writes to a
//! closed stdin rely on SIGPIPE being ignored, as std's runtime arranges for Rust programs.

#[cfg(unix)]
mod cgroup;
mod containment;
#[cfg(unix)]
mod cstrings;
mod invocation;
#[cfg(unix)]
mod leader;
#[cfg(unix)]
mod pipes;
#[cfg(unix)]
mod run;
#[cfg(unix)]
mod running;
#[cfg(unix)]
mod spawn;
#[cfg(unix)]
mod supervisor;
#[cfg(unix)]
mod sys;
#[cfg(unix)]
mod tree;

pub use containment::{
    ContainError, Containment, ContainmentStatus, Limit, Mechanism, ResourceLimits,
};
#[cfg(unix)]
pub use containment::{contain, containment};
#[cfg(unix)]
pub use running::kill_running;

pub use invocation::{
    CommandSpec, Env, ExecError, Invocation, Leftovers, Limits, LineTap, Scrub, TimeoutError,
    timeout_from_secs,
};
#[cfg(unix)]
pub use run::run;

/// The environment variable that marks every process of one run, set to `<pid>.<counter>`
/// (the harness's pid and a per-process counter).
///
/// Descendants inherit it, which is how a timed-out hook's `setsid` daemons are found and
/// killed after their parent died. A hook may read it as an identifier of its run.
pub const RUN_MARKER: &str = "HOOK_PROTOCOL_RUN";
