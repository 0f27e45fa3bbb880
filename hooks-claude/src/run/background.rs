//! [Background hooks](crate::compatibility#background-hooks): `async` and `asyncRewake` command
//! hooks, and command hooks that go async at run time by printing `{"async":true}` as their first
//! line.
//!
//! The event does not wait for them. A bounded number run at once; the next ones wait in a
//! bounded queue; past that a hook is refused with a warning, so their number is never
//! unbounded. What they say when they end waits in an inbox the harness empties on its next
//! turn ([`crate::Engine::drain_async`]); an `asyncRewake` hook that exits 2 is sent at once
//! through the wake channel ([`crate::Engine::take_wake_receiver`]). Shutting down
//! ([`crate::Engine::shutdown`]) ends every background hook (a run's future, dropped, kills
//! the hook's whole process tree) and waits for them; dropping the engine (and the hooks taken
//! from it with [`crate::Engine::claude_hooks`]) does the same without waiting.

use std::collections::VecDeque;
use std::fmt;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hook_protocol::{HookStatus, Source};
use serde::Serialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};
use tokio::task::JoinSet;

/// Bounds on background hooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct BackgroundLimits {
    /// How many run at once (default 8).
    pub max_running: usize,
    /// How many wait for a free slot (default 32); past that a hook is refused with a warning.
    pub max_queued: usize,
    /// How many results wait for [`crate::Engine::drain_async`] (default 256); past that the
    /// oldest is dropped with a warning.
    pub max_results: usize,
    /// How long a plain `async` hook may run: Claude Code enforces no timeout on them, so this
    /// is only a backstop (default 24 hours). `asyncRewake` hooks keep their own timeout.
    pub async_timeout: Duration,
}

impl BackgroundLimits {
    /// The defaults: 8 running, 32 queued, 256 results, 24 hours.
    pub const DEFAULT: BackgroundLimits = BackgroundLimits {
        max_running: 8,
        max_queued: 32,
        max_results: 256,
        async_timeout: Duration::from_secs(24 * 3600),
    };
}

impl Default for BackgroundLimits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// What a background hook said when it ended, for the harness to deliver on a later turn.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct AsyncResult {
    /// The hook's identifier.
    pub hook_id: String,
    /// The command.
    pub command: String,
    /// Where it comes from.
    pub source: Source,
    /// The event that started it.
    pub event: String,
    /// The session of that event (`session_id`).
    pub session_id: String,
    /// The working directory of that event (`cwd`), which names the session's directory
    /// under the Claude home.
    pub cwd: String,
    /// How it went.
    pub status: HookStatus,
    /// Its exit code, when it exited with one.
    pub exit_code: Option<i32>,
    /// `additionalContext` then `systemMessage`, for the model on its next request (decision
    /// fields are ignored).
    pub context: Vec<String>,
    /// With `asyncRewake` and exit 2: wake the model now with this (stderr, or stdout when
    /// stderr is empty).
    pub rewake: Option<String>,
    /// The error notice, when it failed.
    pub message: Option<String>,
    /// Problems with its output.
    pub warnings: Vec<String>,
}

/// Why a hook was not started in the background.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Refused {
    /// Every slot runs and the queue is full.
    #[error("too many background hooks ({running} running, {queued} queued); this one is refused")]
    Full {
        /// The running limit.
        running: usize,
        /// The queue limit.
        queued: usize,
    },
    /// The hooks were shut down.
    #[error("the hooks were shut down; no background hook starts any more")]
    ShutDown,
    /// Not called from within a Tokio runtime.
    #[error("background hooks need a Tokio runtime")]
    NoRuntime,
}

/// Where results go; shared with the running tasks.
struct Delivery {
    results: Mutex<VecDeque<AsyncResult>>,
    max_results: usize,
    wake_tx: mpsc::Sender<AsyncResult>,
    wake_taken: AtomicBool,
}

impl Delivery {
    fn deliver(&self, result: AsyncResult) {
        let result = if result.rewake.is_some() && self.wake_taken.load(Ordering::SeqCst) {
            match self.wake_tx.try_send(result) {
                Ok(()) => return,
                Err(mpsc::error::TrySendError::Full(r) | mpsc::error::TrySendError::Closed(r)) => {
                    tracing::warn!(target: "hooks", hook = %r.hook_id, "the wake channel cannot take a rewake; it waits in the inbox");
                    r
                }
            }
        } else {
            result
        };
        if let Ok(mut results) = self.results.lock() {
            results.push_back(result);
            while results.len() > self.max_results {
                if let Some(dropped) = results.pop_front() {
                    tracing::warn!(target: "hooks", hook = %dropped.hook_id, "too many background results wait for the harness; the oldest is dropped");
                }
            }
        }
    }
}

