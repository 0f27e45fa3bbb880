//! Payload shapes: reading a TNSAI payload object into a neutral event, with errors that name
//! the field.
//!
//! The same rules read a payload a caller hands in (the CLI's input file, a harness's raw
//! event) and a hook's `modified_payload`. Each seam's event type has fixed fields (see
//! [`known_fields`]); a custom event's payload is free-form.
//!
//! | event type | required | optional |
//! |---|---|---|
//! | `SessionStart` | `source` | `model` |
//! | `UserPromptSubmit` | `prompt` | |
//! | `PreToolUse`, `PermissionRequest` | `tool_name`, `tool_input` (object) | `tool_use_id` |
//! | `PostToolUse` | `tool_name`, `tool_input`, `tool_response` | `tool_use_id`, `duration_ms` |
//! | `PostToolUseFailure` | `tool_name`, `tool_input`, `error` | `tool_use_id`, `is_interrupt`, `duration_ms` |
//! | `Stop` | | `continuing`, `last_message` |
//! | `SubagentStart` | `agent_id`, `agent_type` | |
//! | `SubagentStop` | `agent_id`, `agent_type` | `continuing`, `transcript_path`, `last_message` |
//! | `PreCompact` | `trigger` | `instructions` |
//! | `Notification` | `message`, `kind` | `title` |
//! | `SessionEnd` | `reason` | |
//!
//! Optional fields may be `null`. Strings are strings, `duration_ms` a non-negative integer,
//! `is_interrupt` and `continuing` booleans, `tool_response` any JSON value.

use std::fmt;
use std::path::{Path, PathBuf};

use hook_protocol::codec::kind_of;
use hook_protocol::{
    Common, Custom, Event, Notification, Payload, PreCompact, PromptSubmit, SessionEnd,
    SessionStart, SubagentEnd, SubagentStart, ToolCall, ToolFailure, ToolResult, TurnEnd,
};
use serde_json::{Map, Value};
use thiserror::Error;

use crate::EventType;
use crate::envelope::{EnvelopeContext, EnvelopePayload, Stamp};

/// A payload or context that does not fit its event's shape.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("`{field}` {problem}")]
#[non_exhaustive]
pub struct ShapeError {
    /// The field, as a path (`payload.tool_name`, `modified_payload.tool_input`, ...).
    pub field: String,
    /// What is wrong with it.
    pub problem: ShapeProblem,
}

/// What is wrong with a field.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShapeProblem {
    /// A required field is absent.
    Missing,
    /// The field has the wrong JSON type.
    WrongType {
        /// What the shape expects (`a string`, `an object`, ...).
        expected: &'static str,
        /// The JSON kind found (`number`, `array`, ...).
        found: &'static str,
    },
    /// The field is not part of the event's payload.
    Unknown,
    /// The field cannot be changed by a hook (only the tool input of a pending call can).
    Immutable,
}

impl fmt::Display for ShapeProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeProblem::Missing => f.write_str("is missing"),
            ShapeProblem::WrongType { expected, found } => {
                write!(f, "must be {expected}, found {found}")
            }
            ShapeProblem::Unknown => f.write_str("is not a field of this event's payload"),
            ShapeProblem::Immutable => {
                f.write_str("cannot be modified (only `tool_input` of a pending tool call can)")
            }
        }
    }
}

/// The fields of an event type's payload; `None` for a custom event, whose payload is free.
pub fn known_fields(event_type: &EventType) -> Option<&'static [&'static str]> {
    const CALL: &[&str] = &["tool_name", "tool_input", "tool_use_id"];
    Some(match event_type {
        EventType::SessionStart => &["source", "model"],
        EventType::UserPromptSubmit => &["prompt"],
        EventType::PreToolUse | EventType::PermissionRequest => CALL,
        EventType::PostToolUse => {
            &["tool_name", "tool_input", "tool_use_id", "tool_response", "duration_ms"]
        }
        EventType::PostToolUseFailure => {
            &["tool_name", "tool_input", "tool_use_id", "error", "is_interrupt", "duration_ms"]
        }
        EventType::Stop => &["continuing", "last_message"],
        EventType::SubagentStart => &["agent_id", "agent_type"],
        EventType::SubagentStop => {
            &["agent_id", "agent_type", "continuing", "transcript_path", "last_message"]
        }
        EventType::PreCompact => &["trigger", "instructions"],
        EventType::Notification => &["message", "kind", "title"],
        EventType::SessionEnd => &["reason"],
        EventType::Custom(_) => return None,
    })
}

