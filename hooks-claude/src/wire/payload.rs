//! [`InputObject`]: one event's stdin object, its bytes, and the few fields every hook's run
//! reads, each made at most once per event and shared by every hook and every clone.

use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value};

use crate::wire::input::writer::{Entries, Field};
use crate::wire::input::{Base, TypedInput, payload, stdin_shared, stdin_straight};
use crate::wire::lookup::{Texts, field};

/// The exact stdin object of one Claude event, carried in [`hook_protocol::Event::extensions`].
///
/// Its bytes are printed once and shared by every hook of the event (and the clones of the
/// payload). A payload made from an object prints them when a hook first needs them: an
/// event no command hook runs on prints nothing. A payload fired from a typed input is
/// printed straight from the input, its string fields are read in the bytes where they were
/// printed, and its object is read back from the bytes only when something asks for it.
#[derive(Clone)]
pub struct InputObject(Arc<Shared>);

/// What the clones of one payload share, in one allocation.
struct Shared {
    name: String,
    /// Set when the payload is made from an object; read from `bytes` when first asked for.
    object: OnceLock<Map<String, Value>>,
    bytes: OnceLock<Arc<[u8]>>,
    /// A printed input's top-level entries and effort level; `None` for a payload made from
    /// an object, which has them in the object.
    printed: Option<Printed>,
}

/// What a payload printed from a typed input knows of its fields without its object.
struct Printed {
    /// Where each top-level entry lies in the bytes.
    entries: Entries,
    /// `effort.level`, which every hook's environment reads.
    effort: Option<String>,
}

impl std::fmt::Debug for InputObject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InputObject")
            .field("name", &self.0.name)
            .field("object", self.object())
            .finish()
    }
}

impl InputObject {
    /// A payload for the event `name` (its `hook_event_name`).
    pub fn new(name: impl Into<String>, object: Map<String, Value>) -> Self {
        Self(Arc::new(Shared {
            name: name.into(),
            object: OnceLock::from(object),
            bytes: OnceLock::new(),
            printed: None,
        }))
    }

    /// The payload of a typed input: printed straight from it when it can be
    /// ([`TypedInput::UNIQUE_KEYS`]), else made from its [`payload`] object.
    pub(crate) fn of_input<I: TypedInput>(input: &I) -> Self {
        let name = I::EVENT.as_str().to_owned();
        let Some((bytes, entries)) = stdin_straight(input) else {
            return Self::new(name, payload(input));
        };
        let base: &Base = input.base();
        let effort = base.effort.as_ref().map(|e| e.level.clone());
        Self(Arc::new(Shared {
            name,
            object: OnceLock::new(),
            bytes: OnceLock::from(bytes),
            printed: Some(Printed { entries, effort }),
        }))
    }

    /// The event's name.
    pub fn name(&self) -> &str {
        &self.0.name
    }

    /// The object.
    pub fn object(&self) -> &Map<String, Value> {
        // A printed payload is read back from its bytes: the same object, key order and
        // numbers included (`float_roundtrip`), since its keys are unique. The bytes are
        // compact JSON this crate printed, nested no deeper than `serde_json` reads (the writer
        // leaves a deeper input to the object path), so reading them cannot fail.
        self.0.object.get_or_init(|| serde_json::from_slice(self.bytes()).unwrap_or_default())
    }

    /// The object, taken without a copy when this is the payload's last handle (a firing
    /// whose hooks have all let go of it), else copied.
    pub(crate) fn into_object(self) -> Map<String, Value> {
        match Arc::try_unwrap(self.0) {
            Ok(shared) => match shared.object.into_inner() {
                Some(object) => object,
                None => shared
                    .bytes
                    .get()
                    .and_then(|bytes| serde_json::from_slice(bytes).ok())
                    .unwrap_or_default(),
            },
            Err(shared) => Self(shared).object().clone(),
        }
    }

    /// The bytes written to stdin: the compact object and `\n`.
    pub fn bytes(&self) -> &Arc<[u8]> {
        self.0.bytes.get_or_init(|| stdin_shared(self.object()))
    }

