//! What a Cursor hook reads on stdin ([Event inputs](crate::compatibility#event-inputs)): one
//! compact JSON object without a trailing newline, and which Cursor events one action fires
//! ([Projection](crate::compatibility#projection)).
//!
//! An event run from its Cursor input (the `hooks` command, a recording) carries that object
//! and its event as an [`InputObject`] extension: only that event's hooks run, and they get the
//! object as it is. A harness's neutral event fires every Cursor event Cursor fires for it (a
//! shell call: `preToolUse` and `beforeShellExecution`), each hook getting its event's object
//! in Cursor's form: the common fields (`conversation_id`, `generation_id`, `model`,
//! `hook_event_name`, `cursor_version`, `workspace_roots`, `user_email`, `transcript_path`) and
//! the event's own, with Cursor's tool names.

use std::path::Path;
use std::sync::Arc;

use hook_protocol::{Event, Payload, ToolCall};
use serde_json::{Map, Value, json};

use crate::EventName;
use crate::event::{action_of, cursor_tool};

/// The Cursor release the inputs and texts follow.
pub const CURSOR_VERSION: &str = "3.9.16";

/// A Cursor input object, for one Cursor event, that travels with a neutral event and is sent
/// to that event's hooks as it is.
pub type InputObject = hook_kit::InputObject<EventName>;

/// What a harness knows of the turn that Cursor sends and the neutral event has no field for:
/// the model and the generation's id. Attach it to an event's extensions; without it they are
/// empty strings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Turn {
    /// The model (`claude-4.5-sonnet`).
    pub model: String,
    /// The generation's id.
    pub generation_id: String,
}

impl Turn {
    /// The model and generation id of a turn.
    pub fn new(model: impl Into<String>, generation_id: impl Into<String>) -> Self {
        Self { model: model.into(), generation_id: generation_id.into() }
    }
}

fn put(object: &mut Map<String, Value>, key: &str, value: impl Into<Value>) {
    object.insert(key.to_owned(), value.into());
}

/// A tool input's text field, if any.
fn field<'a>(call: &'a ToolCall, key: &str) -> Option<&'a str> {
    call.tool_input.get(key).and_then(Value::as_str)
}

/// A value as the JSON string Cursor sends for tool outputs and MCP inputs.
fn json_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The stdin object of a hook on Cursor event `name` for a neutral `event`, or `None` when
/// Cursor does not fire `name` for it.
pub(crate) fn stdin_object(
    name: EventName,
    event: &Event,
    project_dir: &Path,
) -> Option<Arc<Map<String, Value>>> {
    if let Some(input) = event.extensions.get::<InputObject>() {
        return (input.event == name).then(|| Arc::clone(&input.object));
    }
    if name.seam() != Some(event.payload.seam()) {
        return None;
    }
    let tool = event.payload.tool_call().map(|c| cursor_tool(&c.tool_name));
    if let Some(action) = name.action()
        && tool.as_deref().map(action_of) != Some(action)
    {
        return None;
    }
    let turn = event.extensions.get::<Turn>().cloned().unwrap_or_default();
    let common = &event.common;
    let mut o = Map::new();
    put(&mut o, "conversation_id", common.session_id.clone());
    put(&mut o, "generation_id", turn.generation_id);
    put(&mut o, "model", turn.model);
    put(&mut o, "hook_event_name", name.as_str());
    put(&mut o, "cursor_version", CURSOR_VERSION);
    put(&mut o, "workspace_roots", json!([project_dir.display().to_string()]));
    put(&mut o, "user_email", Value::Null);
    let transcript = common.transcript_path.as_ref().map(|p| p.display().to_string());
    put(&mut o, "transcript_path", transcript.map_or(Value::Null, Value::String));
    put(&mut o, "session_id", common.session_id.clone());
    let cwd = common.cwd.display().to_string();
    match (&event.payload, name) {
        (Payload::PreTool(call), EventName::PreToolUse) => tool_fields(&mut o, call),
        (Payload::PreTool(call), EventName::BeforeShellExecution) => {
            put(&mut o, "command", field(call, "command").unwrap_or_default());
            put(&mut o, "cwd", cwd);
            put(&mut o, "sandbox", false);
        }
        (Payload::PreTool(call), EventName::BeforeMcpExecution) => mcp_fields(&mut o, call),
        (Payload::PreTool(call), EventName::BeforeReadFile) => {
            let path = field(call, "file_path").or_else(|| field(call, "path")).unwrap_or_default();
            put(&mut o, "file_path", path);
            put(&mut o, "content", "");
            put(&mut o, "attachments", json!([]));
        }
        (Payload::PostTool(result), EventName::PostToolUse) => {
            tool_fields(&mut o, &result.call);
            put(&mut o, "tool_output", json_text(&result.tool_response));
            put(&mut o, "duration", 0);
        }
        (Payload::PostTool(result), EventName::AfterShellExecution) => {
            put(&mut o, "command", field(&result.call, "command").unwrap_or_default());
            put(&mut o, "output", json_text(&result.tool_response));
            put(&mut o, "duration", 0);
            put(&mut o, "sandbox", false);
        }
        (Payload::PostTool(result), EventName::AfterMcpExecution) => {
            mcp_fields(&mut o, &result.call);
            put(&mut o, "result_json", json_text(&result.tool_response));
            put(&mut o, "duration", 0);
        }
        (Payload::PostTool(result), EventName::AfterFileEdit) => {
            let call = &result.call;
            let path = field(call, "file_path").or_else(|| field(call, "path")).unwrap_or_default();
            put(&mut o, "file_path", path);
            let edits = match (field(call, "old_string"), field(call, "new_string")) {
                (Some(old), Some(new)) => json!([{"old_string": old, "new_string": new}]),
                _ => json!([]),
            };
            put(&mut o, "edits", edits);
        }
        (Payload::PostToolFailure(failure), _) => {
            tool_fields(&mut o, &failure.call);
            put(&mut o, "error_message", failure.error.clone());
            let kind = if failure.is_interrupt { "interrupted" } else { "error" };
            put(&mut o, "failure_type", kind);
        }
        (Payload::PromptSubmit(p), _) => {
            put(&mut o, "prompt", p.prompt.clone());
            put(&mut o, "attachments", json!([]));
        }
        (Payload::TurnEnd(end), _) => {
            put(&mut o, "status", "completed");
            put(&mut o, "loop_count", end.continuations);
        }
        (Payload::SubagentStart(s), _) => {
            put(&mut o, "subagent_id", s.agent_id.clone());
            put(&mut o, "subagent_type", s.agent_type.clone());
            put(&mut o, "task", "");
        }
        (Payload::SubagentEnd(s), _) => {
            put(&mut o, "subagent_id", s.agent_id.clone());
            put(&mut o, "subagent_type", s.agent_type.clone());
            put(&mut o, "status", "completed");
            put(&mut o, "loop_count", s.continuations);
            put(&mut o, "summary", s.last_message.clone().unwrap_or_default());
        }
        (Payload::SessionStart(_), _) => {
            put(&mut o, "is_background_agent", false);
            put(&mut o, "composer_mode", "agent");
        }
        (Payload::SessionEnd(e), _) => put(&mut o, "reason", e.reason.clone()),
        (Payload::PreCompact(c), _) => put(&mut o, "trigger", c.trigger.clone()),
        _ => {}
    }
    Some(Arc::new(o))
}

