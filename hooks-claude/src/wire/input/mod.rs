//! Typed stdin inputs, one per event, with Claude Code's field names and JSON types.
//!
//! Every input is the event's own fields plus [`Base`] (the fields every event carries);
//! `hook_event_name` is added when the payload is built ([`payload`]). Optional fields are
//! left out of the JSON when `None`, as Claude Code leaves them out; the few that Claude Code
//! sends as `null` (`requested_model`) are always present.

mod compact;
mod events;
mod validate;
pub(crate) mod writer;

pub use events::*;
pub use validate::{InvalidInput, validate};

use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::EventName;

/// The fields every event's input carries ([Event inputs](crate::compatibility#event-inputs)).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Base {
    /// The session's identifier (`$CLAUDE_CODE_SESSION_ID`).
    pub session_id: String,
    /// The session's transcript (JSONL).
    pub transcript_path: String,
    /// The session's current directory (follows `cd`).
    pub cwd: String,
    /// `default`, `plan`, `acceptEdits`, `auto`, `dontAsk` or `bypassPermissions`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_mode: Option<String>,
    /// The prompt's identifier, from the first prompt on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_id: Option<String>,
    /// The session's scratchpad directory, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scratchpad_dir: Option<String>,
    /// The model's effort level, on tool-use events when the model supports effort.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effort: Option<Effort>,
    /// The sub-agent the event happened in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// The type of that sub-agent (or the `--agent` of the session).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_type: Option<String>,
}

impl Base {
    /// How many fields its JSON object has: the three always sent and the optional ones set
    /// (what `serde_json::to_value(base)` would count, without building it).
    fn field_count(&self) -> usize {
        let optional = [
            self.permission_mode.is_some(),
            self.prompt_id.is_some(),
            self.scratchpad_dir.is_some(),
            self.effort.is_some(),
            self.agent_id.is_some(),
            self.agent_type.is_some(),
        ];
        3 + optional.iter().filter(|&&set| set).count()
    }

    /// The three fields Claude Code always sends; everything else absent.
    pub fn new(
        session_id: impl Into<String>,
        transcript_path: impl Into<String>,
        cwd: impl Into<String>,
    ) -> Self {
        Self {
            session_id: session_id.into(),
            transcript_path: transcript_path.into(),
            cwd: cwd.into(),
            ..Self::default()
        }
    }
}

/// `{"level": ...}`: the model's effort.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Effort {
    /// `low`, `medium`, `high`, `xhigh` or `max`.
    pub level: String,
}

/// `mcp_server` on MCP tool calls: which server, from where.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct McpServer {
    /// The server's name.
    pub name: String,
    /// Where it is configured.
    pub source: String,
}

/// One background task in `background_tasks[]` (Stop, SubagentStop).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct BackgroundTask {
    /// Its identifier.
    pub id: String,
    /// `shell`, `subagent`, `monitor`, `workflow`, `teammate`, ...
    #[serde(rename = "type")]
    pub kind: String,
    /// Its status.
    pub status: String,
    /// What it does (at most 1000 characters).
    pub description: String,
    /// Its command, for shells.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// Its agent type, for sub-agents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_type: Option<String>,
    /// Its server, for MCP tasks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// Its tool, for MCP tasks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// Its name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// One scheduled prompt in `session_crons[]` (Stop, SubagentStop).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SessionCron {
    /// Its identifier.
    pub id: String,
    /// Its schedule.
    pub schedule: String,
    /// Whether it repeats.
    pub recurring: bool,
    /// The prompt it sends.
    pub prompt: String,
}

/// One call in PostToolBatch's `tool_calls[]`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct BatchCall {
    /// The tool.
    pub tool_name: String,
    /// Its input.
    pub tool_input: Value,
    /// The call's identifier.
    pub tool_use_id: String,
    /// The serialized tool result.
    pub tool_response: Value,
}

/// A typed input of one event: it knows its event and the decision the event produces.
pub trait TypedInput: Serialize + DeserializeOwned + Clone + Send + Sync + 'static {
    /// The event.
    const EVENT: EventName;
    /// The typed decision the harness gets back.
    type Decision: hook_protocol::FromReport + 'static;

    /// The common fields.
    fn base(&self) -> &Base;

    /// The common fields, mutably.
    fn base_mut(&mut self) -> &mut Base;

    /// Whether the input's JSON has no key twice in an object and no `hook_event_name` of its
    /// own, so that its stdin bytes can be printed straight from it, without building its
    /// [`payload`] object first (the object would keep one of two equal keys). Every input of
    /// this crate has such JSON; an input defined elsewhere keeps the default, and its bytes
    /// are printed from its object.
    const UNIQUE_KEYS: bool = false;
}

/// The stdin object for a typed input: the common fields, `hook_event_name`, then the event's
/// own fields.
pub fn payload<I: TypedInput>(input: &I) -> Map<String, Value> {
    let mut map = match serde_json::to_value(input) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    };
    map.shift_insert(
        input.base().field_count().min(map.len()),
        "hook_event_name".to_owned(),
        Value::String(I::EVENT.as_str().to_owned()),
    );
    map
}

