//! `--dialect codex` on every subcommand, on the example project and on broken files.

use serde_json::Value;

use crate::support::*;

fn project() -> std::path::PathBuf {
    repo().join("examples/codex-project")
}

const SETTINGS: &str = ".codex/hooks.json";

#[test]
fn run_denies_a_recursive_delete_with_codex_words_and_exit_2() {
    let input = r#"{"tool_name": "Bash", "tool_input": {"command": "rm -rf target"}}"#;
    let args = [
        "run",
        "--dialect",
        "codex",
        "--settings",
        SETTINGS,
        "--event",
        "PreToolUse",
        "--input",
        "-",
        "--format",
        "json",
    ];
    let out = hooks(&args, &project(), Some(input));
    assert_eq!(out.status, 2, "{}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["decision"], "deny");
    assert_eq!(doc["hooks"][0]["status"], "blocking_error");
    assert_eq!(
        doc["shown"]["model"][0]["text"],
        "Command blocked by PreToolUse hook: recursive deletes are not allowed here. Command: rm -rf target"
    );
}

#[test]
fn test_passes_the_example_cases() {
    let args = ["test", "--dialect", "codex", "--settings", SETTINGS, "hooks.test.yaml"];
    let out = hooks(&args, &project(), None);
    assert_eq!(out.status, 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.ends_with("7 passed, 0 failed\n"), "{}", out.stdout);
}

#[test]
fn replay_runs_the_example_session() {
    let args = ["replay", "--dialect", "codex", "--settings", SETTINGS, "session.jsonl"];
    let out = hooks(&args, &project(), None);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let rows: Vec<&str> = out.stdout.lines().collect();
    assert!(rows[3].contains("PreToolUse") && rows[3].contains("deny"), "{}", out.stdout);
    assert!(rows[5].contains("PostToolUse") && rows[5].contains("block"), "{}", out.stdout);
    assert!(rows[6].contains("Stop") && rows[6].contains("block"), "{}", out.stdout);
    assert!(rows[7].contains("Stop") && rows[7].contains("none"), "{}", out.stdout);
}

#[test]
fn list_finds_the_patch_guard_through_edit_and_write() {
    let args = [
        "list",
        "--dialect",
        "codex",
        "--settings",
        SETTINGS,
        "--event",
        "PreToolUse",
        "--subject",
        "apply_patch",
    ];
    let out = hooks(&args, &project(), None);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert_eq!(out.stdout.lines().count(), 1, "{}", out.stdout);
    assert!(out.stdout.starts_with("sh .codex/hooks/patch-guard.sh"), "{}", out.stdout);
}

#[test]
fn check_tells_a_codex_file_by_its_place_and_reports_at_positions() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".codex")).unwrap();
    let text = "{\n  \"hooks\": {\n    \"preToolUse\": [],\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"x\", \"timeout\": \"soon\"}]}]\n  }\n}\n";
    std::fs::write(dir.path().join(".codex/hooks.json"), text).unwrap();
    let out = hooks(&["check", ".codex/hooks.json"], dir.path(), None);
    assert_eq!(out.status, 1, "{}{}", out.stdout, out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", out.stdout);
    assert!(
        lines[0].contains("hooks.json:3:5: warning: unknown Codex event `preToolUse`"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].contains("hooks.json:4:72: error: `timeout` has the wrong type"),
        "{}",
        lines[1]
    );
}

#[test]
fn an_untrusted_project_is_not_read_and_the_error_says_how_to_trust_it() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("p");
    std::fs::create_dir_all(copy.join(".codex")).unwrap();
    std::fs::copy(project().join(SETTINGS), copy.join(SETTINGS)).unwrap();
    let args = ["run", "--dialect", "codex", "--event", "Stop"];
    let out = hooks(&args, &copy, Some("{}"));
    assert_eq!(out.status, 1);
    assert!(out.stderr.contains("no Codex hook configuration found"), "{}", out.stderr);
    assert!(out.stderr.contains("trust_level = \"trusted\""), "{}", out.stderr);
}

#[test]
fn an_unknown_event_is_named_with_the_one_it_looks_like() {
    let args = ["run", "--dialect", "codex", "--settings", SETTINGS, "--event", "stop"];
    let out = hooks(&args, &project(), Some("{}"));
    assert_eq!(out.status, 1);
    assert_eq!(
        out.stderr.trim(),
        "hooks: unknown Codex event `stop` (event names are case-sensitive: did you mean `Stop`?)"
    );
}

