//! Running one invocation: the phases of [`run`].

use std::os::unix::process::ExitStatusExt;
use std::pin::Pin;
use std::process::ExitStatus;
use std::task::Poll;
use std::time::{Duration, Instant};

use tokio::time::Sleep;

use super::leader::Leader;
use super::pipes::Pipes;
use super::{ExecError, Invocation, Leftovers, containment, spawn};
use hook_protocol::{Exit, Mechanism, RawOutcome};

/// How long a run goes before its output wakes the runner: a hook that ends sooner is read
/// once, at its end ([`Pipes::watch_output`]).
const WATCH_AFTER: Duration = Duration::from_millis(5);
/// How often a quiet grace period checks whether the tree is gone.
const GRACE_TICK: Duration = Duration::from_millis(10);
/// The longest wait for a SIGKILLed leader to become a zombie before leaving it to a reaper.
const DEATH_BOUND: Duration = Duration::from_secs(1);

/// Runs one invocation to its end and returns what it produced.
///
/// See the [module documentation](super) for the algorithm and its guarantees.
///
/// # Errors
///
/// [`ExecError::ZeroTimeout`] for a zero timeout; [`ExecError::NotFound`] or
/// [`ExecError::PermissionDenied`] when the exec-form program cannot be found or run;
/// [`ExecError::MissingCwd`] when the working directory does not exist; [`ExecError::Spawn`]
/// for other failures to start; [`ExecError::Io`] when the pipes cannot be set up or the exit
/// status cannot be collected. A timeout, a signal, a leak are outcomes, not errors.
///
/// # Panics
///
/// Outside a Tokio runtime with its I/O and time drivers enabled (as `tokio::process` would).
///
/// # Cancel safety
///
/// Dropping the future kills everything the run started (the hook's whole tree, as on timeout
/// but with SIGKILL at once) and reaps the hook; the output read so far is lost.
pub async fn run(inv: &Invocation) -> Result<RawOutcome, ExecError> {
    if inv.timeout.is_zero() {
        return Err(ExecError::ZeroTimeout { timeout: inv.timeout });
    }
    let started = Instant::now();
    let id = spawn::next_id();
    let state = containment::state();
    let mut warnings = Vec::new();
    let mut cgroup = state.prepare(id, inv.resources, inv.cgroup, &mut warnings);
    let join = cgroup.as_ref().map(|cg| cg.join()).unwrap_or_default();
    let place = spawn::Place { cgroup: cgroup.as_ref().map(|cg| cg.dir_fd()), join: &join };
    let spawned = spawn::spawn(inv, id, place);
    drop(join);
    let spawned = match spawned {
        Ok(spawned) => spawned,
        Err(e) => {
            if let Some(cg) = cgroup {
                cg.retire(true);
            }
            return Err(e);
        }
    };
    if let Some(cg) = &cgroup {
        match cg.joined(&spawned.join_errors) {
            Ok(more) => warnings.extend(more),
            Err(why) => {
                warnings.push(why);
                if let Some(cg) = cgroup.take() {
                    cg.retire(false);
                }
            }
        }
    }
    // From here on, an early return drops `leader`, which kills the tree.
    let mut leader = Leader::new(spawned.pid, spawned.pidfd, id, inv.group, spawned.mark, cgroup);
    let limits = &inv.limits;
    let pipes_error = |source| ExecError::Io { stage: "setting up the hook's pipes", source };
    let mut pipes = Pipes::new(
        spawned.stdin,
        spawned.stdin_written,
        spawned.stdout,
        spawned.stderr,
        &inv.stdin,
        limits.stdout_max,
        limits.stderr_max,
        leader.wakes_on_exit(),
    )
    .map_err(pipes_error)?;
    pipes.tap = inv.first_line.clone();
    let deadline = tokio::time::Instant::from_std(started + inv.timeout);
    // The timer first ends the watching delay, when it ends before the deadline; then the run.
    let watch_at = tokio::time::Instant::now() + WATCH_AFTER;
    let mut watch_pending = !pipes.watches_output() && watch_at < deadline;
    let timer = tokio::time::sleep_until(if watch_pending { watch_at } else { deadline });
    tokio::pin!(timer);

    let mut leaked = false;
    let mut leftovers_killed = false;
    let mut core_dumped = false;
    let mut leftovers = None;
    let woke = loop {
        match wait(&mut pipes, &mut leader, timer.as_mut(), Until::Exit).await {
            // Still running after the watching delay: its output wakes us from now on.
            Woke::Timer if watch_pending => {
                watch_pending = false;
                pipes.watch_output().map_err(pipes_error)?;
                timer.as_mut().reset(deadline);
            }
            woke => break woke,
        }
    };
    let exit = match woke {
        Woke::Done => {
            // Exited normally: read what it left in the pipes whose output was not watched yet
            // (usually everything, and both ends of file), then give whatever it left holding
            // them a short window (the usual case does not touch the timer).
            pipes.read_unwatched();
            if !pipes.outputs_closed() {
                pipes.watch_output().map_err(pipes_error)?;
                timer.as_mut().reset(tokio::time::Instant::now() + limits.leak_window);
                leaked = wait(&mut pipes, &mut leader, timer.as_mut(), Until::Closed).await
                    == Woke::Timer;
            }
            // The leader is a zombie by now, which its cgroup no longer lists.
            leftovers = leader.cgroup().map(|cg| count(cg.members().len()));
            if inv.leftovers == Leftovers::Kill {
                let (swept, emptied) = leader.kill_tree().await;
                leftovers_killed = swept.others > 0;
                leftovers = Some(count(swept.others));
                warnings.extend(emptied.err());
            } else if leftovers == Some(0) {
                leader.left_nothing();
            }
            let status = leader.reap().map_err(reap_error)?;
            core_dumped = status.core_dumped();
            exit_of(status)
        }
        Woke::Timer => {
            pipes.watch_output().map_err(pipes_error)?;
            let (escalated, killed_others, still_open) =
                terminate(&mut pipes, &mut leader, timer.as_mut(), inv, &mut warnings).await;
            leaked = still_open;
            leftovers_killed = killed_others;
            if tokio::time::timeout(DEATH_BOUND, leader.exited()).await.is_ok() {
                leader.reap().map_err(reap_error)?;
            }
            Exit::TimedOut { escalated }
        }
    };
    let stdin = pipes.stdin_outcome();
    let pid = leader.pid();
    let containment =
        if leader.cgroup().is_some() { Mechanism::Cgroup } else { Mechanism::TreeWalk };
    let limit = leader.cgroup().and_then(|cg| cg.limit_hit());
    drop(leader);
    let (stdout, stdout_len, stdout_truncated) = pipes.out.finish();
    let (stderr, stderr_len, stderr_truncated) = pipes.err.finish();
    let mut outcome = RawOutcome::new(exit, stdout, stderr);
    outcome.stdout_len = stdout_len;
    outcome.stderr_len = stderr_len;
    outcome.stdout_truncated = stdout_truncated;
    outcome.stderr_truncated = stderr_truncated;
    outcome.leaked = leaked;
    outcome.leftovers_killed = leftovers_killed;
    outcome.containment = containment;
    outcome.leftovers = leftovers;
    outcome.limit = limit;
    outcome.containment_warnings = warnings;
    outcome.stdin = stdin;
    outcome.core_dumped = core_dumped;
    outcome.duration = started.elapsed();
    outcome.pid = pid;
    Ok(outcome)
}

