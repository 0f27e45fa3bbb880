//! A session across dialects ([`MixedSession`]): each dialect's own session, stepped together.

use futures_util::future::join_all;
use hook_protocol::{DialectError, Event, Session, SessionStep};

use crate::fold::{PartStep, fold_steps};
use crate::words::{event_name, naming};

/// Every dialect's session: a neutral event at a time, each dialect doing between events what
/// its agent does (Claude Code's Stop guard, environment files and background results; Codex's
/// `async` outputs; Copilot's continuation cap; Cursor's `loop_count`).
pub struct MixedSession {
    parts: Vec<(&'static str, &'static str, Box<dyn Session>)>,
    lenient: bool,
}

impl std::fmt::Debug for MixedSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let dialects: Vec<&str> = self.parts.iter().map(|p| p.0).collect();
        f.debug_struct("MixedSession").field("dialects", &dialects).finish()
    }
}

/// One neutral event as a step of every dialect's session: the step they make together, and
/// each dialect's own.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct MixedStep {
    /// The step the dialects' steps make together ([the fold](crate#the-fold)).
    pub step: SessionStep,
    /// Each dialect's steps, in [`ORDER`](crate::ORDER).
    pub parts: Vec<PartStep>,
}

impl MixedSession {
    pub(crate) fn new(
        parts: Vec<(&'static str, &'static str, Box<dyn Session>)>,
        lenient: bool,
    ) -> Self {
        Self { parts, lenient }
    }

    /// Checks that every dialect's session can take `event` (the fields each agent needs),
    /// running nothing.
    ///
    /// # Errors
    ///
    /// [`DialectError::InvalidInput`] naming the agent and the field.
    pub fn check(&self, event: &Event) -> Result<(), DialectError> {
        for (_, title, session) in &self.parts {
            session.check_event(event, self.lenient).map_err(|e| naming(title, e))?;
        }
        Ok(())
    }

    /// Takes `event` as every dialect's next step, at once, and folds the steps. Nothing runs
    /// unless every dialect can take the event.
    ///
    /// # Errors
    ///
    /// [`DialectError::InvalidInput`] naming the agent and the field it needs;
    /// [`DialectError::Session`] for a step a dialect's session cannot take now.
    pub async fn step(&mut self, event: &Event) -> Result<MixedStep, DialectError> {
        self.check(event)?;
        let lenient = self.lenient;
        let steps =
            join_all(self.parts.iter_mut().map(|(_, _, s)| s.step_event(event, lenient))).await;
        let mut parts = Vec::with_capacity(steps.len());
        for ((dialect, title, _), steps) in self.parts.iter().zip(steps) {
            parts.push(PartStep { dialect, title, steps: steps? });
        }
        let step = fold_steps(&event_name(event), event.subject(), &parts);
        Ok(MixedStep { step, parts })
    }

    /// Ends every dialect's running hooks, as [`Mixed::kill_running`](crate::Mixed::kill_running)
    /// does.
    pub fn kill_running(&self, grace: std::time::Duration) -> usize {
        self.parts.iter().map(|(_, _, s)| s.kill_running(grace)).sum()
    }

    /// Gives what runs in the background, in every dialect, up to `wait` to end.
    pub async fn settle(&mut self, wait: std::time::Duration) {
        join_all(self.parts.iter_mut().map(|(_, _, s)| s.settle(wait))).await;
    }
}
