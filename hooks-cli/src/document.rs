//! The `run` document: one event's merged decision and per-hook records, as text or JSON.
//!
//! The JSON shape is stable (documented in `docs/cli.md`) and pinned by a snapshot test.

use std::fmt::Write as _;

use crate::output;
use hook_protocol::{DecisionWord, EventRun, HookStatus, LateLine, Placement, Shown};
use serde::Serialize;
use serde_json::{Map, Value};

/// One hook that ran, in configuration order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct HookLine {
    /// The dialect the hook is of, and its file: in the JSON document with `--dialect all`,
    /// where the hooks of several dialects run on one event.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) dialect: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) file: Option<String>,
    pub(crate) command: String,
    pub(crate) status: HookStatus,
    pub(crate) exit_code: Option<i32>,
    pub(crate) duration_ms: u64,
    /// Not in the JSON document: shown in text output only.
    #[serde(skip)]
    pub(crate) note: Option<String>,
    /// Where the hook comes from, for [`RunDocument::with_dialects`].
    #[serde(skip)]
    pub(crate) source: Option<hook_protocol::Source>,
}

/// A background hook's result, delivered with a document: in `hooks run`, those that ended
/// within `--async-wait`; in `hooks replay`, those that ended since the row before.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct AsyncLine {
    /// Its command.
    pub(crate) command: String,
    /// What the model gets from it.
    pub(crate) shown: Shown,
}

impl AsyncLine {
    /// The lines of what a dialect delivered.
    pub(crate) fn all(late: Vec<LateLine>) -> Vec<Self> {
        late.into_iter().map(|l| Self { command: l.command, shown: l.shown }).collect()
    }
}

/// The document `hooks run` prints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct RunDocument {
    pub(crate) event: String,
    pub(crate) decision: DecisionWord,
    pub(crate) reason: Option<String>,
    pub(crate) additional_context: Vec<String>,
    pub(crate) updated_input: Option<Value>,
    #[serde(rename = "continue")]
    pub(crate) continue_: bool,
    pub(crate) stop_reason: Option<String>,
    /// The hooks' own `systemMessage`s (Claude Code's notices are in `shown.user`).
    pub(crate) system_messages: Vec<String>,
    /// What the agent shows the model and the user; `null` for a dialect whose agent shows
    /// nothing of its own (TNSAI).
    pub(crate) shown: Option<Shown>,
    pub(crate) hooks: Vec<HookLine>,
    /// Background (`async`) hooks' results: they never change the decision.
    pub(crate) async_results: Vec<AsyncLine>,
    /// Not in the JSON document: the subject matchers were tested against, for tables.
    #[serde(skip)]
    pub(crate) subject: Option<String>,
    /// Not in the JSON document: wall-clock time of the whole event, for tables.
    #[serde(skip)]
    pub(crate) elapsed_ms: u64,
    /// How serious a block is (`LOW` ... `CRITICAL`), when a hook said (TNSAI hooks do).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) severity: Option<String>,
    /// The hooks' answers in words of the agent's own (`agent_message`, `modified_response`),
    /// each a field of the document when present.
    #[serde(flatten)]
    pub(crate) dialect_fields: Map<String, Value>,
}

impl RunDocument {
    /// The document of a dialect's run (`mixed`: of several dialects' hooks, `--dialect all`,
    /// see [`RunDocument::with_dialects`]); the run's warnings go to stderr.
    pub(crate) fn of(run: EventRun, mixed: bool) -> Self {
        let decided_by = run.decided_by.clone();
        let doc = Self::new(run);
        if mixed { doc.with_dialects(decided_by.as_ref()) } else { doc }
    }