struct State {
    tasks: JoinSet<()>,
    closed: bool,
}

/// The commands of the background hooks that run or wait, by a number of their own.
type Listed = Arc<Mutex<Vec<(u64, String)>>>;

/// A background hook's place in the list, given up when its task ends or is aborted.
struct InList {
    list: Listed,
    id: u64,
}

impl Drop for InList {
    fn drop(&mut self) {
        if let Ok(mut list) = self.list.lock() {
            list.retain(|(id, _)| *id != self.id);
        }
    }
}

/// The background hooks of one engine.
pub(crate) struct Background {
    limits: BackgroundLimits,
    listed: Listed,
    next_id: AtomicU64,
    permits: Arc<Semaphore>,
    queued: Arc<AtomicUsize>,
    state: Mutex<State>,
    delivery: Arc<Delivery>,
    wake_rx: Mutex<Option<mpsc::Receiver<AsyncResult>>>,
}

impl fmt::Debug for Background {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Background").field("limits", &self.limits).finish()
    }
}

impl Background {
    pub(crate) fn new(limits: BackgroundLimits) -> Self {
        let max_running = limits.max_running.max(1);
        let (wake_tx, wake_rx) = mpsc::channel(max_running + limits.max_queued);
        Self {
            limits,
            listed: Arc::default(),
            next_id: AtomicU64::new(0),
            permits: Arc::new(Semaphore::new(max_running)),
            queued: Arc::new(AtomicUsize::new(0)),
            state: Mutex::new(State { tasks: JoinSet::new(), closed: false }),
            delivery: Arc::new(Delivery {
                results: Mutex::new(VecDeque::new()),
                max_results: limits.max_results.max(1),
                wake_tx,
                wake_taken: AtomicBool::new(false),
            }),
            wake_rx: Mutex::new(Some(wake_rx)),
        }
    }

    pub(crate) fn limits(&self) -> BackgroundLimits {
        self.limits
    }

    /// Starts `job` (the hook `command`'s) now when a slot is free, queues it when the queue
    /// has room, refuses it otherwise. Its result is delivered when it ends.
    pub(crate) fn start<F>(&self, command: &str, job: F) -> Result<(), Refused>
    where
        F: Future<Output = AsyncResult> + Send + 'static,
    {
        let runtime = tokio::runtime::Handle::try_current().map_err(|_| Refused::NoRuntime)?;
        let mut state = self.state.lock().map_err(|_| Refused::ShutDown)?;
        if state.closed {
            return Err(Refused::ShutDown);
        }
        while state.tasks.try_join_next().is_some() {}
        let permit: Option<OwnedSemaphorePermit> =
            Arc::clone(&self.permits).try_acquire_owned().ok();
        if permit.is_none() {
            if self.queued.load(Ordering::SeqCst) >= self.limits.max_queued {
                return Err(Refused::Full {
                    running: self.limits.max_running,
                    queued: self.limits.max_queued,
                });
            }
            self.queued.fetch_add(1, Ordering::SeqCst);
        }
        let permits = Arc::clone(&self.permits);
        let queued = Arc::clone(&self.queued);
        let delivery = Arc::clone(&self.delivery);
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        if let Ok(mut list) = self.listed.lock() {
            list.push((id, command.to_owned()));
        }
        let in_list = InList { list: Arc::clone(&self.listed), id };
        let task = async move {
            let _in_list = in_list;
            let _permit = match permit {
                Some(p) => p,
                None => {
                    let p = permits.acquire_owned().await;
                    queued.fetch_sub(1, Ordering::SeqCst);
                    match p {
                        Ok(p) => p,
                        Err(_) => return,
                    }
                }
            };
            let result = job.await;
            delivery.deliver(result);
        };
        state.tasks.spawn_on(task, &runtime);
        Ok(())
    }

    /// Delivers a result that needed no task (a hook that went async and had already ended).
    pub(crate) fn deliver(&self, result: AsyncResult) {
        self.delivery.deliver(result);
    }

