//! The [Stop loop guard](crate::compatibility#stop-loop-guard): `stop_hook_active`, and a cap on
//! consecutive forced continuations that resets when a tool is called.
//!
//! The harness holds one guard per agent (the main session, and each sub-agent for
//! SubagentStop). After `cap` consecutive continuations caused by Stop / SubagentStop hooks
//! (a block, exit 2, or context), the next block is overridden: the turn ends, and the
//! override is reported. A cap of 0 disables the guard.

use crate::wire::decision::{GuardOverride, StopDecision};
use hook_protocol::Continuation;

/// Per-agent state of the Stop loop guard: the core's [`hook_protocol::StopGuard`], applied to
/// Claude Code's Stop decisions.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StopGuard(hook_protocol::StopGuard);

impl StopGuard {
    /// Claude Code's cap: 8 forced continuations.
    pub const DEFAULT_MAX_BLOCKS: u32 = hook_protocol::StopGuard::DEFAULT_MAX_BLOCKS;

    /// A guard with a cap (0 disables it), as `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` sets it.
    pub fn new(cap: u32) -> Self {
        Self(hook_protocol::StopGuard::new(cap))
    }

    /// The cap.
    pub fn cap(&self) -> u32 {
        self.0.cap()
    }

    /// How many consecutive continuations hooks have forced.
    pub fn consecutive(&self) -> u32 {
        self.0.consecutive()
    }

    /// `stop_hook_active`: whether the agent is continuing because of a stop hook.
    pub fn stop_hook_active(&self) -> bool {
        self.0.stop_hook_active()
    }

    /// A tool was called: the count starts again.
    pub fn tool_called(&mut self) {
        self.0.reset();
    }

    /// Applies the guard to a Stop / SubagentStop decision: counts a continuation, or at the
    /// cap overrides it (the turn ends) and records the override in the decision.
    pub fn review(&mut self, decision: &mut StopDecision) {
        let Continuation::Continue { reason } = &decision.continuation else {
            self.0.review(false);
            return;
        };
        let state = self.0.review(true);
        if !state.overridden {
            return;
        }
        let consecutive = state.consecutive_blocks - 1;
        let message = crate::present::templates::stop_guard_override(state.consecutive_blocks);
        tracing::warn!(target: "hooks", consecutive, "{message}");
        decision.guard_override =
            Some(GuardOverride { consecutive, reason: reason.clone(), message: message.clone() });
        // Reported once, in `guard_override`: the hooks' own messages stay as they were.
        decision.continuation = Continuation::Stop;
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