/// The timeout path: SIGTERM to the tree, the grace (still draining), SIGKILL to what is left,
/// then a leak window for the pipes. Returns (escalated, whether processes besides the leader
/// were signalled, whether a pipe was still open at the end).
async fn terminate(
    pipes: &mut Pipes,
    leader: &mut Leader,
    mut timer: Pin<&mut Sleep>,
    inv: &Invocation,
    warnings: &mut Vec<String>,
) -> (bool, bool, bool) {
    let term = leader.signal_tree(libc::SIGTERM);
    let grace_end = tokio::time::Instant::now() + inv.limits.grace;
    timer.as_mut().reset(grace_end);
    let mut gone = false;
    if wait(pipes, leader, timer.as_mut(), Until::ExitAndClosed).await == Woke::Done {
        // The leader is gone and the pipes are closed; descendants that hold neither may
        // still be running: check until they are gone or the grace is over.
        loop {
            if !leader.tree_alive() {
                gone = true;
                break;
            }
            let now = tokio::time::Instant::now();
            if now >= grace_end {
                break;
            }
            tokio::time::sleep_until(grace_end.min(now + GRACE_TICK)).await;
        }
    }
    let mut escalated = false;
    let mut others = term.others > 0;
    if !gone {
        let (kill, emptied) = leader.kill_tree().await;
        escalated = kill.any();
        others |= kill.others > 0;
        warnings.extend(emptied.err());
    }
    timer.as_mut().reset(tokio::time::Instant::now() + inv.limits.leak_window);
    let still_open = wait(pipes, leader, timer, Until::Closed).await == Woke::Timer;
    (escalated, others, still_open)
}

/// What ends a wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Until {
    /// The leader exits.
    Exit,
    /// Stdout and stderr reach end of file.
    Closed,
    /// Both.
    ExitAndClosed,
}

/// How a wait ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Woke {
    /// The condition was met.
    Done,
    /// The timer fired first.
    Timer,
}

/// Pumps the pipes until `until` holds or the timer fires, whichever comes first; a condition
/// met in the same wake-up as the timer wins.
async fn wait(
    pipes: &mut Pipes,
    leader: &mut Leader,
    mut timer: Pin<&mut Sleep>,
    until: Until,
) -> Woke {
    std::future::poll_fn(|cx| {
        let closed = pipes.pump(cx);
        let done = match until {
            Until::Exit if closed => leader.poll_exited_now(cx).is_ready(),
            Until::Exit => leader.poll_exited(cx).is_ready(),
            Until::Closed => closed,
            Until::ExitAndClosed => leader.poll_exited(cx).is_ready() && closed,
        };
        if done {
            Poll::Ready(Woke::Done)
        } else if timer.as_mut().poll(cx).is_ready() {
            Poll::Ready(Woke::Timer)
        } else {
            Poll::Pending
        }
    })
    .await
}

fn exit_of(status: ExitStatus) -> Exit {
    match (status.code(), status.signal()) {
        (Some(code), _) => Exit::Code { code },
        (None, Some(signal)) => Exit::Signal { signal },
        // Stopped or continued: not an end; reaping never reports those.
        (None, None) => Exit::Code { code: -1 },
    }
}

/// A process count for the record.
fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn reap_error(source: std::io::Error) -> ExecError {
    ExecError::Io { stage: "collecting the hook's exit status", source }
}
