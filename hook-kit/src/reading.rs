//! [`Reading`]: what a dialect read from one run of a hook, before it becomes the hook's
//! outcome.

use hook_protocol::{
    HookOutcome, HookStatus, Metadata, ProcessFacts, RawOutcome, RecordData, Verdict,
};

/// What a dialect read from one run: its status, its verdict, and the error its record keeps.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Reading {
    /// How the run ended, by the agent's rules.
    pub status: HookStatus,
    /// What the hook decided.
    pub verdict: Verdict,
    /// Why it failed, in the agent's words.
    pub error: Option<String>,
}

impl Reading {
    /// A reading of `status`.
    pub fn new(status: HookStatus, verdict: Verdict, error: Option<String>) -> Self {
        Self { status, verdict, error }
    }

    /// A run that succeeded with `verdict`.
    pub fn success(verdict: Verdict) -> Self {
        Self::new(HookStatus::Success, verdict, None)
    }

    /// A run that blocked with `verdict`.
    pub fn blocked(verdict: Verdict) -> Self {
        Self::new(HookStatus::Blocked, verdict, None)
    }

    /// A run that failed, without an opinion.
    pub fn failed(error: impl Into<String>) -> Self {
        Self::new(HookStatus::Failed, Verdict::no_opinion(), Some(error.into()))
    }

    /// A run that timed out, without an opinion.
    pub fn timed_out(error: impl Into<String>) -> Self {
        Self::new(HookStatus::TimedOut, Verdict::no_opinion(), Some(error.into()))
    }

    /// A hook that could not start: a spawn failure for `why`, the dialect's record (which
    /// keeps `why` in its own words) as its metadata.
    pub fn unstarted(why: String, record: impl RecordData) -> HookOutcome {
        let mut outcome = HookOutcome::failure(HookStatus::SpawnFailed, why);
        outcome.metadata = Some(Metadata::typed(record));
        outcome
    }

    /// The hook's outcome: the verdict with the status (a failure with its error), the process's
    /// facts, and the dialect's record as its metadata.
    pub fn outcome(self, raw: &RawOutcome, record: impl RecordData) -> HookOutcome {
        let mut outcome = match self.status {
            HookStatus::Success | HookStatus::Blocked => HookOutcome::success(self.verdict),
            status => {
                let mut o = HookOutcome::failure(status, self.error.unwrap_or_default());
                o.verdict = self.verdict;
                o
            }
        };
        outcome.status = self.status;
        outcome.process = Some(ProcessFacts::from_outcome(raw));
        outcome.metadata = Some(Metadata::typed(record));
        outcome
    }
}