/// Reads a payload object into the neutral payload of `event_type`.
///
/// `prefix` names the object in errors (`payload`, `modified_payload`). Fields the shape does
/// not know are ignored here (a caller's payload may carry more than the neutral event holds).
/// A custom event keeps the whole object; its subject (what matchers test) is its `tool_name`,
/// else its `subject`, when that is a string.
///
/// # Errors
///
/// [`ShapeError`] naming the first field that is missing or of the wrong type.
pub fn payload_from_object(
    event_type: &EventType,
    object: &Map<String, Value>,
    prefix: &str,
) -> Result<Payload, ShapeError> {
    let f = Fields { map: object, prefix };
    let call = |f: &Fields<'_>| -> Result<ToolCall, ShapeError> {
        let mut call = ToolCall::new(f.string("tool_name")?, f.object("tool_input")?);
        call.tool_use_id = f.opt_string("tool_use_id")?;
        Ok(call)
    };
    Ok(match event_type {
        EventType::SessionStart => {
            let mut e = SessionStart::new(f.string("source")?);
            e.model = f.opt_string("model")?;
            e.into()
        }
        EventType::UserPromptSubmit => PromptSubmit::new(f.string("prompt")?).into(),
        EventType::PreToolUse => Payload::PreTool(call(&f)?),
        EventType::PermissionRequest => Payload::PermissionRequest(call(&f)?),
        EventType::PostToolUse => {
            let mut e = ToolResult::new(call(&f)?, f.value("tool_response")?);
            e.duration_ms = f.opt_u64("duration_ms")?;
            e.into()
        }
        EventType::PostToolUseFailure => {
            let mut e = ToolFailure::new(call(&f)?, f.string("error")?);
            e.is_interrupt = f.opt_bool("is_interrupt")?.unwrap_or(false);
            e.duration_ms = f.opt_u64("duration_ms")?;
            e.into()
        }
        EventType::Stop => {
            let mut e = TurnEnd::new();
            e.continuing = f.opt_bool("continuing")?.unwrap_or(false);
            e.last_message = f.opt_string("last_message")?;
            e.into()
        }
        EventType::SubagentStart => {
            SubagentStart::new(f.string("agent_id")?, f.string("agent_type")?).into()
        }
        EventType::SubagentStop => {
            let mut e = SubagentEnd::new(f.string("agent_id")?, f.string("agent_type")?);
            e.continuing = f.opt_bool("continuing")?.unwrap_or(false);
            e.transcript_path = f.opt_string("transcript_path")?.map(PathBuf::from);
            e.last_message = f.opt_string("last_message")?;
            e.into()
        }
        EventType::PreCompact => {
            let mut e = PreCompact::new(f.string("trigger")?);
            e.instructions = f.opt_string("instructions")?;
            e.into()
        }
        EventType::Notification => {
            let mut e = Notification::new(f.string("kind")?, f.string("message")?);
            e.title = f.opt_string("title")?;
            e.into()
        }
        EventType::SessionEnd => SessionEnd::new(f.string("reason")?).into(),
        EventType::Custom(name) => {
            let mut e = Custom::new(name.clone(), object.clone());
            e.subject = ["tool_name", "subject"]
                .iter()
                .find_map(|k| object.get(*k).and_then(Value::as_str))
                .map(str::to_owned);
            e.into()
        }
    })
}

/// Reads a context object into the common facts: `session_id`, `cwd`, `transcript_path`,
/// `permission_mode`, `agent_id`, `agent_type`, each an optional string; other keys are kept
/// only in the envelope. A missing `session_id` is empty; a missing `cwd` is `fallback_cwd`.
///
/// # Errors
///
/// [`ShapeError`] naming the `context.` field of the wrong type.
pub fn common_from_context(
    context: Option<&Map<String, Value>>,
    fallback_cwd: &Path,
) -> Result<Common, ShapeError> {
    let empty = Map::new();
    let f = Fields { map: context.unwrap_or(&empty), prefix: "context" };
    let session = f.opt_string("session_id")?.unwrap_or_default();
    let cwd = f.opt_string("cwd")?.map_or_else(|| fallback_cwd.to_owned(), PathBuf::from);
    let mut common = Common::new(session, cwd);
    common.transcript_path = f.opt_string("transcript_path")?.map(PathBuf::from);
    common.permission_mode = f.opt_string("permission_mode")?;
    common.agent_id = f.opt_string("agent_id")?;
    common.agent_type = f.opt_string("agent_type")?;
    Ok(common)
}