/// The bytes written to a hook's stdin: one compact JSON line and `\n`
/// ([Process execution](crate::compatibility#process-execution),
/// [JSON detection](crate::compatibility#json-detection)).
pub fn stdin_bytes(payload: &Map<String, Value>) -> Vec<u8> {
    // Room for a typical payload at once, instead of doubling from 128 bytes.
    let mut bytes = Vec::with_capacity(STDIN_ROOM);
    compact::write_object(payload, &mut bytes);
    bytes.push(b'\n');
    bytes
}

/// The first room of a payload's bytes: a tool call's payload with a few kilobytes of input.
const STDIN_ROOM: usize = 4096;

/// The largest buffer a thread keeps between payloads for [`stdin_shared`]; a larger one
/// (a payload of a big file's text) is let go after its use.
const SCRATCH_KEPT: usize = 64 * 1024;

thread_local! {
    /// The buffer [`print_shared`] prints into, kept between payloads.
    static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// [`stdin_bytes`] in the shared form a hook process's stdin takes.
pub(crate) fn stdin_shared(payload: &Map<String, Value>) -> Arc<[u8]> {
    match print_shared(|bytes| {
        compact::write_object(payload, bytes);
        Ok(())
    }) {
        Ok((shared, ())) => shared,
        // Not reached: an object always prints.
        Err(_) => stdin_bytes(payload).into(),
    }
}

/// The stdin bytes of a typed input ([`stdin_bytes`] of its [`payload`]), in the shared form,
/// printed straight from the input, without building its object, and where its top-level
/// entries lie in them; `None` when its keys may repeat ([`TypedInput::UNIQUE_KEYS`]) or it
/// holds what only the object prints exactly.
pub(crate) fn stdin_straight<I: TypedInput>(input: &I) -> Option<(Arc<[u8]>, writer::Entries)> {
    if !I::UNIQUE_KEYS {
        return None;
    }
    let at = input.base().field_count();
    print_shared(|bytes| writer::write_top(input, I::EVENT.as_str(), at, bytes)).ok()
}

/// Prints a payload and its `\n` into a buffer the thread keeps, and copies it once into the
/// shared allocation, instead of into a fresh vector that is then copied and freed (two large
/// allocations per event instead of one).
fn print_shared<T>(
    print: impl FnOnce(&mut Vec<u8>) -> Result<T, writer::Unprintable>,
) -> Result<(Arc<[u8]>, T), writer::Unprintable> {
    SCRATCH.with(|scratch| {
        let mut fresh = Vec::new();
        // Not reached (nothing printed calls back here); a fresh vector if it ever is.
        let mut kept = scratch.try_borrow_mut().ok();
        let bytes = kept.as_deref_mut().unwrap_or(&mut fresh);
        bytes.clear();
        bytes.reserve(STDIN_ROOM);
        let printed = print(bytes);
        let shared = printed.map(|printed| {
            bytes.push(b'\n');
            (Arc::from(bytes.as_slice()), printed)
        });
        if bytes.capacity() > SCRATCH_KEPT {
            *bytes = Vec::new();
        }
        shared
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_count_is_the_serialized_length_for_every_combination() {
        for bits in 0u32..64 {
            let set = |bit: u32| bits & (1 << bit) != 0;
            let text = |bit: u32| set(bit).then(|| format!("v{bit}"));
            let base = Base {
                permission_mode: text(0),
                prompt_id: text(1),
                scratchpad_dir: text(2),
                effort: set(3).then(|| Effort { level: "high".into() }),
                agent_id: text(4),
                agent_type: text(5),
                ..Base::new("s", "/t", "/c")
            };
            let Ok(Value::Object(map)) = serde_json::to_value(&base) else {
                panic!("not an object")
            };
            assert_eq!(base.field_count(), map.len(), "{base:?}");
        }
    }

    #[test]
    fn the_shared_bytes_are_the_stdin_bytes_whatever_the_thread_printed_before() {
        let big = serde_json::json!({"text": "y".repeat(3 * SCRATCH_KEPT)});
        let small = serde_json::json!({"a": 1, "b": "two\n\"three\""});
        let empty = serde_json::json!({});
        for value in [&small, &big, &empty, &small, &small, &big, &empty] {
            let Value::Object(map) = value else { panic!("not an object") };
            assert_eq!(&*stdin_shared(map), stdin_bytes(map).as_slice());
        }
        // The big payload's buffer was not kept.
        SCRATCH.with(|s| assert!(s.borrow().capacity() <= SCRATCH_KEPT));
    }

    #[test]
    fn hook_event_name_follows_the_common_fields() {
        let mut input = PreToolUse {
            base: Base::new("s", "/t", "/c"),
            tool_name: "Bash".into(),
            ..PreToolUse::default()
        };
        input.base.agent_id = Some("a".into());
        let keys: Vec<String> = payload(&input).keys().take(6).cloned().collect();
        assert_eq!(
            keys,
            ["session_id", "transcript_path", "cwd", "agent_id", "hook_event_name", "tool_name"]
        );
    }
}
