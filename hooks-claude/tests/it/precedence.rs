//! One reason, whatever its form: when two hooks block a tool call, the reason shown is the
//! later one's in configuration order, for every pair of blocking forms in both orders.

use std::os::unix::fs::PermissionsExt;

use hook_protocol::ToolPermission;
use hooks_claude::input::{Base, PreToolUse};
use serde_json::{Value, json};

use crate::support::*;

/// A way for a hook to block: its script body, its handler's extra fields, and the text
/// Claude Code shows for it (`{cmd}` stands for the hook's command, `@@` for its reason).
struct Form {
    name: &'static str,
    script: &'static str,
    on_failure: bool,
    reason: &'static str,
    shown: &'static str,
}

const FORMS: [Form; 4] = [
    Form {
        name: "exit 2",
        script: "echo '@@' >&2; exit 2",
        on_failure: false,
        reason: "@@\n",
        shown: "[{cmd}]: @@\n",
    },
    Form {
        name: "JSON deny",
        script: r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "@@"}}'"#,
        on_failure: false,
        reason: "@@",
        shown: "@@",
    },
    Form {
        name: "legacy block",
        script: r#"echo '{"decision": "block", "reason": "@@"}'"#,
        on_failure: false,
        reason: "@@",
        shown: "@@",
    },
    Form {
        name: "onFailure block",
        script: "echo '@@' >&2; exit 1",
        on_failure: true,
        reason: "@@\n",
        shown: "[{cmd}]: failed; blocking because onFailure is \"block\"\n@@",
    },
];

/// Writes the script of `form` as hook `tag`, its reason made `tag`'s own, and returns its
/// handler and the command.
fn handler(dir: &std::path::Path, form: &Form, tag: &str) -> (Value, String) {
    let path = dir.join(format!("{tag}.sh"));
    let body = form.script.replace("@@", &format!("reason {tag}"));
    std::fs::write(&path, format!("#!/bin/sh\ncat >/dev/null\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    let command = path.display().to_string();
    let mut h = json!({"type": "command", "command": command});
    if form.on_failure {
        h["onFailure"] = json!("block");
    }
    (h, command)
}

#[tokio::test]
async fn the_later_blocking_hook_gives_the_reason_for_every_pair_of_forms() {
    for first in &FORMS {
        for second in &FORMS {
            let dir = temp_dir("precedence");
            let (a, _) = handler(&dir, first, "a");
            let (b, b_cmd) = handler(&dir, second, "b");
            let text = settings(json!({"PreToolUse": [{"hooks": [a, b]}]}));
            let engine = engine(load(&dir, &text), &dir);
            let call = PreToolUse {
                base: Base::new("s", "/t.jsonl", dir.display().to_string()),
                tool_name: "Bash".into(),
                tool_input: json!({"command": "rm -rf build"}),
                tool_use_id: "toolu_1".into(),
                mcp_server: None,
            };
            let fired = engine.pre_tool_use(&call).await;
            let case = format!("{} then {}", first.name, second.name);
            let reason = second.reason.replace("@@", "reason b");
            assert_eq!(
                fired.decision.permission,
                ToolPermission::Deny { reason: Some(reason) },
                "{case}"
            );
            let shown = second.shown.replace("@@", "reason b").replace("{cmd}", &b_cmd);
            let text = fired.shown().tool_result().map(|t| t.text.clone());
            assert_eq!(text, Some(format!("PreToolUse:Bash hook error: {shown}")), "{case}");
            assert_eq!(fired.report.merged.reasons.len(), 2, "{case}: every reason is kept");
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}
