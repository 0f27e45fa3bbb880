//! `--dialect copilot` on every subcommand, on the example project and on other dialects'
//! files.

use serde_json::Value;

use crate::support::*;

fn project() -> std::path::PathBuf {
    repo().join("examples/copilot-project")
}

#[test]
fn run_finds_the_projects_hook_files_and_denies_as_copilot_says_it() {
    let input = r#"{"toolName": "bash", "toolArgs": {"command": "rm -rf target"}}"#;
    let args = [
        "run",
        "--dialect",
        "copilot",
        "--event",
        "preToolUse",
        "--input",
        "-",
        "--format",
        "json",
    ];
    let out = hooks(&args, &project(), Some(input));
    assert_eq!(out.status, 2, "{}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["decision"], "deny");
    assert_eq!(
        doc["shown"]["model"][0]["text"],
        "Denied by preToolUse hook: recursive deletes are not allowed here"
    );
    // Claude Code's name is of the form Copilot also reads: its input is checked in that form.
    let claude_form =
        hooks(&["run", "--dialect", "copilot", "--event", "PreToolUse"], &project(), None);
    assert_eq!(claude_form.status, 1);
    assert_eq!(
        claude_form.stderr.trim(),
        "hooks: PreToolUse: invalid input: `tool_name` must be a string"
    );
    let unknown =
        hooks(&["run", "--dialect", "copilot", "--event", "pretooluse"], &project(), None);
    assert_eq!(unknown.status, 1);
    assert_eq!(
        unknown.stderr.trim(),
        "hooks: unknown Copilot event `pretooluse` (Copilot's event names are camelCase: did you \
         mean `preToolUse`?)"
    );
}

#[test]
fn the_example_projects_own_tests_pass() {
    let out = hooks(&["test", "--dialect", "copilot", "hooks.test.yaml"], &project(), None);
    assert_eq!(out.status, 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.ends_with("10 passed, 0 failed\n"), "{}", out.stdout);
}

#[test]
fn check_and_list_know_copilot_files_by_their_place() {
    let out = hooks(&["check", ".github/hooks/policy.json"], &project(), None);
    assert_eq!((out.status, out.stdout.as_str()), (0, ""), "{}", out.stderr);
    let out = hooks(
        &["list", "--dialect", "copilot", "--event", "preToolUse", "--subject", "create"],
        &project(),
        None,
    );
    assert_eq!(out.stdout.lines().count(), 1, "{}", out.stdout);
    assert!(out.stdout.starts_with("./.github/hooks/scripts/path-guard.sh  ("), "{}", out.stdout);
}

#[test]
fn a_file_given_to_the_wrong_dialect_says_what_it_looks_like() {
    let args = ["check", "--dialect", "codex", ".github/hooks/policy.json"];
    let out = hooks(&args, &project(), None);
    assert_eq!(out.status, 1);
    assert!(
        out.stdout.starts_with(
            ".github/hooks/policy.json: warning: `.github/hooks/policy.json` looks like a GitHub \
             Copilot hook file (--dialect copilot), not a Codex one\n"
        ),
        "{}",
        out.stdout
    );
    let codex = repo().join("examples/codex-project");
    let args =
        ["run", "--dialect", "copilot", "--settings", ".codex/hooks.json", "--event", "agentStop"];
    let out = hooks(&args, &codex, None);
    let file = codex.join(".codex/hooks.json");
    assert!(
        out.stderr.starts_with(&format!(
            "hooks: warning: `{}` looks like a Codex hook file (--dialect codex), not a GitHub \
             Copilot one\n",
            file.display()
        )),
        "{}",
        out.stderr
    );
}

#[test]
fn in_githubs_hook_folder_every_shape_is_copilots() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join(".github/hooks");
    std::fs::create_dir_all(&folder).unwrap();
    // `hooks.json` under `hooks/` is a Claude Code plugin's name too; here it is Copilot's.
    let copilot =
        r#"{"version": 1, "hooks": {"preToolUse": [{"bash": "true", "timeoutSec": "5"}]}}"#;
    std::fs::write(folder.join("hooks.json"), copilot).unwrap();
    let claude = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true", "timeout": "x"}]}]}}"#;
    std::fs::write(folder.join("claude.json"), claude).unwrap();
    let out = hooks(&["check", ".github/hooks/hooks.json"], dir.path(), None);
    assert!(out.stdout.contains("`timeoutSec` must be a number"), "Copilot's: {}", out.stdout);
    // One of Claude Code's shape is Copilot's too, read as Copilot reads it.
    let out = hooks(&["check", ".github/hooks/claude.json"], dir.path(), None);
    assert!(
        out.stdout.contains(
            "PreToolUse[0].hooks[0]: `timeout` must be a number of seconds, found a string; the \
             hook is skipped"
        ),
        "Copilot's: {}",
        out.stdout
    );
}

