//! The one trait every kind of hook implements.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::{Decision, Event, Exit, Matcher, Metadata, RawOutcome, Seam, Source, Verdict};
use crate::{Mechanism, ResourceLimit};

/// What one kind of failure counts as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailMode {
    /// No opinion: the action proceeds (the default, as in Claude Code).
    #[default]
    Open,
    /// A deny whose reason names the hook and the failure, unless the hook's dialect already
    /// read the failure as a deny of its own (then that one stands).
    Closed,
}

/// What the dispatcher does with a hook that failed, for each kind of failure: a crash (it
/// could not start, exited as its dialect calls a failure, or answered something its dialect
/// cannot read) and a timeout. Agents differ here: Claude Code's `onFailure: "block"` closes on
/// both, Copilot's `preToolUse` closes on a crash and stays open on a timeout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[non_exhaustive]
pub struct FailurePolicy {
    /// What a crash counts as.
    pub crash: FailMode,
    /// What a timeout counts as.
    pub timeout: FailMode,
}

impl FailurePolicy {
    /// Every failure is no opinion (the default).
    pub const OPEN: FailurePolicy =
        FailurePolicy { crash: FailMode::Open, timeout: FailMode::Open };

    /// Every failure is a deny.
    pub const CLOSED: FailurePolicy =
        FailurePolicy { crash: FailMode::Closed, timeout: FailMode::Closed };

    /// A policy with a mode for crashes and one for timeouts.
    pub const fn new(crash: FailMode, timeout: FailMode) -> Self {
        Self { crash, timeout }
    }

    /// What a hook that ended with `status` counts as, when the status is a failure.
    pub fn mode_for(self, status: HookStatus) -> Option<FailMode> {
        match status {
            HookStatus::TimedOut => Some(self.timeout),
            HookStatus::Failed | HookStatus::SpawnFailed => Some(self.crash),
            _ => None,
        }
    }
}

/// Which events a hook is registered for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum On {
    /// Every event at every seam.
    Every,
    /// Events at these seams.
    Seams(Vec<Seam>),
    /// Custom events with this name.
    Custom(String),
}

impl On {
    /// Registered for one seam.
    pub fn seam(seam: Seam) -> Self {
        On::Seams(vec![seam])
    }

    /// Whether the hook is registered for `event`.
    pub fn applies_to(&self, event: &Event) -> bool {
        self.applies(event.seam(), event.custom_name())
    }

    /// Whether the hook is registered for events at `seam` (named `custom_name` when the seam is
    /// [`Seam::Custom`]), for callers that have no event at hand.
    pub fn applies(&self, seam: Seam, custom_name: Option<&str>) -> bool {
        match self {
            On::Every => true,
            On::Seams(seams) => seams.contains(&seam),
            On::Custom(name) => custom_name == Some(name.as_str()),
        }
    }
}

/// A hook's identity and registration: everything the dispatcher needs before running it.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct HookInfo {
    /// A short stable identifier for logs and audit records.
    pub id: String,
    /// What the hook runs, for records (a command line, a URL, a function name).
    pub label: String,
    /// Where the hook comes from; attached to what it injects.
    pub source: Source,
    /// Lower runs first; negative before zero. Ties keep registration order.
    pub priority: i32,
    /// What a failure of this hook counts as.
    pub failure_policy: FailurePolicy,
    /// Which events it is registered for.
    pub on: On,
    /// Which subjects it cares about.
    pub matcher: Matcher,
    /// At a turn's or a sub-agent's end, how many continuations this hook may cause in a
    /// conversation (Cursor's `loop_limit`): once the event's count
    /// ([`crate::TurnEnd::continuations`]) reaches it, the hook's follow-up or block is dropped,
    /// with a warning. `None`: no limit of its own.
    pub continuation_limit: Option<u32>,
}

impl HookInfo {
    /// A hook identity with priority 0, fail-open, registered for every event, matching every
    /// subject; the label is the id.
    pub fn new(id: impl Into<String>, source: Source) -> Self {
        let id = id.into();
        Self {
            label: id.clone(),
            id,
            source,
            priority: 0,
            failure_policy: FailurePolicy::OPEN,
            on: On::Every,
            matcher: Matcher::any(),
            continuation_limit: None,
        }
    }
}

