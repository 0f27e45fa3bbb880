//! The request envelope a TNSAI hook reads on stdin.
//!
//! ```json
//! {
//!   "tnsai_version": "0.5.0",
//!   "hook_protocol_version": "1",
//!   "event_type": "PreToolUse",
//!   "event_id": "6f1c…",
//!   "timestamp": "2026-01-01T12:00:00.000Z",
//!   "context": { "session_id": "…", "cwd": "…" },
//!   "payload": { "tool_name": "Bash", "tool_input": { "command": "ls" } }
//! }
//! ```
//!
//! # Where each field comes from
//!
//! - `event_type`: the event's TNSAI name ([`EventType::of`]).
//! - `event_id` and `timestamp`: the event's [`Stamp`], shared by every TNSAI hook of the event.
//!   A harness attaches one per event ([`Stamp::attach`]); [`crate::event_from_parts`] does it.
//!   An event without one gets a fresh stamp per hook.
//! - `context`: the [`EnvelopeContext`] attached to the event when the caller supplied a
//!   context object; otherwise the event's common facts (`session_id`, `cwd`, and
//!   `transcript_path`, `permission_mode`, `agent_id`, `agent_type` when known).
//! - `payload`: the [`EnvelopePayload`] attached to the event when the caller supplied the wire
//!   payload (with `tool_input` replaced by the event's current tool input, so a hook sees the
//!   rewrites of the hooks before it); otherwise the neutral payload's own fields (a custom
//!   event's fields). The common facts are not repeated in it. Keys `event_id`, `timestamp` and
//!   `context` never appear in it: they are the envelope's.

use std::time::SystemTime;

use hook_protocol::{Event, Payload};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::EventType;

/// The protocol version this crate speaks, in requests and expected in responses.
pub const PROTOCOL_VERSION: &str = "1";

/// The `tnsai_version` sent when a hook does not configure one.
pub const DEFAULT_TNSAI_VERSION: &str = "0.5.0";

/// The identity of one event: its `event_id` and `timestamp`, the same for every hook of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    id: String,
    timestamp: String,
}

impl Stamp {
    /// A fresh stamp: a random (version 4) UUID and the current time, RFC 3339 in UTC with
    /// milliseconds (`2026-01-01T12:00:00.000Z`).
    pub fn new() -> Self {
        Self {
            id: uuid::Uuid::new_v4().to_string(),
            timestamp: humantime::format_rfc3339_millis(SystemTime::now()).to_string(),
        }
    }

    /// A stamp with a given id and timestamp (e.g. the harness's own event id).
    pub fn with(id: impl Into<String>, timestamp: impl Into<String>) -> Self {
        Self { id: id.into(), timestamp: timestamp.into() }
    }

    /// Attaches a fresh stamp to `event` unless it has one already.
    pub fn attach(event: &mut Event) {
        if event.extensions.get::<Stamp>().is_none() {
            event.extensions.insert(Stamp::new());
        }
    }

    /// The event id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The timestamp.
    pub fn timestamp(&self) -> &str {
        &self.timestamp
    }
}

impl Default for Stamp {
    fn default() -> Self {
        Self::new()
    }
}

/// The context object a caller supplied for an event, sent as the envelope's `context` as is.
#[derive(Debug, Clone, PartialEq)]
pub struct EnvelopeContext(pub Map<String, Value>);

/// The wire payload a caller supplied for an event, sent as the envelope's `payload` (with the
/// current tool input).
#[derive(Debug, Clone, PartialEq)]
pub struct EnvelopePayload(pub Map<String, Value>);

/// The request envelope: what a TNSAI hook reads on stdin.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Request {
    /// The framework version the hook is told (configurable per hook).
    pub tnsai_version: String,
    /// Always [`PROTOCOL_VERSION`].
    pub hook_protocol_version: String,
    /// The event's TNSAI name.
    pub event_type: String,
    /// The event's unique id.
    pub event_id: String,
    /// When the event happened, RFC 3339 in UTC.
    pub timestamp: String,
    /// The common facts, or the caller's context object.
    pub context: Value,
    /// The event's own fields.
    pub payload: Map<String, Value>,
}

impl Request {
    /// The envelope of `event` (see the module docs for where each field comes from).
    pub fn new(event: &Event, tnsai_version: &str) -> Self {
        let stamp = event.extensions.get::<Stamp>().cloned().unwrap_or_default();
        let context = match event.extensions.get::<EnvelopeContext>() {
            Some(c) => Value::Object(c.0.clone()),
            None => {
                serde_json::to_value(&event.common).unwrap_or_else(|_| Value::Object(Map::new()))
            }
        };
        Self {
            tnsai_version: tnsai_version.to_owned(),
            hook_protocol_version: PROTOCOL_VERSION.to_owned(),
            event_type: EventType::of(event).as_str().to_owned(),
            event_id: stamp.id,
            timestamp: stamp.timestamp,
            context,
            payload: payload_of(event),
        }
    }

    /// The envelope as the bytes written to the hook's stdin (one line of JSON and a newline).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec(self).unwrap_or_default();
        bytes.push(b'\n');
        bytes
    }
}

/// The envelope's `payload` of an event.
fn payload_of(event: &Event) -> Map<String, Value> {
    let mut map = match event.extensions.get::<EnvelopePayload>() {
        Some(wire) => {
            let mut map = wire.0.clone();
            if let Some(call) = event.payload.tool_call()
                && map.contains_key("tool_input")
            {
                map.insert("tool_input".to_owned(), call.tool_input.clone());
            }
            map
        }
        None => neutral_fields(&event.payload),
    };
    for key in ["event_id", "timestamp", "context"] {
        map.remove(key);
    }
    map
}

fn neutral_fields(payload: &Payload) -> Map<String, Value> {
    match payload {
        Payload::Custom(custom) => custom.fields.clone(),
        other => match serde_json::to_value(other) {
            Ok(Value::Object(map)) => map,
            _ => Map::new(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hook_protocol::{Common, ToolCall};
    use serde_json::json;

    #[test]
    fn stamp_is_uuid_and_rfc3339_utc() {
        let s = Stamp::new();
        assert_eq!(s.id().len(), 36);
        assert_eq!(uuid::Uuid::parse_str(s.id()).unwrap().get_version_num(), 4);
        assert_ne!(Stamp::new().id(), s.id());
        let ts = s.timestamp();
        assert!(ts.ends_with('Z') && ts.len() == 24 && &ts[10..11] == "T", "{ts}");
    }

    #[test]
    fn reserved_keys_never_reach_the_payload() {
        let mut e = Event::new(
            Common::new("s", "/"),
            hook_protocol::Payload::PreTool(ToolCall::new("Bash", json!({"command": "ls"}))),
        );
        let Value::Object(wire) = json!({"tool_name": "Bash", "tool_input": {"command": "old"},
            "event_id": "x", "timestamp": "y", "context": {}, "extra": 1})
        else {
            unreachable!()
        };
        e.extensions.insert(EnvelopePayload(wire));
        let r = Request::new(&e, DEFAULT_TNSAI_VERSION);
        assert_eq!(
            Value::Object(r.payload),
            json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "extra": 1})
        );
    }
}
