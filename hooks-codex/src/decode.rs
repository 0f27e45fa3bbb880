//! What a Codex hook's run means: its exit code, stdout and stderr read by Codex's rules
//! ([Exit codes and output](crate::compatibility#exit-codes-and-output)), as a neutral verdict
//! and the record Codex's texts are made from.
//!
//! Codex reads stdout only on exit 0, and only a JSON object: plain text is context on
//! `SessionStart` and `UserPromptSubmit` and ignored elsewhere; text that looks like JSON but is
//! not, and any answer Codex calls unsupported or invalid, is a failure that changes nothing.
//! Exit 2 blocks with stderr as the reason (nothing to block without one); any other exit, a
//! crash and a timeout fail open.

use std::time::Duration;

use hook_kit::Reading;
use hook_protocol::{Decision, Exit, Halt, HookOutcome, RawOutcome, Verdict};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::EventName;

/// What Codex's texts need of one hook's run, kept in its record.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RunRecord {
    /// The hook's position among the loaded hooks (the index of its `hook_run_id`).
    pub index: usize,
    /// The file it comes from (the path of its `hook_run_id`).
    pub source: String,
    /// The command as configured.
    pub command: String,
    /// Its exit code, when it exited with one.
    pub exit_code: Option<i32>,
    /// Why Codex ignored its answer, when it did (an invalid or unsupported output, a failure).
    pub error: Option<String>,
}

impl hook_protocol::RecordData for RunRecord {
    fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// The text with surrounding whitespace removed, when anything is left.
fn trimmed(text: &str) -> Option<String> {
    let t = text.trim();
    (!t.is_empty()).then(|| t.to_owned())
}

fn text<'a>(object: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    object.get(key).and_then(Value::as_str)
}

/// The fields every output may carry.
struct Universal {
    continue_processing: bool,
    stop_reason: Option<String>,
    suppress_output: bool,
    system_message: Option<String>,
}

impl Universal {
    fn of(object: &Map<String, Value>) -> Self {
        Self {
            continue_processing: object.get("continue").and_then(Value::as_bool).unwrap_or(true),
            stop_reason: text(object, "stopReason").map(str::to_owned),
            suppress_output: object.get("suppressOutput").and_then(Value::as_bool) == Some(true),
            system_message: text(object, "systemMessage").map(str::to_owned),
        }
    }

    /// Why a `PreToolUse` or `PermissionRequest` answer is unsupported, when it is.
    fn unsupported_on(&self, event: EventName) -> Option<String> {
        if !self.continue_processing {
            Some(format!("{event} hook returned unsupported continue:false"))
        } else if self.stop_reason.is_some() {
            Some(format!("{event} hook returned unsupported stopReason"))
        } else if self.suppress_output {
            Some(format!("{event} hook returned unsupported suppressOutput"))
        } else {
            None
        }
    }
}

/// A JSON object on stdout, as Codex reads one: the whole output, trimmed.
fn object_of(stdout: &str) -> Option<Map<String, Value>> {
    match serde_json::from_str(stdout.trim()) {
        Ok(Value::Object(object)) => Some(object),
        _ => None,
    }
}

fn looks_like_json(stdout: &str) -> bool {
    let t = stdout.trim_start();
    t.starts_with('{') || t.starts_with('[')
}

/// The hook-specific output, when its `hookEventName` is the event's.
fn specific(object: &Map<String, Value>) -> Option<&Map<String, Value>> {
    object.get("hookSpecificOutput").and_then(Value::as_object)
}

/// How Codex reads one run of a hook on `event` (its exit, stdout and stderr, a timeout being
/// [`DEFAULT_TIMEOUT`](crate::DEFAULT_TIMEOUT)): the outcome, with a [`RunRecord`] as its
/// metadata. For a program that ran the hook itself.
pub fn decode_outcome(event: EventName, raw: &RawOutcome) -> HookOutcome {
    decode(event, raw, crate::DEFAULT_TIMEOUT, RunRecord::default())
}

/// Reads a run of a hook on `event`.
pub(crate) fn decode(
    event: EventName,
    raw: &RawOutcome,
    timeout: Duration,
    mut record: RunRecord,
) -> HookOutcome {
    let stdout = String::from_utf8_lossy(&raw.stdout);
    let stderr = raw.stderr_text();
    record.exit_code = raw.exit.code();
    let reading = match raw.exit {
        Exit::TimedOut { .. } => {
            Reading::timed_out(format!("hook timed out after {}s", timeout.as_secs_f64()))
        }
        Exit::Code { code: 0 } => on_success(event, &stdout),
        Exit::Code { code: 2 } => on_exit2(event, &stderr),
        Exit::Code { code } => Reading::failed(format!("hook exited with code {code}")),
        _ => Reading::failed("hook exited without a status code"),
    };
    record.error = reading.error.clone();
    reading.outcome(raw, record)
}

