//! The [Stop loop guard](crate::compatibility#stop-loop-guard): `stop_hook_active`, and a cap on
//! consecutive forced continuations that resets when a tool is called.
//!
//! The harness holds one guard per agent (the main session, and each sub-agent for
//! SubagentStop). After `cap` consecutive continuations caused by Stop / SubagentStop hooks
//! (a block, exit 2, or context), the next block is overridden: the turn ends, and the
//! override is reported. A cap of 0 disables the guard.

use crate::wire::decision::{GuardOverride, StopDecision};
use hook_protocol::Continuation;

/// Per-agent state of the Stop loop guard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StopGuard {
    cap: u32,
    consecutive: u32,
}

impl Default for StopGuard {
    fn default() -> Self {
        Self::new(Self::DEFAULT_CAP)
    }
}

impl StopGuard {
    /// Claude Code's cap: 8 forced continuations.
    pub const DEFAULT_CAP: u32 = 8;

    /// A guard with a cap (0 disables it), as `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` sets it.
    pub fn new(cap: u32) -> Self {
        Self { cap, consecutive: 0 }
    }

    /// The cap.
    pub fn cap(&self) -> u32 {
        self.cap
    }

    /// How many consecutive continuations hooks have forced.
    pub fn consecutive(&self) -> u32 {
        self.consecutive
    }

    /// `stop_hook_active`: whether the agent is continuing because of a stop hook.
    pub fn stop_hook_active(&self) -> bool {
        self.consecutive > 0
    }

    /// A tool was called: the count starts again.
    pub fn tool_called(&mut self) {
        self.consecutive = 0;
    }

    /// Applies the guard to a Stop / SubagentStop decision: counts a continuation, or at the
    /// cap overrides it (the turn ends) and records the override in the decision.
    pub fn review(&mut self, decision: &mut StopDecision) {
        let Continuation::Continue { reason } = &decision.continuation else {
            self.consecutive = 0;
            return;
        };
        if self.cap > 0 && self.consecutive >= self.cap {
            let message = crate::present::templates::stop_guard_override(self.consecutive + 1);
            tracing::warn!(target: "hooks", consecutive = self.consecutive, "{message}");
            decision.guard_override = Some(GuardOverride {
                consecutive: self.consecutive,
                reason: reason.clone(),
                message: message.clone(),
            });
            // Reported once, in `guard_override`: the hooks' own messages stay as they were.
            decision.continuation = Continuation::Stop;
            self.consecutive = 0;
            return;
        }
        self.consecutive += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hook_protocol::Control;

    fn blocked() -> StopDecision {
        StopDecision {
            continuation: Continuation::Continue { reason: Some("keep going".into()) },
            context: Vec::new(),
            guard_override: None,
            control: Control::default(),
        }
    }

    #[test]
    fn ninth_block_is_overridden_after_eight_continuations() {
        let mut guard = StopGuard::default();
        assert!(!guard.stop_hook_active());
        for i in 0..8 {
            let mut d = blocked();
            guard.review(&mut d);
            assert!(matches!(d.continuation, Continuation::Continue { .. }), "block {i}");
            assert!(guard.stop_hook_active());
        }
        let mut d = blocked();
        guard.review(&mut d);
        assert_eq!(d.continuation, Continuation::Stop);
        let o = d.guard_override.unwrap();
        assert_eq!((o.consecutive, o.reason.as_deref()), (8, Some("keep going")));
        assert!(d.control.messages.is_empty(), "the override is reported once");
        assert!(!guard.stop_hook_active());
    }

    #[test]
    fn tool_calls_reset_and_zero_disables() {
        let mut guard = StopGuard::new(2);
        guard.review(&mut blocked());
        guard.review(&mut blocked());
        guard.tool_called();
        let mut d = blocked();
        guard.review(&mut d);
        assert!(d.guard_override.is_none());
        let mut off = StopGuard::new(0);
        for _ in 0..100 {
            let mut d = blocked();
            off.review(&mut d);
            assert!(d.guard_override.is_none());
        }
    }
}
