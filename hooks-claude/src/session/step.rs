//! What one session step returns.

use std::collections::BTreeMap;

pub use hook_protocol::GuardState;
use hook_protocol::Report;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::{AsyncResult, ModelText, Record, Shown};

/// A background hook's result, delivered on the step after it ended: what it said, and what
/// Claude Code shows the model for it ([`crate::Presenter::late`]: a bare `role: "system"`
/// message per text).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Late {
    /// What the hook said when it ended.
    pub result: AsyncResult,
    /// What the model gets from it, on this step's request.
    pub shown: Shown,
}

/// The result of one session step: the event's typed decision, what Claude Code shows after
/// it, and what the session did between the events.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Step<D> {
    /// The event's typed decision (for `Stop` and `SubagentStop`, after the loop guard).
    pub decision: D,
    /// The fold and one record per hook that matched. Hooks the harness cancelled have the
    /// status `cancelled` ([`Step::cancelled`]).
    pub report: Report,
    /// What Claude Code shows the model and the user after this event, word for word.
    pub shown: Shown,
    /// Background hooks that ended since the previous step: their results, for this step's
    /// request to the model.
    pub late: Vec<Late>,
    /// The Stop loop guard, on `Stop` and `SubagentStop` steps.
    pub guard: Option<GuardState>,
    /// What the shell tool gets from the `CLAUDE_ENV_FILE`s from now on: every variable their
    /// `export`s set (the whole session's, not only this step's). The harness applies them to
    /// each command of its shell tool; hooks never get them.
    pub env_file_exports: BTreeMap<String, String>,
    /// Problems the session met on this step: a skill that could not be loaded, env files
    /// that could not be read.
    pub warnings: Vec<String>,
    pub(crate) input: Map<String, Value>,
}

impl<D> Step<D> {
    /// The stdin object the hooks received.
    pub fn input(&self) -> &Map<String, Value> {
        &self.input
    }

    /// Per-hook records in Claude Code's terms, in configuration order.
    pub fn records(&self) -> Vec<Record> {
        self.report.records.iter().map(Record::from_record).collect()
    }

    /// Who decided: the hook whose verdict gave the step its decision, down to the hook of a
    /// TNSAI list that did ([`Report::decided_by`]); its label, source (dialect, file or
    /// plugin) and verdict. `None` when no hook decided.
    pub fn decided_by(&self) -> Option<Record> {
        self.report.decided_by().map(Record::from_record)
    }

    /// Whether the harness cancelled the step before every hook finished: the decision holds
    /// only what the finished hooks said, and the step counts as interrupted.
    pub fn cancelled(&self) -> bool {
        self.report.cancelled()
    }

    /// Everything the step adds for the model, in order: what Claude Code shows after the event
    /// ([`Step::shown`]), then what background hooks said since the previous step
    /// ([`Step::late`]). [`Conversation::step`](crate::conversation::Conversation::step) puts
    /// each where Claude Code puts it.
    pub fn for_model(&self) -> Vec<ModelText> {
        let late = self.late.iter().flat_map(|l| l.shown.model.iter());
        self.shown.model.iter().chain(late).cloned().collect()
    }

    /// Whether the guard overrode a block and ended the turn.
    pub fn overridden(&self) -> bool {
        self.guard.is_some_and(|g| g.overridden)
    }
}
