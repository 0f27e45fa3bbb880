//! What Cursor shows the model and the user after an event
//! ([What Cursor shows](crate::compatibility#what-cursor-shows)). Cursor's own framing of these
//! texts is not recorded; what is known is where each goes and whose words it is, and that is
//! what this module renders.
//!
//! A blocked action's result is the hook's `user_message` (as observed, it reaches the model
//! as the tool's error), or Cursor's text for an exit 2 without output, then the hook's
//! `agent_message`, which Cursor documents as the text for the agent; `additional_context`
//! is a message for the model; `updated_mcp_tool_output` replaces an MCP tool's output; a
//! `stop` follow-up is the next user message. `user_message` is shown to the user.

use hook_protocol::{Decision, HookRecord, ModelText, Placement, Report, Shown};

use crate::EventName;
use crate::decode::RunRecord;

fn record_of(r: &HookRecord) -> Option<&RunRecord> {
    r.metadata.as_ref().and_then(|m| m.downcast_ref::<RunRecord>())
}

/// The `agent_message` of the first hook that denied, when it wrote one.
pub(crate) fn agent_message(report: &Report) -> Option<&str> {
    report
        .records
        .iter()
        .filter(|r| r.verdict.decision == Some(Decision::Deny))
        .find_map(record_of)
        .and_then(|r| r.agent_message.as_deref())
}

/// What Cursor shows after a run of `event`.
pub fn shown(event: EventName, report: &Report) -> Shown {
    let merged = &report.merged;
    let mut model = Vec::new();
    let user: Vec<String> = merged.messages.iter().map(|m| m.value.clone()).collect();
    if merged.interrupted {
        return Shown::new(model, user, Vec::new());
    }
    let tool_event =
        matches!(event.seam(), Some(hook_protocol::Seam::PreTool | hook_protocol::Seam::PostTool));
    if merged.decision == Some(Decision::Deny) && tool_event && event.gating() {
        let reason = merged.reasons.first().map(|r| r.value.clone()).unwrap_or_default();
        model.push(ModelText::new(Placement::ToolResult, reason, true));
        // The deciding hook's `agent_message`, which Cursor gives the agent, after the result
        // (unless it is the result already: a deny without `user_message`).
        if let Some(message) = agent_message(report).filter(|m| *m != model[0].text) {
            model.push(ModelText::new(Placement::System, message.to_owned(), false));
        }
    }
    if event == EventName::PostToolUse
        && let Some(output) = report
            .records
            .iter()
            .rev()
            .filter_map(record_of)
            .find_map(|r| r.updated_mcp_tool_output.as_ref())
    {
        let text = match output {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        model.push(ModelText::new(Placement::ToolResult, text, false));
    }
    for c in &merged.context {
        model.push(ModelText::new(Placement::System, c.value.clone(), false));
    }
    if let Some(prompt) = &merged.follow_up
        && merged.decision != Some(Decision::Deny)
    {
        model.push(ModelText::new(Placement::User, prompt.value.clone(), false));
    }
    Shown::new(model, user, Vec::new())
}