#[test]
fn a_plugin_named_with_dash_dash_plugin_runs_its_hooks_told_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = dir.path().join("guard");
    std::fs::create_dir_all(plugin.join("hooks")).unwrap();
    std::fs::create_dir_all(plugin.join(".codex-plugin")).unwrap();
    std::fs::write(plugin.join(".codex-plugin/plugin.json"), r#"{"name": "guard"}"#).unwrap();
    let file = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "cat > /dev/null; echo \"no, says $PLUGIN_ROOT\" >&2; exit 2"}
    ]}]}});
    std::fs::write(plugin.join("hooks/hooks.json"), file.to_string()).unwrap();
    let args = [
        "run",
        "--dialect",
        "codex",
        "--plugin",
        "guard",
        "--event",
        "PreToolUse",
        "--input",
        "-",
        "--format",
        "json",
    ];
    let input = r#"{"tool_name": "Bash", "tool_input": {"command": "make"}}"#;
    let codex_home = dir.path().join("codex-home");
    let out =
        hooks_with_env(&args, dir.path(), Some(input), &[("CODEX_HOME", codex_home.as_path())]);
    assert_eq!(out.status, 2, "{}{}", out.stdout, out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["decision"], "deny");
    let root = std::fs::canonicalize(&plugin).unwrap();
    assert_eq!(doc["reason"], format!("no, says {}", root.display()));
    // A path that is not a folder says so.
    let args = ["run", "--dialect", "codex", "--plugin", "nowhere", "--event", "Stop"];
    let out = hooks(&args, dir.path(), None);
    assert_eq!(out.status, 1);
    assert!(out.stderr.contains("is not a folder"), "{}", out.stderr);
}

#[test]
fn async_hooks_run_in_the_background_and_their_outputs_come_within_the_wait() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let file = serde_json::json!({"hooks": {"PostToolUse": [{"hooks": [
        {"type": "command", "async": true, "command": "cat > /dev/null; touch marker; echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PostToolUse\", \"additionalContext\": \"lint: clean\"}}'"},
        {"type": "command", "async": true, "command": "cat > /dev/null; sleep 3; touch late-marker"},
        {"type": "command", "command": "cat > /dev/null; echo '{\"decision\": \"block\", \"reason\": \"fix it\"}'"}
    ]}]}});
    std::fs::write(p.join("hooks.json"), file.to_string()).unwrap();
    let args = [
        "run",
        "--dialect",
        "codex",
        "--settings",
        "hooks.json",
        "--event",
        "PostToolUse",
        "--input",
        "-",
        "--format",
        "json",
        "--async-wait",
        "1",
    ];
    let input =
        r#"{"tool_name": "Bash", "tool_input": {"command": "make"}, "tool_response": "ok"}"#;
    let out = hooks_with_env(&args, p, Some(input), &[("SHELL", std::path::Path::new("/bin/sh"))]);
    assert_eq!(out.status, 2, "the foreground hook decides: {}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["reason"], "fix it", "background hooks never change the decision");
    let late = doc["async_results"].as_array().unwrap();
    assert_eq!(late.len(), 1, "{doc}");
    assert!(late[0]["command"].as_str().unwrap().contains("touch marker"));
    assert_eq!(
        late[0]["shown"]["model"][0]["text"],
        "<async_hook_outputs>\n<async_hook_output event=\"PostToolUse\">\nlint: clean\n</async_hook_output>\n</async_hook_outputs>"
    );
    assert!(
        out.stderr.contains("sleep 3"),
        "the one that outlived the wait is named: {}",
        out.stderr
    );
    std::thread::sleep(std::time::Duration::from_millis(2500));
    assert!(!p.join("late-marker").exists(), "it was ended");
}

#[test]
fn a_replay_delivers_async_outputs_with_the_next_accepted_prompt() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let file = serde_json::json!({"hooks": {
        "SessionStart": [{"hooks": [{"type": "command", "async": true,
            "command": "cat > /dev/null; echo '{\"hookSpecificOutput\": {\"hookEventName\": \"SessionStart\", \"additionalContext\": \"indexed 40 files\"}}'"}]}],
        "UserPromptSubmit": [{"hooks": [{"type": "command",
            "command": "grep -q secret && { echo no secrets >&2; exit 2; } || exit 0"}]}]
    }});
    std::fs::write(p.join("hooks.json"), file.to_string()).unwrap();
    let session = [
        r#"{"event": "SessionStart", "input": {"source": "startup"}}"#,
        r#"{"event": "UserPromptSubmit", "input": {"prompt": "the secret is 42"}}"#,
        r#"{"event": "UserPromptSubmit", "input": {"prompt": "ship it"}}"#,
        r#"{"event": "UserPromptSubmit", "input": {"prompt": "and again"}}"#,
    ];
    std::fs::write(p.join("session.jsonl"), session.join("\n")).unwrap();
    let args = [
        "replay",
        "--dialect",
        "codex",
        "--settings",
        "hooks.json",
        "session.jsonl",
        "--format",
        "json",
    ];
    let out = hooks_with_env(&args, p, None, &[("SHELL", std::path::Path::new("/bin/sh"))]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let docs = json_lines(&out.stdout);
    let late = |i: usize| docs[i]["async_results"].as_array().cloned().unwrap_or_default();
    assert!(late(1).is_empty(), "a blocked prompt is not accepted: nothing delivered");
    assert_eq!(docs[1]["decision"], "block");
    assert_eq!(late(2).len(), 1, "{}", out.stdout);
    assert!(
        late(2)[0]["shown"]["model"][0]["text"].as_str().unwrap().contains("indexed 40 files"),
        "{}",
        out.stdout
    );
    assert!(late(3).is_empty(), "delivered once");
}
