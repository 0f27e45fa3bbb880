//! The neutral events a harness raises at its seams.
//!
//! An [`Event`] is what the harness knows when it reaches an interception point: the facts every
//! event shares ([`Common`]) and the seam's own facts ([`Payload`]). Dialects translate an event
//! into their wire format; native hooks read it as it is.

use std::any::{Any, TypeId};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::Seam;

/// Facts every event carries, whatever the seam.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Common {
    /// The harness's session identifier.
    pub session_id: String,
    /// The session's current working directory (follows `cd`).
    pub cwd: PathBuf,
    /// Where the session's transcript is written, when the harness keeps one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transcript_path: Option<PathBuf>,
    /// The harness's permission mode (`default`, `plan`, ...), when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_mode: Option<String>,
    /// The agent the event happened in, when it is a sub-agent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// The type of that agent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_type: Option<String>,
}

impl Common {
    /// Common facts with a session id and a working directory; every other field empty.
    pub fn new(session_id: impl Into<String>, cwd: impl Into<PathBuf>) -> Self {
        Self {
            session_id: session_id.into(),
            cwd: cwd.into(),
            transcript_path: None,
            permission_mode: None,
            agent_id: None,
            agent_type: None,
        }
    }
}

/// A session started or resumed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct SessionStart {
    /// Why: `startup`, `resume`, `clear`, `compact`, ...
    pub source: String,
    /// The model the session runs, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

impl SessionStart {
    /// A session start with its source.
    pub fn new(source: impl Into<String>) -> Self {
        Self { source: source.into(), model: None }
    }
}

/// The user submitted a prompt.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct PromptSubmit {
    /// The prompt's text.
    pub prompt: String,
}

impl PromptSubmit {
    /// A prompt submission.
    pub fn new(prompt: impl Into<String>) -> Self {
        Self { prompt: prompt.into() }
    }
}

/// A tool call: what the model asked to run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ToolCall {
    /// The tool's name (`Bash`, `Write`, `mcp__server__tool`, ...).
    pub tool_name: String,
    /// The tool's input, as the model produced it.
    pub tool_input: Value,
    /// The call's identifier, when the harness has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_use_id: Option<String>,
}

impl ToolCall {
    /// A tool call with a name and an input.
    pub fn new(tool_name: impl Into<String>, tool_input: Value) -> Self {
        Self { tool_name: tool_name.into(), tool_input, tool_use_id: None }
    }
}

/// A tool call that ran and succeeded.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ToolResult {
    /// The call.
    #[serde(flatten)]
    pub call: ToolCall,
    /// What the tool returned.
    pub tool_response: Value,
    /// How long the tool ran, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
}

impl ToolResult {
    /// A tool result.
    pub fn new(call: ToolCall, tool_response: Value) -> Self {
        Self { call, tool_response, duration_ms: None }
    }
}

/// A tool call that started and failed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ToolFailure {
    /// The call.
    #[serde(flatten)]
    pub call: ToolCall,
    /// The error the tool reported.
    pub error: String,
    /// Whether the user interrupted the tool.
    pub is_interrupt: bool,
    /// How long the tool ran, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
}

impl ToolFailure {
    /// A tool failure.
    pub fn new(call: ToolCall, error: impl Into<String>) -> Self {
        Self { call, error: error.into(), is_interrupt: false, duration_ms: None }
    }
}

/// The turn (or a sub-agent's turn) wants to end.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct TurnEnd {
    /// True when the agent is already continuing because a hook kept it going.
    pub continuing: bool,
    /// How many times hooks have kept this conversation going with a follow-up so far (Cursor's
    /// `loop_count`); a hook's continuation limit ([`crate::HookInfo::continuation_limit`]) is
    /// checked against it.
    #[serde(skip_serializing_if = "is_zero")]
    pub continuations: u32,
    /// The agent's last message, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_message: Option<String>,
}

impl TurnEnd {
    /// A turn end, not yet continued by a hook.
    pub fn new() -> Self {
        Self { continuing: false, continuations: 0, last_message: None }
    }
}

impl Default for TurnEnd {
    fn default() -> Self {
        Self::new()
    }
}

/// A sub-agent started.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct SubagentStart {
    /// The sub-agent's identifier.
    pub agent_id: String,
    /// The sub-agent's type.
    pub agent_type: String,
}

impl SubagentStart {
    /// A sub-agent start.
    pub fn new(agent_id: impl Into<String>, agent_type: impl Into<String>) -> Self {
        Self { agent_id: agent_id.into(), agent_type: agent_type.into() }
    }
}