    /// The results delivered since the last call, oldest first.
    pub(crate) fn drain(&self) -> Vec<AsyncResult> {
        self.delivery.results.lock().map(|mut r| r.drain(..).collect()).unwrap_or_default()
    }

    /// The wake channel's receiver, once.
    pub(crate) fn take_wake_receiver(&self) -> Option<mpsc::Receiver<AsyncResult>> {
        let rx = self.wake_rx.lock().ok()?.take()?;
        self.delivery.wake_taken.store(true, Ordering::SeqCst);
        Some(rx)
    }

    /// How many background hooks run or wait.
    pub(crate) fn pending(&self) -> usize {
        self.state
            .lock()
            .map(|mut s| {
                while s.tasks.try_join_next().is_some() {}
                s.tasks.len()
            })
            .unwrap_or(0)
    }

    /// The commands of the background hooks that run or wait, in the order they started.
    pub(crate) fn commands(&self) -> Vec<String> {
        self.listed.lock().map(|l| l.iter().map(|(_, c)| c.clone()).collect()).unwrap_or_default()
    }

    /// Ends every running or queued background hook (killing its process tree) and waits
    /// until they are gone; new ones may start afterwards.
    pub(crate) async fn kill_all(&self) {
        let mut tasks = match self.state.lock() {
            Ok(mut state) => std::mem::take(&mut state.tasks),
            Err(_) => return,
        };
        tasks.shutdown().await;
    }

    /// Refuses new background hooks, ends every running or queued one (killing its process
    /// tree) and waits until they are gone.
    pub(crate) async fn shutdown(&self) {
        let mut tasks = match self.state.lock() {
            Ok(mut state) => {
                state.closed = true;
                std::mem::take(&mut state.tasks)
            }
            Err(_) => return,
        };
        tasks.shutdown().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(id: &str, rewake: bool) -> AsyncResult {
        AsyncResult {
            hook_id: id.to_owned(),
            command: "c".to_owned(),
            source: Source::new("claude", None),
            event: "PostToolUse".to_owned(),
            session_id: "s".to_owned(),
            cwd: "/w".to_owned(),
            status: HookStatus::Success,
            exit_code: Some(0),
            context: Vec::new(),
            rewake: rewake.then(|| "wake".to_owned()),
            message: None,
            warnings: Vec::new(),
        }
    }

    fn limits(running: usize, queued: usize) -> BackgroundLimits {
        BackgroundLimits { max_running: running, max_queued: queued, ..BackgroundLimits::DEFAULT }
    }

    #[tokio::test]
    async fn excess_is_queued_then_refused() {
        let bg = Background::new(limits(1, 1));
        let gate = Arc::new(tokio::sync::Notify::new());
        for id in ["a", "b"] {
            let gate = Arc::clone(&gate);
            bg.start("c", async move {
                gate.notified().await;
                result(id, false)
            })
            .unwrap();
        }
        let refused = bg.start("c", async { result("c", false) }).unwrap_err();
        assert_eq!(refused, Refused::Full { running: 1, queued: 1 });
        assert_eq!(bg.pending(), 2);
        gate.notify_one();
        tokio::time::timeout(Duration::from_secs(10), async {
            while bg.drain().is_empty() {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        })
        .await
        .unwrap();
        bg.start("c", async { result("d", false) }).unwrap();
        bg.shutdown().await;
        assert_eq!(bg.start("c", async { result("e", false) }), Err(Refused::ShutDown));
    }

    #[tokio::test]
    async fn rewakes_use_the_channel_once_taken_and_results_are_bounded() {
        let bg = Background::new(BackgroundLimits { max_results: 2, ..limits(4, 4) });
        bg.deliver(result("early", true));
        assert_eq!(bg.drain().len(), 1, "no receiver taken: the inbox keeps it");
        let mut rx = bg.take_wake_receiver().unwrap();
        assert!(bg.take_wake_receiver().is_none());
        bg.deliver(result("woke", true));
        assert_eq!(rx.try_recv().unwrap().hook_id, "woke");
        for id in ["1", "2", "3"] {
            bg.deliver(result(id, false));
        }
        let ids: Vec<_> = bg.drain().into_iter().map(|r| r.hook_id).collect();
        assert_eq!(ids, ["2", "3"], "the oldest is dropped");
    }

    #[test]
    fn no_runtime_is_a_refusal() {
        let bg = Background::new(BackgroundLimits::DEFAULT);
        assert_eq!(bg.start("c", async { result("x", false) }), Err(Refused::NoRuntime));
    }
}
