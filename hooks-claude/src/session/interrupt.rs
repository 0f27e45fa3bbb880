//! The session's interrupt handle: Ctrl-C for whatever step runs, without a token per step.

use std::sync::{Arc, Mutex, PoisonError};

use tokio_util::sync::CancellationToken;

/// Interrupts the step a [`Session`](crate::Session) is running, from anywhere: a Ctrl-C
/// handler, another task, another thread. Cloning it gives another handle on the same session.
///
/// [`Interrupter::interrupt`] does what cancelling a step's own [`CancellationToken`] does: the
/// running hooks' process trees are killed, the step returns at once with those hooks
/// `cancelled`, and a `PreToolUse` step's decision is
/// [`ToolPermission::Interrupted`](hook_protocol::ToolPermission::Interrupted). An interrupt
/// while no step runs (the harness is waiting for its model, or a tool runs) does nothing, and
/// the next step starts uninterrupted: what the harness was doing then is its own to stop.
///
/// ```no_run
/// # async fn run(session: hooks_claude::Session) {
/// let interrupter = session.interrupter();
/// tokio::spawn(async move {
///     // Needs tokio's `signal` feature.
///     while tokio::signal::ctrl_c().await.is_ok() {
///         interrupter.interrupt();
///     }
/// });
/// # }
/// ```
#[derive(Debug, Clone, Default)]
pub struct Interrupter {
    current: Arc<Mutex<CancellationToken>>,
}

impl Interrupter {
    /// Interrupts the step running now, if any.
    pub fn interrupt(&self) {
        self.current.lock().unwrap_or_else(PoisonError::into_inner).cancel();
    }

    /// The token of a step that starts now: a child of the harness's own token when it gave
    /// one (cancelling either interrupts the step), and the one [`Interrupter::interrupt`]
    /// cancels until the next step starts. Without a token of the harness's, the last one is
    /// kept while nothing cancelled it (a step costs no new token).
    pub(super) fn step(&self, given: Option<&CancellationToken>) -> CancellationToken {
        let mut current = self.current.lock().unwrap_or_else(PoisonError::into_inner);
        match given {
            Some(given) => *current = given.child_token(),
            None if current.is_cancelled() => *current = CancellationToken::new(),
            None => {}
        }
        current.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interrupt_reaches_the_running_step_only() {
        let handle = Interrupter::default();
        let first = handle.step(None);
        handle.interrupt();
        assert!(first.is_cancelled());
        let second = handle.step(None);
        assert!(!second.is_cancelled(), "an earlier interrupt does not carry over");
    }

    #[test]
    fn the_harness_token_still_cancels() {
        let handle = Interrupter::default();
        let own = CancellationToken::new();
        let step = handle.step(Some(&own));
        own.cancel();
        assert!(step.is_cancelled());
        assert!(!handle.step(None).is_cancelled());
    }
}
