//! The request envelope of every event type, snapshotted with ids and timestamps redacted.

use std::path::PathBuf;

use hook_protocol::{
    Common, Custom, Event, Notification, Payload, PreCompact, PromptSubmit, SessionEnd,
    SessionStart, SubagentEnd, SubagentStart, ToolCall, ToolFailure, ToolResult, TurnEnd,
};
use hooks_tnsai::{EnvelopeContext, EventType, Request, Stamp};
use serde_json::{Map, Value, json};

fn common() -> Common {
    let mut c = Common::new("sess-1", "/work/project");
    c.transcript_path = Some(PathBuf::from("/work/project/.transcript.jsonl"));
    c.permission_mode = Some("default".into());
    c
}

fn call() -> ToolCall {
    let mut c = ToolCall::new("Bash", json!({"command": "ls -la"}));
    c.tool_use_id = Some("toolu_1".into());
    c
}

fn events() -> Vec<(&'static str, Payload)> {
    let mut start = SessionStart::new("startup");
    start.model = Some("model-x".into());
    let mut result = ToolResult::new(call(), json!({"stdout": "a\nb", "exit_code": 0}));
    result.duration_ms = Some(12);
    let mut stop = TurnEnd::new();
    stop.last_message = Some("done".into());
    let mut sub_end = SubagentEnd::new("agent-7", "reviewer");
    sub_end.last_message = Some("reviewed".into());
    let mut notification = Notification::new("idle_prompt", "waiting for input");
    notification.title = Some("Idle".into());
    let Value::Object(fields) = json!({"environment": "prod", "subject": "api"}) else {
        unreachable!()
    };
    let mut custom = Custom::new("DeployRequested", fields);
    custom.subject = Some("api".into());
    vec![
        ("SessionStart", start.into()),
        ("UserPromptSubmit", PromptSubmit::new("fix the tests").into()),
        ("PreToolUse", Payload::PreTool(call())),
        ("PermissionRequest", Payload::PermissionRequest(call())),
        ("PostToolUse", result.into()),
        ("PostToolUseFailure", ToolFailure::new(call(), "command not found").into()),
        ("Stop", stop.into()),
        ("SubagentStart", SubagentStart::new("agent-7", "reviewer").into()),
        ("SubagentStop", sub_end.into()),
        ("PreCompact", PreCompact::new("auto").into()),
        ("Notification", notification.into()),
        ("SessionEnd", SessionEnd::new("logout").into()),
        ("DeployRequested", custom.into()),
    ]
}

#[test]
fn envelope_of_every_event_type() {
    for (name, payload) in events() {
        let event = Event::new(common(), payload);
        let request = Request::new(&event, "0.5.0");
        assert_eq!(request.event_type, name);
        assert_eq!(EventType::of(&event).as_str(), name);
        insta::assert_json_snapshot!(format!("envelope_{name}"), request, {
            ".event_id" => "[event_id]",
            ".timestamp" => "[timestamp]",
        });
    }
}

#[test]
fn stamp_is_shared_and_context_can_be_supplied() {
    let mut event = Event::new(common(), PromptSubmit::new("hi"));
    Stamp::attach(&mut event);
    let a = Request::new(&event, "0.5.0");
    let b = Request::new(&event, "0.6.1");
    assert_eq!(a.event_id, b.event_id, "one id per event, whatever the hook");
    assert_eq!(a.timestamp, b.timestamp);
    assert_eq!(b.tnsai_version, "0.6.1");
    let unstamped = Event::new(common(), PromptSubmit::new("hi"));
    assert_ne!(
        Request::new(&unstamped, "0.5.0").event_id,
        Request::new(&unstamped, "0.5.0").event_id
    );

    let mut ctx = Map::new();
    ctx.insert("tenant".into(), json!("acme"));
    event.extensions.insert(EnvelopeContext(ctx));
    assert_eq!(Request::new(&event, "0.5.0").context, json!({"tenant": "acme"}));
}

#[test]
fn bytes_are_one_json_line() {
    let event = Event::new(common(), Payload::PreTool(call()));
    let bytes = Request::new(&event, "0.5.0").to_bytes();
    assert_eq!(bytes.iter().filter(|&&b| b == b'\n').count(), 1);
    assert!(bytes.ends_with(b"\n"));
    let v: Value = serde_json::from_slice(&bytes).unwrap();
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "context",
            "event_id",
            "event_type",
            "hook_protocol_version",
            "payload",
            "timestamp",
            "tnsai_version"
        ]
    );
    assert_eq!(v["hook_protocol_version"], "1");
}