/// Exit 2: stderr, trimmed, is the reason; without one nothing is blocked.
fn on_exit2(event: EventName, stderr: &str) -> Reading {
    let Some(reason) = trimmed(stderr) else {
        return Reading::failed(format!(
            "{event} hook exited with code 2 but did not write a blocking reason to stderr"
        ));
    };
    match event {
        EventName::PreToolUse
        | EventName::UserPromptSubmit
        | EventName::PostToolUse
        | EventName::Stop
        | EventName::SubagentStop => Reading::blocked(Verdict::deny(reason)),
        _ => Reading::success(Verdict::no_opinion()),
    }
}

/// Exit 0: nothing, plain text, or one JSON object.
fn on_success(event: EventName, stdout: &str) -> Reading {
    let Some(plain) = trimmed(stdout) else { return Reading::success(Verdict::no_opinion()) };
    let Some(object) = object_of(stdout) else {
        if looks_like_json(stdout) {
            return Reading::failed(format!(
                "hook returned invalid {} JSON output",
                event.label().replace('_', "-")
            ));
        }
        return Reading::success(if event.plain_stdout_is_context() {
            Verdict::context(plain)
        } else {
            Verdict::no_opinion()
        });
    };
    let universal = Universal::of(&object);
    let mut reading = match event {
        EventName::PreToolUse => pre_tool_use(&object, &universal),
        EventName::PermissionRequest => permission_request(&object, &universal),
        EventName::PostToolUse => post_tool_use(&object, &universal),
        EventName::UserPromptSubmit => blocking(event, &object, &universal, true),
        EventName::Stop | EventName::SubagentStop => blocking(event, &object, &universal, false),
        EventName::SessionStart | EventName::SubagentStart => {
            Reading::success(with_context(Verdict::no_opinion(), &object))
        }
        _ => Reading::success(Verdict::no_opinion()),
    };
    if let Some(message) = universal.system_message {
        reading.verdict.messages.push(message);
    }
    reading
}

fn with_context(mut verdict: Verdict, object: &Map<String, Value>) -> Verdict {
    if let Some(ctx) = specific(object).and_then(|s| text(s, "additionalContext")) {
        verdict.context.push(ctx.to_owned());
    }
    verdict
}

fn pre_tool_use(object: &Map<String, Value>, universal: &Universal) -> Reading {
    let event = EventName::PreToolUse;
    let specific = specific(object);
    let decision = specific.and_then(|s| text(s, "permissionDecision"));
    let decision_reason = specific.and_then(|s| text(s, "permissionDecisionReason"));
    let updated_input = specific.and_then(|s| s.get("updatedInput"));
    let use_specific = decision.is_some() || decision_reason.is_some() || updated_input.is_some();
    let legacy = text(object, "decision");
    let reason = text(object, "reason");
    let invalid = universal.unsupported_on(event).or_else(|| {
        if use_specific {
            match (decision, updated_input) {
                (d, Some(_)) if d != Some("allow") => Some(
                    "PreToolUse hook returned updatedInput without permissionDecision:allow"
                        .to_owned(),
                ),
                (Some("allow"), None) => {
                    Some("PreToolUse hook returned unsupported permissionDecision:allow".to_owned())
                }
                (Some("ask"), _) => {
                    Some("PreToolUse hook returned unsupported permissionDecision:ask".to_owned())
                }
                (Some("deny"), _) if decision_reason.and_then(trimmed).is_none() => Some(
                    "PreToolUse hook returned permissionDecision:deny without a non-empty \
                     permissionDecisionReason"
                        .to_owned(),
                ),
                (None, _) if decision_reason.is_some() => Some(
                    "PreToolUse hook returned permissionDecisionReason without permissionDecision"
                        .to_owned(),
                ),
                (Some(other), _) if !matches!(other, "allow" | "deny") => {
                    Some(format!("PreToolUse hook returned unknown permissionDecision:{other}"))
                }
                _ => None,
            }
        } else {
            match legacy {
                Some("approve") => {
                    Some("PreToolUse hook returned unsupported decision:approve".to_owned())
                }
                Some("block") if reason.and_then(trimmed).is_none() => Some(
                    "PreToolUse hook returned decision:block without a non-empty reason".to_owned(),
                ),
                None if reason.is_some() => {
                    Some("PreToolUse hook returned reason without decision".to_owned())
                }
                Some(other) if other != "block" => {
                    Some(format!("PreToolUse hook returned unknown decision:{other}"))
                }
                _ => None,
            }
        }
    });
    if let Some(invalid) = invalid {
        return Reading::failed(invalid);
    }
    let block = if use_specific {
        (decision == Some("deny")).then(|| decision_reason.and_then(trimmed)).flatten()
    } else {
        (legacy == Some("block")).then(|| reason.and_then(trimmed)).flatten()
    };
    let verdict = with_context(Verdict::no_opinion(), object);
    match block {
        Some(reason) => {
            let mut v = Verdict::deny(reason);
            v.context = verdict.context;
            Reading::blocked(v)
        }
        None => {
            let mut v = verdict;
            if let Some(input) = updated_input.filter(|_| decision == Some("allow")) {
                v.decision = Some(Decision::Allow);
                v.updated_input = Some(input.clone());
            }
            Reading::success(v)
        }
    }
}