/// Builds a neutral event from the three parts of a TNSAI event: its type, its payload object
/// and, optionally, its context object.
///
/// The event is validated against its type's shape ([`payload_from_object`]) and its common
/// facts read from the context ([`common_from_context`]). The payload and context objects are
/// attached as they were given ([`EnvelopePayload`], [`EnvelopeContext`]), so TNSAI hooks
/// receive them unchanged (with the tool input as rewritten by earlier hooks), and a fresh
/// [`Stamp`] gives every hook of the event the same `event_id` and `timestamp`.
///
/// # Errors
///
/// [`ShapeError`] naming the `payload.` or `context.` field that does not fit.
pub fn event_from_parts(
    event_type: &EventType,
    payload: Map<String, Value>,
    context: Option<Map<String, Value>>,
    fallback_cwd: &Path,
) -> Result<Event, ShapeError> {
    let neutral = payload_from_object(event_type, &payload, "payload")?;
    let common = common_from_context(context.as_ref(), fallback_cwd)?;
    let mut event = Event::new(common, neutral);
    event.extensions.insert(EnvelopePayload(payload));
    if let Some(context) = context {
        event.extensions.insert(EnvelopeContext(context));
    }
    event.extensions.insert(Stamp::new());
    Ok(event)
}

/// Builds a neutral event from one input object, as the `hooks` command reads it: the object is
/// the payload, except its optional `context` key, which is the context (see
/// [`event_from_parts`]).
///
/// # Errors
///
/// [`ShapeError`] when `context` is not an object, or as [`event_from_parts`].
pub fn event_from_input(
    event_type: &EventType,
    mut input: Map<String, Value>,
    fallback_cwd: &Path,
) -> Result<Event, ShapeError> {
    let context = match input.remove("context") {
        None | Some(Value::Null) => None,
        Some(Value::Object(c)) => Some(c),
        Some(other) => {
            return Err(ShapeError {
                field: "context".to_owned(),
                problem: ShapeProblem::WrongType { expected: "an object", found: kind_of(&other) },
            });
        }
    };
    event_from_parts(event_type, input, context, fallback_cwd)
}

/// Validates a hook's `modified_payload` against the payload it was sent and returns what the
/// harness applies.
///
/// The modified payload is laid over the original (keys it omits keep their values), and the
/// result must fit the event type's shape. For a pending tool call (`PreToolUse`,
/// `PermissionRequest`) only `tool_input` may change, and the new tool input is returned; for
/// every other event the whole validated payload is returned.
///
/// # Errors
///
/// [`ShapeError`] naming the `modified_payload.` field that is unknown, missing, of the wrong
/// type, or not modifiable.
pub fn validate_modified(
    event_type: &EventType,
    original: &Map<String, Value>,
    modified: &Map<String, Value>,
) -> Result<Value, ShapeError> {
    const PREFIX: &str = "modified_payload";
    let known = known_fields(event_type);
    for key in modified.keys() {
        let fits = original.contains_key(key) || known.is_none_or(|k| k.contains(&key.as_str()));
        if !fits {
            return Err(ShapeError {
                field: format!("{PREFIX}.{key}"),
                problem: ShapeProblem::Unknown,
            });
        }
    }
    let mut merged = original.clone();
    for (key, value) in modified {
        merged.insert(key.clone(), value.clone());
    }
    let payload = payload_from_object(event_type, &merged, PREFIX)?;
    if event_type.rewrites_tool_input() {
        if let Some(key) =
            modified.iter().find(|(k, v)| *k != "tool_input" && original.get(*k) != Some(*v))
        {
            return Err(ShapeError {
                field: format!("{PREFIX}.{}", key.0),
                problem: ShapeProblem::Immutable,
            });
        }
        if let Some(call) = payload.tool_call() {
            return Ok(call.tool_input.clone());
        }
    }
    Ok(Value::Object(merged))
}

/// Typed reads of an object's fields, with errors naming `prefix.key`.
struct Fields<'a> {
    map: &'a Map<String, Value>,
    prefix: &'a str,
}

