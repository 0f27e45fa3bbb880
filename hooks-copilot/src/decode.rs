//! What a Copilot hook's run means: its exit code, stdout and stderr read by Copilot's rules
//! ([Exit codes and output](crate::compatibility#exit-codes-and-output)), as a neutral verdict
//! and the record Copilot's texts are made from.
//!
//! Copilot reads stdout on exit 0 only, as one JSON object with its fields at the top level
//! (progress lines, `{"type": "progress"}`, skipped); anything else on stdout is ignored. Exit
//! 2 denies on `preToolUse` and `permissionRequest`, with a fixed reason (stderr is dropped),
//! and is a warning elsewhere. A crash (another exit code, a hook that cannot start) denies on
//! `preToolUse` and is only logged elsewhere; a timeout never denies.

use std::time::Duration;

use hook_kit::Reading;
use hook_protocol::{Decision, Exit, HookOutcome, HookStatus, RawOutcome, Verdict};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::{EventName, Form};

/// What Copilot's texts need of one hook's run, kept in its record.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RunRecord {
    /// The file it comes from, as Copilot names it in texts (relative to the project when
    /// inside it: `.github/hooks/hooks.json`).
    pub source: String,
    /// The command as configured.
    pub command: String,
    /// Its exit code, when it exited with one.
    pub exit_code: Option<i32>,
    /// Why it failed, when it did, in Copilot's words (`Hook command failed with code 3`).
    pub error: Option<String>,
    /// `modifiedResult` of a `postToolUse` hook: what the model sees instead of the tool's
    /// result.
    pub modified_result: Option<Value>,
    /// `modifiedPrompt` of a `userPromptSubmitted` hook, or `modifiedTransformedPrompt` of a
    /// `userPromptTransformed` one.
    pub modified_prompt: Option<String>,
    /// `interrupt: true` of a `permissionRequest` deny: the agent stops.
    pub interrupt: bool,
    /// `modifiedResponse` of a `subagentStop` hook that let the sub-agent end: the response
    /// its parent gets instead of the sub-agent's own.
    pub modified_response: Option<String>,
}

impl hook_protocol::RecordData for RunRecord {
    fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// The reason of a deny by exit 2.
pub(crate) const EXIT_2_REASON: &str = "hook exited with code 2";

/// The reason of a deny by a crash (the record's error says which).
pub(crate) const ERRORED_REASON: &str = "hook errored";

fn text<'a>(object: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    object.get(key).and_then(Value::as_str)
}

/// The answer on stdout: its lines less the progress ones, as one JSON object. A hook of
/// Claude Code's form may answer in its `hookSpecificOutput`, which Copilot reads as its own
/// fields: `permissionDecision` and its reason, `updatedInput` as `modifiedArgs`,
/// `additionalContext`.
fn answer(stdout: &str, form: Form) -> Option<Map<String, Value>> {
    let is_progress = |line: &str| {
        serde_json::from_str::<Map<String, Value>>(line.trim())
            .is_ok_and(|o| o.get("type").and_then(Value::as_str) == Some("progress"))
    };
    let rest: Vec<&str> = stdout.lines().filter(|l| !is_progress(l)).collect();
    let Ok(Value::Object(mut object)) = serde_json::from_str(rest.join("\n").trim()) else {
        return None;
    };
    if form == Form::Claude
        && let Some(Value::Object(specific)) = object.remove("hookSpecificOutput")
    {
        for (key, value) in specific {
            let key = match key.as_str() {
                "updatedInput" => "modifiedArgs".to_owned(),
                "hookEventName" => continue,
                _ => key,
            };
            object.insert(key, value);
        }
    }
    Some(object)
}

/// How Copilot reads one run of a hook on `event` (its exit, stdout and stderr, a timeout being
/// [`DEFAULT_TIMEOUT`](crate::DEFAULT_TIMEOUT)): the outcome, with a [`RunRecord`] as its
/// metadata. For a program that ran the hook itself.
pub fn decode_outcome(event: EventName, raw: &RawOutcome) -> HookOutcome {
    decode(event, raw, crate::DEFAULT_TIMEOUT, Form::Copilot, RunRecord::default())
}

/// Reads a run of a hook on `event`.
pub(crate) fn decode(
    event: EventName,
    raw: &RawOutcome,
    timeout: Duration,
    form: Form,
    mut record: RunRecord,
) -> HookOutcome {
    let stdout = String::from_utf8_lossy(&raw.stdout);
    let stderr = raw.stderr_text();
    record.exit_code = raw.exit.code();
    let reading = match raw.exit {
        Exit::TimedOut { .. } => Reading::timed_out(format!(
            "Hook command timed out after {} seconds: {}",
            timeout.as_secs_f64(),
            record.command
        )),
        Exit::Code { code: 0 } => on_success(event, &stdout, form, &mut record),
        // Exit 2 on permissionRequest: a deny merged with stdout's JSON (its `message` and
        // `interrupt`), and the other hooks still run.
        Exit::Code { code: 2 } if event == EventName::PermissionRequest => {
            let object = answer(&stdout, form).unwrap_or_default();
            let message = text(&object, "message").unwrap_or(EXIT_2_REASON);
            let mut verdict = Verdict::deny(message.to_owned());
            record.interrupt = object.get("interrupt") == Some(&Value::Bool(true));
            if record.interrupt {
                verdict.halt = Some(hook_protocol::Halt::new(None));
            }
            Reading::new(HookStatus::Blocked, verdict, None)
        }
        Exit::Code { code: 2 } if event.exit2_denies() => {
            Reading::new(HookStatus::Blocked, deny(EXIT_2_REASON), None)
        }
        // Exit 2 on postToolUseFailure: stdout is context for the agent, after the failure.
        Exit::Code { code: 2 } if event == EventName::PostToolUseFailure => {
            let mut verdict = Verdict::no_opinion();
            if !stdout.trim().is_empty() {
                verdict.context.push(stdout.trim().to_owned());
            }
            // Its stderr, as on any exit 2, is for the user.
            if !stderr.trim().is_empty() {
                verdict.messages.push(stderr.trim().to_owned());
            }
            Reading::success(verdict)
        }
        Exit::Code { code: 2 } => {
            let mut verdict = Verdict::no_opinion();
            if !stderr.trim().is_empty() {
                verdict.messages.push(stderr.trim().to_owned());
            }
            Reading::new(HookStatus::Failed, verdict, Some(failed_with(2, &stderr)))
        }
        Exit::Code { code } => crashed(event, failed_with(code, &stderr)),
        _ => crashed(event, format!("Hook command ended by {}", raw.exit)),
    };
    record.error = reading.error.clone();
    reading.outcome(raw, record)
}

