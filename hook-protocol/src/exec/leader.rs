//! The hook's leader process: noticing its exit without reaping it, killing its tree, reaping.
//!
//! The leader is reaped last, after every signal to its process group, so that the group id
//! (the leader's pid) cannot have been reused by then. Its exit is noticed through a pidfd,
//! which becomes readable when the process ends but leaves the zombie in place; where pidfds
//! are unavailable (kernels before 5.3, other Unixes) through `waitid(WNOWAIT)`, polled with a
//! backoff while the pipes are quiet. Dropping a [`Leader`] that was not reaped kills its whole
//! tree and reaps it: that is what makes [`super::run`] cancel-safe.

use std::fs::File;
use std::io;
use std::pin::Pin;
use std::process::ExitStatus;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::Interest;
use tokio::io::unix::AsyncFd;
use tokio::time::{Instant, Sleep};

use super::sys;
use super::tree::{self, Swept};

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

/// The hook's leader process, its run marker and the state of its exit.
#[derive(Debug)]
pub(super) struct Leader {
    pid: i32,
    marker: Vec<u8>,
    watch: Watch,
    exited: bool,
    reaped: bool,
}

impl Leader {
    /// Watches a freshly spawned child of ours.
    pub(super) fn new(pid: i32, marker: Vec<u8>) -> Self {
        let watch = match sys::pidfd_open(pid) {
            Ok(fd) => match sys::register(fd, Interest::READABLE) {
                Ok(fd) => Watch::Pidfd(fd),
                Err(_) => Watch::polling(),
            },
            Err(_) => Watch::polling(),
        };
        Self { pid, marker, watch, exited: false, reaped: false }
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

    /// Waits for the leader to exit.
    pub(super) async fn exited(&mut self) {
        std::future::poll_fn(|cx| self.poll_exited(cx)).await;
    }

    /// Sends `signal` to the leader's whole tree once.
    pub(super) fn signal_tree(&self, signal: i32) -> Swept {
        tree::sweep(self.pid, &self.marker, signal)
    }

    /// SIGKILLs the leader's whole tree, sweeping again until a scan finds nothing alive (or a
    /// bounded number of rounds), and reports what the first sweep reached.
    pub(super) async fn kill_tree(&self) -> Swept {
        let first = self.signal_tree(libc::SIGKILL);
        if first.any() {
            for _ in 0..KILL_ROUNDS {
                tokio::time::sleep(KILL_PAUSE).await;
                if !self.signal_tree(libc::SIGKILL).any() {
                    break;
                }
            }
        }
        first
    }

    /// Whether anything of the leader's tree is still alive.
    pub(super) fn tree_alive(&self) -> bool {
        tree::any_alive(self.pid, &self.marker)
    }

    /// Reaps the exited leader and returns its status.
    ///
    /// # Errors
    ///
    /// When the status cannot be collected (`ECHILD`: something else in the process reaped
    /// our child, e.g. with SIGCHLD ignored).
    pub(super) fn reap(&mut self) -> io::Result<ExitStatus> {
        match sys::try_wait(self.pid) {
            Ok(Some(status)) => {
                self.reaped = true;
                Ok(status)
            }
            // The exit was noticed, so the zombie is there; a spurious readiness would land
            // here, and the blocking wait is then the honest answer.
            Ok(None) => {
                let status = sys::wait_blocking(self.pid);
                self.reaped = status.is_ok();
                status
            }
            Err(e) => {
                self.reaped = true;
                Err(e)
            }
        }
    }
}

impl Watch {
    fn polling() -> Self {
        Watch::Poll { sleep: Box::pin(tokio::time::sleep(POLL_FIRST)), every: POLL_FIRST }
    }
}

impl Drop for Leader {
    /// Cancellation: kill the tree and reap the leader, without blocking the runtime.
    fn drop(&mut self) {
        if self.reaped {
            return;
        }
        if self.signal_tree(libc::SIGKILL).any() {
            // One more pass for children forked while the first one ran.
            self.signal_tree(libc::SIGKILL);
        }
        if !matches!(sys::try_wait(self.pid), Ok(None)) {
            return;
        }
        // Usually dead within microseconds, but a process in uninterruptible sleep can take
        // longer: a short-lived thread reaps it so the caller never blocks.
        let pid = self.pid;
        let _ = std::thread::Builder::new()
            .name("hook-reaper".into())
            .spawn(move || sys::wait_blocking(pid));
    }
}
