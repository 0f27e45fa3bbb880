//! Typed hook output: the universal fields, the deprecated top-level `decision`, and each
//! event's `hookSpecificOutput` ([JSON output](crate::compatibility#json-output)), parsed strictly
//! as Claude Code does: a field of the wrong type, an unknown decision value, a
//! `hookSpecificOutput` without `hookEventName` or naming another event rejects the whole output;
//! unknown extra fields are fine ([JSON output](crate::compatibility#json-output)).

mod specific;
mod verdict;

pub use specific::{
    ContextOutput, ElicitationAction, ElicitationOutput, MessageDisplayOutput, ModelSwitchOutput,
    PermissionBehavior, PermissionDecisionValue, PermissionDeniedOutput, PermissionRequestOutput,
    PostToolUseOutput, PreToolUseOutput, PromptOutput, SessionStartOutput, Specific, WatchOutput,
    WorktreeCreateOutput,
};
pub(crate) use verdict::to_verdict;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::{EventName, Keeps};

/// The deprecated top-level `decision`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TopDecision {
    /// PreToolUse only: allow (deprecated).
    Approve,
    /// Block the action.
    Block,
}

/// A hook's JSON output.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct HookOutput {
    /// `continue`: `false` stops processing altogether.
    #[serde(rename = "continue", default, skip_serializing_if = "Option::is_none")]
    pub continue_: Option<bool>,
    /// `stopReason`: shown to the user with `continue: false`.
    #[serde(rename = "stopReason", default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// `suppressOutput`: accepted, no effect.
    #[serde(rename = "suppressOutput", default, skip_serializing_if = "Option::is_none")]
    pub suppress_output: Option<bool>,
    /// `systemMessage`: a warning for the user.
    #[serde(rename = "systemMessage", default, skip_serializing_if = "Option::is_none")]
    pub system_message: Option<String>,
    /// `decision`: `block` (or the deprecated `approve`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<TopDecision>,
    /// `reason`: why, with `decision`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `terminalSequence`: an escape sequence for the terminal.
    #[serde(rename = "terminalSequence", default, skip_serializing_if = "Option::is_none")]
    pub terminal_sequence: Option<String>,
    /// `hookSpecificOutput`, already checked against the event.
    #[serde(rename = "hookSpecificOutput", default, skip_serializing_if = "Option::is_none")]
    pub specific: Option<Specific>,
}

/// Why an output was rejected: the field and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid hook output: {message}")]
#[non_exhaustive]
pub struct OutputError {
    /// What is wrong, naming the field and the value.
    pub message: String,
}

impl HookOutput {
    /// Parses and validates an output object for an event (`None`: an event this crate does
    /// not know, whose `hookSpecificOutput` is kept untyped).
    ///
    /// # Errors
    ///
    /// [`OutputError`] naming the offending field.
    pub fn parse(
        event: Option<EventName>,
        map: &Map<String, Value>,
        name: &str,
    ) -> Result<Self, OutputError> {
        let f = Fields(map);
        Ok(HookOutput {
            continue_: f.get("continue")?,
            stop_reason: f.get("stopReason")?,
            suppress_output: f.get("suppressOutput")?,
            system_message: f.get("systemMessage")?,
            decision: f.get("decision")?,
            reason: f.get("reason")?,
            terminal_sequence: f.get("terminalSequence")?,
            specific: match crate::wire::lookup::field(map, "hookSpecificOutput") {
                None => None,
                Some(v) => Some(Specific::parse(event, name, v)?),
            },
        })
    }

    /// The output without the fields the event discards
    /// ([Output per event](crate::compatibility#output-per-event)).
    pub fn discard_for(mut self, event: Option<EventName>) -> Self {
        let Some(event) = event else { return self };
        match event.keeps() {
            Keeps::All => {}
            Keeps::NoContinue => {
                self.continue_ = None;
                self.stop_reason = None;
            }
            Keeps::NoSystemMessageNoContinue => {
                self.continue_ = None;
                self.stop_reason = None;
                self.system_message = None;
                if matches!(event, EventName::Elicitation | EventName::ElicitationResult) {
                    self.reason = None;
                }
            }
            Keeps::TerminalOnly => {
                return HookOutput {
                    terminal_sequence: self.terminal_sequence,
                    ..HookOutput::default()
                };
            }
            Keeps::Nothing => return HookOutput::default(),
        }
        if !event.honours_top_level_block() {
            self.decision = None;
            self.reason = None;
        }
        self
    }
}

/// Reads one field at a time, so that an error names the field.
pub(crate) struct Fields<'a>(pub(crate) &'a Map<String, Value>);

impl Fields<'_> {
    /// The field's value, `None` when absent (or `null`).
    pub(crate) fn get<T: serde::de::DeserializeOwned>(
        &self,
        key: &str,
    ) -> Result<Option<T>, OutputError> {
        match crate::wire::lookup::field(self.0, key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => T::deserialize(v).map(Some).map_err(|e| OutputError {
                message: format!("`{key}`: {} (got `{}`)", strip(&e.to_string()), short(v)),
            }),
        }
    }
}

/// A value for a message, cut to 80 characters.
pub(crate) fn short(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 80 {
        let mut cut: String = text.chars().take(80).collect();
        cut.push('…');
        cut
    } else {
        text
    }
}

fn strip(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_owned(),
        None => message.to_owned(),
    }
}