/// A hook that could not start: a crash, by Copilot's rules.
pub(crate) fn spawn_failed(event: EventName, error: &str, mut record: RunRecord) -> HookOutcome {
    let reading = crashed(event, format!("Hook command failed to start: {error}"));
    record.error = reading.error.clone();
    let mut outcome =
        HookOutcome::failure(HookStatus::SpawnFailed, reading.error.unwrap_or_default());
    outcome.verdict = reading.verdict;
    outcome.metadata = Some(hook_protocol::Metadata::typed(record));
    outcome
}

fn failed_with(code: i32, stderr: &str) -> String {
    format!("Hook command failed with code {code}\nStderr: {}", stderr.trim_end())
}

/// A deny that ends the event's chain: Copilot starts no later hook after one.
fn deny(reason: &str) -> Verdict {
    let mut verdict = Verdict::deny(reason.to_owned());
    verdict.end_chain = true;
    verdict
}

/// A crash: a deny on `preToolUse` (Copilot fails closed there), nothing elsewhere.
fn crashed(event: EventName, error: String) -> Reading {
    let verdict = if event.crash_denies() { deny(ERRORED_REASON) } else { Verdict::no_opinion() };
    Reading::new(HookStatus::Failed, verdict, Some(error))
}

/// Exit 0: the answer on stdout, if it is a JSON object.
fn on_success(event: EventName, stdout: &str, form: Form, record: &mut RunRecord) -> Reading {
    let ok = |verdict| Reading::new(HookStatus::Success, verdict, None);
    let Some(object) = answer(stdout, form) else { return ok(Verdict::no_opinion()) };
    let mut verdict = Verdict::no_opinion();
    if let Some(context) = text(&object, "additionalContext").filter(|c| !c.is_empty()) {
        verdict.context.push(context.to_owned());
    }
    match event {
        EventName::PreToolUse => {
            let reason = text(&object, "permissionDecisionReason").map(str::to_owned);
            match text(&object, "permissionDecision") {
                Some("deny") => {
                    let mut denied = deny(reason.as_deref().unwrap_or_default());
                    denied.reason = reason;
                    denied.context = verdict.context;
                    return ok(denied);
                }
                Some("allow") => verdict.decision = Some(Decision::Allow),
                Some("ask") => verdict.decision = Some(Decision::Ask),
                _ => {}
            }
            if verdict.decision.is_some() {
                verdict.reason = reason;
            }
            if let Some(args) = object.get("modifiedArgs").filter(|a| a.is_object()) {
                verdict.updated_input = Some(args.clone());
            }
        }
        EventName::PermissionRequest => match text(&object, "behavior") {
            Some("allow") => verdict.decision = Some(Decision::Allow),
            // Every permissionRequest hook runs: a deny does not end the chain.
            Some("deny") => {
                let mut denied = Verdict::deny(text(&object, "message").unwrap_or_default());
                record.interrupt = object.get("interrupt") == Some(&Value::Bool(true));
                if record.interrupt {
                    denied.halt = Some(hook_protocol::Halt::new(None));
                }
                return ok(denied);
            }
            _ => {}
        },
        EventName::PostToolUse => {
            record.modified_result =
                object.get("modifiedResult").filter(|r| r.is_object()).cloned();
        }
        EventName::UserPromptSubmitted => {
            if text(&object, "decision") == Some("block") {
                let reason = text(&object, "reason").unwrap_or_default().to_owned();
                let mut blocked = Verdict::deny(reason);
                blocked.context = verdict.context;
                return ok(blocked);
            }
            // An empty override is rejected: the prompt is unchanged.
            record.modified_prompt =
                text(&object, "modifiedPrompt").filter(|p| !p.is_empty()).map(str::to_owned);
        }
        EventName::UserPromptTransformed => {
            record.modified_prompt = text(&object, "modifiedTransformedPrompt")
                .filter(|p| !p.is_empty())
                .map(str::to_owned);
        }
        EventName::AgentStop | EventName::SubagentStop
            if text(&object, "decision") == Some("block") =>
        {
            let reason = text(&object, "reason").unwrap_or_default().to_owned();
            return ok(Verdict::deny(reason));
        }
        EventName::SubagentStop => {
            record.modified_response = text(&object, "modifiedResponse").map(str::to_owned);
        }
        _ => {}
    }
    ok(verdict)
}

#[cfg(test)]
mod tests;
