//! What one hook said: the neutral verdict.

use std::fmt;

use serde::Serialize;
use serde_json::Value;

/// A hook's decision, ordered by restrictiveness: `Allow < Ask < Defer < Deny`.
///
/// "No opinion" is not a decision: it is `Option::<Decision>::None`, below `Allow`, so that a
/// hook that says nothing never outranks one that allows. On seams that cannot ask (a prompt, a
/// turn end), `Deny` is the block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Let the action proceed.
    Allow,
    /// Ask the person in front of the harness.
    Ask,
    /// Hand the decision to whoever drives the harness (e.g. end a headless run and resume it
    /// later).
    Defer,
    /// Refuse the action (on a turn end: keep going; on a prompt: block it).
    Deny,
}

impl Decision {
    /// The decision's stable name.
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Ask => "ask",
            Decision::Defer => "defer",
            Decision::Deny => "deny",
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How serious a deny is, when the hook's dialect says (TNSAI's `severity`), ordered
/// `Low < Medium < High < Critical`. It does not change the decision: a harness may use it to
/// choose how loudly to report the refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Minor.
    Low,
    /// Notable.
    Medium,
    /// Serious.
    High,
    /// The most serious.
    Critical,
}

impl Severity {
    /// The severity's stable name.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Low => "low",
            Severity::Medium => "medium",
            Severity::High => "high",
            Severity::Critical => "critical",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A request to stop the harness's processing altogether (`continue: false`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[non_exhaustive]
pub struct Halt {
    /// What to tell the user, when the hook said.
    pub reason: Option<String>,
}

impl Halt {
    /// A halt with an optional reason.
    pub fn new(reason: Option<String>) -> Self {
        Self { reason }
    }
}

/// One hook's answer, in neutral terms.
///
/// Built by a dialect from a hook's output (or by a native hook directly) and folded with the
/// other hooks' answers by [`crate::Merger`].
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct Verdict {
    /// The decision, or `None` for no opinion.
    pub decision: Option<Decision>,
    /// Why, addressed to the model or the user depending on the seam.
    pub reason: Option<String>,
    /// Text to add to the model's context, in the order the hook gave it.
    pub context: Vec<String>,
    /// A replacement for the tool input (on the seams that run before a tool).
    pub updated_input: Option<Value>,
    /// Stop the harness's processing altogether.
    pub halt: Option<Halt>,
    /// Messages for the user (warnings), not for the model.
    pub messages: Vec<String>,
    /// Run no hook of this event that comes after this one in configuration order.
    pub end_chain: bool,
    /// How serious the decision is, when the hook said (see [`Severity`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub severity: Option<Severity>,
    /// At a turn's or a sub-agent's end: a prompt to go on with, as the next user message (a
    /// follow-up, as Cursor's `followup_message`), rather than an instruction to keep working.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub follow_up: Option<String>,
}

impl Verdict {
    /// No opinion: the identity of the merge.
    pub fn no_opinion() -> Self {
        Self::default()
    }

    /// A verdict with a decision and an optional reason.
    pub fn decide(decision: Decision, reason: Option<String>) -> Self {
        Self { decision: Some(decision), reason, ..Self::default() }
    }

    /// An allow.
    pub fn allow() -> Self {
        Self::decide(Decision::Allow, None)
    }

    /// A deny with a reason.
    pub fn deny(reason: impl Into<String>) -> Self {
        Self::decide(Decision::Deny, Some(reason.into()))
    }

    /// A verdict that only adds context.
    pub fn context(text: impl Into<String>) -> Self {
        Self { context: vec![text.into()], ..Self::default() }
    }

    /// Whether the verdict says nothing at all.
    pub fn is_empty(&self) -> bool {
        self == &Self::default()
    }
}

/// Where a hook comes from: the dialect that runs it and, within it, its origin.
///
/// Attached to everything a hook injects, so a harness can label it: context from a hook is
/// never the user's.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[non_exhaustive]
pub struct Source {
    /// The dialect or kind of hook (`claude`, `tnsai`, `native`, ...).
    pub dialect: String,
    /// Within the dialect: a plugin name, a settings file, a registration label.
    pub origin: Option<String>,
}

impl Source {
    /// A source naming its dialect and, optionally, an origin within it.
    pub fn new(dialect: impl Into<String>, origin: Option<String>) -> Self {
        Self { dialect: dialect.into(), origin }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.origin {
            Some(origin) => write!(f, "{}:{}", self.dialect, origin),
            None => f.write_str(&self.dialect),
        }
    }
}
