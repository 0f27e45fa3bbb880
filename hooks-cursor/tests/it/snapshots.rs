//! Every Cursor event through the door, as a reviewed snapshot of its decision and of what
//! Cursor shows: a hook that exits 2 (Cursor reads stdout), and one that answers with every
//! field Cursor reads on any event (each event takes its own).

use hooks_cursor::{EventName, dialect};
use serde_json::{Value, json};
use test_support::{Events, Scratch, every_event};

fn answer(_: &str) -> Value {
    json!({"permission": "deny", "user_message": "shown to the user",
        "agent_message": "shown to the agent", "followup_message": "keep going",
        "additional_context": "context from the hook"})
}

#[tokio::test]
async fn every_event_as_cursor_shows_it() {
    let scratch = Scratch::new("cursor-snapshots");
    let project = scratch.path().to_path_buf();
    let file = |event: &str, command: &str| {
        let path = project.join(".cursor/hooks.json");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let hooks = json!({"version": 1, "hooks": {event: [{"command": command}]}});
        std::fs::write(&path, hooks.to_string()).unwrap();
        path
    };
    let input = |event: &str| {
        json!({"conversation_id": "c1", "generation_id": "g1", "hook_event_name": event,
            "workspace_roots": [project.display().to_string()], "tool_name": "Shell",
            "tool_input": {"command": "rm -rf build"}, "tool_output": "removed",
            "command": "rm -rf build", "cwd": project.display().to_string(), "output": "removed",
            "file_path": "src/main.rs", "content": "fn main() {}", "prompt": "tidy the build",
            "status": "completed", "loop_count": 0, "subagent_id": "a1",
            "subagent_type": "worker", "trigger": "manual", "reason": "user_close",
            "error_message": "exit 1", "text": "thinking"})
    };
    let names = EventName::ALL.iter().map(|e| e.as_str()).collect();
    let events = Events::new(dialect(), &project, names, &file, &input, &answer);
    for (event, runs) in every_event(&events).await {
        insta::assert_json_snapshot!(event, runs);
    }
}
