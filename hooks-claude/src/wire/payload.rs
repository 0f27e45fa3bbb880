//! [`ClaudePayload`]: one event's stdin object, its bytes, and the few fields every hook's run
//! reads, each made at most once per event and shared by every hook and every clone.

use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value};

use crate::wire::input::{Base, ClaudeInput, payload, stdin_shared, stdin_straight};
use crate::wire::lookup::field;

/// The exact stdin object of one Claude event, carried in [`hook_protocol::Event::extensions`].
///
/// Its bytes are printed once and shared by every hook of the event (and the clones of the
/// payload). A payload made from an object prints them when a hook first needs them: an
/// event no command hook runs on prints nothing. A payload fired from a typed input is
/// printed straight from the input, and its object is read back from the bytes only when
/// something asks for it.
#[derive(Clone)]
pub struct ClaudePayload(Arc<Shared>);

/// What the clones of one payload share, in one allocation.
struct Shared {
    name: String,
    /// Set when the payload is made from an object; read from `bytes` when first asked for.
    object: OnceLock<Map<String, Value>>,
    bytes: OnceLock<Arc<[u8]>>,
    /// A printed input's fields every hook's run reads; `None` for a payload made from an
    /// object, which has them in the object.
    facts: Option<Facts>,
}

/// The common fields a hook's run reads (its start directory and environment).
struct Facts {
    session_id: String,
    cwd: String,
    effort: Option<String>,
}

impl std::fmt::Debug for ClaudePayload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClaudePayload")
            .field("name", &self.0.name)
            .field("object", self.object())
            .finish()
    }
}

impl ClaudePayload {
    /// A payload for the event `name` (its `hook_event_name`).
    pub fn new(name: impl Into<String>, object: Map<String, Value>) -> Self {
        Self(Arc::new(Shared {
            name: name.into(),
            object: OnceLock::from(object),
            bytes: OnceLock::new(),
            facts: None,
        }))
    }

    /// The payload of a typed input: printed straight from it when it can be
    /// ([`ClaudeInput::UNIQUE_KEYS`]), else made from its [`payload`] object.
    pub(crate) fn of_input<I: ClaudeInput>(input: &I) -> Self {
        let name = I::EVENT.as_str().to_owned();
        let Some(bytes) = stdin_straight(input) else { return Self::new(name, payload(input)) };
        let base: &Base = input.base();
        Self(Arc::new(Shared {
            name,
            object: OnceLock::new(),
            bytes: OnceLock::from(bytes),
            facts: Some(Facts {
                session_id: base.session_id.clone(),
                cwd: base.cwd.clone(),
                effort: base.effort.as_ref().map(|e| e.level.clone()),
            }),
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
        // compact JSON this crate printed, so reading them cannot fail.
        self.0.object.get_or_init(|| serde_json::from_slice(self.bytes()).unwrap_or_default())
    }

    /// The bytes written to stdin: the compact object and `\n`.
    pub fn bytes(&self) -> &Arc<[u8]> {
        self.0.bytes.get_or_init(|| stdin_shared(self.object()))
    }

    /// `session_id`, when the payload has it as a string.
    pub(crate) fn session_id(&self) -> Option<&str> {
        match &self.0.facts {
            Some(facts) => Some(&facts.session_id),
            None => self.text("session_id"),
        }
    }

    /// `cwd`, when the payload has it as a string.
    pub(crate) fn cwd(&self) -> Option<&str> {
        match &self.0.facts {
            Some(facts) => Some(&facts.cwd),
            None => self.text("cwd"),
        }
    }

    /// `effort.level`, when the payload has it as a string.
    pub(crate) fn effort_level(&self) -> Option<&str> {
        match &self.0.facts {
            Some(facts) => facts.effort.as_deref(),
            None => {
                field(self.object(), "effort").and_then(|e| e.get("level")).and_then(Value::as_str)
            }
        }
    }

    fn text(&self, key: &str) -> Option<&str> {
        field(self.object(), key).and_then(Value::as_str)
    }
}
