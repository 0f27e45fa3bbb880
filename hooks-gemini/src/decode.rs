//! What a Gemini CLI hook's run means: its output read by Gemini's rules
//! ([Exit codes and output](crate::compatibility#exit-codes-and-output)), as a neutral verdict
//! and the record Gemini's merge and texts are made from.
//!
//! The text read is stdout, trimmed, or stderr when stdout is empty. A JSON object there (a
//! JSON string holding one is read once more) is the hook's answer whatever its exit code.
//! Anything else is converted by the exit code: 0 allows, the text a message for the user; 1
//! allows, the text a warning (`Warning: …`); any other code denies, the text the reason. Exit
//! 0 with nothing on either stream is no answer. A timeout lets the action go on.

use hook_protocol::{Decision, Exit, Halt, HookOutcome, HookStatus, RawOutcome, Verdict};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::EventName;

/// What Gemini's merge and texts need of one hook's run, kept in its record.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RunRecord {
    /// The command as configured.
    pub command: String,
    /// Its `name`, when it has one (Gemini names a hook by it, else by its command).
    pub name: Option<String>,
    /// Its exit code, when it exited with one.
    pub exit_code: Option<i32>,
    /// Why it failed, when it did.
    pub error: Option<String>,
    /// Its answer: the JSON object it printed, or the one its plain text converts to.
    pub output: Option<Map<String, Value>>,
}

impl hook_protocol::RecordData for RunRecord {
    fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// The reason Gemini gives a block whose hook gave none.
pub const NO_REASON: &str = "No reason provided";

/// The text a run is read from: stdout, trimmed, or stderr when stdout is empty.
fn text_of(raw: &RawOutcome) -> String {
    let stdout = String::from_utf8_lossy(&raw.stdout);
    match stdout.trim() {
        "" => raw.stderr_text().trim().to_owned(),
        out => out.to_owned(),
    }
}

/// The JSON object a text holds (a JSON string holding one is read once more).
fn object_of(text: &str) -> Option<Map<String, Value>> {
    match serde_json::from_str::<Value>(text).ok()? {
        Value::Object(object) => Some(object),
        Value::String(inner) => match serde_json::from_str::<Value>(&inner).ok()? {
            Value::Object(object) => Some(object),
            _ => None,
        },
        _ => None,
    }
}

/// The answer a run gives: its JSON object, or its plain text converted by its exit code
/// (`None`: no answer).
pub fn answer_of(code: i32, text: &str) -> Option<Map<String, Value>> {
    if let Some(object) = object_of(text) {
        return Some(object);
    }
    let converted = match (code, text) {
        (0, "") => return None,
        (0, text) => json!({"decision": "allow", "systemMessage": text}),
        (1, text) => json!({"decision": "allow", "systemMessage": format!("Warning: {text}")}),
        (_, text) => json!({"decision": "deny", "reason": text}),
    };
    converted.as_object().cloned()
}

fn text<'a>(object: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    object.get(key).and_then(Value::as_str).filter(|t| !t.is_empty())
}

/// The reason of an answer as Gemini gives it: `stopReason` when set, else `reason`.
pub(crate) fn reason_of(object: &Map<String, Value>) -> Option<&str> {
    text(object, "stopReason").or_else(|| text(object, "reason"))
}

/// The answer's `hookSpecificOutput`, when it is an object.
pub(crate) fn specific(object: &Map<String, Value>) -> Option<&Map<String, Value>> {
    object.get("hookSpecificOutput").and_then(Value::as_object)
}

/// How Gemini reads one run of a hook on `event`: the outcome, with a [`RunRecord`] as its
/// metadata. For a program that ran the hook itself.
pub fn decode_outcome(event: EventName, raw: &RawOutcome) -> HookOutcome {
    decode(event, raw, RunRecord::default(), crate::DEFAULT_TIMEOUT)
}

/// Reads a run of a hook.
pub(crate) fn decode(
    event: EventName,
    raw: &RawOutcome,
    mut record: RunRecord,
    timeout: std::time::Duration,
) -> HookOutcome {
    record.exit_code = raw.exit.code();
    let (status, verdict, error) = match raw.exit {
        Exit::TimedOut { .. } => (
            HookStatus::TimedOut,
            Verdict::no_opinion(),
            Some(format!("Hook timed out after {}ms", timeout.as_millis())),
        ),
        Exit::Code { code } => {
            record.output = answer_of(code, &text_of(raw));
            let verdict =
                record.output.as_ref().map_or_else(Verdict::no_opinion, |o| verdict(event, o));
            let status = match code {
                0 => HookStatus::Success,
                _ if verdict.decision == Some(Decision::Deny) => HookStatus::Blocked,
                _ => HookStatus::Failed,
            };
            let error = (code != 0).then(|| format!("hook exited with code {code}"));
            (status, verdict, error)
        }
        _ => {
            (HookStatus::Failed, Verdict::no_opinion(), Some(format!("hook ended by {}", raw.exit)))
        }
    };
    record.error.clone_from(&error);
    hook_kit::Reading::new(status, verdict, error).outcome(raw, record)
}

