//! A hook's status as Claude Code reports it, with real scripts: output braced like a JSON
//! object (it starts with `{` and ends with `}`) that does not parse, and an exit code other
//! than 0 and 2, are non-blocking errors, whatever the decision (docs/claude-code.md#json-detection).

use std::os::unix::fs::PermissionsExt;

use hook_protocol::{HookStatus, ToolPermission};
use hooks_claude::input::{Base, PreToolUse};
use serde_json::json;

use crate::support::*;

const DENY: &str = r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}}"#;

#[tokio::test]
async fn statuses_as_claude_code_reports_them() {
    let two = format!("{DENY}\n{DENY}");
    let cases: [(&str, String, i32, HookStatus, bool); 8] = [
        ("valid JSON deny, exit 0", DENY.to_owned(), 0, HookStatus::Success, true),
        ("invalid JSON braced", "{\"x\": }".to_owned(), 0, HookStatus::Failed, false),
        // Starts with `{` and does not end with `}`: plain text.
        ("starts with { only", "{\"decision\": ".to_owned(), 0, HookStatus::Success, false),
        ("a JSON line, then a log line", format!("{DENY}\ndone"), 0, HookStatus::Success, false),
        ("two JSON documents", two, 0, HookStatus::Failed, false),
        ("JSON deny honoured, exit 1", DENY.to_owned(), 1, HookStatus::Failed, true),
        ("JSON deny honoured, exit 3", DENY.to_owned(), 3, HookStatus::Failed, true),
        ("plain text, exit 0", "all good".to_owned(), 0, HookStatus::Success, false),
    ];
    for (name, stdout, code, status, denied) in cases {
        let dir = temp_dir("status");
        let path = dir.join("hook.sh");
        let script =
            format!("#!/bin/sh\ncat >/dev/null\ncat <<'EOF'\n{stdout}\nEOF\nexit {code}\n");
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        let handler = json!({"type": "command", "command": path.display().to_string()});
        let engine =
            engine(load(&dir, &settings(json!({"PreToolUse": [{"hooks": [handler]}]}))), &dir);
        let call = PreToolUse {
            base: Base::new("s", "/t.jsonl", dir.display().to_string()),
            tool_name: "Bash".into(),
            tool_input: json!({"command": "ls"}),
            tool_use_id: "toolu_1".into(),
            mcp_server: None,
        };
        let fired = engine.pre_tool_use(&call).await;
        let record = &fired.records()[0];
        assert_eq!(record.status, status, "{name}: {record:?}");
        let wire = serde_json::to_value(record.status).unwrap();
        let word = if status == HookStatus::Failed { "non_blocking_error" } else { "success" };
        assert_eq!(wire, json!(word), "{name}");
        let expected = if denied {
            ToolPermission::Deny { reason: Some("no".into()) }
        } else {
            ToolPermission::NoOpinion
        };
        assert_eq!(fired.decision.permission, expected, "{name}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
