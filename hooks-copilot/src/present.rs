//! What Copilot shows the model and the user after an event, word for word, in the order it
//! adds it ([What Copilot shows](crate::compatibility#what-copilot-shows)). Every template is
//! here.
//!
//! A denied call's result is Copilot's refusal; `preToolUse` context is a user message after
//! the result; `postToolUse` context is appended to the result's text, which `modifiedResult`
//! may replace; a prompt's context is appended to it in a `<system_reminder>`; session-start
//! contexts come as one user message before the prompt; an `agentStop` block sends its reason
//! back as a user message. Warnings (exit 2 where it does not deny, a blocked prompt's reason)
//! are for the user.

use hook_protocol::{Decision, HookRecord, ModelText, Placement, Report, Shown};
use serde_json::{Map, Value};

use crate::EventName;
use crate::decode::{ERRORED_REASON, EXIT_2_REASON, RunRecord};

/// The Copilot CLI release these texts follow.
pub const COPILOT_VERSION: &str = "1.0.102";

/// The result of a call a `preToolUse` hook denied with a reason (or by exit 2).
pub fn denied(reason: &str) -> String {
    format!("Denied by preToolUse hook: {reason}")
}

/// The result of a call denied because a `preToolUse` hook of `source` crashed.
pub fn denied_errored(source: &str) -> String {
    format!("Denied by preToolUse hook from \"{source}\" (hook errored)")
}

/// The result of a call a `preToolUse` hook asked about, where no one can be asked (`-p`).
pub fn ask_refused(reason: &str) -> String {
    format!("Denied by preToolUse hook (unable to ask user for confirmation): {reason}")
}

/// The result of a call a `permissionRequest` hook denied.
pub fn permission_denied(message: &str) -> String {
    format!("Permission denied by a PermissionRequest hook: {message}")
}

/// The user message `preToolUse` context becomes, after the call's result.
pub fn pre_tool_context(context: &str) -> String {
    format!("Additional context from preToolUse hook:\n{context}")
}

/// A tool's result with `postToolUse` context appended.
pub fn post_tool_result(result: &str, tool: &str, context: &str) -> String {
    format!(
        "{result}\n\nTool \"{tool}\" succeeded. Additional guidance from postToolUse hooks:\n{context}"
    )
}

/// The user message `postToolUseFailure` context becomes.
pub fn post_tool_failure_context(tool: &str, context: &str) -> String {
    format!("Tool \"{tool}\" failed. Additional guidance from postToolUseFailure hooks:\n{context}")
}

/// What `userPromptSubmitted` context adds to the user's message.
pub fn prompt_reminder(context: &str) -> String {
    format!("<system_reminder>\n{context}\n</system_reminder>")
}

fn record_of(r: &HookRecord) -> Option<&RunRecord> {
    r.metadata.as_ref().and_then(|m| m.downcast_ref::<RunRecord>())
}

fn contexts(report: &Report) -> Vec<String> {
    report.merged.context.iter().map(|c| c.value.clone()).collect()
}

/// The response a `subagentStop` run gives the parent instead of the sub-agent's own: the
/// last hook's `modifiedResponse` (rewrites do not compose), none when a hook kept the
/// sub-agent going (a block discards it).
pub fn modified_response(event: EventName, report: &Report) -> Option<&str> {
    if event != EventName::SubagentStop || report.merged.decision == Some(Decision::Deny) {
        return None;
    }
    report.records.iter().rev().filter_map(record_of).find_map(|r| r.modified_response.as_deref())
}