/// How one hook's run went, for every dialect; its stable names ([`HookStatus::as_str`], and
/// its JSON) are those of the `hooks` command's documents: `success`, `blocking_error`,
/// `non_blocking_error`, `timed_out`, `spawn_failed`, `skipped`, `cancelled`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum HookStatus {
    /// It ran and answered (possibly with no opinion).
    Success,
    /// It ran and blocked the action by its dialect's block signal (exit code 2, ...):
    /// `blocking_error`.
    #[serde(rename = "blocking_error")]
    Blocked,
    /// It ran but failed: a failure exit, a crash, output its dialect cannot read
    /// (`non_blocking_error`: the failure policy decides whether it blocks).
    #[serde(rename = "non_blocking_error")]
    Failed,
    /// It ran past its timeout and was killed.
    TimedOut,
    /// It could not be started.
    SpawnFailed,
    /// It was not run (a filter of its dialect excluded it, or an earlier hook ended the chain).
    Skipped,
    /// The harness cancelled the dispatch before the hook finished: its process tree, if it
    /// had started one, was killed, and it gave no verdict. Not a failure: the failure policy
    /// does not apply.
    Cancelled,
}

impl HookStatus {
    /// Whether the status is a failure the failure policy applies to.
    pub fn is_failure(self) -> bool {
        matches!(self, HookStatus::Failed | HookStatus::TimedOut | HookStatus::SpawnFailed)
    }

    /// The status's stable name.
    pub fn as_str(self) -> &'static str {
        match self {
            HookStatus::Success => "success",
            HookStatus::Blocked => "blocking_error",
            HookStatus::Failed => "non_blocking_error",
            HookStatus::TimedOut => "timed_out",
            HookStatus::SpawnFailed => "spawn_failed",
            HookStatus::Skipped => "skipped",
            HookStatus::Cancelled => "cancelled",
        }
    }
}

impl fmt::Display for HookStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What running a hook produced: its verdict, how the run went, and the process facts.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct HookOutcome {
    /// How the run went.
    pub status: HookStatus,
    /// What the hook said (for a failure: what its dialect makes of it when failing open).
    pub verdict: Verdict,
    /// Why it failed, when it did; becomes the deny reason when the hook's [`FailurePolicy`] closes on it.
    pub failure: Option<String>,
    /// Problems with the hook's answer worth a warning even when it did not fail (unknown
    /// fields, a conflict it caused, ...).
    pub warnings: Vec<String>,
    /// The process facts, for hooks that run a process.
    pub process: Option<ProcessFacts>,
    /// Free-form data the hook returned for the record, not acted on: JSON, or its dialect's
    /// typed record.
    pub metadata: Option<Metadata>,
    /// The records of the hooks this one ran as one (a dialect's list kept as its own
    /// pipeline), in their order: each hook a record of its own ([`HookRecord::inner`]).
    pub inner: Vec<HookRecord>,
}

impl HookOutcome {
    /// A successful run with a verdict.
    pub fn success(verdict: Verdict) -> Self {
        Self::with_status(HookStatus::Success, verdict)
    }

    /// A failed run with a status that is a failure and its reason; the verdict is no opinion.
    pub fn failure(status: HookStatus, reason: impl Into<String>) -> Self {
        let mut outcome = Self::with_status(status, Verdict::no_opinion());
        outcome.failure = Some(reason.into());
        outcome
    }

    /// A hook that did not run.
    pub fn skipped(why: impl Into<String>) -> Self {
        let mut outcome = Self::with_status(HookStatus::Skipped, Verdict::no_opinion());
        outcome.warnings.push(why.into());
        outcome
    }

    /// A hook the harness cancelled (see [`HookStatus::Cancelled`]); `why` says at which
    /// point (before it started, while it ran).
    pub fn cancelled(why: impl Into<String>) -> Self {
        let mut outcome = Self::with_status(HookStatus::Cancelled, Verdict::no_opinion());
        outcome.warnings.push(why.into());
        outcome
    }

    /// A run with a status and a verdict.
    pub fn with_status(status: HookStatus, verdict: Verdict) -> Self {
        Self {
            status,
            verdict,
            failure: None,
            warnings: Vec::new(),
            process: None,
            metadata: None,
            inner: Vec::new(),
        }
    }
}

/// What the record keeps of a hook process's run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ProcessFacts {
    /// How it ended.
    pub exit: Exit,
    /// The end of its stderr (at most [`ProcessFacts::STDERR_TAIL`] characters).
    pub stderr_tail: String,
    /// Whether stdout or stderr went past its cap.
    pub truncated: bool,
    /// Whether leftover processes held its pipes after it exited.
    pub leaked: bool,
    /// Its process id.
    pub pid: u32,
    /// How its processes were contained (`cgroup` or `tree-walk`).
    pub containment: Mechanism,
    /// How many processes it left running after a normal exit, when known.
    pub leftovers: Option<u32>,
    /// The resource limit that stopped it, if one did.
    pub limit: Option<ResourceLimit>,
    /// What the containment could not do for this run, naming the path and the value.
    pub containment_warnings: Vec<String>,
}