/// A sub-agent wants to end.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct SubagentEnd {
    /// The sub-agent's identifier.
    pub agent_id: String,
    /// The sub-agent's type (may be empty for internal agents).
    pub agent_type: String,
    /// True when the sub-agent is already continuing because a hook kept it going.
    pub continuing: bool,
    /// How many times hooks have kept this sub-agent going with a follow-up so far.
    #[serde(skip_serializing_if = "is_zero")]
    pub continuations: u32,
    /// The sub-agent's transcript, when kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transcript_path: Option<PathBuf>,
    /// The sub-agent's last message, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_message: Option<String>,
}

impl SubagentEnd {
    /// A sub-agent end.
    pub fn new(agent_id: impl Into<String>, agent_type: impl Into<String>) -> Self {
        Self {
            agent_id: agent_id.into(),
            agent_type: agent_type.into(),
            continuing: false,
            continuations: 0,
            transcript_path: None,
            last_message: None,
        }
    }
}

/// The conversation is about to be compacted.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct PreCompact {
    /// `manual` or `auto`.
    pub trigger: String,
    /// Instructions the user gave for the compaction, if any.
    pub instructions: Option<String>,
}

impl PreCompact {
    /// A compaction with its trigger.
    pub fn new(trigger: impl Into<String>) -> Self {
        Self { trigger: trigger.into(), instructions: None }
    }
}

/// The harness shows the user a notification.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Notification {
    /// The notification's text.
    pub message: String,
    /// Its title, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Its kind (`permission_prompt`, `idle_prompt`, ...).
    pub kind: String,
}

impl Notification {
    /// A notification of a kind.
    pub fn new(kind: impl Into<String>, message: impl Into<String>) -> Self {
        Self { message: message.into(), title: None, kind: kind.into() }
    }
}

/// The session ends.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct SessionEnd {
    /// Why (`clear`, `logout`, `other`, ...).
    pub reason: String,
}

impl SessionEnd {
    /// A session end with its reason.
    pub fn new(reason: impl Into<String>) -> Self {
        Self { reason: reason.into() }
    }
}

/// One message of a model request, its text parts joined.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ModelMessage {
    /// Who it is from (`user`, `model`, `system`).
    pub role: String,
    /// Its text.
    pub content: String,
}

impl ModelMessage {
    /// A message of a role.
    pub fn new(role: impl Into<String>, content: impl Into<String>) -> Self {
        Self { role: role.into(), content: content.into() }
    }
}

/// A request the harness is about to send to its model.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct ModelRequest {
    /// The model it goes to.
    pub model: String,
    /// Its messages with text, in order.
    pub messages: Vec<ModelMessage>,
    /// Its generation settings (`temperature`, `topP`, ...), as the harness names them.
    pub config: Map<String, Value>,
}

impl ModelRequest {
    /// A request to `model` of `messages`, with no settings.
    pub fn new(model: impl Into<String>, messages: Vec<ModelMessage>) -> Self {
        Self { model: model.into(), messages, config: Map::new() }
    }
}

/// The model's answer to a request: a whole response, or one streamed chunk of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ModelResponse {
    /// The request it answers.
    pub request: ModelRequest,
    /// Its text.
    pub text: String,
    /// Why the model stopped (`STOP`, `MAX_TOKENS`), on the last chunk.
    pub finish_reason: Option<String>,
}

impl ModelResponse {
    /// A response of `text` to `request`.
    pub fn new(request: ModelRequest, text: impl Into<String>) -> Self {
        Self { request, text: text.into(), finish_reason: None }
    }
}

/// The tools a model request offers, before it is sent.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ToolSelection {
    /// The request.
    pub request: ModelRequest,
    /// The names of the tools it offers.
    pub tools: Vec<String>,
}

impl ToolSelection {
    /// The tools `tools` of `request`.
    pub fn new(request: ModelRequest, tools: Vec<String>) -> Self {
        Self { request, tools }
    }
}

/// An event that belongs to no neutral seam: a dialect's own interception point.
///
/// The core routes it by name and matches hooks against its subject; it never interprets the
/// fields.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Custom {
    /// The event's name, as the dialect spells it.
    pub name: String,
    /// What matchers are tested against, when the event has a subject.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// The event's own fields.
    #[serde(flatten)]
    pub fields: Map<String, Value>,
}

impl Custom {
    /// A custom event with a name and fields.
    pub fn new(name: impl Into<String>, fields: Map<String, Value>) -> Self {
        Self { name: name.into(), subject: None, fields }
    }
}

