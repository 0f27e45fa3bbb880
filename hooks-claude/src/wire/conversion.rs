//! Neutral events and Claude Code payloads, both ways.
//!
//! A harness that calls this crate's typed API gets the exact Claude payload on stdin: it
//! travels with the neutral [`Event`] as a [`InputObject`] extension. A harness that raises a
//! neutral event through its own [`hook_protocol::Dispatcher`] gets a faithful Claude payload
//! built from the neutral fields ([`payload_from_event`]).

use std::path::PathBuf;

use hook_protocol::{
    Common, Custom, Event, InputRewritten, Notification, Payload, PreCompact, PromptSubmit,
    SessionEnd, SessionStart, SubagentEnd, SubagentStart, ToolCall, ToolFailure, ToolResult,
    TurnEnd,
};
use serde_json::{Map, Value};

use crate::EventName;
use crate::matcher::{canonical_model, file_basename};
use crate::wire::lookup::{Texts, field};

pub use crate::wire::payload::InputObject;

fn s<'a>(map: &'a Map<String, Value>, key: &str) -> &'a str {
    field(map, key).and_then(Value::as_str).unwrap_or_default()
}

fn opt(map: &Map<String, Value>, key: &str) -> Option<String> {
    field(map, key).and_then(Value::as_str).map(str::to_owned)
}

/// The matcher subject of an event's payload ([Matchers](crate::compatibility#matchers)), `None`
/// when the event ignores matchers.
pub fn subject_of(event: Option<EventName>, map: &Map<String, Value>) -> Option<String> {
    subject_in(event, map)
}

/// [`subject_of`] in a payload however it is held.
pub(crate) fn subject_in(event: Option<EventName>, payload: &dyn Texts) -> Option<String> {
    let event = event?;
    let field = event.subject_field()?;
    let value = payload.text(field).unwrap_or_default();
    match event {
        EventName::FileChanged => Some(file_basename(value).to_owned()),
        EventName::PreModelSwitch | EventName::PostModelSwitch => canonical_model(value),
        _ => Some(value.to_owned()),
    }
}

/// The neutral event for a Claude payload, with the payload attached as a [`InputObject`].
pub fn event_from_payload(name: &str, map: Map<String, Value>) -> Event {
    let event = EventName::parse(name);
    let mut common = Common::new(s(&map, "session_id"), s(&map, "cwd"));
    common.transcript_path = opt(&map, "transcript_path").map(PathBuf::from);
    common.permission_mode = opt(&map, "permission_mode");
    common.agent_id = opt(&map, "agent_id");
    common.agent_type = opt(&map, "agent_type");
    let call = || {
        let mut c = ToolCall::new(
            s(&map, "tool_name"),
            field(&map, "tool_input").cloned().unwrap_or(Value::Null),
        );
        c.tool_use_id = opt(&map, "tool_use_id");
        c
    };
    let duration = field(&map, "duration_ms").and_then(Value::as_u64);
    let payload: Payload = match event {
        Some(EventName::SessionStart) => {
            let mut e = SessionStart::new(s(&map, "source"));
            e.model = opt(&map, "model");
            e.into()
        }
        Some(EventName::UserPromptSubmit) => PromptSubmit::new(s(&map, "prompt")).into(),
        Some(EventName::PreToolUse) => Payload::PreTool(call()),
        Some(EventName::PermissionRequest) => Payload::PermissionRequest(call()),
        Some(EventName::PostToolUse) => {
            let mut r = ToolResult::new(
                call(),
                field(&map, "tool_response").cloned().unwrap_or(Value::Null),
            );
            r.duration_ms = duration;
            r.into()
        }
        Some(EventName::PostToolUseFailure) => {
            let mut f = ToolFailure::new(call(), s(&map, "error"));
            f.is_interrupt = field(&map, "is_interrupt").and_then(Value::as_bool).unwrap_or(false);
            f.duration_ms = duration;
            f.into()
        }
        Some(EventName::Stop) => {
            let mut t = TurnEnd::new();
            t.continuing =
                field(&map, "stop_hook_active").and_then(Value::as_bool).unwrap_or(false);
            t.last_message = opt(&map, "last_assistant_message");
            t.into()
        }
        Some(EventName::SubagentStart) => {
            SubagentStart::new(s(&map, "agent_id"), s(&map, "agent_type")).into()
        }
        Some(EventName::SubagentStop) => {
            let mut e = SubagentEnd::new(s(&map, "agent_id"), s(&map, "agent_type"));
            e.continuing =
                field(&map, "stop_hook_active").and_then(Value::as_bool).unwrap_or(false);
            e.transcript_path = opt(&map, "agent_transcript_path").map(PathBuf::from);
            e.last_message = opt(&map, "last_assistant_message");
            e.into()
        }
        Some(EventName::PreCompact) => {
            let mut e = PreCompact::new(s(&map, "trigger"));
            e.instructions = opt(&map, "custom_instructions").filter(|i| !i.is_empty());
            e.into()
        }
        Some(EventName::Notification) => {
            let mut n = Notification::new(s(&map, "notification_type"), s(&map, "message"));
            n.title = opt(&map, "title");
            n.into()
        }
        Some(EventName::SessionEnd) => SessionEnd::new(s(&map, "reason")).into(),
        _ => {
            let mut c = Custom::new(name, map.clone());
            c.subject = subject_of(event, &map);
            c.into()
        }
    };
    let mut ev = Event::new(common, payload);
    ev.extensions.insert(InputObject::new(name, map));
    ev
}

