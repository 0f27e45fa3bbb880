//! What Gemini CLI shows the model and the user after an event
//! ([What Gemini shows](crate::compatibility#what-gemini-shows)), byte for byte as recorded.
//!
//! Every hook's reason is joined with `\n` (the allowing hooks' too), and so are contexts and
//! messages. A blocked tool's result is `Tool execution blocked: {reason}`; an `AfterTool`
//! block replaces the tool's output with the bare reason; context is wrapped in
//! `<hook_context>…</hook_context>` with `<` and `>` escaped: appended to the tool's output
//! (`AfterTool`), a second text block of the prompt (`BeforeAgent`), or before the prompt
//! (`SessionStart`); `BeforeTool`'s is dropped. A rewritten tool input adds
//! `[System] Tool input parameters were modified by a hook before execution.` to the tool's
//! output. An `AfterAgent` block is the bare reason as the next user message. Messages
//! (`systemMessage`, plain text) go to the user only, and so does
//! `Agent execution blocked: {reason}` when a hook refuses the agent's turn or a model call.

use hook_protocol::{Decision, HookRecord, ModelText, Placement, Report, Shown};

use crate::EventName;
use crate::decode::{NO_REASON, RunRecord, reason_of, specific};

fn record_of(r: &HookRecord) -> Option<&RunRecord> {
    r.metadata.as_ref().and_then(|m| m.downcast_ref::<RunRecord>())
}

/// `<hook_context>{context}</hook_context>`, `<` and `>` escaped (`&` is not).
pub fn hook_context(context: &str) -> String {
    let escaped = context.replace('<', "&lt;").replace('>', "&gt;");
    format!("<hook_context>{escaped}</hook_context>")
}

/// A blocked tool's result.
pub fn tool_blocked(reason: &str) -> String {
    format!("Tool execution blocked: {reason}")
}

/// The parameters each of Gemini's tools requires, for the check of a rewritten input.
const REQUIRED: &[(&str, &[&str])] = &[
    ("run_shell_command", &["command"]),
    ("write_file", &["file_path", "content"]),
    ("replace", &["file_path", "old_string", "new_string"]),
];

/// Why Gemini refuses an input a `BeforeTool` hook rewrote for `tool`, when it does: the first
/// parameter the tool requires that the input lacks
/// (`Tool parameter modification by hook failed validation: params must have required property
/// 'command'`). The tool does not run, and this is its result.
pub fn invalid_input(tool: &str, input: &serde_json::Value) -> Option<String> {
    let (_, required) = REQUIRED.iter().find(|(t, _)| *t == tool)?;
    let missing = required.iter().find(|p| input.get(**p).is_none())?;
    Some(format!(
        "Tool parameter modification by hook failed validation: params must have required \
         property '{missing}'"
    ))
}

/// The refusal of a run whose rewritten input Gemini's tool would refuse, when it is one.
pub(crate) fn refused_input(event: EventName, report: &Report, tool: &str) -> Option<String> {
    let input = report.merged.updated_input.as_ref()?;
    (event == EventName::BeforeTool && report.merged.decision != Some(Decision::Deny))
        .then(|| invalid_input(tool, &input.value))
        .flatten()
}

/// What Gemini tells the user when a hook refuses the agent's turn or a model call.
pub fn agent_blocked(reason: &str) -> String {
    format!("Agent execution blocked: {reason}")
}

/// What Gemini appends to a tool's output when a hook rewrote its input.
pub const INPUT_MODIFIED: &str =
    "[System] Tool input parameters were modified by a hook before execution.";

/// Every hook's reason, in configuration order, joined with `\n` (Gemini's merge), or
/// [`NO_REASON`] when none gave one.
pub fn joined_reason(report: &Report) -> String {
    reasons(report).unwrap_or_else(|| NO_REASON.to_owned())
}

/// Every hook's reason, in configuration order, joined with `\n`, when any gave one.
pub(crate) fn reasons(report: &Report) -> Option<String> {
    let reasons: Vec<&str> = report
        .records
        .iter()
        .filter_map(record_of)
        .filter_map(|r| r.output.as_ref())
        .filter_map(reason_of)
        .collect();
    (!reasons.is_empty()).then(|| reasons.join("\n"))
}

/// Every hook's context on the event, in configuration order, joined with `\n`.
fn joined_context(report: &Report) -> Option<String> {
    let contexts: Vec<&str> = report.merged.context.iter().map(|c| c.value.as_str()).collect();
    (!contexts.is_empty()).then(|| contexts.join("\n"))
}

/// Whether a hook's answer asks for the history to be cleared (`AfterAgent`'s
/// `clearContext`).
pub fn clears_context(report: &Report) -> bool {
    report
        .records
        .iter()
        .filter_map(record_of)
        .filter_map(|r| r.output.as_ref())
        .filter_map(specific)
        .any(|s| s.get("clearContext") == Some(&serde_json::Value::Bool(true)))
}