    /// The document of a dialect's run; the run's warnings go to stderr.
    pub(crate) fn new(run: EventRun) -> Self {
        for warning in &run.warnings {
            output::errln!("hooks: warning: {warning}");
        }
        Self {
            event: run.event,
            decision: run.decision,
            reason: run.reason,
            additional_context: run.context,
            updated_input: run.updated_input,
            continue_: run.halt.is_none(),
            stop_reason: run.halt.flatten(),
            system_messages: run.messages,
            shown: run.shown,
            hooks: run
                .hooks
                .into_iter()
                .map(|h| HookLine {
                    dialect: None,
                    file: None,
                    source: h.source,
                    command: h.command,
                    status: h.status,
                    exit_code: h.exit_code,
                    duration_ms: u64::try_from(h.duration.as_millis()).unwrap_or(u64::MAX),
                    note: h.note,
                })
                .collect(),
            async_results: Vec::new(),
            subject: run.subject,
            elapsed_ms: 0,
            severity: run.severity.map(|s| s.as_str().to_uppercase()),
            dialect_fields: run.dialect_fields,
        }
    }

    /// The document of a run whose hooks are of several dialects (`--dialect all`): each hook
    /// names its dialect and file, and the document the hook that decided.
    pub(crate) fn with_dialects(mut self, decided_by: Option<&hook_protocol::HookLine>) -> Self {
        for hook in &mut self.hooks {
            if let Some(source) = &hook.source {
                hook.dialect = Some(source.dialect.clone());
                hook.file.clone_from(&source.origin);
            }
        }
        if let Some(line) = decided_by {
            let mut by = Map::new();
            if let Some(source) = &line.source {
                by.insert("dialect".into(), source.dialect.clone().into());
                by.insert("file".into(), source.origin.clone().map_or(Value::Null, Value::from));
            }
            by.insert("command".into(), line.command.clone().into());
            self.dialect_fields.insert("decided_by".into(), Value::Object(by));
        }
        self
    }

    /// The process exit status the document calls for: 0 proceed, 2 blocked, 3 needs a person.
    pub(crate) fn exit_status(&self) -> u8 {
        if !self.continue_ {
            return 2;
        }
        match self.decision {
            DecisionWord::Allow | DecisionWord::NoOpinion => 0,
            DecisionWord::Deny | DecisionWord::Block => 2,
            DecisionWord::Ask | DecisionWord::Defer => 3,
        }
    }

    /// The slowest hook, for tables.
    pub(crate) fn slowest(&self) -> Option<&HookLine> {
        self.hooks.iter().max_by_key(|h| h.duration_ms)
    }

    /// The document as one line of JSON.
    pub(crate) fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }

    /// The document for a person.
    pub(crate) fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{}: {}", self.event, self.decision.as_str());
        if let Some(reason) = &self.reason {
            let _ = writeln!(out, "  reason: {}", indent(reason));
        }
        if let Some(severity) = &self.severity {
            let _ = writeln!(out, "  severity: {severity}");
        }
        for ctx in &self.additional_context {
            let _ = writeln!(out, "  context: {}", indent(ctx));
        }
        if let Some(input) = &self.updated_input {
            let _ = writeln!(out, "  updated input: {input}");
        }
        if !self.continue_ {
            let _ = writeln!(
                out,
                "  continue: false{}",
                self.stop_reason.as_deref().map(|r| format!(" ({r})")).unwrap_or_default()
            );
        }
        for msg in &self.system_messages {
            let _ = writeln!(out, "  message: {}", indent(msg));
        }
        for (field, value) in &self.dialect_fields {
            let value = value.as_str().map_or_else(|| value.to_string(), str::to_owned);
            let _ = writeln!(out, "  {}: {}", field.replace('_', " "), indent(&value));
        }
        if self.hooks.is_empty() {
            let _ = writeln!(out, "  no hook matched");
        }
        for hook in &self.hooks {
            let exit = hook.exit_code.map(|c| format!(" exit {c}")).unwrap_or_default();
            let dialect = hook.dialect.as_deref().map(|d| format!("{d}: ")).unwrap_or_default();
            let _ = writeln!(
                out,
                "  hook {:<18} {:>6} ms{exit}  {dialect}{}",
                hook.status.as_str(),
                hook.duration_ms,
                hook.command
            );
            if let Some(note) = &hook.note {
                let _ = writeln!(out, "       {}", indent(note));
            }
        }
        if let Some(shown) = &self.shown {
            write_shown(&mut out, shown);
        }
        for late in &self.async_results {
            let _ = writeln!(out, "  async hook {} ended:", late.command);
            write_shown(&mut out, &late.shown);
        }
        out
    }
}

