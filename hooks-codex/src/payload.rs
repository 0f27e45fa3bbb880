//! What a Codex hook reads on stdin ([Event inputs](crate::compatibility#event-inputs)): one
//! compact JSON object, without a trailing newline.
//!
//! An event run from its Codex input (the `hooks` command, a recording) carries that object as
//! a [`InputObject`] extension, sent as it is. A harness's neutral event is written as Codex
//! writes it: the common fields (`session_id`, `transcript_path`, `cwd`, `hook_event_name`,
//! `model`, `permission_mode`), `turn_id` on the events of a turn, and the event's own fields
//! (`tool_response` is a string: a response that is not one is sent as its JSON text).

use std::sync::Arc;

use hook_protocol::{DialectError, Event, NeutralTool, Payload, ToolCall, ToolInput};
use serde_json::{Map, Value, json};

use crate::EventName;

/// A Codex input object that travels with a neutral event and is sent to the hooks as it is.
pub type InputObject = hook_kit::InputObject<EventName>;

/// What a harness knows of the turn that Codex sends and the neutral event has no field for:
/// the model and the turn's id. Attach it to an event's extensions; without it, `model` and
/// `turn_id` are empty strings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Turn {
    /// The model the session runs (`gpt-5.5`).
    pub model: String,
    /// The turn's id.
    pub turn_id: String,
}

impl Turn {
    /// The model and turn id of a turn.
    pub fn new(model: impl Into<String>, turn_id: impl Into<String>) -> Self {
        Self { model: model.into(), turn_id: turn_id.into() }
    }
}

fn put(object: &mut Map<String, Value>, key: &str, value: impl Into<Value>) {
    object.insert(key.to_owned(), value.into());
}

