//! What Codex shows the model after an event, word for word, in the order it adds it
//! ([What Codex shows](crate::compatibility#what-codex-shows)). Every template is here.
//!
//! Codex sends hook context as `developer` messages ([`Placement::System`] here), one per text:
//! on a tool call, between the call and its output; on a prompt, after it; at session start,
//! before the first prompt. A denied call's output is Codex's refusal, with the command
//! appended; a `PostToolUse` block replaces the tool's output; a `Stop` block goes back to the
//! model as a user message wrapped in `<hook_prompt>`. A blocked prompt is dropped and shown to
//! no one. Messages for the user (`systemMessage`) are in [`Shown::user`], as written.

use hook_protocol::{Decision, HookRecord, ModelText, Placement, Report, Shown};
use serde_json::{Map, Value};

use crate::EventName;
use crate::decode::RunRecord;

/// The Codex release these texts follow.
pub const CODEX_VERSION: &str = "0.171.0";

/// The output a denied tool call gets instead of running.
pub fn blocked_call(reason: &str, command: &str) -> String {
    format!("Command blocked by PreToolUse hook: {reason}. Command: {command}")
}

/// The user message a `Stop` block sends the model back to work with.
pub fn hook_prompt(event: EventName, index: usize, source: &str, reason: &str) -> String {
    format!(
        "<hook_prompt hook_run_id=\"{}:{index}:{source}\">{reason}</hook_prompt>",
        event.label()
    )
}

/// What an `async` hook that could not run, or whose process could not be read, says.
pub fn async_failed(error: &str) -> String {
    format!("Async hook failed to run: {error}")
}

/// What an `async` hook that exited with a status other than 0 says.
pub fn async_exit_code(code: i32) -> String {
    format!("Async hook exited with code {code}")
}

/// What an `async` hook that a signal ended says.
pub const ASYNC_NO_EXIT_CODE: &str = "Async hook process terminated without an exit code";

/// What an `async` hook whose output is not the event's JSON says.
pub fn async_invalid_json(event: EventName) -> String {
    format!("Async {event} hook returned invalid JSON output")
}

/// The header of an `async` hook's text that was cut: its size before, in Codex's
/// approximate tokens (four bytes each), and its lines.
pub fn async_truncated(tokens: usize, lines: usize) -> String {
    format!(
        "Warning: truncated output (original token count: {tokens})\nTotal output lines: {lines}\n\n"
    )
}

/// The mark where an `async` hook's text was cut, with how many approximate tokens went.
pub fn async_cut(tokens: usize) -> String {
    format!("…{tokens} tokens truncated…")
}

/// The developer message that delivers `async` hooks' outputs with a user turn, oldest first.
pub fn async_outputs<'a>(outputs: impl IntoIterator<Item = (EventName, &'a str)>) -> String {
    let blocks: Vec<String> = outputs
        .into_iter()
        .map(|(event, text)| {
            format!("<async_hook_output event=\"{event}\">\n{text}\n</async_hook_output>")
        })
        .collect();
    format!("<async_hook_outputs>\n{}\n</async_hook_outputs>", blocks.join("\n"))
}

/// The command a tool call was about: its `command` when it is text (the shell's command line,
/// `apply_patch`'s whole patch), else its whole input as JSON.
fn command_of(input: &Map<String, Value>) -> String {
    match input.get("tool_input") {
        Some(Value::Object(tool)) => match tool.get("command") {
            Some(Value::String(c)) => c.clone(),
            _ => Value::Object(tool.clone()).to_string(),
        },
        Some(other) => other.to_string(),
        None => String::new(),
    }
}

fn record_of(r: &HookRecord) -> Option<&RunRecord> {
    r.metadata.as_ref().and_then(|m| m.downcast_ref::<RunRecord>())
}

/// What Codex shows after a run of `event` whose hooks received `input`.
pub fn shown(event: EventName, report: &Report, input: &Map<String, Value>) -> Shown {
    let merged = &report.merged;
    let mut model = Vec::new();
    let mut user = Vec::new();
    for r in &report.records {
        user.extend(r.verdict.messages.iter().cloned());
    }
    let contexts = |model: &mut Vec<ModelText>| {
        for c in &merged.context {
            model.push(ModelText::new(Placement::System, c.value.clone(), false));
        }
    };
    let denied = merged.decision == Some(Decision::Deny) && !merged.interrupted;
    match event {
        EventName::PreToolUse => {
            contexts(&mut model);
            // The first blocking hook's reason, in configuration order.
            if let (true, Some(reason)) = (denied, merged.reasons.first()) {
                let text = blocked_call(&reason.value, &command_of(input));
                model.push(ModelText::new(Placement::ToolResult, text, false));
            }
        }
        EventName::PostToolUse => {
            contexts(&mut model);
            if let (true, Some(feedback)) = (denied, merged.reason()) {
                model.push(ModelText::new(Placement::ToolResult, feedback, false));
            }
        }
        EventName::UserPromptSubmit if denied => {}
        EventName::Stop | EventName::SubagentStop => {
            if denied && merged.halt.is_none() {
                for r in
                    report.records.iter().filter(|r| r.verdict.decision == Some(Decision::Deny))
                {
                    let (Some(rec), Some(reason)) = (record_of(r), r.verdict.reason.as_deref())
                    else {
                        continue;
                    };
                    let text = hook_prompt(event, rec.index, &rec.source, reason);
                    model.push(ModelText::new(Placement::User, text, false));
                }
            }
        }
        EventName::PermissionRequest => {
            if let (true, Some(reason)) = (denied, merged.reasons.first()) {
                model.push(ModelText::new(Placement::ToolResult, reason.value.clone(), true));
            }
        }
        _ => contexts(&mut model),
    }
    Shown::new(model, user, Vec::new())
}
