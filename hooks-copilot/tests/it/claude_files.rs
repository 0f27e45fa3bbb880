//! Claude Code's files under Copilot: `.claude/settings.json` and a `.github/hooks` file of
//! Claude Code's shape run as Copilot runs them (copilot.md, Claude Code's files), with real
//! scripts.

use hook_protocol::Decision;
use hooks_copilot::{EventName, Loader, Scope};
use serde_json::{Value, json};

use crate::support::Project;

/// Writes `.claude/settings.json` holding `hooks`.
fn claude_settings(p: &Project, hooks: &Value) {
    std::fs::create_dir_all(p.root.join(".claude")).unwrap();
    let text = json!({"permissions": {"allow": []}, "hooks": hooks});
    std::fs::write(p.root.join(".claude/settings.json"), text.to_string()).unwrap();
}

/// A hook that saves its stdin and its environment.
fn observer(p: &Project, name: &str) -> String {
    p.script(
        &format!("{name}.sh"),
        &format!("cat > {name}.stdin; env > {name}.env; printf '%s\\n' {name} >> order.txt"),
    )
}

#[tokio::test]
async fn claude_settings_run_after_the_repository_hooks_with_claude_codes_payload() {
    let p = Project::new();
    let native = observer(&p, "native");
    let claude = observer(&p, "claude");
    p.hook_file("a.json", &json!({"preToolUse": [{"bash": native}]}));
    claude_settings(
        &p,
        &json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": claude}]}]}),
    );
    let input = json!({"toolName": "bash", "toolArgs": {"command": "ls", "description": "list"}});
    let run = p.run(EventName::PreToolUse, input).await;
    assert_eq!(run.report.records.len(), 2);
    assert_eq!(p.read("order.txt"), "native\nclaude\n", ".github/hooks before .claude");
    // The native hook gets Copilot's object; the Claude Code one, the same event in Claude
    // Code's form, as Copilot writes it: no trailing newline, no `permission_mode`, no
    // `tool_use_id`, the tool by its Claude Code name, an ISO-8601 timestamp.
    let stdin = p.read("claude.stdin");
    assert!(!stdin.ends_with('\n'));
    let object: Value = serde_json::from_str(&stdin).unwrap();
    let keys: Vec<&str> = object.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["hook_event_name", "session_id", "timestamp", "cwd", "tool_name", "tool_input"]
    );
    assert_eq!(object["hook_event_name"], "PreToolUse");
    assert_eq!(object["tool_name"], "Bash");
    assert_eq!(object["tool_input"], json!({"command": "ls", "description": "list"}));
    let timestamp = object["timestamp"].as_str().unwrap();
    assert!(
        timestamp.len() == 24 && timestamp.ends_with('Z') && timestamp.contains('T'),
        "{timestamp}"
    );
    // Copilot's environment, no COPILOT_HOOK_DIR for Claude Code's settings, nothing of
    // Claude Code's own.
    let env = p.read("claude.env");
    assert!(env.contains("COPILOT_CLI=1\n"), "{env}");
    assert!(env.lines().any(|l| l.starts_with("COPILOT_PROJECT_DIR=")));
    assert!(!env.lines().any(|l| l.starts_with("COPILOT_HOOK_DIR=")), "{env}");
    assert!(!env.lines().any(|l| l.starts_with("CLAUDE_CODE_")), "{env}");
    assert!(p.read("native.env").lines().any(|l| l.starts_with("COPILOT_HOOK_DIR=")));
}

#[tokio::test]
async fn a_post_tool_use_and_a_stop_of_claude_codes_form_get_copilots_fields() {
    let p = Project::new();
    let post = observer(&p, "post");
    let stop = observer(&p, "stop");
    std::fs::write(
        p.root.join(".github/hooks/cc.json"),
        json!({"hooks": {
            "PostToolUse": [{"hooks": [{"type": "command", "command": post}]}],
            "Stop": [{"hooks": [{"type": "command", "command": stop}]}],
        }})
        .to_string(),
    )
    .unwrap();
    let result = json!({"resultType": "success", "textResultForLlm": "a b"});
    let input = json!({"toolName": "create", "toolArgs": {"path": "x"}, "toolResult": result});
    p.run(EventName::PostToolUse, input).await;
    let object: Value = serde_json::from_str(&p.read("post.stdin")).unwrap();
    assert_eq!(object["tool_name"], "Write");
    assert_eq!(
        object["tool_result"],
        json!({"result_type": "success", "text_result_for_llm": "a b"})
    );
    assert!(object.get("tool_response").is_none() && object.get("transcript_path").is_none());
    let input =
        json!({"transcriptPath": "/t.jsonl", "stopReason": "end_turn", "stop_hook_active": false});
    p.run(EventName::AgentStop, input).await;
    let object: Value = serde_json::from_str(&p.read("stop.stdin")).unwrap();
    assert_eq!(object["hook_event_name"], "Stop");
    assert_eq!(object["transcript_path"], "/t.jsonl");
    assert_eq!(object["stop_reason"], "end_turn");
    assert_eq!(object["stop_hook_active"], false);
}