/// The seam-specific part of an event.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum Payload {
    /// [`Seam::SessionStart`].
    SessionStart(SessionStart),
    /// [`Seam::PromptSubmit`].
    PromptSubmit(PromptSubmit),
    /// [`Seam::PreTool`].
    PreTool(ToolCall),
    /// [`Seam::PermissionRequest`].
    PermissionRequest(ToolCall),
    /// [`Seam::PostTool`].
    PostTool(ToolResult),
    /// [`Seam::PostToolFailure`].
    PostToolFailure(ToolFailure),
    /// [`Seam::TurnEnd`].
    TurnEnd(TurnEnd),
    /// [`Seam::SubagentStart`].
    SubagentStart(SubagentStart),
    /// [`Seam::SubagentEnd`].
    SubagentEnd(SubagentEnd),
    /// [`Seam::PreCompact`].
    PreCompact(PreCompact),
    /// [`Seam::Notification`].
    Notification(Notification),
    /// [`Seam::SessionEnd`].
    SessionEnd(SessionEnd),
    /// [`Seam::ModelRequest`].
    ModelRequest(ModelRequest),
    /// [`Seam::ModelResponse`].
    ModelResponse(ModelResponse),
    /// [`Seam::ToolSelection`].
    ToolSelection(ToolSelection),
    /// [`Seam::Custom`].
    Custom(Custom),
}

impl Payload {
    /// The seam this payload belongs to.
    pub fn seam(&self) -> Seam {
        match self {
            Self::SessionStart(_) => Seam::SessionStart,
            Self::PromptSubmit(_) => Seam::PromptSubmit,
            Self::PreTool(_) => Seam::PreTool,
            Self::PermissionRequest(_) => Seam::PermissionRequest,
            Self::PostTool(_) => Seam::PostTool,
            Self::PostToolFailure(_) => Seam::PostToolFailure,
            Self::TurnEnd(_) => Seam::TurnEnd,
            Self::SubagentStart(_) => Seam::SubagentStart,
            Self::SubagentEnd(_) => Seam::SubagentEnd,
            Self::PreCompact(_) => Seam::PreCompact,
            Self::Notification(_) => Seam::Notification,
            Self::SessionEnd(_) => Seam::SessionEnd,
            Self::ModelRequest(_) => Seam::ModelRequest,
            Self::ModelResponse(_) => Seam::ModelResponse,
            Self::ToolSelection(_) => Seam::ToolSelection,
            Self::Custom(_) => Seam::Custom,
        }
    }

    /// What matchers are tested against: the tool name, the session source, the agent type, ...
    ///
    /// `None` for seams whose hooks ignore matchers.
    pub fn subject(&self) -> Option<&str> {
        match self {
            Self::SessionStart(e) => Some(&e.source),
            Self::PromptSubmit(_) | Self::TurnEnd(_) => None,
            Self::ModelRequest(_) | Self::ModelResponse(_) | Self::ToolSelection(_) => None,
            Self::PreTool(c) | Self::PermissionRequest(c) => Some(&c.tool_name),
            Self::PostTool(r) => Some(&r.call.tool_name),
            Self::PostToolFailure(f) => Some(&f.call.tool_name),
            Self::SubagentStart(e) => Some(&e.agent_type),
            Self::SubagentEnd(e) => Some(&e.agent_type),
            Self::PreCompact(e) => Some(&e.trigger),
            Self::Notification(e) => Some(&e.kind),
            Self::SessionEnd(e) => Some(&e.reason),
            Self::Custom(e) => e.subject.as_deref(),
        }
    }

    /// The tool call this payload is about, on the tool seams.
    pub fn tool_call(&self) -> Option<&ToolCall> {
        match self {
            Self::PreTool(c) | Self::PermissionRequest(c) => Some(c),
            Self::PostTool(r) => Some(&r.call),
            Self::PostToolFailure(f) => Some(&f.call),
            _ => None,
        }
    }

    /// The tool call, mutably (a dialect writing it in its agent's tool vocabulary).
    pub fn tool_call_mut(&mut self) -> Option<&mut ToolCall> {
        match self {
            Self::PreTool(c) | Self::PermissionRequest(c) => Some(c),
            Self::PostTool(r) => Some(&mut r.call),
            Self::PostToolFailure(f) => Some(&mut f.call),
            _ => None,
        }
    }

    /// The tool input a hook may rewrite: on the seams that run before the tool.
    pub fn rewritable_input_mut(&mut self) -> Option<&mut Value> {
        match self {
            Self::PreTool(c) | Self::PermissionRequest(c) => Some(&mut c.tool_input),
            _ => None,
        }
    }
}

/// One event at one seam: the common facts, the seam's payload, and typed attachments.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Event {
    /// Facts every event carries.
    pub common: Common,
    /// The seam's own facts.
    pub payload: Payload,
    /// Typed attachments a dialect or harness passes along (see [`Extensions`]).
    pub extensions: Extensions,
}

