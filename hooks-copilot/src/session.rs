//! What Copilot keeps between events: the loop guard of `agentStop`
//! ([Stop loop](crate::compatibility#stop-loop)). A hook that blocks every stop keeps the agent
//! working; after 8 consecutive blocks Copilot ends the turn all the same.

use async_trait::async_trait;
use hook_protocol::{DecisionWord, DialectError, GuardState, Loaded, Session, SessionStep};
use serde_json::{Map, Value};

use crate::EventName;

/// Copilot's loop guard: the consecutive `agentStop` blocks of a turn, and the cap past which a
/// block no longer keeps the agent going.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StopGuard {
    blocks: u32,
    cap: u32,
}

impl Default for StopGuard {
    fn default() -> Self {
        Self::new(Self::DEFAULT_CAP)
    }
}

impl StopGuard {
    /// Copilot's cap: 8 consecutive blocks.
    pub const DEFAULT_CAP: u32 = 8;

    /// A guard with a cap.
    pub fn new(cap: u32) -> Self {
        Self { blocks: 0, cap }
    }

    /// What the next `agentStop` input's `stop_hook_active` is: whether the last stop was
    /// blocked.
    pub fn stop_hook_active(&self) -> bool {
        self.blocks > 0
    }

    /// Counts an `agentStop` step: `blocked` when its hooks blocked the stop. A block past the
    /// cap is overridden (the turn ends) and the count starts again.
    pub fn review(&mut self, blocked: bool) -> GuardState {
        if !blocked {
            self.blocks = 0;
            return GuardState::new(0, false);
        }
        if self.blocks >= self.cap {
            let state = GuardState::new(self.blocks + 1, true);
            self.blocks = 0;
            return state;
        }
        self.blocks += 1;
        GuardState::new(self.blocks, false)
    }

    /// A new turn: the count starts again.
    pub fn reset(&mut self) {
        self.blocks = 0;
    }
}

/// The text Copilot logs when its guard ends a turn.
pub fn guard_notice(cap: u32) -> String {
    format!("Agent stop hook blocked {cap} consecutive times; ending turn.")
}

/// A recording through Copilot's hooks, with its loop guard.
#[derive(Debug)]
pub(crate) struct Recording {
    loaded: Box<dyn Loaded>,
    guard: StopGuard,
}

impl Recording {
    pub(crate) fn new(loaded: Box<dyn Loaded>) -> Self {
        Self { loaded, guard: StopGuard::default() }
    }
}

#[async_trait]
impl Session for Recording {
    fn check(&self, events: &[(&str, &Map<String, Value>)]) -> Result<(), (usize, DialectError)> {
        for (i, (event, input)) in events.iter().enumerate() {
            self.loaded.check_input(event, input, &[]).map_err(|e| (i, e))?;
        }
        Ok(())
    }

    async fn step(
        &mut self,
        event: &str,
        mut input: Map<String, Value>,
    ) -> Result<SessionStep, DialectError> {
        let name = EventName::parse(event);
        if name == Some(EventName::UserPromptSubmitted) {
            self.guard.reset();
        }
        if name == Some(EventName::AgentStop) && !input.contains_key("stop_hook_active") {
            input.insert("stop_hook_active".into(), Value::Bool(self.guard.stop_hook_active()));
        }
        let mut run = self.loaded.run(event, input).await?;
        let mut guard = None;
        if name == Some(EventName::AgentStop) {
            let state = self.guard.review(run.decision == DecisionWord::Block);
            if state.overridden {
                run.warnings.push(guard_notice(StopGuard::DEFAULT_CAP));
            }
            guard = Some(state);
        }
        let mut step = SessionStep::new(run);
        step.guard = guard;
        Ok(step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ninth_consecutive_block_is_overridden() {
        let mut guard = StopGuard::default();
        assert!(!guard.stop_hook_active());
        for n in 1..=8 {
            assert_eq!(guard.review(true), GuardState::new(n, false));
            assert!(guard.stop_hook_active());
        }
        assert_eq!(guard.review(true), GuardState::new(9, true));
        assert!(!guard.stop_hook_active(), "the count starts again");
        guard.review(true);
        assert_eq!(guard.review(false), GuardState::new(0, false));
    }
}
