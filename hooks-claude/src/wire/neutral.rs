//! The neutral event of a typed input, made from its typed fields: what
//! [`event_from_payload`] makes of the input's object, without building the object (it is
//! built later only if something asks for it: an `if` rule, [`Fired::input`](crate::Fired::input)).

use std::any::Any;
use std::path::PathBuf;

use hook_protocol::{
    Common, Event, Notification, Payload, PreCompact, PromptSubmit, SessionEnd, SessionStart,
    SubagentEnd, SubagentStart, ToolCall, ToolFailure, ToolResult, TurnEnd,
};
use serde_json::Value;

use crate::EventName;
use crate::input::TypedInput;
use crate::wire::conversion::{InputObject, event_from_payload};

/// The neutral event for a typed input, with the input attached as a [`InputObject`]: what
/// [`event_from_payload`] makes of the input's [`payload`](crate::input::payload) object, made
/// from the typed fields where the event's neutral payload is one of its own (the object is
/// then built only if something asks for it). An event whose neutral payload is the object
/// itself ([`Custom`](hook_protocol::Custom)) is made from the object.
pub(crate) fn event_from_input<I: TypedInput>(input: &I) -> Event {
    let Some(payload) = neutral_of(input) else {
        return event_from_payload(I::EVENT.as_str(), crate::input::payload(input));
    };
    let base = input.base();
    let mut common = Common::new(base.session_id.as_str(), base.cwd.as_str());
    common.transcript_path = Some(PathBuf::from(&base.transcript_path));
    common.permission_mode.clone_from(&base.permission_mode);
    common.agent_id.clone_from(&base.agent_id);
    common.agent_type.clone_from(&base.agent_type);
    let mut ev = Event::new(common, payload);
    ev.extensions.insert(InputObject::of_input(input));
    ev
}

/// The neutral payload of one of this crate's typed inputs, field for field as
/// [`event_from_payload`] reads it from the object; `None` for an event it makes a [`Custom`](hook_protocol::Custom)
/// of, and for an input type of another crate.
fn neutral_of<I: TypedInput>(input: &I) -> Option<Payload> {
    use crate::input as i;
    let any: &dyn Any = input;
    let call = |name: &str, input: &Value, id: Option<&str>| {
        let mut c = ToolCall::new(name, input.clone());
        c.tool_use_id = id.map(str::to_owned);
        c
    };
    Some(match I::EVENT {
        EventName::SessionStart => {
            let e = any.downcast_ref::<i::SessionStart>()?;
            let mut n = SessionStart::new(e.source.as_str());
            n.model.clone_from(&e.model);
            n.into()
        }
        EventName::UserPromptSubmit => {
            PromptSubmit::new(any.downcast_ref::<i::UserPromptSubmit>()?.prompt.as_str()).into()
        }
        EventName::PreToolUse => {
            let e = any.downcast_ref::<i::PreToolUse>()?;
            Payload::PreTool(call(&e.tool_name, &e.tool_input, Some(&e.tool_use_id)))
        }
        EventName::PermissionRequest => {
            let e = any.downcast_ref::<i::PermissionRequest>()?;
            Payload::PermissionRequest(call(&e.tool_name, &e.tool_input, None))
        }
        EventName::PostToolUse => {
            let e = any.downcast_ref::<i::PostToolUse>()?;
            let call = call(&e.tool_name, &e.tool_input, Some(&e.tool_use_id));
            let mut r = ToolResult::new(call, e.tool_response.clone());
            r.duration_ms = e.duration_ms;
            r.into()
        }
        EventName::PostToolUseFailure => {
            let e = any.downcast_ref::<i::PostToolUseFailure>()?;
            let call = call(&e.tool_name, &e.tool_input, Some(&e.tool_use_id));
            let mut f = ToolFailure::new(call, e.error.as_str());
            f.is_interrupt = e.is_interrupt.unwrap_or(false);
            f.duration_ms = e.duration_ms;
            f.into()
        }
        EventName::Stop => {
            let e = any.downcast_ref::<i::Stop>()?;
            let mut t = TurnEnd::new();
            t.continuing = e.stop_hook_active;
            t.last_message.clone_from(&e.last_assistant_message);
            t.into()
        }
        EventName::SubagentStart => {
            let e = any.downcast_ref::<i::SubagentStart>()?;
            let text = |v: &Option<String>| v.as_deref().unwrap_or_default().to_owned();
            SubagentStart::new(text(&e.base.agent_id), text(&e.base.agent_type)).into()
        }
        EventName::SubagentStop => {
            let e = any.downcast_ref::<i::SubagentStop>()?;
            let text = |v: &Option<String>| v.as_deref().unwrap_or_default().to_owned();
            let mut n = SubagentEnd::new(text(&e.base.agent_id), text(&e.base.agent_type));
            n.continuing = e.stop_hook_active;
            n.transcript_path = Some(PathBuf::from(&e.agent_transcript_path));
            n.last_message.clone_from(&e.last_assistant_message);
            n.into()
        }
        EventName::PreCompact => {
            let e = any.downcast_ref::<i::PreCompact>()?;
            let mut n = PreCompact::new(e.trigger.as_str());
            n.instructions = e.custom_instructions.clone().filter(|i| !i.is_empty());
            n.into()
        }
        EventName::Notification => {
            let e = any.downcast_ref::<i::Notification>()?;
            let mut n = Notification::new(e.notification_type.as_str(), e.message.as_str());
            n.title.clone_from(&e.title);
            n.into()
        }
        EventName::SessionEnd => {
            SessionEnd::new(any.downcast_ref::<i::SessionEnd>()?.reason.as_str()).into()
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
