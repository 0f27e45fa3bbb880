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

use hook_protocol::{DialectError, Event, NeutralTool, Payload, ToolCall, ToolInput};
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
    // A hook before this one may have rewritten the arguments (`modifiedArgs`): this one
    // sees them.
    let key = if name == EventName::PermissionRequest { "toolInput" } else { "toolArgs" };
    if let Some(sent) = InputObject::sent(event, key) {
        return sent;
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

/// The stdin object of a hook of Claude Code's form: the Copilot object `native` as Copilot
/// writes it for such a hook ([Claude Code's files](crate::compatibility#claude-codes-files)):
/// `hook_event_name` (Claude Code's name), `session_id`, `timestamp` as an ISO-8601 string,
/// `cwd`, then the event's own fields in snake case, the tool by its Claude Code name,
/// `tool_input` for the arguments, `tool_result` `{result_type, text_result_for_llm}` after a
/// tool, `last_assistant_message` for a sub-agent's response, and `transcript_path` only on
/// `Stop`, `SubagentStop` and `PreCompact`; no `permission_mode`, no `tool_use_id`.
pub(crate) fn claude_object(name: EventName, native: &Map<String, Value>) -> Map<String, Value> {
    let mut o = Map::new();
    put(&mut o, "hook_event_name", name.claude_name());
    put(&mut o, "session_id", native.get("sessionId").cloned().unwrap_or_default());
    let ms = native.get("timestamp").and_then(Value::as_u64).unwrap_or_else(now_ms);
    let at = UNIX_EPOCH + std::time::Duration::from_millis(ms);
    put(&mut o, "timestamp", humantime::format_rfc3339_millis(at).to_string());
    put(&mut o, "cwd", native.get("cwd").cloned().unwrap_or_default());
    let transcript =
        matches!(name, EventName::AgentStop | EventName::SubagentStop | EventName::PreCompact);
    for (key, value) in native {
        let (key, value) = match key.as_str() {
            "sessionId" | "timestamp" | "cwd" | "hookName" => continue,
            "transcriptPath" if !transcript => continue,
            "toolName" => {
                let tool =
                    value.as_str().map_or_else(|| value.clone(), |t| crate::claude_tool(t).into());
                ("tool_name".to_owned(), tool)
            }
            "toolArgs" | "toolInput" => ("tool_input".to_owned(), value.clone()),
            "response" => ("last_assistant_message".to_owned(), value.clone()),
            "toolResult" => ("tool_result".to_owned(), recase_keys(value, true)),
            other => (recase(other, true), value.clone()),
        };
        o.insert(key, value);
    }
    o
}

/// A Copilot object from one in Claude Code's form (what [`claude_object`] writes, or a
/// recording of a Claude Code-form hook under Copilot): the keys in camel case, the tool by its
/// Copilot name, the arguments as `toolArgs` (`toolInput` on `permissionRequest`), the
/// timestamp in milliseconds. A field Copilot leaves out of that form (`tool_use_id`,
/// `tool_response`) is not asked for.
pub(crate) fn native_object(name: EventName, claude: &Map<String, Value>) -> Map<String, Value> {
    let mut o = Map::new();
    for (key, value) in claude {
        let (key, value) = match key.as_str() {
            "hook_event_name" => continue,
            "timestamp" => {
                let ms = value
                    .as_str()
                    .and_then(|t| humantime::parse_rfc3339_weak(t).ok())
                    .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                    .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
                ("timestamp".to_owned(), ms.map_or_else(|| value.clone(), Value::from))
            }
            "tool_name" => {
                let tool = value.as_str().map_or_else(|| value.clone(), |t| copilot_tool(t).into());
                ("toolName".to_owned(), tool)
            }
            "tool_input" if name == EventName::PermissionRequest => {
                ("toolInput".to_owned(), value.clone())
            }
            "tool_input" => ("toolArgs".to_owned(), value.clone()),
            "last_assistant_message" => ("response".to_owned(), value.clone()),
            "tool_result" => ("toolResult".to_owned(), recase_keys(value, false)),
            // Copilot's own object has this one in snake case.
            "stop_hook_active" => (key.clone(), value.clone()),
            other => (recase(other, false), value.clone()),
        };
        o.insert(key, value);
    }
    o
}

/// A neutral event as Copilot writes it ([Neutral tools](crate::compatibility#neutral-tools)):
/// its event (none where Copilot has none) and its object, with the tool as Copilot names it
/// and the arguments as its tool takes them: `bash` `{command, description}`, `view` `{path}`,
/// `create` `{path, file_text}`, `edit` `{path, old_str, new_str}`, `web_fetch` `{url}`,
/// `task` `{prompt, description, agent_type}`, an MCP tool as `<server>-<tool>` with its
/// arguments; any other tool keeps its name and input.
///
/// # Errors
///
/// [`DialectError::InvalidInput`] naming the field a tool lacks (unless `lenient`).
pub(crate) fn write(
    event: &Event,
    lenient: bool,
) -> Result<hook_kit::Written<EventName>, DialectError> {
    hook_kit::write_one(event, |call, name| copilot_call(call, name, lenient), stdin_object)
}

/// A neutral tool call as Copilot's.
fn copilot_call(call: &ToolCall, name: EventName, lenient: bool) -> Result<ToolCall, DialectError> {
    let input = ToolInput::new(call, name.as_str(), "Copilot", lenient);
    let mut args = Map::new();
    let mut keep = |from: &str, to: &str, required: bool| -> Result<(), DialectError> {
        match input.get(from) {
            Some(v) => {
                args.insert(to.to_owned(), v.clone());
            }
            None if required => {
                args.insert(to.to_owned(), input.text(from)?.into());
            }
            None => {}
        }
        Ok(())
    };
    let tool = match NeutralTool::of(&call.tool_name) {
        NeutralTool::Shell => {
            keep("command", "command", true)?;
            keep("description", "description", false)?;
            "bash".to_owned()
        }
        NeutralTool::Read => {
            keep("file_path", "path", true)?;
            "view".to_owned()
        }
        NeutralTool::Write => {
            keep("file_path", "path", true)?;
            keep("content", "file_text", true)?;
            "create".to_owned()
        }
        NeutralTool::Edit => {
            keep("file_path", "path", true)?;
            keep("old_string", "old_str", true)?;
            keep("new_string", "new_str", true)?;
            "edit".to_owned()
        }
        NeutralTool::WebFetch => {
            keep("url", "url", true)?;
            "web_fetch".to_owned()
        }
        NeutralTool::Subagent => {
            keep("prompt", "prompt", true)?;
            keep("description", "description", false)?;
            keep("subagent_type", "agent_type", false)?;
            "task".to_owned()
        }
        NeutralTool::Mcp { server, tool } => {
            let mut out = call.clone();
            out.tool_name = format!("{server}-{tool}");
            return Ok(out);
        }
        _ => return Ok(call.clone()),
    };
    let mut out = ToolCall::new(tool, Value::Object(args));
    out.tool_use_id.clone_from(&call.tool_use_id);
    Ok(out)
}

/// A Claude Code tool name as Copilot's (`Bash` is `bash`); a tool without one keeps its name.
fn copilot_tool(name: &str) -> &str {
    crate::TOOL_ALIASES
        .iter()
        .find(|(claude, _)| *claude == name)
        .and_then(|(_, copilot)| copilot.first().copied())
        .unwrap_or(name)
}

/// A key in the other case: `camelCase` as `snake_case` (`to_snake`), else `snake_case` as
/// `camelCase`.
fn recase(key: &str, to_snake: bool) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    let mut upper = false;
    for c in key.chars() {
        match (to_snake, c) {
            (true, c) if c.is_ascii_uppercase() => {
                out.push('_');
                out.push(c.to_ascii_lowercase());
            }
            (false, '_') => upper = true,
            (false, c) if upper => {
                out.push(c.to_ascii_uppercase());
                upper = false;
            }
            (_, c) => out.push(c),
        }
    }
    out
}