#[tokio::test]
async fn claude_codes_matchers_take_either_agents_tool_name() {
    // Recorded: `Bash`, `bash`, `^Bash$`, `Bash|Write`, `*` and none match `bash`; `Edit|Write`
    // and `create` match `create`; `Ba` matches nothing.
    let cases = [
        ("Bash", "bash", true),
        ("bash", "bash", true),
        ("^Bash$", "bash", true),
        ("Bash|Write", "bash", true),
        ("*", "bash", true),
        ("Edit|Write", "create", true),
        ("create", "create", true),
        ("Ba", "bash", false),
        ("Write", "bash", false),
    ];
    for (matcher, tool, runs) in cases {
        let p = Project::new();
        claude_settings(
            &p,
            &json!({"PreToolUse": [{"matcher": matcher, "hooks": [{"type": "command", "command": "cat > /dev/null"}]}]}),
        );
        let run = p.run(EventName::PreToolUse, json!({"toolName": tool, "toolArgs": {}})).await;
        assert_eq!(run.report.records.len(), usize::from(runs), "`{matcher}` on `{tool}`");
    }
}

#[tokio::test]
async fn claude_codes_answers_are_read_and_shown_in_copilots_words() {
    let p = Project::new();
    let deny = r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "not here"}}"#;
    claude_settings(
        &p,
        &json!({"PreToolUse": [{"hooks": [{"type": "command", "command": format!("cat > /dev/null; echo '{deny}'")}]}],
                "Stop": [{"hooks": [{"type": "command", "command": "cat > /dev/null; echo '{\"decision\": \"block\", \"reason\": \"run the tests\"}'"}]}]}),
    );
    let run = p.run(EventName::PreToolUse, json!({"toolName": "bash", "toolArgs": {}})).await;
    assert_eq!(run.report.merged.decision, Some(Decision::Deny));
    let texts: Vec<&str> = run.shown.model.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["Denied by preToolUse hook: not here"]);
    let run = p.run(EventName::AgentStop, json!({"stop_hook_active": false})).await;
    assert_eq!(run.report.merged.decision, Some(Decision::Deny), "the agent goes on");
    let texts: Vec<&str> = run.shown.model.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["run the tests"]);
    // `updatedInput` rewrites the arguments, as `modifiedArgs` does.
    let rewrite = r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "ls -a"}}}"#;
    claude_settings(
        &p,
        &json!({"PreToolUse": [{"hooks": [{"type": "command", "command": format!("cat > /dev/null; echo '{rewrite}'")}]}]}),
    );
    let run = p
        .run(EventName::PreToolUse, json!({"toolName": "bash", "toolArgs": {"command": "ls"}}))
        .await;
    assert_eq!(run.report.merged.updated_input.map(|u| u.value), Some(json!({"command": "ls -a"})));
}

#[test]
fn an_empty_matcher_loads_nothing_from_the_file_and_a_broken_one_is_placed() {
    let p = Project::new();
    claude_settings(
        &p,
        &json!({"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]},
            {"matcher": "", "hooks": [{"type": "command", "command": "true"}]},
        ]}),
    );
    let mut loader = Loader::new();
    loader.file(p.root.join(".claude/settings.json"), Scope::Claude);
    let config = loader.finish();
    assert!(config.entries.is_empty(), "Copilot loads nothing from it");
    let warning = config.diagnostics.iter().find(|d| !d.is_error()).unwrap();
    assert!(
        warning.message.contains("`matcher` is empty; Copilot loads no hook from this file"),
        "{warning}"
    );
    // A Claude Code file that does not parse is an error at its line and column; the other
    // files still load.
    std::fs::write(p.root.join(".claude/settings.json"), "{\"hooks\": {\n  \"Stop\": [,]}}")
        .unwrap();
    p.hook_file("a.json", &json!({"agentStop": [{"bash": "true"}]}));
    let mut loader = Loader::new();
    for (path, scope) in hooks_copilot::discover(None, &p.root) {
        loader.file(path, scope);
    }
    let config = loader.finish();
    assert_eq!(config.entries.len(), 1, "a.json's hook");
    let error = config.diagnostics.iter().find(|d| d.is_error()).unwrap();
    assert!(error.file.ends_with(".claude/settings.json"));
    assert_eq!((error.line, error.column), (2, 12), "{error}");
}