impl Event {
    /// An event from its common facts and payload.
    pub fn new(common: Common, payload: impl Into<Payload>) -> Self {
        Self { common, payload: payload.into(), extensions: Extensions::default() }
    }

    /// The seam this event is raised at.
    pub fn seam(&self) -> Seam {
        self.payload.seam()
    }

    /// The custom event's name, when the event is [`Seam::Custom`].
    pub fn custom_name(&self) -> Option<&str> {
        match &self.payload {
            Payload::Custom(c) => Some(&c.name),
            _ => None,
        }
    }

    /// What matchers are tested against (see [`Payload::subject`]).
    pub fn subject(&self) -> Option<&str> {
        self.payload.subject()
    }
}

macro_rules! payload_from {
    ($($ty:ident => $variant:ident),* $(,)?) => {$(
        impl From<$ty> for Payload {
            fn from(value: $ty) -> Self {
                Self::$variant(value)
            }
        }
    )*};
}

payload_from! {
    SessionStart => SessionStart,
    PromptSubmit => PromptSubmit,
    ToolResult => PostTool,
    ToolFailure => PostToolFailure,
    TurnEnd => TurnEnd,
    SubagentStart => SubagentStart,
    SubagentEnd => SubagentEnd,
    PreCompact => PreCompact,
    Notification => Notification,
    SessionEnd => SessionEnd,
    Custom => Custom,
}

/// Attached by a pipeline dispatch ([`crate::Mode::Pipeline`]) to the event the next hooks
/// see once an earlier hook rewrote the tool input: the neutral payload then holds the
/// rewritten input, and a dialect that carries its own copy of the input in
/// [`Event::extensions`] must send the payload's instead.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct InputRewritten {
    /// The hook whose rewrite the payload now holds.
    pub by: String,
}

/// Typed values attached to an event, at most one per type (like `http::Extensions`).
///
/// A dialect uses them to carry what the neutral event cannot express: e.g. the exact wire
/// payload a harness built for that dialect, so the dialect's hooks receive it unchanged.
/// Cloning is cheap: values are shared.
#[derive(Clone, Default)]
pub struct Extensions {
    items: Vec<(TypeId, Arc<dyn Any + Send + Sync>)>,
}

impl Extensions {
    /// Attaches a value, replacing any earlier value of the same type.
    pub fn insert<T: Any + Send + Sync>(&mut self, value: T) {
        let id = TypeId::of::<T>();
        self.items.retain(|(t, _)| *t != id);
        self.items.push((id, Arc::new(value)));
    }

    /// The attached value of type `T`, if any.
    pub fn get<T: Any + Send + Sync>(&self) -> Option<&T> {
        let id = TypeId::of::<T>();
        self.items.iter().find(|(t, _)| *t == id).and_then(|(_, v)| v.downcast_ref::<T>())
    }

    /// Whether nothing is attached.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

impl fmt::Debug for Extensions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Extensions").field("len", &self.items.len()).finish()
    }
}

/// Whether a count is zero (left out of the serialized event).
fn is_zero(n: &u32) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn subject_follows_the_seam() {
        let call = ToolCall::new("Bash", json!({"command": "ls"}));
        assert_eq!(Payload::PreTool(call.clone()).subject(), Some("Bash"));
        assert_eq!(Payload::from(ToolResult::new(call, json!({}))).subject(), Some("Bash"));
        assert_eq!(Payload::from(PromptSubmit::new("hi")).subject(), None);
        assert_eq!(Payload::from(TurnEnd::new()).subject(), None);
        assert_eq!(Payload::from(SessionStart::new("resume")).subject(), Some("resume"));
    }

    #[test]
    fn extensions_hold_one_value_per_type() {
        let mut ext = Extensions::default();
        assert!(ext.is_empty());
        ext.insert(1_u32);
        ext.insert(String::from("a"));
        ext.insert(2_u32);
        assert_eq!(ext.get::<u32>(), Some(&2));
        assert_eq!(ext.get::<String>().map(String::as_str), Some("a"));
        assert_eq!(ext.get::<i64>(), None);
    }

    #[test]
    fn payload_serializes_its_own_fields() {
        let call = ToolCall::new("Write", json!({"file_path": "/a"}));
        let v = serde_json::to_value(Payload::from(ToolResult::new(call, json!({"ok": true}))))
            .unwrap();
        assert_eq!(
            v,
            json!({"tool_name": "Write", "tool_input": {"file_path": "/a"}, "tool_response": {"ok": true}})
        );
    }
}