impl Fields<'_> {
    fn error(&self, key: &str, problem: ShapeProblem) -> ShapeError {
        ShapeError { field: format!("{}.{key}", self.prefix), problem }
    }

    fn wrong(&self, key: &str, expected: &'static str, found: &Value) -> ShapeError {
        self.error(key, ShapeProblem::WrongType { expected, found: kind_of(found) })
    }

    /// The value, absent when missing or null.
    fn present(&self, key: &str) -> Option<&Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    fn value(&self, key: &str) -> Result<Value, ShapeError> {
        self.map.get(key).cloned().ok_or_else(|| self.error(key, ShapeProblem::Missing))
    }

    fn string(&self, key: &str) -> Result<String, ShapeError> {
        self.opt_string(key)?.ok_or_else(|| self.error(key, ShapeProblem::Missing))
    }

    fn object(&self, key: &str) -> Result<Value, ShapeError> {
        match self.present(key) {
            Some(v @ Value::Object(_)) => Ok(v.clone()),
            Some(other) => Err(self.wrong(key, "an object", other)),
            None => Err(self.error(key, ShapeProblem::Missing)),
        }
    }

    fn opt_string(&self, key: &str) -> Result<Option<String>, ShapeError> {
        match self.present(key) {
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(self.wrong(key, "a string", other)),
            None => Ok(None),
        }
    }

    fn opt_bool(&self, key: &str) -> Result<Option<bool>, ShapeError> {
        match self.present(key) {
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(self.wrong(key, "a boolean", other)),
            None => Ok(None),
        }
    }

    fn opt_u64(&self, key: &str) -> Result<Option<u64>, ShapeError> {
        match self.present(key) {
            Some(v) => {
                v.as_u64().map(Some).ok_or_else(|| self.wrong(key, "a non-negative integer", v))
            }
            None => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    use test_support::object as obj;

    #[test]
    fn errors_name_the_field() {
        let err =
            payload_from_object(&EventType::PreToolUse, &obj(json!({"tool_input": {}})), "payload")
                .unwrap_err();
        assert_eq!(err.to_string(), "`payload.tool_name` is missing");
        let err = payload_from_object(
            &EventType::PreToolUse,
            &obj(json!({"tool_name": "Bash", "tool_input": "ls"})),
            "payload",
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "`payload.tool_input` must be an object, found string");
        let err = common_from_context(Some(&obj(json!({"cwd": 3}))), Path::new("/")).unwrap_err();
        assert_eq!(err.to_string(), "`context.cwd` must be a string, found number");
    }

    #[test]
    fn every_seam_type_reads_its_fields() {
        let cases = [
            (EventType::SessionStart, json!({"source": "startup", "model": null})),
            (EventType::UserPromptSubmit, json!({"prompt": "hi"})),
            (EventType::PermissionRequest, json!({"tool_name": "Bash", "tool_input": {}})),
            (
                EventType::PostToolUse,
                json!({"tool_name": "Bash", "tool_input": {}, "tool_response": 1, "duration_ms": 3}),
            ),
            (
                EventType::PostToolUseFailure,
                json!({"tool_name": "Bash", "tool_input": {}, "error": "boom", "is_interrupt": true}),
            ),
            (EventType::Stop, json!({})),
            (EventType::SubagentStart, json!({"agent_id": "a", "agent_type": "t"})),
            (
                EventType::SubagentStop,
                json!({"agent_id": "a", "agent_type": "t", "continuing": true}),
            ),
            (EventType::PreCompact, json!({"trigger": "auto"})),
            (EventType::Notification, json!({"kind": "idle", "message": "m"})),
            (EventType::SessionEnd, json!({"reason": "other"})),
        ];
        for (t, v) in cases {
            let p = payload_from_object(&t, &obj(v), "payload").unwrap();
            assert_eq!(p.seam(), t.seam(), "{t}");
        }
    }

    #[test]
    fn custom_subject_is_tool_name_then_subject() {
        let t = EventType::Custom("Deploy".into());
        let p = payload_from_object(&t, &obj(json!({"subject": "prod"})), "payload").unwrap();
        assert_eq!(p.subject(), Some("prod"));
        let p = payload_from_object(
            &t,
            &obj(json!({"tool_name": "kubectl", "subject": "prod"})),
            "payload",
        )
        .unwrap();
        assert_eq!(p.subject(), Some("kubectl"));
    }

    #[test]
    fn modified_payload_rules() {
        let original = obj(json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}));
        let t = EventType::PreToolUse;
        let ok = validate_modified(&t, &original, &obj(json!({"tool_input": {"command": "ls"}})));
        assert_eq!(ok.unwrap(), json!({"command": "ls"}));
        let same_name =
            validate_modified(&t, &original, &obj(json!({"tool_name": "Bash", "tool_input": {}})));
        assert_eq!(same_name.unwrap(), json!({}));
        let renamed = validate_modified(&t, &original, &obj(json!({"tool_name": "Write"})));
        assert_eq!(
            renamed.unwrap_err().to_string(),
            "`modified_payload.tool_name` cannot be modified (only `tool_input` of a pending tool call can)"
        );
        let unknown = validate_modified(&t, &original, &obj(json!({"cmd": "ls"})));
        assert_eq!(unknown.unwrap_err().problem, ShapeProblem::Unknown);
        let wrong = validate_modified(&t, &original, &obj(json!({"tool_input": ["ls"]})));
        assert_eq!(
            wrong.unwrap_err().to_string(),
            "`modified_payload.tool_input` must be an object, found array"
        );
        let prompt = validate_modified(
            &EventType::UserPromptSubmit,
            &obj(json!({"prompt": "a"})),
            &obj(json!({"prompt": "b"})),
        );
        assert_eq!(prompt.unwrap(), json!({"prompt": "b"}));
    }
}
