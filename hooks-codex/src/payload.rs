//! What a Codex hook reads on stdin ([Event inputs](crate::compatibility#event-inputs)): one
//! compact JSON object, without a trailing newline.
//!
//! An event run from its Codex input (the `hooks` command, a recording) carries that object as
//! a [`InputObject`] extension, sent as it is. A harness's neutral event is written as Codex
//! writes it: the common fields (`session_id`, `transcript_path`, `cwd`, `hook_event_name`,
//! `model`, `permission_mode`), `turn_id` on the events of a turn, and the event's own fields
//! (`tool_response` is a string: a response that is not one is sent as its JSON text).

use std::sync::Arc;

use hook_protocol::{Event, Payload};
use serde_json::{Map, Value};

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