impl ProcessFacts {
    /// How many characters of stderr a record keeps.
    pub const STDERR_TAIL: usize = 2000;

    /// The facts of a raw outcome.
    pub fn from_outcome(outcome: &RawOutcome) -> Self {
        Self {
            exit: outcome.exit,
            stderr_tail: outcome.stderr_tail(Self::STDERR_TAIL),
            truncated: outcome.stdout_truncated || outcome.stderr_truncated,
            leaked: outcome.leaked,
            pid: outcome.pid,
            containment: outcome.containment,
            leftovers: outcome.leftovers,
            limit: outcome.limit,
            containment_warnings: outcome.containment_warnings.clone(),
        }
    }
}

/// One hook on the harness's seams: a Claude Code command, a TNSAI script, a native function.
///
/// The trait is object-safe; the dispatcher holds `Arc<dyn Hook>`. Implementations never panic
/// and never return an error: every failure is an outcome with a failure status, so that the
/// dispatcher can apply the hook's failure policy and keep a record.
#[async_trait]
pub trait Hook: Send + Sync + fmt::Debug {
    /// The hook's identity and registration.
    fn info(&self) -> &HookInfo;

    /// Whether the hook is registered for this event at all, beyond its seam and matcher: a
    /// hook whose registration depends on the session (one that lives while a skill or a
    /// sub-agent does, one that runs once) says no, and the dispatcher leaves it out without a
    /// record. Always yes by default.
    fn active(&self, event: &Event) -> bool {
        let _ = event;
        true
    }

    /// Runs the hook on an event the dispatcher matched it to.
    ///
    /// # Cancel safety
    ///
    /// Dropping the future must not leak resources; process hooks rely on the process
    /// engine (`hook-exec`), whose run kills what it started when dropped.
    async fn run(&self, event: &Event) -> HookOutcome;
}

#[async_trait]
impl<T: Hook + ?Sized> Hook for Arc<T> {
    fn info(&self) -> &HookInfo {
        (**self).info()
    }

    fn active(&self, event: &Event) -> bool {
        (**self).active(event)
    }

    async fn run(&self, event: &Event) -> HookOutcome {
        (**self).run(event).await
    }
}

#[async_trait]
impl<T: Hook + ?Sized> Hook for Box<T> {
    fn info(&self) -> &HookInfo {
        (**self).info()
    }

    fn active(&self, event: &Event) -> bool {
        (**self).active(event)
    }

    async fn run(&self, event: &Event) -> HookOutcome {
        (**self).run(event).await
    }
}

/// A hook's record in a dispatch report: what ran, how it went, what it said.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct HookRecord {
    /// Position in configuration order.
    pub position: usize,
    /// The hook's identifier.
    pub id: String,
    /// What it runs (command line, URL, function name).
    pub label: String,
    /// Where it comes from.
    pub source: Source,
    /// How the run went.
    pub status: HookStatus,
    /// The process facts, for hooks that run a process.
    pub process: Option<ProcessFacts>,
    /// Wall-clock time of the run.
    pub duration: Duration,
    /// Why it failed, when it did.
    pub failure: Option<String>,
    /// Warnings about its answer.
    pub warnings: Vec<String>,
    /// The verdict that entered the merge (after the failure policy).
    pub verdict: Verdict,
    /// Free-form data it returned, kept for audit (serialized as its JSON).
    pub metadata: Option<Metadata>,
    /// The records of the hooks it ran as one, in their order (empty for a single hook).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inner: Vec<HookRecord>,
}

impl HookRecord {
    /// The hook whose verdict gave `decision` here: this record, or, for a hook that ran
    /// others as one, the inner hook that decided (by the fold's rule: the last deny or defer,
    /// the first ask or allow), down to a single hook.
    pub fn decided(&self, decision: Decision) -> &HookRecord {
        let gave = |r: &&HookRecord| r.verdict.decision == Some(decision);
        let inner = match decision {
            Decision::Deny | Decision::Defer => self.inner.iter().rev().find(gave),
            Decision::Ask | Decision::Allow => self.inner.iter().find(gave),
        };
        inner.map_or(self, |r| r.decided(decision))
    }
}