/// A hook that could not start.
pub(crate) fn spawn_failed(error: &str, mut record: RunRecord) -> HookOutcome {
    let why = format!("hook could not start: {error}");
    record.error = Some(why.clone());
    hook_kit::Reading::unstarted(why, record)
}

/// An answer in the core's words, by the event's rules.
fn verdict(event: EventName, object: &Map<String, Value>) -> Verdict {
    let mut verdict = Verdict::no_opinion();
    let reason = reason_of(object).map(str::to_owned);
    match text(object, "decision") {
        Some("deny" | "block") => {
            verdict.decision = Some(Decision::Deny);
            verdict.reason = Some(reason.clone().unwrap_or_else(|| NO_REASON.to_owned()));
        }
        Some("ask") => {
            verdict.decision = Some(Decision::Ask);
            verdict.reason.clone_from(&reason);
        }
        Some("allow") => verdict.decision = Some(Decision::Allow),
        _ => {}
    }
    if object.get("continue") == Some(&Value::Bool(false)) {
        verdict.halt = Some(Halt::new(text(object, "stopReason").map(str::to_owned)));
    }
    if let Some(message) = text(object, "systemMessage") {
        verdict.messages.push(message.to_owned());
    }
    if let Some(specific) = specific(object) {
        // BeforeTool's context is dropped, as Gemini drops it.
        if let (Some(context), false) =
            (text(specific, "additionalContext"), event == EventName::BeforeTool)
        {
            verdict.context.push(context.to_owned());
        }
        if event == EventName::BeforeTool
            && let Some(input) = specific.get("tool_input").filter(|i| i.is_object())
        {
            verdict.updated_input = Some(input.clone());
        }
    }
    verdict
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_converted_by_the_exit_code_and_json_is_read_on_any_exit() {
        assert_eq!(answer_of(0, ""), None);
        assert_eq!(
            answer_of(0, "hi"),
            json!({"decision": "allow", "systemMessage": "hi"}).as_object().cloned()
        );
        assert_eq!(
            answer_of(1, "careful"),
            json!({"decision": "allow", "systemMessage": "Warning: careful"}).as_object().cloned()
        );
        for code in [2, 3, 127] {
            assert_eq!(
                answer_of(code, "no"),
                json!({"decision": "deny", "reason": "no"}).as_object().cloned()
            );
        }
        let deny = r#"{"decision": "deny", "reason": "r"}"#;
        assert_eq!(
            answer_of(1, deny),
            json!({"decision": "deny", "reason": "r"}).as_object().cloned()
        );
        let nested = serde_json::to_string(deny).unwrap_or_default();
        assert_eq!(answer_of(0, &nested), answer_of(0, deny), "a JSON string is read once more");
        assert_eq!(
            answer_of(0, "{broken"),
            json!({"decision": "allow", "systemMessage": "{broken"}).as_object().cloned()
        );
    }

    #[test]
    fn stop_reason_is_the_reason_when_set_and_before_tool_drops_its_context() {
        let object = json!({"decision": "block", "reason": "r", "stopReason": "s",
            "hookSpecificOutput": {"additionalContext": "c", "tool_input": {"command": "ls"}}});
        let object = object.as_object().cloned().unwrap_or_default();
        let v = verdict(EventName::BeforeTool, &object);
        assert_eq!((v.decision, v.reason.as_deref()), (Some(Decision::Deny), Some("s")));
        assert!(v.context.is_empty());
        assert_eq!(v.updated_input, Some(json!({"command": "ls"})));
        let after = verdict(EventName::AfterTool, &object);
        assert_eq!(after.context, ["c"]);
        assert_eq!(after.updated_input, None);
        let bare = json!({"decision": "deny"}).as_object().cloned().unwrap_or_default();
        assert_eq!(verdict(EventName::AfterAgent, &bare).reason.as_deref(), Some(NO_REASON));
    }
}
