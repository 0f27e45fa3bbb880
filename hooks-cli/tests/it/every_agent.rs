//! `--dialect all`: every agent's hooks of the example project on one event, `hooks check` of
//! a project folder, and the hint a project of other agents' hooks gets.

use serde_json::Value;

use crate::support::*;

fn project() -> std::path::PathBuf {
    repo().join("examples/mixed-project")
}

#[test]
fn test_passes_the_example_cases() {
    let args = ["test", "--dialect", "all", "--settings", ".codex/hooks.json", "hooks.test.yaml"];
    let out = hooks(&args, &project(), None);
    assert_eq!(out.status, 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.ends_with("6 passed, 0 failed\n"), "{}", out.stdout);
    assert!(out.stderr.is_empty(), "{}", out.stderr);
}

#[test]
fn run_names_each_hooks_dialect_and_the_hook_that_decided() {
    let input = r#"{"tool_name": "Edit", "tool_use_id": "c1", "tool_input": {"file_path": ".env", "old_string": "A", "new_string": "B"}}"#;
    let args = [
        "run",
        "--dialect",
        "all",
        "--settings",
        ".codex/hooks.json",
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
    assert_eq!(doc["decided_by"]["dialect"], "codex");
    assert!(doc["decided_by"]["file"].as_str().unwrap().ends_with(".codex/hooks.json"));
    let dialects: Vec<&str> =
        doc["hooks"].as_array().unwrap().iter().map(|h| h["dialect"].as_str().unwrap()).collect();
    assert_eq!(dialects, ["codex"], "only the Codex hook matches an edit: {}", out.stdout);
    assert_eq!(
        doc["shown"]["model"][0]["text"],
        "Command blocked by PreToolUse hook: patches to .env files are not allowed. Command: \
         *** Begin Patch\n*** Update File: .env\n@@\n-A\n+B\n*** End Patch\n"
    );
}

#[test]
fn an_input_an_agent_cannot_take_names_the_agent_and_runs_nothing() {
    let input =
        r#"{"tool_name": "Edit", "tool_use_id": "c1", "tool_input": {"file_path": ".env"}}"#;
    let args = [
        "run",
        "--dialect",
        "all",
        "--settings",
        ".codex/hooks.json",
        "--event",
        "PreToolUse",
        "--input",
        "-",
    ];
    let out = hooks(&args, &project(), Some(input));
    assert_eq!(out.status, 1, "{}", out.stdout);
    assert!(out.stderr.contains("Codex needs `tool_input.old_string`"), "{}", out.stderr);
    assert!(out.stderr.contains("--lenient"), "{}", out.stderr);
}

#[test]
fn a_broken_file_is_reported_and_the_other_agents_hooks_run() {
    let scratch = test_support::Scratch::new("every-agent-broken");
    let dir = scratch.path();
    std::fs::create_dir_all(dir.join(".cursor")).unwrap();
    std::fs::create_dir_all(dir.join(".github/hooks")).unwrap();
    std::fs::write(dir.join(".cursor/hooks.json"), "{\"version\": 1, \"hooks\": [").unwrap();
    let deny = r#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "echo '{\"permissionDecision\": \"deny\", \"permissionDecisionReason\": \"no\"}'"}]}}"#;
    std::fs::write(dir.join(".github/hooks/a.json"), deny).unwrap();
    let input = r#"{"tool_name": "Bash", "tool_use_id": "c1", "tool_input": {"command": "ls"}}"#;
    let args = ["run", "--dialect", "all", "--event", "PreToolUse", "--input", "-"];
    let out = hooks(&args, dir, Some(input));
    assert_eq!(out.status, 2, "{}{}", out.stdout, out.stderr);
    assert!(out.stderr.contains("Cursor: "), "{}", out.stderr);
    assert!(out.stderr.contains(".cursor/hooks.json:1:"), "{}", out.stderr);
    assert!(out.stdout.starts_with("PreToolUse: deny"), "{}", out.stdout);

    // Without --dialect: Claude Code finds nothing, and the error names the others' files.
    let out = hooks(&["run", "--event", "PreToolUse", "--input", "-"], dir, Some(input));
    assert_eq!(out.status, 1);
    assert!(
        out.stderr.contains("the project has hooks of GitHub Copilot, Cursor: --dialect all"),
        "{}",
        out.stderr
    );
}

#[test]
fn check_of_a_folder_checks_every_agents_files() {
    let out = hooks(&["check", "."], &project(), None);
    assert_eq!(out.status, 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stderr.contains("checked 4 files: 0 errors"), "{}", out.stderr);
    let empty = test_support::Scratch::new("every-agent-empty");
    let out = hooks(&["check", "."], empty.path(), None);
    assert_eq!(out.status, 1);
    assert!(out.stdout.contains("no agent's hook files in this folder"), "{}", out.stdout);
}

#[test]
fn replay_runs_the_example_session_through_every_agents_session() {
    let args = ["replay", "--dialect", "all", "--settings", ".codex/hooks.json", "session.jsonl"];
    let out = hooks(&args, &project(), None);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let rows: Vec<&str> = out.stdout.lines().collect();
    assert!(rows[3].contains("PreToolUse") && rows[3].contains("deny"), "{}", out.stdout);
    assert!(rows[4].contains("PreToolUse") && rows[4].contains("none"), "{}", out.stdout);
    assert!(rows[6].contains("UserPromptSubmit") && rows[6].contains("block"), "{}", out.stdout);
    assert!(rows[7].contains("Stop") && rows[7].contains("none"), "{}", out.stdout);
    let json = [
        "replay",
        "--dialect",
        "all",
        "--settings",
        ".codex/hooks.json",
        "--format",
        "json",
        "session.jsonl",
    ];
    let out = hooks(&json, &project(), None);
    let third: Value = serde_json::from_str(out.stdout.lines().nth(2).unwrap()).unwrap();
    assert_eq!(third["decided_by"]["dialect"], "claude", "{third}");
    assert_eq!(third["hooks"][0]["dialect"], "claude");
}