/// The `model sees:` block (and `user sees:` when there is any), each text whole, its lines
/// indented under its placement.
fn write_shown(out: &mut String, shown: &Shown) {
    if shown.model.is_empty() {
        let _ = writeln!(out, "  model sees: nothing");
    } else {
        let _ = writeln!(out, "  model sees:");
    }
    for text in &shown.model {
        let place = match (text.placement, text.is_error) {
            (Placement::ToolResult, true) => "tool_result (error)",
            (placement, _) => placement.as_str(),
        };
        let _ = writeln!(out, "    {place}:");
        let _ = writeln!(out, "      {}", indent_by(&text.text, 6));
    }
    if !shown.user.is_empty() {
        let _ = writeln!(out, "  user sees:");
        for text in &shown.user {
            let _ = writeln!(out, "    {}", indent_by(text, 4));
        }
    }
}

fn indent(text: &str) -> String {
    indent_by(text, 4)
}

fn indent_by(text: &str, spaces: usize) -> String {
    let pad = format!("\n{:spaces$}", "");
    text.trim_end().replace('\n', &pad)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc(decision: DecisionWord, continue_: bool) -> RunDocument {
        RunDocument {
            event: "PreToolUse".into(),
            decision,
            reason: None,
            additional_context: vec![],
            updated_input: None,
            continue_,
            stop_reason: None,
            system_messages: vec![],
            shown: None,
            hooks: vec![],
            async_results: vec![],
            subject: None,
            elapsed_ms: 0,
            severity: None,
            dialect_fields: Map::new(),
        }
    }

    #[test]
    fn exit_status_per_decision() {
        assert_eq!(doc(DecisionWord::NoOpinion, true).exit_status(), 0);
        assert_eq!(doc(DecisionWord::Allow, true).exit_status(), 0);
        assert_eq!(doc(DecisionWord::Deny, true).exit_status(), 2);
        assert_eq!(doc(DecisionWord::Block, true).exit_status(), 2);
        assert_eq!(doc(DecisionWord::Ask, true).exit_status(), 3);
        assert_eq!(doc(DecisionWord::Defer, true).exit_status(), 3);
        assert_eq!(doc(DecisionWord::Allow, false).exit_status(), 2);
    }

    #[test]
    fn json_has_exactly_the_documented_keys() {
        let mut d = doc(DecisionWord::Deny, true);
        d.hooks.push(HookLine {
            dialect: None,
            file: None,
            command: "guard.sh".into(),
            status: HookStatus::Blocked,
            exit_code: Some(2),
            duration_ms: 5,
            note: Some("hidden".into()),
            source: Some(hook_protocol::Source::new("claude", Some("s.json".into()))),
        });
        let v: Value = serde_json::from_str(&d.to_json()).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "event",
                "decision",
                "reason",
                "additional_context",
                "updated_input",
                "continue",
                "stop_reason",
                "system_messages",
                "shown",
                "hooks",
                "async_results"
            ]
        );
        assert_eq!(
            v["hooks"][0],
            json!({"command": "guard.sh", "status": "blocking_error", "exit_code": 2, "duration_ms": 5}),
            "one dialect's document does not name the dialect"
        );
        let mixed = d.with_dialects(None);
        let v: Value = serde_json::from_str(&mixed.to_json()).unwrap();
        assert_eq!(
            (&v["hooks"][0]["dialect"], &v["hooks"][0]["file"]),
            (&json!("claude"), &json!("s.json"))
        );
    }
}