/// What Gemini shows after a run of `event` on `tool` (the tool's name, on the tool events).
pub fn shown(event: EventName, report: &Report, tool: &str) -> Shown {
    let merged = &report.merged;
    let mut model = Vec::new();
    let user: Vec<String> = merged.messages.iter().map(|m| m.value.clone()).collect();
    if merged.interrupted || merged.halt.is_some() {
        // `continue: false` ends the run silently.
        return Shown::new(model, user, Vec::new());
    }
    let denied = merged.decision == Some(Decision::Deny);
    let mut user = user;
    if denied
        && matches!(
            event,
            EventName::BeforeAgent
                | EventName::AfterAgent
                | EventName::BeforeModel
                | EventName::AfterModel
        )
    {
        // Gemini's warning to the user when the agent's turn or a model call is refused.
        user.push(agent_blocked(&joined_reason(report)));
    }
    match event {
        EventName::BeforeTool if denied => {
            model.push(ModelText::new(
                Placement::ToolResult,
                tool_blocked(&joined_reason(report)),
                true,
            ));
        }
        EventName::BeforeTool if refused_input(event, report, tool).is_some() => {
            let why = refused_input(event, report, tool).unwrap_or_default();
            model.push(ModelText::new(Placement::ToolResult, why, true));
        }
        EventName::BeforeTool if merged.updated_input.is_some() => {
            model.push(ModelText::new(
                Placement::ToolResultEnd,
                format!("\n\n{INPUT_MODIFIED}"),
                false,
            ));
        }
        EventName::AfterTool if denied => {
            model.push(ModelText::new(Placement::ToolResult, joined_reason(report), true));
        }
        EventName::AfterTool => {
            if let Some(context) = joined_context(report) {
                let text = format!("\n\n{}", hook_context(&context));
                model.push(ModelText::new(Placement::ToolResultEnd, text, false));
            }
        }
        EventName::BeforeAgent if !denied => {
            if let Some(context) = joined_context(report) {
                model.push(ModelText::new(Placement::User, hook_context(&context), false));
            }
        }
        EventName::SessionStart => {
            if let Some(context) = joined_context(report) {
                let text = format!("{}\n\n", hook_context(&context));
                model.push(ModelText::new(Placement::PromptStart, text, false));
            }
        }
        EventName::AfterAgent if denied => {
            model.push(ModelText::new(Placement::User, joined_reason(report), false));
        }
        _ => {}
    }
    Shown::new(model, user, Vec::new())
}

/// The hooks' answers in Gemini's own words, by its merge, as the run's own fields: on
/// `AfterTool`, `tail_tool_call_request` (`{name, args}`: the tool to run right after, whose
/// result replaces this one's; the last hook's); on `AfterAgent` with a deny, `clear_context`
/// (the history is cleared before the retry); on `BeforeModel`, `llm_request` (the request rewritten; the last hook's that gave one) and,
/// with a deny, `llm_response` (the answer in the model's place); on `AfterModel`,
/// `llm_response` (the chunk replaced; the last hook's); on `BeforeToolSelection`,
/// `tool_config` (`{functionCallingConfig: {mode, allowedFunctionNames}}`: the most restrictive
/// mode, NONE over ANY over AUTO, and every hook's names, sorted).
pub fn own_fields(event: EventName, report: &Report) -> serde_json::Map<String, serde_json::Value> {
    use serde_json::{Value, json};
    let mut out = serde_json::Map::new();
    let specifics: Vec<&serde_json::Map<String, Value>> = report
        .records
        .iter()
        .filter_map(record_of)
        .filter_map(|r| r.output.as_ref())
        .filter_map(specific)
        .collect();
    let last = |key: &str| specifics.iter().rev().find_map(|s| s.get(key)).cloned();
    let denied = report.merged.decision == Some(Decision::Deny);
    match event {
        EventName::AfterTool => {
            if let Some(tail) = last("tailToolCallRequest") {
                out.insert("tail_tool_call_request".into(), tail);
            }
        }
        EventName::AfterAgent if denied && clears_context(report) => {
            out.insert("clear_context".into(), Value::Bool(true));
        }
        EventName::BeforeModel => {
            if let Some(request) = last("llm_request") {
                out.insert("llm_request".into(), request);
            }
            if let (Some(response), true) = (last("llm_response"), denied) {
                out.insert("llm_response".into(), response);
            }
        }
        EventName::AfterModel => {
            if let Some(response) = last("llm_response") {
                out.insert("llm_response".into(), response);
            }
        }
        EventName::BeforeToolSelection => {
            let rank = |m: &str| match m {
                "NONE" => 3,
                "ANY" => 2,
                "AUTO" => 1,
                _ => 0,
            };
            let mut mode: Option<String> = None;
            let mut names: Vec<String> = Vec::new();
            for config in specifics.iter().filter_map(|s| s.get("toolConfig")) {
                let config = config.get("functionCallingConfig").unwrap_or(config);
                if let Some(m) = config.get("mode").and_then(Value::as_str)
                    && mode.as_deref().is_none_or(|current| rank(m) > rank(current))
                {
                    mode = Some(m.to_owned());
                }
                let listed = config.get("allowedFunctionNames").and_then(Value::as_array);
                names.extend(
                    listed.into_iter().flatten().filter_map(Value::as_str).map(str::to_owned),
                );
            }
            names.sort();
            names.dedup();
            if mode.is_some() || !names.is_empty() {
                let mut calling = serde_json::Map::new();
                if let Some(mode) = mode {
                    calling.insert("mode".into(), Value::from(mode));
                }
                if !names.is_empty() {
                    calling.insert("allowedFunctionNames".into(), json!(names));
                }
                out.insert("tool_config".into(), json!({"functionCallingConfig": calling}));
            }
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_is_wrapped_with_angle_brackets_escaped_and_ampersands_kept() {
        assert_eq!(
            hook_context("AT-CTX <extra> & more"),
            "<hook_context>AT-CTX &lt;extra&gt; & more</hook_context>"
        );
        assert_eq!(tool_blocked("r"), "Tool execution blocked: r");
    }
}