/// An object's keys recased ([`recase`]); anything else as it is.
fn recase_keys(value: &Value, to_snake: bool) -> Value {
    match value {
        Value::Object(o) => {
            Value::Object(o.iter().map(|(k, v)| (recase(k, to_snake), v.clone())).collect())
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hook_protocol::Common;

    fn written(tool: &str, input: Value) -> Map<String, Value> {
        let call = ToolCall::new(tool, input);
        let event = Event::new(Common::new("s", "/p"), Payload::PreTool(call));
        write(&event, false).unwrap_or_default().pop().map(|(_, o)| o).unwrap_or_default()
    }

    #[test]
    fn neutral_tools_take_copilots_names_and_arguments() {
        let edit = written("Edit", json!({"file_path": "a", "old_string": "x", "new_string": "y"}));
        assert_eq!(edit["toolName"], "edit");
        assert_eq!(edit["toolArgs"], json!({"path": "a", "old_str": "x", "new_str": "y"}));
        let shell = written("Bash", json!({"command": "ls"}));
        assert_eq!(
            (&shell["toolName"], &shell["toolArgs"]),
            (&json!("bash"), &json!({"command": "ls"}))
        );
        let mcp = written("mcp__github__create_issue", json!({"title": "t"}));
        assert_eq!(mcp["toolName"], "github-create_issue");
        assert_eq!(mcp["toolArgs"], json!({"title": "t"}));
        assert_eq!(written("Grep", json!({"pattern": "p"}))["toolName"], "Grep", "kept as named");
        let read = written("Read", json!({"file_path": "a.rs"}));
        assert_eq!(
            (&read["toolName"], &read["toolArgs"]),
            (&json!("view"), &json!({"path": "a.rs"}))
        );
        let fetch = written("WebFetch", json!({"url": "https://x", "prompt": "p"}));
        assert_eq!(
            (&fetch["toolName"], &fetch["toolArgs"]),
            (&json!("web_fetch"), &json!({"url": "https://x"}))
        );
        let agent = written("Agent", json!({"prompt": "p", "subagent_type": "explore"}));
        assert_eq!(agent["toolName"], "task");
        assert_eq!(agent["toolArgs"], json!({"prompt": "p", "agent_type": "explore"}));
        let call = ToolCall::new("Write", json!({"file_path": "a"}));
        let event = Event::new(Common::new("s", "/p"), Payload::PreTool(call));
        let e = write(&event, false).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains("Copilot needs `tool_input.content`"), "{e}");
    }
}
