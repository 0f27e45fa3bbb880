//! Every neutral event a harness raises reaches each dialect's matching events, as
//! `docs/mixed.md` tables them.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers fail the test by unwrapping"
)]

use hook_protocol::{
    Common, Event, FileKind, LoadRequest, ModelMessage, ModelRequest, ModelResponse, Notification,
    Payload, PreCompact, PromptSubmit, SessionEnd, SessionStart, SubagentEnd, SubagentStart,
    ToolCall, ToolFailure, ToolResult, ToolSelection, TurnEnd,
};
use hooks_mixed::Project;
use serde_json::json;
use test_support::Scratch;

fn request() -> ModelRequest {
    ModelRequest::new("a-model", vec![ModelMessage::new("user", "hi")])
}

fn payloads() -> Vec<(&'static str, Payload)> {
    let call = || {
        let mut call = ToolCall::new("Bash", json!({"command": "ls"}));
        call.tool_use_id = Some("t1".into());
        call
    };
    vec![
        ("session start", SessionStart::new("startup").into()),
        ("prompt", PromptSubmit::new("hi").into()),
        ("tool before (a shell command)", Payload::PreTool(call())),
        ("permission request", Payload::PermissionRequest(call())),
        ("tool after (a shell command)", ToolResult::new(call(), json!("out")).into()),
        ("tool failure", ToolFailure::new(call(), "failed").into()),
        ("stop", TurnEnd::new().into()),
        ("sub-agent start", SubagentStart::new("a1", "explore").into()),
        ("sub-agent stop", SubagentEnd::new("a1", "explore").into()),
        ("compaction", PreCompact::new("auto").into()),
        ("notification", Notification::new("idle_prompt", "waiting").into()),
        ("session end", SessionEnd::new("other").into()),
        ("model request", Payload::ModelRequest(request())),
        ("model response", Payload::ModelResponse(ModelResponse::new(request(), "hi"))),
        (
            "tool selection",
            Payload::ToolSelection(ToolSelection::new(request(), vec!["Bash".into()])),
        ),
    ]
}

/// The table's rows: `| neutral event | Claude Code | Codex | Copilot | Cursor | Gemini CLI |`.
fn table() -> Vec<Vec<String>> {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/mixed.md")).unwrap();
    let start = doc.find("<!-- events -->").expect("the events table is marked");
    doc[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| l.trim_matches('|').split('|').map(|c| c.trim().replace('`', "")).collect())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn every_neutral_event_reaches_each_dialects_events_as_documented() {
    let scratch = Scratch::new("mixed-events");
    let dir = scratch.path();
    for (file, text) in [
        (".claude/settings.json", json!({"hooks": {}})),
        (".codex/hooks.json", json!({"hooks": {}})),
        (".github/hooks/a.json", json!({"version": 1, "hooks": {}})),
        (".cursor/hooks.json", json!({"version": 1, "hooks": {}})),
        (".gemini/settings.json", json!({"hooks": {}})),
    ] {
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text.to_string()).unwrap();
    }
    let mut request = LoadRequest::new(dir);
    for file in
        [".claude/settings.json", ".codex/hooks.json", ".github/hooks/a.json", ".cursor/hooks.json"]
    {
        request.files.push((FileKind::Config, dir.join(file)));
    }
    let mixed = Project::with_request(request).load();
    assert_eq!(mixed.dialects(), ["claude", "codex", "copilot", "cursor", "gemini"]);
    let mut actual = Vec::new();
    for (name, payload) in payloads() {
        let run = mixed.run(&Event::new(Common::new("s", dir), payload)).await.unwrap();
        let mut row = vec![name.to_owned()];
        for part in &run.parts {
            let events: Vec<&str> = part.runs.iter().map(|r| r.event.as_str()).collect();
            row.push(if events.is_empty() { "none".to_owned() } else { events.join(", ") });
        }
        actual.push(row);
    }
    assert_eq!(table(), actual, "docs/mixed.md's table of events");
}