/// What Copilot shows after a run of `event` whose hooks received `input`.
pub fn shown(event: EventName, report: &Report, input: &Map<String, Value>) -> Shown {
    let merged = &report.merged;
    let mut model = Vec::new();
    let mut user: Vec<String> = Vec::new();
    for r in &report.records {
        user.extend(r.verdict.messages.iter().cloned());
    }
    let tool = input.get("toolName").and_then(Value::as_str).unwrap_or_default();
    let denied_by = report
        .records
        .iter()
        .find(|r| r.verdict.decision == Some(Decision::Deny) && !merged.interrupted);
    let contexts = contexts(report);
    let last = |pick: fn(&RunRecord) -> Option<&String>| {
        report.records.iter().rev().filter_map(record_of).find_map(pick).cloned()
    };
    match event {
        EventName::PreToolUse => {
            if let Some(r) = denied_by {
                let reason = r.verdict.reason.as_deref().unwrap_or_default();
                let text = match reason {
                    ERRORED_REASON => denied_errored(record_of(r).map_or("", |c| &c.source)),
                    EXIT_2_REASON => denied(EXIT_2_REASON),
                    _ => denied(reason),
                };
                model.push(ModelText::new(Placement::ToolResult, text, true));
            }
            for c in &contexts {
                model.push(ModelText::new(Placement::User, pre_tool_context(c), false));
            }
        }
        EventName::PermissionRequest => {
            // The merged outputs decide: a later hook's answer overrides an earlier deny.
            if merged.decision == Some(Decision::Deny) && !merged.interrupted {
                let text = permission_denied(&merged.reason().unwrap_or_default());
                model.push(ModelText::new(Placement::ToolResult, text, true));
            }
        }
        EventName::PostToolUse => {
            let modified = report
                .records
                .iter()
                .rev()
                .filter_map(record_of)
                .find_map(|c| c.modified_result.as_ref());
            let original = input.get("toolResult");
            let result = modified
                .or(original)
                .and_then(|r| r.get("textResultForLlm"))
                .and_then(Value::as_str);
            if modified.is_some() || !contexts.is_empty() {
                let result = result.unwrap_or_default();
                let text = if contexts.is_empty() {
                    result.to_owned()
                } else {
                    post_tool_result(result, tool, &contexts.join("\n"))
                };
                model.push(ModelText::new(Placement::ToolResult, text, false));
            }
        }
        EventName::PostToolUseFailure => {
            if !contexts.is_empty() {
                let text = post_tool_failure_context(tool, &contexts.join("\n"));
                model.push(ModelText::new(Placement::User, text, false));
            }
        }
        EventName::UserPromptSubmitted => {
            if merged.decision == Some(Decision::Deny) {
                user.extend(merged.reasons.first().map(|r| r.value.clone()));
            } else {
                if let Some(prompt) = last(|c| c.modified_prompt.as_ref()) {
                    model.push(ModelText::new(Placement::User, prompt, false));
                }
                if !contexts.is_empty() {
                    let text = prompt_reminder(&contexts.join("\n"));
                    model.push(ModelText::new(Placement::User, text, false));
                }
            }
        }
        EventName::UserPromptTransformed => {
            if let Some(prompt) = last(|c| c.modified_prompt.as_ref()) {
                model.push(ModelText::new(Placement::User, prompt, false));
            }
        }
        EventName::SessionStart => {
            if !contexts.is_empty() {
                model.push(ModelText::new(Placement::User, contexts.join("\n\n"), false));
            }
        }
        EventName::AgentStop | EventName::SubagentStop => {
            if merged.decision == Some(Decision::Deny) && !merged.interrupted {
                for r in
                    report.records.iter().filter(|r| r.verdict.decision == Some(Decision::Deny))
                {
                    let reason = r.verdict.reason.clone().unwrap_or_default();
                    model.push(ModelText::new(Placement::User, reason, false));
                }
            } else if let Some(response) = modified_response(event, report) {
                // The sub-agent's result, as its parent gets it.
                model.push(ModelText::new(Placement::ToolResult, response.to_owned(), false));
            }
        }
        _ => {
            for c in contexts {
                model.push(ModelText::new(Placement::User, c, false));
            }
        }
    }
    Shown::new(model, user, Vec::new())
}
