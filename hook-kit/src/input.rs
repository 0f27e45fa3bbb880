//! An agent's input object: the JSON object a hook reads on stdin, carried on a neutral event
//! when a run starts from it, and the few readings every dialect makes of it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use hook_protocol::{Common, Event, Payload};
use serde_json::{Map, Value};

/// An agent's input object for one of its events, travelling with a neutral event and sent to
/// the hooks as it is. Each dialect's event type makes it a type of its own, so the objects of
/// two dialects on one event never meet.
#[derive(Debug, Clone, PartialEq)]
pub struct InputObject<E> {
    /// The event it is the input of.
    pub event: E,
    /// The object.
    pub object: Arc<Map<String, Value>>,
}

impl<E: Send + Sync + 'static> InputObject<E> {
    /// The object of `event`.
    pub fn new(event: E, object: Map<String, Value>) -> Self {
        Self { event, object: Arc::new(object) }
    }

    /// The neutral event of `common` and `payload`, carrying this object.
    pub fn event(self, common: Common, payload: Payload) -> Event {
        let mut event = Event::new(common, payload);
        event.extensions.insert(self);
        event
    }

    /// The object a neutral event carries for this dialect, if any.
    pub fn of(event: &Event) -> Option<&Self> {
        event.extensions.get::<Self>()
    }

    /// The object a neutral event carries for this dialect, as the hook about to run sees it:
    /// in a pipeline where a hook before it rewrote the tool input, with that input at `key`
    /// (`toolArgs`, `tool_input`); `None` when the event carries no object of this dialect.
    pub fn sent(event: &Event, key: &str) -> Option<Arc<Map<String, Value>>> {
        let input = Self::of(event)?;
        let rewritten = event.extensions.get::<hook_protocol::InputRewritten>().is_some();
        Some(match (rewritten, event.payload.tool_call()) {
            (true, Some(call)) => {
                let mut object = (*input.object).clone();
                object.insert(key.to_owned(), call.tool_input.clone());
                Arc::new(object)
            }
            _ => Arc::clone(&input.object),
        })
    }

    /// The object a neutral event carries for this dialect, else an empty one.
    pub fn object_of(event: &Event) -> Arc<Map<String, Value>> {
        Self::of(event).map_or_else(|| Arc::new(Map::new()), |i| Arc::clone(&i.object))
    }
}

/// The string at `key`, else an empty string.
pub fn text(input: &Map<String, Value>, key: &str) -> String {
    input.get(key).and_then(Value::as_str).unwrap_or_default().to_owned()
}

/// The string at `key`, if it is one.
pub fn maybe_text(input: &Map<String, Value>, key: &str) -> Option<String> {
    input.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// The boolean at `key`, else `false`.
pub fn flag(input: &Map<String, Value>, key: &str) -> bool {
    input.get(key).and_then(Value::as_bool).unwrap_or(false)
}

/// The `cwd` of an input when it is a non-empty string, else the project's folder.
pub fn cwd_of(input: &Map<String, Value>, project_dir: &Path) -> PathBuf {
    input
        .get("cwd")
        .and_then(Value::as_str)
        .filter(|c| !c.is_empty())
        .map_or_else(|| project_dir.to_path_buf(), PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_take_the_field_when_it_has_the_type_and_a_default_otherwise() {
        let input = serde_json::json!({"a": "x", "b": true, "n": 1, "cwd": ""});
        let Value::Object(input) = input else { return };
        assert_eq!(text(&input, "a"), "x");
        assert_eq!(text(&input, "n"), "");
        assert_eq!(maybe_text(&input, "b"), None);
        assert!(flag(&input, "b"));
        assert!(!flag(&input, "a"));
        assert_eq!(cwd_of(&input, Path::new("/p")), PathBuf::from("/p"), "an empty cwd");
        let mut with = input.clone();
        with.insert("cwd".into(), Value::from("/w"));
        assert_eq!(cwd_of(&with, Path::new("/p")), PathBuf::from("/w"));
    }
}
