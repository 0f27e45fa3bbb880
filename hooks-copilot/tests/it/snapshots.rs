//! Every Copilot event through the door, as a reviewed snapshot of its decision and of what
//! Copilot shows: a hook that exits 2, and one that answers with every field Copilot reads on
//! any event (each event takes its own).

use hooks_copilot::{EventName, dialect};
use serde_json::{Value, json};
use test_support::{Events, Scratch, every_event};

fn answer(_: &str) -> Value {
    let reason = "policy says no (json)";
    json!({"permissionDecision": "deny", "permissionDecisionReason": reason,
        "behavior": "deny", "message": reason, "decision": "block", "reason": reason,
        "additionalContext": "context from the hook",
        "modifiedResult": {"textResultForLlm": "rewritten result"},
        "modifiedPrompt": "rewritten prompt", "modifiedTransformedPrompt": "rewritten prompt"})
}

#[tokio::test]
async fn every_event_as_copilot_shows_it() {
    let scratch = Scratch::new("copilot-snapshots");
    let project = scratch.path().to_path_buf();
    let file = |event: &str, command: &str| {
        let path = project.join(".github/hooks/hooks.json");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let hooks = json!({"version": 1, "hooks": {event: [{"type": "command", "bash": command}]}});
        std::fs::write(&path, hooks.to_string()).unwrap();
        path
    };
    let input = |_: &str| {
        json!({"sessionId": "s1", "timestamp": 1_700_000_000_000_u64,
            "cwd": project.display().to_string(), "toolName": "bash",
            "toolArgs": {"command": "rm -rf build"}, "toolInput": {"command": "rm -rf build"},
            "toolResult": {"resultType": "success", "textResultForLlm": "removed"},
            "error": "exit 1", "prompt": "tidy the build", "source": "new",
            "stop_hook_active": false, "agentId": "a1", "agentType": "worker",
            "trigger": "manual", "reason": "complete", "notificationType": "info",
            "message": "done"})
    };
    let names = EventName::ALL.iter().map(|e| e.as_str()).collect();
    let events = Events::new(dialect(), &project, names, &file, &input, &answer);
    for (event, runs) in every_event(&events).await {
        insta::assert_json_snapshot!(event, runs);
    }
}
