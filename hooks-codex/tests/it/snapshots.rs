//! Every Codex event through the door, as a reviewed snapshot of its decision and of what Codex
//! shows: a hook that exits 2 (Codex reads stderr), and one that answers in JSON with the
//! fields the event reads.

use hooks_codex::{EventName, dialect};
use serde_json::{Value, json};
use test_support::{Events, Scratch, every_event};

/// The JSON a hook on `event` answers with: the event's own decision, context where Codex reads
/// it, a message for the user everywhere.
fn answer(event: &str) -> Value {
    let reason = "policy says no (json)";
    let context = json!({"hookEventName": event, "additionalContext": "context from the hook"});
    match event {
        "PreToolUse" => json!({"systemMessage": "note for the user", "hookSpecificOutput": {
            "hookEventName": event, "permissionDecision": "deny", "permissionDecisionReason": reason}}),
        "PermissionRequest" => json!({"hookSpecificOutput": {
            "hookEventName": event, "decision": {"behavior": "deny", "message": reason}}}),
        "PostToolUse" | "UserPromptSubmit" => {
            json!({"decision": "block", "reason": reason, "hookSpecificOutput": context})
        }
        "Stop" | "SubagentStop" => json!({"decision": "block", "reason": reason}),
        "SessionStart" | "SubagentStart" => {
            json!({"systemMessage": "note for the user", "hookSpecificOutput": context})
        }
        _ => json!({"systemMessage": "note for the user"}),
    }
}

#[tokio::test]
async fn every_event_as_codex_shows_it() {
    let scratch = Scratch::new("codex-snapshots");
    let project = scratch.path().to_path_buf();
    let file = |event: &str, command: &str| {
        let path = project.join(".codex/hooks.json");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let hooks =
            json!({"hooks": {event: [{"hooks": [{"type": "command", "command": command}]}]}});
        std::fs::write(&path, hooks.to_string()).unwrap();
        path
    };
    let input = |_: &str| {
        json!({"session_id": "s1", "cwd": project.display().to_string(), "turn_id": "t1",
            "model": "gpt-5.5", "tool_name": "Bash", "tool_input": {"command": "rm -rf build"},
            "tool_use_id": "call_1", "tool_response": "removed", "prompt": "tidy the build",
            "source": "startup", "stop_hook_active": false, "last_assistant_message": "done",
            "agent_id": "a1", "agent_type": "worker", "trigger": "manual", "reason": "exit"})
    };
    let names = EventName::ALL.iter().map(|e| e.as_str()).collect();
    let events = Events::new(dialect(), &project, names, &file, &input, &answer);
    for (event, runs) in every_event(&events).await {
        insta::assert_json_snapshot!(event, runs);
    }
}