/// A neutral event as Cursor writes it ([Projection](crate::compatibility#projection)): every
/// Cursor event Cursor fires for it, in Cursor's order, each with its object (a shell command:
/// `preToolUse` and `beforeShellExecution`). A `stop`'s `loop_count` is left to the session,
/// which counts the follow-ups of the conversation.
pub(crate) fn write(event: &Event, project_dir: &Path) -> hook_kit::Written<EventName> {
    EventName::ALL
        .iter()
        .filter_map(|&name| {
            let mut object = (*stdin_object(name, event, project_dir)?).clone();
            if name == EventName::Stop {
                object.remove("loop_count");
            }
            Some((name, object))
        })
        .collect()
}

/// `tool_name` (Cursor's), `tool_input`, `tool_use_id` and `cwd` (empty, as observed).
fn tool_fields(o: &mut Map<String, Value>, call: &ToolCall) {
    put(o, "tool_name", cursor_tool(&call.tool_name));
    put(o, "tool_input", call.tool_input.clone());
    put(o, "tool_use_id", call.tool_use_id.clone().unwrap_or_default());
    put(o, "cwd", "");
}

/// `tool_name` (the MCP tool's own) and `tool_input` as a JSON string.
fn mcp_fields(o: &mut Map<String, Value>, call: &ToolCall) {
    let name = cursor_tool(&call.tool_name);
    put(o, "tool_name", name.strip_prefix("MCP:").unwrap_or(&name));
    put(o, "tool_input", json_text(&call.tool_input));
}

/// What a hook of `event`'s matcher is tested against, in its input
/// ([Matchers](crate::compatibility#matchers)).
pub(crate) fn target(event: EventName, object: &Map<String, Value>) -> String {
    let text = |key: &str| object.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
    match event {
        EventName::PreToolUse
        | EventName::PostToolUse
        | EventName::PostToolUseFailure
        | EventName::BeforeMcpExecution
        | EventName::AfterMcpExecution => text("tool_name"),
        EventName::BeforeShellExecution | EventName::AfterShellExecution => text("command"),
        EventName::SubagentStart | EventName::SubagentStop => text("subagent_type"),
        EventName::BeforeReadFile => "Read".to_owned(),
        EventName::AfterFileEdit => "Write".to_owned(),
        EventName::BeforeSubmitPrompt => "UserPromptSubmit".to_owned(),
        EventName::Stop => "Stop".to_owned(),
        EventName::PreCompact => "PreCompact".to_owned(),
        EventName::AfterAgentResponse => "AgentResponse".to_owned(),
        EventName::AfterAgentThought => "AgentThought".to_owned(),
        EventName::BeforeTabFileRead => "TabRead".to_owned(),
        EventName::AfterTabFileEdit => "TabWrite".to_owned(),
        EventName::SessionStart | EventName::SessionEnd | EventName::WorkspaceOpen => String::new(),
    }
}
