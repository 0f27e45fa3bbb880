//! [`StopGuard`]: the loop guard of an agent whose hooks can keep a turn going by blocking its
//! end. Each dialect applies it by its agent's rule: when the count starts again (a tool call, a
//! new prompt) and what an overridden block shows.

use crate::GuardState;

/// Consecutive blocks of a turn's end, and the cap past which a block is overridden: the turn
/// ends all the same and the count starts again. A cap of 0 disables the guard.
///
/// ```
/// use hook_protocol::{GuardState, StopGuard};
///
/// let mut guard = StopGuard::new(2);
/// assert_eq!(guard.review(true), GuardState::new(1, false));
/// assert!(guard.stop_hook_active());
/// assert_eq!(guard.review(true), GuardState::new(2, false));
/// assert_eq!(guard.review(true), GuardState::new(3, true), "the third block is overridden");
/// assert!(!guard.stop_hook_active());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StopGuard {
    cap: u32,
    consecutive: u32,
}

impl Default for StopGuard {
    fn default() -> Self {
        Self::new(Self::DEFAULT_MAX_BLOCKS)
    }
}

impl StopGuard {
    /// 8 consecutive blocks: the cap of every agent known to have one.
    pub const DEFAULT_MAX_BLOCKS: u32 = 8;

    /// A guard with a cap (0 disables it).
    pub fn new(cap: u32) -> Self {
        Self { cap, consecutive: 0 }
    }

    /// The cap.
    pub fn cap(&self) -> u32 {
        self.cap
    }

    /// How many consecutive blocks the guard has let through.
    pub fn consecutive(&self) -> u32 {
        self.consecutive
    }

    /// The next end's `stop_hook_active`: whether the turn goes on because a hook blocked its
    /// last end.
    pub fn stop_hook_active(&self) -> bool {
        self.consecutive > 0
    }

    /// Counts a turn's end: `blocked` when its hooks blocked it. A block past the cap is
    /// overridden (the turn ends) and the count starts again.
    pub fn review(&mut self, blocked: bool) -> GuardState {
        if !blocked {
            self.consecutive = 0;
            return GuardState::new(0, false);
        }
        if self.cap > 0 && self.consecutive >= self.cap {
            let state = GuardState::new(self.consecutive + 1, true);
            self.consecutive = 0;
            return state;
        }
        self.consecutive += 1;
        GuardState::new(self.consecutive, false)
    }

    /// The count starts again (a tool was called, a prompt came).
    pub fn reset(&mut self) {
        self.consecutive = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_past_the_cap_is_overridden_and_the_count_starts_again() {
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
        guard.review(true);
        guard.reset();
        assert_eq!(guard.consecutive(), 0);
    }

    #[test]
    fn a_cap_of_zero_never_overrides() {
        let mut guard = StopGuard::new(0);
        for n in 1..=100 {
            assert_eq!(guard.review(true), GuardState::new(n, false));
        }
    }
}