#[test]
fn replay_keeps_copilots_loop_guard() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".github/hooks")).unwrap();
    let always = r#"{"version": 1, "hooks": {"agentStop": [{"bash": "cat > last.json; echo '{\"decision\":\"block\",\"reason\":\"more\"}'"}]}}"#;
    std::fs::write(dir.path().join(".github/hooks/loop.json"), always).unwrap();
    let line = "{\"event\":\"agentStop\",\"input\":{\"stopReason\":\"end_turn\"}}\n";
    std::fs::write(dir.path().join("loop.jsonl"), line.repeat(10)).unwrap();
    let out = hooks(
        &["replay", "--dialect", "copilot", "loop.jsonl", "--format", "json"],
        dir.path(),
        None,
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    let lines = json_lines(&out.stdout);
    let guards: Vec<(u64, bool)> = lines
        .iter()
        .map(|l| {
            (l["guard"]["consecutive_blocks"].as_u64().unwrap(), l["guard"]["overridden"] == true)
        })
        .collect();
    let mut expected: Vec<(u64, bool)> = (1..=8).map(|n| (n, false)).collect();
    expected.extend([(9, true), (1, false)]);
    assert_eq!(guards, expected);
    // The overridden block's reason is not shown to the model (docs/copilot.md#stop-loop).
    let model = |i: usize| lines[i]["shown"]["model"].as_array().map_or(0, Vec::len);
    assert_eq!((model(7), model(8), model(9)), (1, 0, 1), "the ninth block shows nothing");
    assert!(out.stderr.contains("Agent stop hook blocked 8 consecutive times; ending turn."));
    let last: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("last.json")).unwrap())
            .unwrap();
    assert_eq!(last["stop_hook_active"], false, "after the override the count started again");
}

#[test]
fn a_copilot_file_in_claude_codes_shape_runs_as_copilot_runs_it_with_both_tool_names() {
    let dir = tempfile::tempdir().unwrap();
    let hooks_dir = dir.path().join(".github/hooks");
    std::fs::create_dir_all(&hooks_dir).unwrap();
    let deny = r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "matched"}}"#;
    let file = serde_json::json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash|Read", "hooks": [{"type": "command", "command": format!("cat > /dev/null; echo '{deny}'")}]}
    ]}});
    std::fs::write(hooks_dir.join("claude-shaped.json"), file.to_string()).unwrap();
    let run = |tool: &str| {
        let input = format!(r#"{{"tool_name": "{tool}", "tool_input": {{}}, "tool_use_id": "t"}}"#);
        let args = [
            "run",
            "--dialect",
            "copilot",
            "--settings",
            ".github/hooks/claude-shaped.json",
            "--event",
            "PreToolUse",
            "--input",
            "-",
            "--format",
            "json",
        ];
        hooks(&args, dir.path(), Some(&input))
    };
    // Copilot's names and Claude Code's both meet a matcher written with Claude Code's.
    for tool in ["bash", "Bash", "view", "Read"] {
        let out = run(tool);
        assert_eq!(out.status, 2, "{tool}: {}{}", out.stdout, out.stderr);
        let doc: Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(doc["decision"], "deny", "{tool}");
        assert!(out.stderr.is_empty(), "no warning: {}", out.stderr);
    }
    let out = run("create");
    assert_eq!(out.status, 0, "{}{}", out.stdout, out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["decision"], "none", "a tool the matcher does not name");
}

#[test]
fn a_plugin_named_with_dash_dash_plugin_runs_its_hooks() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = dir.path().join("guard");
    std::fs::create_dir_all(&plugin).unwrap();
    let file = serde_json::json!({"version": 1, "hooks": {"preToolUse": [
        {"bash": "cat > /dev/null; echo \"{\\\"permissionDecision\\\": \\\"deny\\\", \\\"permissionDecisionReason\\\": \\\"from $PLUGIN_ROOT\\\"}\""}
    ]}});
    std::fs::write(plugin.join("hooks.json"), file.to_string()).unwrap();
    let args = [
        "run",
        "--dialect",
        "copilot",
        "--plugin",
        "guard",
        "--event",
        "preToolUse",
        "--input",
        "-",
        "--format",
        "json",
    ];
    let input = r#"{"toolName": "bash", "toolArgs": {"command": "make"}}"#;
    let out = hooks(&args, dir.path(), Some(input));
    assert_eq!(out.status, 2, "{}{}", out.stdout, out.stderr);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let root = std::fs::canonicalize(&plugin).unwrap();
    assert_eq!(doc["reason"], format!("from {}", root.display()));
    let args = ["run", "--dialect", "copilot", "--plugin", "nowhere", "--event", "agentStop"];
    let out = hooks(&args, dir.path(), None);
    assert_eq!(out.status, 1);
    assert!(out.stderr.contains("is not a folder"), "{}", out.stderr);
}