/// The stdin object of a hook on `event`.
pub(crate) fn stdin_object(name: EventName, event: &Event) -> Arc<Map<String, Value>> {
    if let Some(payload) = event.extensions.get::<InputObject>() {
        return Arc::clone(&payload.object);
    }
    let turn = event.extensions.get::<Turn>().cloned().unwrap_or_default();
    let common = &event.common;
    let mut o = Map::new();
    put(&mut o, "session_id", common.session_id.clone());
    if name.in_turn() {
        put(&mut o, "turn_id", turn.turn_id.clone());
    }
    let transcript = common.transcript_path.as_ref().map(|p| p.display().to_string());
    put(&mut o, "transcript_path", transcript.map_or(Value::Null, Value::String));
    put(&mut o, "cwd", common.cwd.display().to_string());
    put(&mut o, "hook_event_name", name.as_str());
    if name != EventName::SessionEnd {
        put(&mut o, "model", turn.model);
        put(&mut o, "permission_mode", common.permission_mode.clone().unwrap_or_default());
    }
    match &event.payload {
        Payload::SessionStart(s) => put(&mut o, "source", s.source.clone()),
        Payload::PromptSubmit(p) => put(&mut o, "prompt", p.prompt.clone()),
        Payload::PreTool(call) | Payload::PermissionRequest(call) => {
            put(&mut o, "tool_name", call.tool_name.clone());
            put(&mut o, "tool_input", call.tool_input.clone());
            put(&mut o, "tool_use_id", call.tool_use_id.clone().unwrap_or_default());
        }
        Payload::PostTool(result) => {
            put(&mut o, "tool_name", result.call.tool_name.clone());
            put(&mut o, "tool_input", result.call.tool_input.clone());
            put(&mut o, "tool_use_id", result.call.tool_use_id.clone().unwrap_or_default());
            let response = match &result.tool_response {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            put(&mut o, "tool_response", response);
        }
        Payload::TurnEnd(end) => {
            put(&mut o, "stop_hook_active", end.continuing);
            put(&mut o, "last_assistant_message", end.last_message.clone().unwrap_or_default());
        }
        Payload::SubagentStart(s) => {
            put(&mut o, "agent_id", s.agent_id.clone());
            put(&mut o, "agent_type", s.agent_type.clone());
        }
        Payload::SubagentEnd(s) => {
            put(&mut o, "agent_id", s.agent_id.clone());
            put(&mut o, "agent_type", s.agent_type.clone());
            put(&mut o, "stop_hook_active", s.continuing);
            put(&mut o, "last_assistant_message", s.last_message.clone().unwrap_or_default());
        }
        Payload::PreCompact(c) => put(&mut o, "trigger", c.trigger.clone()),
        Payload::SessionEnd(e) => put(&mut o, "reason", e.reason.clone()),
        _ => {}
    }
    Arc::new(o)
}

/// A neutral event as Codex writes it ([Neutral tools](crate::compatibility#neutral-tools)):
/// its event (none where Codex has none), and the object, with the tool as Codex names it: a
/// shell command is `Bash` with only its `command`; a write or an edit is `apply_patch`, its
/// `command` a patch built from it; any other tool keeps its name and input.
///
/// # Errors
///
/// [`DialectError::InvalidInput`] naming the field an edit or a write lacks (unless
/// `lenient`).
pub(crate) fn write(
    event: &Event,
    lenient: bool,
) -> Result<hook_kit::Written<EventName>, DialectError> {
    hook_kit::write_one(event, |call, name| codex_call(call, name, lenient), stdin_object)
}

/// A neutral tool call as Codex's.
fn codex_call(call: &ToolCall, name: EventName, lenient: bool) -> Result<ToolCall, DialectError> {
    let input = ToolInput::new(call, name.as_str(), "Codex", lenient);
    let (tool, tool_input) = match NeutralTool::of(&call.tool_name) {
        NeutralTool::Shell => ("Bash", json!({"command": input.text("command")?})),
        NeutralTool::Write => {
            let patch = add_patch(input.text("file_path")?, input.text("content")?);
            ("apply_patch", json!({ "command": patch }))
        }
        NeutralTool::Edit => {
            let patch = update_patch(
                input.text("file_path")?,
                input.text("old_string")?,
                input.text("new_string")?,
            );
            ("apply_patch", json!({ "command": patch }))
        }
        _ => return Ok(call.clone()),
    };
    let mut out = ToolCall::new(tool, tool_input);
    out.tool_use_id.clone_from(&call.tool_use_id);
    Ok(out)
}

/// Codex's patch adding the file `path` with `content`.
fn add_patch(path: &str, content: &str) -> String {
    let mut patch = format!("*** Begin Patch\n*** Add File: {path}\n");
    for line in content.lines() {
        patch.push('+');
        patch.push_str(line);
        patch.push('\n');
    }
    patch.push_str("*** End Patch\n");
    patch
}

/// Codex's patch replacing `old` by `new` in the file `path`.
fn update_patch(path: &str, old: &str, new: &str) -> String {
    let mut patch = format!("*** Begin Patch\n*** Update File: {path}\n@@\n");
    for (sign, text) in [('-', old), ('+', new)] {
        for line in text.lines() {
            patch.push(sign);
            patch.push_str(line);
            patch.push('\n');
        }
    }
    patch.push_str("*** End Patch\n");
    patch
}

#[cfg(test)]
mod tests {
    use super::*;
    use hook_protocol::Common;

    fn pre_tool(tool: &str, input: Value) -> Event {
        Event::new(Common::new("s", "/p"), Payload::PreTool(ToolCall::new(tool, input)))
    }

    #[test]
    fn an_edit_is_an_apply_patch_and_a_shell_command_keeps_only_its_command() {
        let edit = pre_tool(
            "Edit",
            json!({"file_path": "src/a.rs", "old_string": "a\nb", "new_string": "c"}),
        );
        let written = write(&edit, false).unwrap_or_default();
        let [(name, object)] = written.as_slice() else { panic!("one event: {written:?}") };
        assert_eq!(*name, EventName::PreToolUse);
        assert_eq!(object["tool_name"], "apply_patch");
        assert_eq!(
            object["tool_input"]["command"],
            "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-a\n-b\n+c\n*** End Patch\n"
        );
        let shell = pre_tool("Bash", json!({"command": "ls", "description": "list"}));
        let written = write(&shell, false).unwrap_or_default();
        assert_eq!(written[0].1["tool_input"], json!({"command": "ls"}));
        let new_file = pre_tool("Write", json!({"file_path": "n.txt", "content": "x\ny\n"}));
        let written = write(&new_file, false).unwrap_or_default();
        assert_eq!(
            written[0].1["tool_input"]["command"],
            "*** Begin Patch\n*** Add File: n.txt\n+x\n+y\n*** End Patch\n"
        );
    }

    #[test]
    fn an_edit_without_its_strings_is_refused_unless_lenient() {
        let edit = pre_tool("Edit", json!({"file_path": "a"}));
        let e = write(&edit, false).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains("Codex needs `tool_input.old_string`"), "{e}");
        assert!(write(&edit, true).is_ok());
        let other = pre_tool("mcp__github__create_issue", json!({"title": "t"}));
        let written = write(&other, false).unwrap_or_default();
        assert_eq!(written[0].1["tool_name"], "mcp__github__create_issue", "kept as named");
        let none = Event::new(
            Common::new("s", "/p"),
            Payload::Notification(hook_protocol::Notification::new("idle", "m")),
        );
        assert!(write(&none, false).unwrap_or_default().is_empty(), "Codex has no Notification");
    }
}