    /// Whether it was printed from a typed input (by [`InputObject::of_input`]).
    pub(crate) fn is_printed(&self) -> bool {
        self.0.printed.is_some()
    }

    /// `session_id`, when the payload has it as a string.
    pub(crate) fn session_id(&self) -> Option<&str> {
        self.text("session_id")
    }

    /// `cwd`, when the payload has it as a string.
    pub(crate) fn cwd(&self) -> Option<&str> {
        self.text("cwd")
    }

    /// `effort.level`, when the payload has it as a string.
    pub(crate) fn effort_level(&self) -> Option<&str> {
        match &self.0.printed {
            Some(printed) => printed.effort.as_deref(),
            None => {
                field(self.object(), "effort").and_then(|e| e.get("level")).and_then(Value::as_str)
            }
        }
    }
}

impl Texts for InputObject {
    /// A printed payload's string field is read where it was printed; one with an escape in
    /// it, and every field of a payload made from an object, from the object.
    fn text(&self, key: &str) -> Option<&str> {
        if let (Some(printed), Some(bytes)) = (&self.0.printed, self.0.bytes.get()) {
            match printed.entries.field(bytes, key) {
                Some(Field::Text(text)) => return Some(text),
                Some(Field::Other) | None => return None,
                Some(Field::Escaped) => {}
            }
        }
        self.object().text(key)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::input::{Effort, PreToolUse};

    #[test]
    fn a_printed_payload_reads_its_fields_without_its_object_until_asked() {
        let mut base = Base::new("s-1", "/t", "/work");
        base.effort = Some(Effort { level: "high".into() });
        let input = PreToolUse {
            base,
            tool_name: "Bash".into(),
            tool_input: json!({"command": "ls"}),
            tool_use_id: "toolu_1".into(),
            ..PreToolUse::default()
        };
        let p = InputObject::of_input(&input);
        assert!(p.is_printed());
        assert_eq!(p.session_id(), Some("s-1"));
        assert_eq!(p.cwd(), Some("/work"));
        assert_eq!(p.effort_level(), Some("high"));
        assert_eq!(p.text("hook_event_name"), Some("PreToolUse"));
        assert_eq!(p.text("tool_name"), Some("Bash"));
        assert_eq!(p.text("tool_input"), None);
        assert_eq!(p.text("prompt"), None);
        assert!(p.0.object.get().is_none(), "the object was built");
        assert_eq!(p.object(), &payload(&input));
        assert_eq!(p.bytes().as_ref(), crate::input::stdin_bytes(&payload(&input)).as_slice());
    }

    #[test]
    fn the_last_handle_gives_its_object_up_without_a_copy_and_a_shared_one_copies_it() {
        let object = payload(&PreToolUse { tool_name: "Bash".into(), ..PreToolUse::default() });
        let p = InputObject::new("PreToolUse", object.clone());
        let text =
            |o: &Map<String, Value>| o.get("tool_name").and_then(Value::as_str).map(str::as_ptr);
        let held = text(p.object());
        let other = p.clone();
        let copied = p.into_object();
        assert_eq!(copied, object);
        assert_ne!(text(&copied), held, "a shared payload's object was taken");
        assert_eq!(text(other.object()), held);
        let taken = other.into_object();
        assert_eq!(taken, object);
        assert_eq!(text(&taken), held, "the last handle's object was copied");
        let printed = InputObject::of_input(&PreToolUse::default());
        assert_eq!(printed.into_object(), payload(&PreToolUse::default()));
    }

    #[test]
    fn a_field_with_an_escape_is_read_from_the_object() {
        let input =
            PreToolUse { base: Base::new("s", "/t", "C:\\work\t\"x\""), ..PreToolUse::default() };
        let p = InputObject::of_input(&input);
        assert_eq!(p.cwd(), Some("C:\\work\t\"x\""));
        assert!(p.0.object.get().is_some());
    }
}
