//! The hook's leader process: noticing its exit without reaping it, killing its tree, reaping.
//!
//! The leader is reaped last, after every signal to its process group, so that the group id
//! (the leader's pid) cannot have been reused by then. Its exit is noticed through a pidfd,
//! which becomes readable when the process ends but leaves the zombie in place; where pidfds
//! are unavailable (kernels before 5.3, other Unixes) through `waitid(WNOWAIT)`, polled with a
//! backoff while the pipes are quiet. Dropping a [`Leader`] that was not reaped kills its whole
//! tree and reaps it: that is what makes [`super::run`] cancel-safe.
//!
//! With cgroup containment, the tree is the run's cgroup: signals go to its members,
//! `cgroup.kill` ends it, and the cgroup is removed once the run is over and it is empty (or
//! later, once the leftovers of a normal exit are gone).

use std::fs::File;
use std::io;
use std::os::fd::OwnedFd;
use std::pin::Pin;
use std::process::ExitStatus;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::Interest;
use tokio::io::unix::AsyncFd;
use tokio::time::{Instant, Sleep};

use super::cgroup::RunCgroup;
use super::tree::{self, Swept};
use super::{containment, in_flight, sys};

/// The first and the longest interval between two exit checks without a pidfd.
const POLL_FIRST: Duration = Duration::from_micros(500);
const POLL_MAX: Duration = Duration::from_millis(20);
/// Sweeps after a SIGKILL, until a scan finds nothing alive, and the pause between them.
const KILL_ROUNDS: usize = 20;
const KILL_PAUSE: Duration = Duration::from_millis(5);

/// How the leader's exit is noticed.
#[derive(Debug)]
enum Watch {
    Pidfd(AsyncFd<File>),
    Poll { sleep: Pin<Box<Sleep>>, every: Duration },
}

/// The hook's leader process, its run's mark, its cgroup and the state of its exit.
#[derive(Debug)]
pub(super) struct Leader {
    pid: i32,
    id: u64,
    mark: u64,
    cgroup: Option<Arc<RunCgroup>>,
    watch: Watch,
    exited: bool,
    /// Whether [`Leader::poll_exited_now`] asked the kernel already.
    peeked: bool,
    reaped: bool,
    /// Known to have left nothing running in its cgroup (which can then serve another run).
    empty: bool,
}

impl Leader {
    /// Watches a freshly spawned child of ours, run `id` of `group` (0: none), contained by
    /// `cgroup` if it has one, and lists it as running.
    pub(super) fn new(
        pid: i32,
        pidfd: Option<OwnedFd>,
        id: u64,
        group: u64,
        mark: u64,
        cgroup: Option<RunCgroup>,
    ) -> Self {
        let pidfd = match pidfd {
            Some(fd) => Ok(fd),
            None => sys::pidfd_open(pid),
        };
        let watch = match pidfd {
            Ok(fd) => match sys::register(fd, Interest::READABLE) {
                Ok(fd) => Watch::Pidfd(fd),
                Err(_) => Watch::polling(),
            },
            Err(_) => Watch::polling(),
        };
        let cgroup = cgroup.map(Arc::new);
        if cgroup.is_none() {
            containment::state().tell_group(true, pid);
        }
        in_flight::add(id, group, pid, mark, cgroup.clone());
        Self {
            pid,
            id,
            mark,
            cgroup,
            watch,
            exited: false,
            peeked: false,
            reaped: false,
            empty: false,
        }
    }

    /// Whether the leader's exit wakes the runner by itself (a pidfd), without polling.
    pub(super) fn wakes_on_exit(&self) -> bool {
        matches!(self.watch, Watch::Pidfd(_))
    }

    /// The run's cgroup, when it has one.
    pub(super) fn cgroup(&self) -> Option<&RunCgroup> {
        self.cgroup.as_deref()
    }

    /// Records that the run left nothing running: its cgroup can serve another run.
    pub(super) fn left_nothing(&mut self) {
        self.empty = true;
    }

    /// The leader's pid.
    pub(super) fn pid(&self) -> u32 {
        self.pid.unsigned_abs()
    }

