//! The process engine of the hooks workspace: the only place that starts a process.
//!
//! The protocol model (`hook-protocol`) never starts one; the dialects that run commands
//! (`hooks-claude`, `hooks-tnsai`) build an [`Invocation`] and call [`run`], and read the
//! [`RawOutcome`](hook_protocol::RawOutcome) it returns with the model's codec. `hooks-native`,
//! whose hooks are Rust functions, does not depend on this crate. `GUIDE.md`, beside this
//! crate's sources, is the short list of its invariants and pitfalls for whoever changes it.
//!
//! [`run`] runs one [`Invocation`] and returns its [`RawOutcome`](hook_protocol::RawOutcome), with a
//! timeout as a value ([`Exit::TimedOut`](hook_protocol::Exit::TimedOut)), never as an error. Errors are kept for what
//! prevents a run: a program that cannot be started, a working directory that does not exist,
//! a zero timeout.
//!
//! # The algorithm
//!
//! 1. **Spawn.** Shell form runs `/bin/sh -c LINE`; exec form runs the program with its
//!    arguments, no shell (a bare name is searched on the `PATH` of the invocation's
//!    environment, a relative path is taken from its working directory; a program without a
//!    `#!` line runs as `/bin/sh PATH ARGS...`, as `execvp` runs it). The environment is
//!    exactly the invocation's [`Env`] (no variable of ours), less the inherited credentials a [`Scrub`](hook_protocol::Scrub) names when one is set
//!    ([`Env::scrub_credentials`]). The hook leads a new process group; stdin, stdout and
//!    stderr are pipes; it starts with an empty signal mask and the usual signals (SIGPIPE,
//!    SIGTERM, SIGINT, ...) at their default disposition, even where the harness ignores them,
//!    and with no descriptor but those three, whatever the harness (or the harness's parent)
//!    left open without close-on-exec. With cgroup containment it starts in a cgroup of its own
//!    (see [Containment](#containment)). It is started with a `vfork`-style `clone3` (Linux;
//!    `posix_spawn` on macOS; never a `fork` of the harness), with the environment packed once
//!    per run. The payload goes on stdin only, never in the arguments.
//! 2. **Write stdin.** What fits the pipe buffer (64 KiB on Linux) is written at once with a
//!    non-blocking write, and stdin is closed; a larger payload is written as the hook reads it,
//!    from the same task. A hook that never reads, or exits first, is not an error: the outcome
//!    records [`StdinOutcome::Unread`](hook_protocol::StdinOutcome::Unread) with the bytes written.
//!    Without a payload, stdin is `/dev/null`.
//! 3. **Drain and wait.** One task pumps the three pipes (non-blocking, registered with the
//!    reactor) and watches the leader's exit through a pidfd, until the leader exits or the
//!    deadline passes. Output is kept up to its cap and read and counted past it, so a hook
//!    printing a gigabyte costs bounded memory and never stays blocked on a full pipe. On
//!    Linux a run's output wakes the task only after its first 5 ms (until then only the
//!    pipes' end of file and the leader's exit do, and what a quick hook printed is read at
//!    its end: one wake-up per run); a hook that fills a pipe sooner waits that long to be
//!    drained. An invocation's [`LineTap`] is told the first line of stdout once it is read.
//! 4. **Exit.** The leader exited: stdout and stderr get `leak_window` to reach end of file;
//!    past it reading stops and the outcome records `leaked` (a background process kept a
//!    pipe). The end of the run never waits on a pipe beyond that. What the hook left running
//!    is left alone ([`Leftovers::Leave`], the default: hooks start daemons on purpose; in its
//!    cgroup, counted in the outcome's `leftovers`) or SIGKILLed ([`Leftovers::Kill`],
//!    recorded as `leftovers_killed`).
//! 5. **Timeout.** The deadline passed: SIGTERM (then SIGCONT, for stopped members) to the
//!    hook's whole tree, `grace` during which output is still drained, then SIGKILL to what is
//!    left (`escalated`; `cgroup.kill` with a cgroup), then `leak_window` for the pipes. A run
//!    returns by `timeout + grace + leak_window` plus the time a few `/proc` scans take.
//!
//! # Containment
//!
//! What "the hook's whole tree" is depends on the mechanism, chosen once per harness with
//! [`contain`] (or [`Containment::auto`] by default) and reported by [`containment`] and in
//! every outcome's `containment` ([`Mechanism`](hook_protocol::Mechanism)):
//!
//! - **cgroup** (Linux, where a cgroup v2 directory is writable: root, a delegated subtree, a
//!   systemd user session). Every hook runs in a cgroup of its own under `hooks-<pid>-<start>`
//!   in the harness's own cgroup, or in the parent the harness configures ([`Containment::under`]).
//!   The kernel creates the hook's process in it (`clone3` with `CLONE_INTO_CGROUP`), so
//!   nothing of the hook ever runs outside it, and nothing it starts can leave it (short of
//!   root writing itself into another cgroup): a double fork, `setsid` and a cleared
//!   environment all stay inside. The cgroup is signalled member by member (SIGTERM, through
//!   pidfds, after a membership check) and ended with `cgroup.kill`. A cgroup is removed once it
//!   is empty; one that served a normal run without limits and emptied serves a later run
//!   instead (making and removing cgroups costs more than the rest of the containment). The
//!   harness's own cgroup is left as it is, except that a controller a limit needs is enabled in
//!   its `cgroup.subtree_control` when the kernel allows it (the root cgroup, or one that holds
//!   no process: cgroup v2's "no internal processes" rule); no process of the harness is moved.
//!   [`ResourceLimits`] (`pids.max`, `memory.max`, `cpu.weight`) go into the hook's cgroup, or,
//!   on a host that keeps a controller on cgroup v1 ("hybrid"), into a v1 cgroup of the same
//!   name that the child joins before it runs; the outcome's `limit` says which one stopped
//!   the hook.
//! - **tree walk** (elsewhere, or turned off: [`Containment::off`], [`Invocation::cgroup`]).
//!   The tree of a hook is its process group, every process whose parent chain leads to the
//!   hook, and every process of our user that carries the run's mark: a descendant that left
//!   the group with `setsid` and whose parent died is reparented to init, and only the
//!   inherited mark still ties it to the hook. The mark is a resource limit every process
//!   inherits, not a variable or a descriptor the hook could see: its soft `RLIMIT_RTTIME`,
//!   set to a number unique to the run above 2^62 microseconds (it bounds only real-time
//!   scheduled processes, and none would reach it; a hook sees it as `ulimit -R`). `/proc` is
//!   scanned only when killing, never on the normal path; each process found is signalled
//!   through a pidfd after checking that its pid still names the process the scan saw. **A
//!   process that changes that limit and leaves both the group and the parent chain escapes**
//!   (none of the agents' hooks do that), and no limit applies. macOS has no such limit: its
//!   runs carry no mark.
//!
//! A configured parent that cannot be used, a cgroup that cannot be made or joined, a limit
//! the kernel refuses, a cgroup that does not empty after `cgroup.kill`: each is an error of
//! [`contain`] or a warning of the run's outcome (`containment_warnings`) naming the path and
//! the value; the hook then runs with the tree walk (or, for a refused limit, in its cgroup
//! without that limit), never not at all.
//!
//! # The harness's own death
//!
//! Hooks lead process groups of their own, so a terminal's Ctrl-C or a `kill` of the harness's
//! group does not reach them, not even one that is being started at that moment (a signal sent
//! to the harness's group before it has its own is discarded before it runs). A harness that is told to stop calls [`kill_running`] before it
//! exits (the `hooks` command does on SIGINT, SIGTERM and SIGHUP). A harness killed outright
//! (SIGKILL, a crash) cannot: a supervisor, a small `/bin/sh` process started with the
//! containment (in a session of its own, holding nothing of the harness but one end of a
//! socket), sees the harness go and kills what was running (`cgroup.kill` of every cgroup but
//! those holding what a hook left running after a normal exit, SIGKILL to the process group of
//! tree-walk runs), then removes the cgroups as they empty. A supervisor that dies all the
//! same (killed by someone) is replaced by another, told what it knew, within a second of the
//! next run (a `hooks` tracing warning says so). A parent-death signal is no
//! substitute: on a multi-thread runtime the kernel sends it when the spawning *thread* exits,
//! and only to the hook's leader. [`Containment::supervisor`] turns the supervisor off.
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
//! Linux and macOS (10.15 or newer: a hook starts in its working directory through
//! `posix_spawn_file_actions_addchdir_np`; 11 on Apple silicon). On Linux the tree is found in
//! `/proc` (the group, parent links and the run's mark) and signalled through pidfds; on macOS
//! it is found with `proc_listallpids` and `proc_pidinfo` (the group and parent links: no mark,
//! so a descendant that left the group and lost its parent escapes, as can a fast
//! fork-and-exit), and a pid is signalled right after its start time is checked. Elsewhere the
//! tree is the process group. A process table that cannot be read is a warning of the run
//! (`containment_warnings`): the group is killed, and nothing else is looked for. Cgroups are
//! Linux only. `CLONE_INTO_CGROUP` is used on x86-64 (Linux 5.7
//! and later); elsewhere, and with `HOOK_PROTOCOL_CLONE3=0` in the environment (for tests), the
//! child joins its cgroup by writing itself into `cgroup.procs` before it runs anything (as
//! race-free, but a cgroup migration costs a few hundred microseconds). `cgroup.kill` needs
//! Linux 5.14. Windows is not supported yet ([`run`] does not exist there). Writes to a closed
//! stdin rely on SIGPIPE being ignored, as std's runtime arranges for Rust programs.

#[cfg(unix)]
mod cgroup;
mod changes;
mod containment;
#[cfg(unix)]
mod cstrings;
#[cfg(unix)]
mod group_table;
#[cfg(unix)]
mod in_flight;
mod invocation;
#[cfg(unix)]
mod leader;
#[cfg(unix)]
mod pipes;
mod resource_limits;
#[cfg(unix)]
mod run;
mod run_group;
#[cfg(unix)]
mod spare_pipes;
#[cfg(unix)]
mod spawn;
#[cfg(unix)]
mod supervisor;
#[cfg(unix)]
mod sys;
#[cfg(unix)]
mod tree;

pub use containment::{ContainError, Containment, ContainmentStatus};
#[cfg(unix)]
pub use containment::{contain, containment};
#[cfg(unix)]
pub use in_flight::kill_running;
pub use resource_limits::ResourceLimits;
pub use run_group::RunGroup;

pub use invocation::{
    CommandSpec, Env, ExecError, Invocation, Leftovers, LineTap, RunLimits, TimeoutError,
    timeout_from_secs,
};
#[cfg(unix)]
pub use run::run;
