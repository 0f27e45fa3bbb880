//! What a Cursor hook's run means: its exit code and stdout read by Cursor's rules
//! ([Exit codes and output](crate::compatibility#exit-codes-and-output)), as a neutral verdict
//! and the record Cursor's texts are made from.
//!
//! Exit 0: stdout is one JSON object of flat snake_case fields (nothing: no decision). Exit 2
//! blocks, stdout's raw text (not parsed) as the reason. Anything else (another exit code, a
//! crash, a timeout, output that is not a JSON object) is a failure: the action goes on, unless
//! the hook is `failClosed` on an event that can block, where it blocks (empty output too).

use std::time::Duration;

use hook_protocol::{Decision, Exit, HookOutcome, HookStatus, RawOutcome, Verdict};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::EventName;

/// What Cursor's texts need of one hook's run, kept in its record.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RunRecord {
    /// The command as configured.
    pub command: String,
    /// Its exit code, when it exited with one.
    pub exit_code: Option<i32>,
    /// Why it failed, when it did.
    pub error: Option<String>,
    /// `agent_message`: what the hook addressed to the model.
    pub agent_message: Option<String>,
    /// `updated_mcp_tool_output` of a `postToolUse` hook on an MCP tool: what the model sees
    /// instead of the tool's output.
    pub updated_mcp_tool_output: Option<Value>,
    /// `env` of a `sessionStart` hook: variables every later hook of the session gets.
    pub env: Vec<(String, String)>,
}

impl hook_protocol::RecordData for RunRecord {
    fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// The reason of an exit-2 block without output.
pub const EXIT_2_NO_REASON: &str = "blocked this action (exit code 2) but provided no reason";

/// What a run needs to know besides its outcome.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Context {
    pub(crate) event: EventName,
    pub(crate) timeout: Duration,
    pub(crate) fail_closed: bool,
    /// On `subagentStop`: whether the sub-agent completed (only then is a follow-up read).
    pub(crate) completed: bool,
    /// On `postToolUse`: whether the tool is an MCP tool (only then is
    /// `updated_mcp_tool_output` read).
    pub(crate) mcp_tool: bool,
}

fn text<'a>(object: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    object.get(key).and_then(Value::as_str).filter(|t| !t.is_empty())
}

/// How Cursor reads one run of a hook on `event` (its exit, stdout and stderr, a timeout being
/// [`DEFAULT_TIMEOUT`](crate::DEFAULT_TIMEOUT), a `postToolUse` being an MCP tool's),
/// `fail_closed` when the hook is `failClosed`:
/// the outcome, with a [`RunRecord`] as its metadata. For a program that ran the hook itself.
pub fn decode_outcome(event: EventName, raw: &RawOutcome, fail_closed: bool) -> HookOutcome {
    let ctx = Context {
        event,
        timeout: crate::DEFAULT_TIMEOUT,
        fail_closed,
        completed: true,
        mcp_tool: true,
    };
    decode(ctx, raw, RunRecord::default())
}

/// Reads a run of a hook.
pub(crate) fn decode(ctx: Context, raw: &RawOutcome, mut record: RunRecord) -> HookOutcome {
    let stdout = String::from_utf8_lossy(&raw.stdout);
    record.exit_code = raw.exit.code();
    let blocks = ctx.event.gating();
    let (status, verdict, error) = match raw.exit {
        Exit::TimedOut { .. } => (
            HookStatus::TimedOut,
            Verdict::no_opinion(),
            Some(format!("hook timed out after {}s", ctx.timeout.as_secs_f64())),
        ),
        Exit::Code { code: 0 } => match stdout.trim() {
            "" if ctx.fail_closed && blocks => {
                let why = format!("Hook `{}` returned no output", record.command);
                (HookStatus::Failed, Verdict::deny(why.clone()), Some(why))
            }
            "" => (HookStatus::Success, Verdict::no_opinion(), None),
            out => match serde_json::from_str::<Value>(out) {
                Ok(Value::Object(object)) => {
                    (HookStatus::Success, answer(ctx, &object, &mut record), None)
                }
                _ => (
                    HookStatus::Failed,
                    Verdict::no_opinion(),
                    Some("the hook's output is not a JSON object".to_owned()),
                ),
            },
        },
        Exit::Code { code: 2 } if blocks => {
            let reason = match stdout.trim() {
                "" => EXIT_2_NO_REASON.to_owned(),
                out => out.to_owned(),
            };
            (HookStatus::Blocked, Verdict::deny(reason), None)
        }
        Exit::Code { code: 2 } => (HookStatus::Success, Verdict::no_opinion(), None),
        Exit::Code { code } => {
            let stderr = raw.stderr_text();
            let why = format!("hook exited with code {code}: {}", stderr.trim_end());
            (HookStatus::Failed, Verdict::no_opinion(), Some(why))
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

/// An exit-0 JSON object, read by the event's rules: flat snake_case fields only.
fn answer(ctx: Context, object: &Map<String, Value>, record: &mut RunRecord) -> Verdict {
    let mut verdict = Verdict::no_opinion();
    let user_message = text(object, "user_message").map(str::to_owned);
    record.agent_message = text(object, "agent_message").map(str::to_owned);
    if let Some(context) = text(object, "additional_context") {
        verdict.context.push(context.to_owned());
    }
    let event = ctx.event;
    if event.gating() && event != EventName::BeforeSubmitPrompt {
        match text(object, "permission") {
            Some("deny") => {
                verdict.decision = Some(Decision::Deny);
                verdict.reason = user_message.clone().or_else(|| record.agent_message.clone());
            }
            Some("allow") => verdict.decision = Some(Decision::Allow),
            // Cursor asks the person on the shell and MCP events, and ignores it elsewhere.
            Some("ask") if event.asks() => {
                verdict.decision = Some(Decision::Ask);
                verdict.reason = user_message.clone().or_else(|| record.agent_message.clone());
            }
            _ => {}
        }
    }
    match event {
        EventName::PreToolUse => {
            if let Some(input) = object.get("updated_input").filter(|i| i.is_object()) {
                verdict.updated_input = Some(input.clone());
            }
        }
        // It replaces an MCP tool's output only, never a shell call's or another tool's.
        EventName::PostToolUse if ctx.mcp_tool => {
            record.updated_mcp_tool_output = object.get("updated_mcp_tool_output").cloned();
        }
        // `continue` decides the prompt: false blocks it, true lets it go (an allow).
        EventName::BeforeSubmitPrompt => match object.get("continue") {
            Some(Value::Bool(false)) => {
                verdict.decision = Some(Decision::Deny);
                verdict.reason = user_message.clone();
            }
            Some(Value::Bool(true)) => verdict.decision = Some(Decision::Allow),
            _ => {}
        },
        EventName::SessionStart => {
            if let Some(Value::Object(env)) = object.get("env") {
                record.env = env
                    .iter()
                    .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_owned())))
                    .collect();
            }
        }
        EventName::Stop => verdict.follow_up = text(object, "followup_message").map(str::to_owned),
        EventName::SubagentStop if ctx.completed => {
            verdict.follow_up = text(object, "followup_message").map(str::to_owned);
        }
        _ => {}
    }
    if let Some(message) = user_message {
        verdict.messages.push(message);
    }
    verdict
}

#[cfg(test)]
mod tests;
