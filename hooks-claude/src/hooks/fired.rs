//! What firing an event returns: the decision with its report ([`Fired`], [`RawRun`]), one
//! hook's run in Claude Code's terms ([`Record`]), and what would run ([`Candidate`]).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use hook_protocol::{HookRecord, HookStatus, Report, Source};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::StopDecision;
use crate::hooks::hook::NotRun;
use crate::present::{Presenter, Shown};
use crate::wire::conversion::InputObject;
use crate::wire::decode::RunRecord;

/// A decision and the dispatch report it was read from.
#[derive(Clone)]
#[non_exhaustive]
pub struct Fired<D> {
    /// The event's typed decision.
    pub decision: D,
    /// The fold and one record per hook that matched.
    pub report: Report,
    /// The stdin object the hooks received.
    pub(crate) input: InputObject,
    pub(crate) presenter: Arc<Presenter>,
}

impl<D: std::fmt::Debug> std::fmt::Debug for Fired<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fired")
            .field("event", &self.input.name())
            .field("decision", &self.decision)
            .field("report", &self.report)
            .finish_non_exhaustive()
    }
}

impl<D> Fired<D> {
    /// Per-hook records in Claude Code's terms, in configuration order.
    pub fn records(&self) -> Vec<Record> {
        self.report.records.iter().map(Record::from_record).collect()
    }

    /// The stdin object the hooks received. An event fired from a typed input reads it back
    /// from the stdin bytes on the first call (the engine itself never needs it).
    pub fn input(&self) -> &Map<String, Value> {
        self.input.object()
    }
}

impl<D: 'static> Fired<D> {
    /// What Claude Code shows after this event: the texts it adds to the conversation, each
    /// where it puts it, and the texts it shows the user, word for word
    /// ([`crate::present`]). A long text is saved under the engine's Claude home on each
    /// call; the rendering reflects the decision as it is at the call (the Stop loop guard's
    /// override included).
    pub fn shown(&self) -> Shown {
        let guard = (&self.decision as &dyn std::any::Any)
            .downcast_ref::<StopDecision>()
            .and_then(StopDecision::guard_override);
        self.presenter.shown_with(&self.report, &self.input, guard)
    }
}

/// One hook's run, in Claude Code's terms.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Record {
    /// Position in configuration order.
    pub position: usize,
    /// The hook's identifier.
    pub id: String,
    /// The command as written.
    pub command: String,
    /// Where it comes from.
    pub source: Source,
    /// `success`, `blocking_error`, `non_blocking_error`, `timed_out`, `spawn_failed`,
    /// `skipped`, `cancelled`.
    pub status: HookStatus,
    /// The exit code, when it exited with one.
    pub exit_code: Option<i32>,
    /// The HTTP status, for an `http` hook that got an answer.
    pub http_status: Option<u16>,
    /// How long it ran.
    pub duration: Duration,
    /// The blocking reason or error notice.
    pub message: Option<String>,
    /// Warnings about its answer.
    pub warnings: Vec<String>,
    /// The end of its stderr.
    pub stderr_tail: String,
    /// What it said, as it entered the fold: its decision, reason, context, rewrite.
    pub verdict: hook_protocol::Verdict,
    /// The hooks it ran as one (a TNSAI list on the engine), each a record of its own.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inner: Vec<Record>,
}

impl Record {
    /// The Claude view of a core record (hooks of other kinds get the status the core gave).
    pub fn from_record(r: &HookRecord) -> Self {
        let meta = RunRecord::of_metadata(r.metadata.as_ref());
        let status = meta.as_ref().map_or(
            match r.status {
                hook_protocol::HookStatus::Success => HookStatus::Success,
                hook_protocol::HookStatus::Blocked => HookStatus::Blocked,
                hook_protocol::HookStatus::TimedOut => HookStatus::TimedOut,
                hook_protocol::HookStatus::SpawnFailed => HookStatus::SpawnFailed,
                hook_protocol::HookStatus::Skipped => HookStatus::Skipped,
                hook_protocol::HookStatus::Cancelled => HookStatus::Cancelled,
                _ => HookStatus::Failed,
            },
            |m| m.status,
        );
        Self {
            position: r.position,
            id: r.id.clone(),
            command: r.label.clone(),
            source: r.source.clone(),
            status,
            exit_code: meta.as_ref().and_then(|m| m.exit_code),
            http_status: meta.as_ref().and_then(|m| m.http_status),
            duration: r.duration,
            message: meta.and_then(|m| m.message.clone()).or_else(|| r.failure.clone()),
            warnings: r.warnings.clone(),
            stderr_tail: r.process.as_ref().map(|p| p.stderr_tail.clone()).unwrap_or_default(),
            verdict: r.verdict.clone(),
            inner: r.inner.iter().map(Record::from_record).collect(),
        }
    }
}

/// What a raw run ([`Engine::run_json`](crate::Engine::run_json)) returns.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct RawRun {
    /// The event's name.
    pub event: String,
    /// The exact object sent on stdin.
    pub input: Map<String, Value>,
    /// The fold, in neutral terms.
    pub report: Report,
    /// Per-hook records.
    pub records: Vec<Record>,
    #[serde(skip)]
    pub(crate) presenter: Arc<Presenter>,
}

impl RawRun {
    /// The reason of the merged decision, in the hook's own words: the one Claude Code
    /// shows (for a deny or block, the last hook's in configuration order, exit 2 before a
    /// JSON answer; for an ask, the first). Every hook's reason is in
    /// [`hook_protocol::Merged::reasons`].
    pub fn reason(&self) -> Option<String> {
        crate::wire::decision::shown_reason(&self.report)
    }

    /// What Claude Code shows after this event ([`Fired::shown`]).
    pub fn shown(&self) -> Shown {
        self.presenter.shown(&self.report, &self.input)
    }
}

/// A hook that would be considered for an event, after matching.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Candidate {
    /// The hook's identifier.
    pub id: String,
    /// The command as written.
    pub command: String,
    /// The file it comes from.
    pub file: PathBuf,
    /// Its plugin, if any.
    pub plugin: Option<String>,
    /// `None` when it runs; else why not (a duplicate, an `if` that does not match, ...).
    pub not_run: Option<NotRun>,
}
