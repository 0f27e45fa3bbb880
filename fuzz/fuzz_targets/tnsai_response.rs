//! The TNSAI response decoder: any stdout reads as a response or a protocol error (never a
//! panic), and a proposed `modified_payload` validates or is refused for every event type.
#![no_main]

use hooks_tnsai::{EventType, Response, validate_modified};
use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Value, json};

const TYPES: [&str; 13] = [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "Notification",
    "SessionEnd",
    "DeployRequested",
];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, stdout)) = data.split_first() else { return };
    let Ok(response) = Response::parse(stdout) else { return };
    if response.reason.as_deref().is_some_and(str::is_empty) {
        // An empty reason is allowed only where the decision does not need one.
        assert_ne!(response.decision.as_str(), "block");
    }
    let Some(modified) = response.modified_payload else { return };
    let event_type = EventType::from_name(TYPES[usize::from(selector) % TYPES.len()]);
    let original: Map<String, Value> = match json!({
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
        "prompt": "hello",
    }) {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    let _ = validate_modified(&event_type, &original, &modified);
});