    /// Ready once the leader has exited (it is then a zombie until [`Leader::reap`]).
    pub(super) fn poll_exited(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        if self.exited {
            return Poll::Ready(());
        }
        match &mut self.watch {
            Watch::Pidfd(fd) => match fd.poll_read_ready(cx) {
                Poll::Ready(Ok(_)) => {
                    self.exited = true;
                    return Poll::Ready(());
                }
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(_)) => self.watch = Watch::polling(),
            },
            Watch::Poll { .. } => {}
        }
        let Watch::Poll { sleep, every } = &mut self.watch else { return Poll::Pending };
        loop {
            // An error (ECHILD: someone else reaped it) means it is gone all the same.
            if sys::exited_unreaped(self.pid).unwrap_or(true) {
                self.exited = true;
                return Poll::Ready(());
            }
            if sleep.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
            *every = (*every * 2).min(POLL_MAX);
            sleep.as_mut().reset(Instant::now() + *every);
        }
    }

    /// [`Leader::poll_exited`], asking the kernel at once (the first time only) when the
    /// pidfd has not reported yet: called when the pipes have just ended, as they do when the
    /// hook exits, a moment before its exit is reported; a yes spares that wake-up.
    pub(super) fn poll_exited_now(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        if self.poll_exited(cx).is_ready() {
            return Poll::Ready(());
        }
        if !self.peeked && matches!(self.watch, Watch::Pidfd(_)) {
            self.peeked = true;
            if sys::exited_unreaped(self.pid).unwrap_or(false) {
                self.exited = true;
                return Poll::Ready(());
            }
        }
        Poll::Pending
    }

    /// Waits for the leader to exit.
    pub(super) async fn exited(&mut self) {
        std::future::poll_fn(|cx| self.poll_exited(cx)).await;
    }

    /// Sends `signal` to the leader's whole tree once (its cgroup's members, with a cgroup).
    pub(super) fn signal_tree(&self, signal: i32) -> Swept {
        let Some(cg) = &self.cgroup else { return tree::sweep(self.pid, self.mark, signal) };
        let reached = cg.signal(signal);
        if signal == libc::SIGTERM {
            cg.signal(libc::SIGCONT);
        }
        let leader_alive = reached.contains(&self.pid);
        Swept {
            leader_alive,
            others: reached.len() - usize::from(leader_alive),
            table_unread: false,
        }
    }

    /// SIGKILLs the leader's whole tree, sweeping again until a scan finds nothing alive (or a
    /// bounded number of rounds), and reports what the first sweep reached; with a cgroup,
    /// `cgroup.kill`, then a wait for the cgroup to empty. The error is the warning to record
    /// when the cgroup did not empty in time.
    pub(super) async fn kill_tree(&self) -> (Swept, Result<(), String>) {
        if let Some(cg) = &self.cgroup {
            let members = cg.members();
            let leader_alive = members.contains(&self.pid);
            let others = members.len() - usize::from(leader_alive);
            let swept = Swept { leader_alive, others, table_unread: false };
            if members.is_empty() && !cg.populated() {
                return (swept, Ok(()));
            }
            if let Err(e) = cg.kill() {
                return (
                    swept,
                    Err(format!("cannot write {}: {e}", cg.dir().join("cgroup.kill").display())),
                );
            }
            for _ in 0..KILL_ROUNDS {
                if !cg.populated() {
                    return (swept, Ok(()));
                }
                tokio::time::sleep(KILL_PAUSE).await;
            }
            let left = cg.members().len();
            return (
                swept,
                Err(format!(
                    "cgroup {} still holds {left} process(es) {} ms after cgroup.kill",
                    cg.dir().display(),
                    (KILL_PAUSE * KILL_ROUNDS as u32).as_millis()
                )),
            );
        }
        let first = self.signal_tree(libc::SIGKILL);
        if first.any() {
            for _ in 0..KILL_ROUNDS {
                tokio::time::sleep(KILL_PAUSE).await;
                if !self.signal_tree(libc::SIGKILL).any() {
                    break;
                }
            }
        }
        if first.table_unread {
            let why = "the process table could not be read: the hook's process group was \
                       killed, and its other descendants were not looked for";
            return (first, Err(why.to_owned()));
        }
        (first, Ok(()))
    }

    /// Whether anything of the leader's tree is still alive.
    pub(super) fn tree_alive(&self) -> bool {
        match &self.cgroup {
            Some(cg) => cg.populated(),
            None => tree::any_alive(self.pid, self.mark),
        }
    }

    /// Reaps the exited leader and returns its status.
    ///
    /// # Errors
    ///
    /// When the status cannot be collected (`ECHILD`: something else in the process reaped
    /// our child, e.g. with SIGCHLD ignored).
    pub(super) fn reap(&mut self) -> io::Result<ExitStatus> {
        let pid = self.pid;
        let reaped = in_flight::remove(self.id, || Self::reap_pid(pid));
        self.reaped = !matches!(reaped, Err(ref e) if e.kind() == io::ErrorKind::WouldBlock);
        reaped
    }

    fn reap_pid(pid: i32) -> io::Result<ExitStatus> {
        match sys::try_wait(pid) {
            Ok(Some(status)) => Ok(status),
            // The exit was noticed, so the zombie is there; a spurious readiness would land
            // here, and the blocking wait is then the honest answer.
            Ok(None) => sys::wait_blocking(pid),
            Err(e) => Err(e),
        }
    }
}

impl Watch {
    fn polling() -> Self {
        Watch::Poll { sleep: Box::pin(tokio::time::sleep(POLL_FIRST)), every: POLL_FIRST }
    }
}

impl Drop for Leader {
    /// Cancellation: kill the tree and reap the leader, without blocking the runtime. Then,
    /// in every case, the cgroup is removed, or left to be removed once its leftovers are gone.
    fn drop(&mut self) {
        if !self.reaped {
            self.kill_at_once();
        }
        if let Some(cg) = self.cgroup.take() {
            // The registry's clone went with the entry: this is the last one. A cgroup left in
            // place holds what the hook left running: the supervisor spares it.
            if let Ok(cg) = Arc::try_unwrap(cg)
                && let Some(name) = cg.retire(self.empty && self.reaped)
            {
                containment::state().tell(&format!("=c{name}"));
            }
        } else {
            containment::state().tell_group(false, self.pid);
        }
    }
}

impl Leader {
    /// SIGKILLs the tree at once and reaps the leader (on a short-lived thread when it takes
    /// longer to die than a drop should block).
    fn kill_at_once(&mut self) {
        match &self.cgroup {
            Some(cg) => {
                let _ = cg.kill();
            }
            None => {
                if self.signal_tree(libc::SIGKILL).any() {
                    // One more pass for children forked while the first one ran.
                    self.signal_tree(libc::SIGKILL);
                }
            }
        }
        let pid = self.pid;
        let pending = in_flight::remove(self.id, || matches!(sys::try_wait(pid), Ok(None)));
        self.reaped = true;
        if !pending {
            return;
        }
        // Usually dead within microseconds, but a process in uninterruptible sleep can take
        // longer: a short-lived thread reaps it so the caller never blocks.
        let _ = std::thread::Builder::new()
            .name("hook-reaper".into())
            .spawn(move || sys::wait_blocking(pid));
    }
}
