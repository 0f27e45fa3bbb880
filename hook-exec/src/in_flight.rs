//! The hooks running in this process, for [`kill_running`].
//!
//! A run is listed from its spawn until its leader is reaped; the entry is removed and the
//! leader reaped under one lock, which [`kill_running`] holds while it signals, so that a
//! process group is never signalled after its leader was reaped (when its id could have been
//! reused).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::cgroup::RunCgroup;
use super::tree;

/// One running hook.
#[derive(Debug)]
struct Entry {
    /// The [`RunGroup`](crate::RunGroup) it runs in; 0 for none.
    group: u64,
    leader: i32,
    mark: u64,
    cgroup: Option<Arc<RunCgroup>>,
}

impl Entry {
    fn signal(&self, signal: i32) {
        match &self.cgroup {
            Some(cg) => {
                cg.signal(signal);
                if signal == libc::SIGTERM {
                    cg.signal(libc::SIGCONT);
                }
            }
            None => {
                tree::sweep(self.leader, self.mark, signal);
            }
        }
    }

    fn kill(&self) {
        match &self.cgroup {
            Some(cg) => {
                let _ = cg.kill();
            }
            None => {
                tree::sweep(self.leader, self.mark, libc::SIGKILL);
            }
        }
    }

    fn alive(&self) -> bool {
        match &self.cgroup {
            Some(cg) => cg.populated(),
            None => tree::any_alive(self.leader, self.mark),
        }
    }
}

static RUNNING: Mutex<BTreeMap<u64, Entry>> = Mutex::new(BTreeMap::new());

fn running() -> MutexGuard<'static, BTreeMap<u64, Entry>> {
    RUNNING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Lists run `id`, of `group` (0: none).
pub(super) fn add(id: u64, group: u64, leader: i32, mark: u64, cgroup: Option<Arc<RunCgroup>>) {
    running().insert(id, Entry { group, leader, mark, cgroup });
}

/// How many runs are listed: of `group`, or all.
pub(super) fn count(group: Option<u64>) -> usize {
    running().values().filter(|e| group.is_none_or(|g| e.group == g)).count()
}

/// Unlists run `id` and calls `reap` under the same lock.
pub(super) fn remove<T>(id: u64, reap: impl FnOnce() -> T) -> T {
    let mut guard = running();
    guard.remove(&id);
    reap()
}

/// The process groups of the runs with the tree walk (no cgroup) listed now, for a new
/// supervisor. Each leads its own group, so its leader's pid is the group's id.
pub(super) fn tree_groups() -> Vec<i32> {
    running().values().filter(|e| e.cgroup.is_none()).map(|e| e.leader).collect()
}

/// Kills every hook this process is running: SIGTERM (and SIGCONT) to each one's whole tree,
/// or cgroup, then up to `grace` for them to go, then SIGKILL to what is left (`cgroup.kill`
/// for cgroups). Returns how many hooks were running.
///
/// This is what a harness calls from its own signal handling before it exits, as the `hooks`
/// command does on SIGINT, SIGTERM and SIGHUP: the hooks lead process groups of their own, so a
/// terminal's Ctrl-C never reaches them, and a harness that exits without this call leaves them
/// to the supervisor (which only acts once the harness is gone). It blocks for at most `grace`
/// plus the time a few `/proc` scans take, and is not async-signal-safe: call it from a signal
/// task (`tokio::signal`) or thread, never from a signal handler. The runs it ends return their
/// outcomes as usual (an exit by signal), for as long as the harness still polls them.
///
/// # Example
///
/// ```no_run
/// # async fn example() -> std::io::Result<()> {
/// use std::time::Duration;
/// use tokio::signal::unix::{SignalKind, signal};
///
/// let mut term = signal(SignalKind::terminate())?;
/// tokio::spawn(async move {
///     term.recv().await;
///     hook_exec::kill_running(Duration::from_millis(500));
///     std::process::exit(128 + libc::SIGTERM);
/// });
/// # Ok(())
/// # }
/// ```
pub fn kill_running(grace: Duration) -> usize {
    kill(None, grace)
}

/// Ends the listed runs of `group`, or all: see [`kill_running`].
pub(super) fn kill(group: Option<u64>, grace: Duration) -> usize {
    let guard = running();
    let of_group = |e: &&Entry| group.is_none_or(|g| e.group == g);
    let count = guard.values().filter(of_group).count();
    if count == 0 {
        return 0;
    }
    for entry in guard.values().filter(of_group) {
        entry.signal(libc::SIGTERM);
    }
    let until = Instant::now() + grace;
    while Instant::now() < until && guard.values().filter(of_group).any(Entry::alive) {
        std::thread::sleep(Duration::from_millis(10));
    }
    for entry in guard.values().filter(of_group) {
        entry.kill();
    }
    count
}
