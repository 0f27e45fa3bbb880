//! Checking a raw payload against its event's typed input: every field the event requires is
//! there, with its JSON type, so that a recording with a missing or mistyped field is reported
//! instead of reaching hooks that would misread it.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::events;
use crate::EventName;

/// A payload that does not have the shape its event's input has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{event}: invalid input: {problem}")]
#[non_exhaustive]
pub struct InvalidInput {
    /// The event.
    pub event: EventName,
    /// The field at fault, as a path (`tool_name`, `tool_calls[0].tool_use_id`).
    pub field: String,
    /// What is wrong with it, naming it.
    pub problem: String,
}

/// Checks that `payload` is a valid input of `event`: every required field present, every
/// field of its JSON type. Unknown fields are fine, as they are for Claude Code's hooks.
///
/// # Errors
///
/// [`InvalidInput`] naming the first field at fault.
///
/// ```
/// use hooks_claude::EventName;
/// use hooks_claude::input::validate;
///
/// let payload = serde_json::json!({
///     "session_id": "s", "transcript_path": "/t", "cwd": "/", "tool_input": {}
/// });
/// let err = validate(EventName::PreToolUse, payload.as_object().unwrap()).unwrap_err();
/// assert_eq!(err.to_string(), "PreToolUse: invalid input: `tool_name` is missing");
/// ```
pub fn validate(event: EventName, payload: &Map<String, Value>) -> Result<(), InvalidInput> {
    macro_rules! each {
        ($($(#[$doc:meta])* $name:ident => $method:ident { $($facts:tt)* }),* $(,)?) => {
            match event {
                $(EventName::$name => check::<events::$name>(event, payload),)*
            }
        };
    }
    crate::config::event_name::with_every_event!(each)
}

fn check<T: DeserializeOwned>(
    event: EventName,
    payload: &Map<String, Value>,
) -> Result<(), InvalidInput> {
    let value = Value::Object(payload.clone());
    match serde_path_to_error::deserialize::<_, T>(&value) {
        Ok(_) => Ok(()),
        Err(e) => {
            let path = e.path().to_string();
            let message = e.into_inner().to_string();
            Err(describe(event, &path, &message))
        }
    }
}

/// serde's message, reworded around the field: `missing field `x`` becomes "`x` is missing",
/// `invalid type: integer `1`, expected a string` becomes "`x` must be a string, found integer
/// `1`".
fn describe(event: EventName, path: &str, message: &str) -> InvalidInput {
    let parent = if path == "." { "" } else { path };
    let join =
        |name: &str| if parent.is_empty() { name.to_owned() } else { format!("{parent}.{name}") };
    let message = message.split(" at line ").next().unwrap_or(message);
    if let Some(rest) = message.strip_prefix("missing field `") {
        let name = rest.trim_end_matches('`');
        let field = join(name);
        return InvalidInput { event, problem: format!("`{field}` is missing"), field };
    }
    let field = if parent.is_empty() { "(the input)".to_owned() } else { parent.to_owned() };
    let problem = match message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
        .and_then(|m| m.split_once(", expected "))
    {
        Some((found, expected)) => format!("`{field}` must be {expected}, found {found}"),
        None => format!("`{field}`: {message}"),
    };
    InvalidInput { event, field, problem }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn problem(event: EventName, payload: Value) -> Option<String> {
        validate(event, payload.as_object().unwrap()).err().map(|e| e.problem)
    }

    fn base(extra: Value) -> Value {
        let mut v = json!({"session_id": "s", "transcript_path": "/t", "cwd": "/"});
        v.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        v
    }

    #[test]
    fn missing_and_mistyped_fields_are_named() {
        use EventName::*;
        let ok =
            base(json!({"tool_name": "Bash", "tool_input": {}, "tool_use_id": "t", "extra": 1}));
        assert_eq!(problem(PreToolUse, ok), None, "unknown fields are fine");
        assert_eq!(
            problem(PreToolUse, base(json!({"tool_input": {}, "tool_use_id": "t"}))).as_deref(),
            Some("`tool_name` is missing")
        );
        assert_eq!(
            problem(
                PreToolUse,
                base(json!({"tool_name": 1, "tool_input": {}, "tool_use_id": "t"}))
            )
            .as_deref(),
            Some("`tool_name` must be a string, found integer `1`")
        );
        assert_eq!(
            problem(Stop, base(json!({"stop_hook_active": "yes"}))).as_deref(),
            Some("`stop_hook_active` must be a boolean, found string \"yes\"")
        );
        assert_eq!(
            problem(
                SessionStart,
                json!({"source": "startup", "transcript_path": "/t", "cwd": "/"})
            )
            .as_deref(),
            Some("`session_id` is missing")
        );
        assert_eq!(
            problem(PostToolBatch, base(json!({"tool_calls": [{"tool_name": "Bash"}]}))).as_deref(),
            Some("`tool_calls[0].tool_input` is missing")
        );
    }

    #[test]
    fn pre_compact_instructions_may_be_null() {
        use EventName::PreCompact;
        for instructions in [json!(null), json!(""), json!("keep the plan")] {
            let payload = base(json!({"trigger": "auto", "custom_instructions": instructions}));
            assert_eq!(problem(PreCompact, payload), None, "{instructions}");
        }
        assert_eq!(
            problem(PreCompact, base(json!({"trigger": "auto", "custom_instructions": 1})))
                .as_deref(),
            Some("`custom_instructions` must be a string, found integer `1`")
        );
    }

    #[test]
    fn every_sample_input_is_valid() {
        for event in EventName::ALL {
            let payload = crate::samples::payload_of(*event);
            assert_eq!(validate(*event, &payload), Ok(()), "{event}");
        }
    }
}
