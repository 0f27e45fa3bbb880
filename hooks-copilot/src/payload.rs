//! What a Copilot hook reads on stdin ([Event inputs](crate::compatibility#event-inputs)): one
//! compact JSON object, without a trailing newline, in camelCase.
//!
//! An event run from its Copilot input (the `hooks` command, a recording) carries that object
//! as an [`InputObject`] extension, sent as it is. A harness's neutral event is written as
//! Copilot writes it: `sessionId`, `timestamp` (milliseconds since the epoch, now), `cwd`, and
//! the event's own fields (`toolName` and `toolArgs`; `toolInput` on `permissionRequest`;
//! `toolResult` after a tool; `stop_hook_active`, in snake case, on `agentStop` and
//! `subagentStop`).

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use hook_protocol::{Event, Payload};
use serde_json::{Map, Value, json};

use crate::EventName;

/// A Copilot input object that travels with a neutral event and is sent to the hooks as it is.
pub type InputObject = hook_kit::InputObject<EventName>;

fn put(object: &mut Map<String, Value>, key: &str, value: impl Into<Value>) {
    object.insert(key.to_owned(), value.into());
}

/// Milliseconds since the epoch, now.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// A tool's response as Copilot's `toolResult`: its `textResultForLlm` is the response's text
/// (a string as it is, anything else as its JSON).
fn tool_result(response: &Value) -> Value {
    if response.get("textResultForLlm").is_some() {
        return response.clone();
    }
    let text = match response {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    json!({"resultType": "success", "textResultForLlm": text})
}

/// The stdin object of a hook on `event`.
pub(crate) fn stdin_object(name: EventName, event: &Event) -> Arc<Map<String, Value>> {
    if let Some(input) = event.extensions.get::<InputObject>() {
        // A hook before this one rewrote the arguments (`modifiedArgs`): this one sees them.
        let rewritten = event.extensions.get::<hook_protocol::InputRewritten>().is_some();
        return match (rewritten, event.payload.tool_call()) {
            (true, Some(call)) => {
                let mut object = (*input.object).clone();
                let key =
                    if name == EventName::PermissionRequest { "toolInput" } else { "toolArgs" };
                put(&mut object, key, call.tool_input.clone());
                Arc::new(object)
            }
            _ => Arc::clone(&input.object),
        };
    }
    let common = &event.common;
    let mut o = Map::new();
    if name == EventName::PermissionRequest {
        put(&mut o, "hookName", "permissionRequest");
    }
    put(&mut o, "sessionId", common.session_id.clone());
    put(&mut o, "timestamp", now_ms());
    put(&mut o, "cwd", common.cwd.display().to_string());
    let transcript = || common.transcript_path.as_ref().map(|p| p.display().to_string());
    match &event.payload {
        Payload::SessionStart(s) => put(&mut o, "source", s.source.clone()),
        Payload::PromptSubmit(p) => put(&mut o, "prompt", p.prompt.clone()),
        Payload::PreTool(call) => {
            put(&mut o, "toolName", call.tool_name.clone());
            put(&mut o, "toolArgs", call.tool_input.clone());
        }
        Payload::PermissionRequest(call) => {
            put(&mut o, "toolName", call.tool_name.clone());
            put(&mut o, "toolInput", call.tool_input.clone());
            put(&mut o, "permissionSuggestions", Value::Array(Vec::new()));
        }
        Payload::PostTool(result) => {
            put(&mut o, "toolName", result.call.tool_name.clone());
            put(&mut o, "toolArgs", result.call.tool_input.clone());
            put(&mut o, "toolResult", tool_result(&result.tool_response));
        }
        Payload::PostToolFailure(failure) => {
            put(&mut o, "toolName", failure.call.tool_name.clone());
            put(&mut o, "toolArgs", failure.call.tool_input.clone());
            put(&mut o, "error", failure.error.clone());
        }
        Payload::TurnEnd(end) => {
            put(&mut o, "transcriptPath", transcript().unwrap_or_default());
            put(&mut o, "stopReason", "end_turn");
            put(&mut o, "stop_hook_active", end.continuing);
        }
        Payload::SubagentStart(s) => {
            put(&mut o, "transcriptPath", transcript().unwrap_or_default());
            put(&mut o, "agentName", s.agent_type.clone());
            put(&mut o, "agentId", s.agent_id.clone());
            put(&mut o, "agentType", s.agent_type.clone());
        }
        Payload::SubagentEnd(s) => {
            put(&mut o, "transcriptPath", transcript().unwrap_or_default());
            put(&mut o, "agentId", s.agent_id.clone());
            put(&mut o, "agentType", s.agent_type.clone());
            put(&mut o, "agentName", s.agent_type.clone());
            put(&mut o, "response", s.last_message.clone().unwrap_or_default());
            put(&mut o, "stopReason", "end_turn");
            put(&mut o, "stop_hook_active", s.continuing);
        }
        Payload::PreCompact(c) => put(&mut o, "trigger", c.trigger.clone()),
        Payload::Notification(n) => {
            put(&mut o, "notificationType", n.kind.clone());
            put(&mut o, "message", n.message.clone());
        }
        Payload::SessionEnd(e) => put(&mut o, "reason", e.reason.clone()),
        Payload::Custom(c) => {
            for (k, v) in &c.fields {
                o.insert(k.clone(), v.clone());
            }
        }
        _ => {}
    }
    Arc::new(o)
}
