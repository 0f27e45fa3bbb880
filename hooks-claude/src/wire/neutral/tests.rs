use serde_json::{Value, json};

use super::event_from_input;
use crate::EventName;
use crate::input::*;
use crate::samples::payload_of;
use crate::wire::conversion::{InputObject, event_from_payload};

/// An input's event made from its fields and made from its object are the same event, with
/// the same payload attached.
fn same<I: TypedInput>(input: &I) {
    let name = I::EVENT.as_str();
    let typed = event_from_input(input);
    let through = event_from_payload(name, payload(input));
    assert_eq!(typed.common, through.common, "{name}");
    assert_eq!(typed.payload, through.payload, "{name}");
    let (Some(a), Some(b)) =
        (typed.extensions.get::<InputObject>(), through.extensions.get::<InputObject>())
    else {
        panic!("{name}: no payload attached")
    };
    assert_eq!(a.name(), b.name(), "{name}");
    assert_eq!(a.bytes(), b.bytes(), "{name}");
    assert_eq!(a.object(), b.object(), "{name}");
    assert_eq!(a.session_id(), b.session_id(), "{name}");
    assert_eq!(a.cwd(), b.cwd(), "{name}");
    assert_eq!(a.effort_level(), b.effort_level(), "{name}");
}

fn sample<I: TypedInput>() -> I {
    match serde_json::from_value(Value::Object(payload_of(I::EVENT))) {
        Ok(input) => input,
        Err(e) => panic!("{}: the sample does not read back: {e}", I::EVENT.as_str()),
    }
}

macro_rules! every_input {
    ($($(#[$doc:meta])* $name:ident => $method:ident { $($facts:tt)* }),* $(,)?) => {
        #[test]
        fn every_events_sample_makes_the_event_its_object_makes() {
            let mut seen = Vec::new();
            $( same(&sample::<$name>()); seen.push(EventName::$name); )*
            assert_eq!(seen, EventName::ALL);
        }
    };
}

crate::config::event_name::with_every_event!(every_input);

#[test]
fn fields_left_out_or_empty_make_the_event_their_object_makes() {
    let bare = Base::new("", "", "");
    let mut full = Base::new("s", "/t", "/c");
    full.permission_mode = Some("plan".into());
    full.agent_id = Some("a-1".into());
    full.agent_type = Some("Explore".into());
    full.effort = Some(Effort { level: "max".into() });
    for base in [bare, full] {
        same(&PreToolUse { base: base.clone(), ..PreToolUse::default() });
        same(&PermissionRequest {
            base: base.clone(),
            tool_name: "Bash".into(),
            tool_input: json!({"command": "ls"}),
            ..PermissionRequest::default()
        });
        same(&PostToolUse {
            base: base.clone(),
            tool_response: json!("text, not an object"),
            duration_ms: Some(12),
            ..PostToolUse::default()
        });
        same(&PostToolUseFailure {
            base: base.clone(),
            is_interrupt: Some(true),
            ..PostToolUseFailure::default()
        });
        same(&PostToolUseFailure { base: base.clone(), ..PostToolUseFailure::default() });
        same(&Stop {
            base: base.clone(),
            stop_hook_active: true,
            last_assistant_message: Some("done".into()),
            ..Stop::default()
        });
        same(&SubagentStart { base: base.clone() });
        same(&SubagentStop { base: base.clone(), ..SubagentStop::default() });
        same(&PreCompact {
            base: base.clone(),
            custom_instructions: Some(String::new()),
            ..PreCompact::default()
        });
        same(&PreCompact {
            base: base.clone(),
            custom_instructions: Some("keep".into()),
            ..PreCompact::default()
        });
        same(&Notification {
            base: base.clone(),
            title: Some("t".into()),
            ..Notification::default()
        });
        same(&SessionStart {
            base: base.clone(),
            model: Some("m".into()),
            ..SessionStart::default()
        });
        same(&UserPromptSubmit { base: base.clone(), ..UserPromptSubmit::default() });
        same(&SessionEnd { base, reason: "logout".into() });
    }
}

#[test]
fn permission_mode_is_written_only_on_the_events_claude_code_sends_it_on() {
    use crate::wire::conversion::payload_from_event;
    use hook_protocol::{Common, Event, Payload, SessionStart as Start, ToolCall};
    let mut common = Common::new("s", "/c");
    common.permission_mode = Some("plan".into());
    // claude-code.md, Event inputs: none on SessionStart, one on PreToolUse.
    let start = Event::new(common.clone(), Payload::SessionStart(Start::new("startup")));
    assert!(!payload_from_event(&start, "SessionStart").contains_key("permission_mode"));
    let call =
        Event::new(common, Payload::PreTool(ToolCall::new("Bash", json!({"command": "ls"}))));
    assert_eq!(payload_from_event(&call, "PreToolUse")["permission_mode"], "plan");
    // The samples follow the same table.
    for &event in EventName::ALL {
        let sample = payload_of(event);
        assert_eq!(
            sample.contains_key("permission_mode"),
            event.sends_permission_mode(),
            "{event}"
        );
    }
}