/// The Claude payload for an event: the attached [`InputObject`] when it is for `name`,
/// else one built from the neutral fields. In a pipeline, once an earlier hook rewrote the
/// tool input ([`InputRewritten`]), the attached payload carries the rewritten `tool_input`
/// (in its place; every other field as it was).
pub fn payload_for(event: &Event, name: &str) -> InputObject {
    match event.extensions.get::<InputObject>() {
        Some(p) if p.name() == name => {
            match (event.extensions.get::<InputRewritten>(), event.payload.tool_call()) {
                (Some(_), Some(call)) => {
                    let mut object = p.object().clone();
                    object.insert("tool_input".to_owned(), call.tool_input.clone());
                    InputObject::new(name, object)
                }
                _ => p.clone(),
            }
        }
        _ => InputObject::new(name, payload_from_event(event, name)),
    }
}

/// A faithful Claude payload built from a neutral event's fields.
pub fn payload_from_event(event: &Event, name: &str) -> Map<String, Value> {
    let c = &event.common;
    let mut m = Map::new();
    let put = |m: &mut Map<String, Value>, k: &str, v: Value| {
        m.insert(k.to_owned(), v);
    };
    put(&mut m, "session_id", Value::String(c.session_id.clone()));
    put(
        &mut m,
        "transcript_path",
        Value::String(
            c.transcript_path.as_ref().map(|p| p.display().to_string()).unwrap_or_default(),
        ),
    );
    put(&mut m, "cwd", Value::String(c.cwd.display().to_string()));
    // Only where Claude Code sends it (a neutral event knows nothing of the agent's events).
    let sends_mode = EventName::parse(name).is_none_or(EventName::sends_permission_mode);
    if let Some(mode) = c.permission_mode.as_ref().filter(|_| sends_mode) {
        put(&mut m, "permission_mode", Value::String(mode.clone()));
    }
    if let Some(id) = &c.agent_id {
        put(&mut m, "agent_id", Value::String(id.clone()));
    }
    if let Some(kind) = &c.agent_type {
        put(&mut m, "agent_type", Value::String(kind.clone()));
    }
    put(&mut m, "hook_event_name", Value::String(name.to_owned()));
    let text = |v: &str| Value::String(v.to_owned());
    let call = |m: &mut Map<String, Value>, call: &ToolCall, with_id: bool| {
        m.insert("tool_name".into(), text(&call.tool_name));
        m.insert("tool_input".into(), call.tool_input.clone());
        if with_id {
            m.insert("tool_use_id".into(), text(call.tool_use_id.as_deref().unwrap_or_default()));
        }
    };
    match &event.payload {
        Payload::SessionStart(e) => {
            put(&mut m, "source", text(&e.source));
            if let Some(model) = &e.model {
                put(&mut m, "model", text(model));
            }
        }
        Payload::PromptSubmit(e) => put(&mut m, "prompt", text(&e.prompt)),
        Payload::PreTool(c) => call(&mut m, c, true),
        Payload::PermissionRequest(c) => call(&mut m, c, false),
        Payload::PostTool(r) => {
            call(&mut m, &r.call, false);
            let response = match &r.tool_response {
                Value::Object(_) => r.tool_response.clone(),
                other => serde_json::json!({ "content": other }),
            };
            put(&mut m, "tool_response", response);
            put(&mut m, "tool_use_id", text(r.call.tool_use_id.as_deref().unwrap_or_default()));
            if let Some(d) = r.duration_ms {
                put(&mut m, "duration_ms", Value::from(d));
            }
        }
        Payload::PostToolFailure(f) => {
            call(&mut m, &f.call, true);
            put(&mut m, "error", text(&f.error));
            put(&mut m, "is_interrupt", Value::Bool(f.is_interrupt));
            if let Some(d) = f.duration_ms {
                put(&mut m, "duration_ms", Value::from(d));
            }
        }
        Payload::TurnEnd(t) => {
            put(&mut m, "stop_hook_active", Value::Bool(t.continuing));
            if let Some(msg) = &t.last_message {
                put(&mut m, "last_assistant_message", text(msg));
            }
        }
        Payload::SubagentStart(e) => {
            put(&mut m, "agent_id", text(&e.agent_id));
            put(&mut m, "agent_type", text(&e.agent_type));
        }
        Payload::SubagentEnd(e) => {
            put(&mut m, "agent_id", text(&e.agent_id));
            put(&mut m, "agent_type", text(&e.agent_type));
            put(&mut m, "stop_hook_active", Value::Bool(e.continuing));
            put(
                &mut m,
                "agent_transcript_path",
                Value::String(
                    e.transcript_path.as_ref().map(|p| p.display().to_string()).unwrap_or_default(),
                ),
            );
            if let Some(msg) = &e.last_message {
                put(&mut m, "last_assistant_message", text(msg));
            }
        }
        Payload::PreCompact(e) => {
            put(&mut m, "trigger", text(&e.trigger));
            put(&mut m, "custom_instructions", e.instructions.as_deref().map_or(Value::Null, text));
        }
        Payload::Notification(n) => {
            put(&mut m, "message", text(&n.message));
            if let Some(t) = &n.title {
                put(&mut m, "title", text(t));
            }
            put(&mut m, "notification_type", text(&n.kind));
        }
        Payload::SessionEnd(e) => put(&mut m, "reason", text(&e.reason)),
        Payload::Custom(c) => {
            for (k, v) in &c.fields {
                if !m.contains_key(k) {
                    m.insert(k.clone(), v.clone());
                }
            }
        }
        _ => {}
    }
    m
}