fn permission_request(object: &Map<String, Value>, universal: &Universal) -> Reading {
    let event = EventName::PermissionRequest;
    if let Some(invalid) = universal.unsupported_on(event) {
        return Reading::failed(invalid);
    }
    let Some(decision) =
        specific(object).and_then(|s| s.get("decision")).and_then(Value::as_object)
    else {
        return Reading::success(Verdict::no_opinion());
    };
    let unsupported = if decision.contains_key("updatedInput") {
        Some("updatedInput")
    } else if decision.contains_key("updatedPermissions") {
        Some("updatedPermissions")
    } else if decision.get("interrupt").and_then(Value::as_bool) == Some(true) {
        Some("interrupt:true")
    } else {
        None
    };
    if let Some(field) = unsupported {
        return Reading::failed(format!("PermissionRequest hook returned unsupported {field}"));
    }
    match text(decision, "behavior") {
        Some("allow") => Reading::success(Verdict::allow()),
        Some("deny") => {
            let message = text(decision, "message")
                .and_then(trimmed)
                .unwrap_or_else(|| "PermissionRequest hook denied approval".to_owned());
            Reading::blocked(Verdict::deny(message))
        }
        other => Reading::failed(format!(
            "PermissionRequest hook returned unknown behavior {}",
            other.unwrap_or("(none)")
        )),
    }
}

fn post_tool_use(object: &Map<String, Value>, universal: &Universal) -> Reading {
    let block = text(object, "decision") == Some("block");
    let reason = text(object, "reason");
    if !universal.continue_processing {
        // The tool's output is replaced, the turn goes on.
        let stop = universal
            .stop_reason
            .clone()
            .unwrap_or_else(|| "PostToolUse hook stopped execution".to_owned());
        let feedback = reason.and_then(trimmed).unwrap_or(stop);
        return Reading::blocked(with_context(Verdict::deny(feedback), object));
    }
    if universal.suppress_output {
        return Reading::failed("PostToolUse hook returned unsupported suppressOutput");
    }
    if block && reason.and_then(trimmed).is_none() {
        return Reading::failed(
            "PostToolUse hook returned decision:block without a non-empty reason",
        );
    }
    if !block && reason.is_some() {
        return Reading::failed("PostToolUse hook returned reason without decision");
    }
    let verdict = with_context(Verdict::no_opinion(), object);
    match (block, reason) {
        (true, Some(reason)) => {
            let mut v = Verdict::deny(reason.to_owned());
            v.context = verdict.context;
            Reading::blocked(v)
        }
        _ => Reading::success(verdict),
    }
}

/// `UserPromptSubmit`, `Stop` and `SubagentStop`: `decision: "block"` with a reason;
/// `continue: false` blocks a prompt too, and ends a turn.
fn blocking(
    event: EventName,
    object: &Map<String, Value>,
    universal: &Universal,
    context: bool,
) -> Reading {
    let block = text(object, "decision") == Some("block");
    let reason = text(object, "reason").and_then(trimmed);
    let mut verdict =
        if context { with_context(Verdict::no_opinion(), object) } else { Verdict::no_opinion() };
    if !universal.continue_processing {
        if event == EventName::UserPromptSubmit {
            let reason = universal.stop_reason.clone().or(reason).unwrap_or_default();
            let mut v = Verdict::deny(reason);
            v.context = verdict.context;
            return Reading::blocked(v);
        }
        verdict.halt = Some(Halt::new(universal.stop_reason.clone()));
        return Reading::success(verdict);
    }
    if block {
        let Some(reason) = reason else {
            return Reading::failed(format!(
                "{event} hook returned decision:block without a non-empty reason"
            ));
        };
        let mut v = Verdict::deny(reason);
        v.context = verdict.context;
        return Reading::blocked(v);
    }
    Reading::success(verdict)
}
