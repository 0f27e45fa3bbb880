//! What a new user meets first: defaults that find the project, and messages that say what
//! happens.

use std::path::Path;

use crate::support::{Out, hooks, hooks_with_env, repo};

fn error(out: &Out) -> &str {
    assert_eq!(out.status, 1, "stdout: {} stderr: {}", out.stdout, out.stderr);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    out.stderr.trim_end()
}

#[test]
fn check_takes_the_project_from_the_files_own_claude_folder() {
    let out = hooks(&["check", "examples/claude-project/.claude/settings.json"], &repo(), None);
    assert_eq!(out.status, 0, "{}{}", out.stdout, out.stderr);
    assert_eq!(out.stdout, "");
    assert_eq!(out.stderr, "checked 1 file: 0 errors, 0 warnings\n");
    // An explicit --project-dir still decides.
    let out = hooks(
        &["check", "examples/claude-project/.claude/settings.json", "--project-dir", "hooks-cli"],
        &repo(),
        None,
    );
    assert_eq!(out.status, 1);
    assert!(out.stdout.contains("command not found"), "{}", out.stdout);
}

#[test]
fn without_settings_run_list_and_replay_say_so_and_name_the_ancestor() {
    let home = tempfile::tempdir().unwrap();
    let project = repo().join("examples/claude-project");
    let sub = project.join(".claude/hooks");
    let env = [("HOME", home.path())];
    let expected = format!(
        "hooks: no Claude Code settings found in {}; pass --settings or --project-dir (an \
         ancestor, {}, has .claude/)",
        sub.display(),
        project.display()
    );
    for args in [
        &["run", "--event", "Stop"][..],
        &["list", "--event", "PreToolUse"],
        &["replay", "../../session.jsonl"],
    ] {
        let out = hooks_with_env(args, &sub, None, &env);
        assert_eq!(error(&out), expected, "{args:?}");
        assert_eq!(out.stdout, "", "no table of `none` rows");
    }
    // Without any ancestor either, the message says only what to pass.
    let empty = tempfile::tempdir().unwrap();
    let out = hooks_with_env(&["run", "--event", "Stop"], empty.path(), None, &env);
    let dir = std::fs::canonicalize(empty.path()).unwrap();
    assert_eq!(
        error(&out),
        format!(
            "hooks: no Claude Code settings found in {}; pass --settings or --project-dir",
            dir.display()
        )
    );
    // The rule is in the help.
    let help = hooks(&["run", "--help"], &repo(), None);
    assert!(help.stdout.contains("a parent directory's .claude/ is not read"), "{}", help.stdout);
}

#[test]
fn a_directory_is_called_a_directory() {
    let root = repo();
    let out = hooks(&["run", "--event", "Stop", "--settings", "examples"], &root, None);
    assert_eq!(
        error(&out),
        format!(
            "hooks: settings file `{}` is a directory; pass a settings.json (or a project with \
             --project-dir)",
            root.join("examples").display()
        )
    );
    let out = hooks(&["check", "examples"], &root, None);
    assert_eq!(out.status, 1);
    assert_eq!(
        out.stdout,
        "examples: error: no agent's hook files in this folder (.claude/settings.json, \
         .codex/hooks.json, .github/hooks/*.json, .cursor/hooks.json, .gemini/settings.json)\n",
        "a folder is a project: every agent's hook files in it are checked"
    );
    let project = root.join("examples/claude-project");
    let out = hooks(&["run", "--event", "Stop", "--input", ".claude"], &project, None);
    assert_eq!(error(&out), "hooks: `.claude` is a directory, not a regular file");
}

#[test]
fn load_errors_that_stop_the_command_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.json");
    std::fs::write(
        &one,
        r#"{"hooks": {"PreToolUse": [{"matcher": "(ab", "hooks": [{"type": "command", "command": "true"}]}]}}"#,
    )
    .unwrap();
    let out = hooks(&["run", "--event", "Stop", "--settings", "one.json"], dir.path(), None);
    assert_eq!(
        error(&out),
        format!(
            "hooks: {}:1:39: error: invalid matcher pattern `(ab`: unclosed group; no hook was run",
            one.display()
        )
    );
    let two = dir.path().join("two.json");
    std::fs::write(
        &two,
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true", "timeout": -1}, {"type": "command", "shell": "zsh", "command": "true"}]}]}}"#,
    )
    .unwrap();
    let out = hooks(&["run", "--event", "Stop", "--settings", "two.json"], dir.path(), None);
    let text = error(&out);
    assert!(!text.contains("skipped"), "nothing is skipped: nothing runs\n{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with(&format!("hooks: {}:1:", two.display())), "{text}");
    assert_eq!(lines[2], "hooks: 2 errors in the configuration; no hook was run");
    // `hooks check` keeps saying what a harness would skip.
    let out = hooks(&["check", "two.json"], dir.path(), None);
    assert_eq!(out.stdout.matches("this handler is skipped").count(), 2, "{}", out.stdout);
}

#[test]
fn payloads_missing_a_required_field_are_caught_unless_lenient() {
    let project = repo().join("examples/claude-project");
    let partial = r#"{"tool_name": "Bash", "tool_input": {"command": "ls"}}"#;
    let out = hooks(&["run", "--event", "PreToolUse", "--input", "-"], &project, Some(partial));
    assert_eq!(
        error(&out),
        "hooks: PreToolUse: invalid input: `tool_use_id` is missing (--lenient runs an input with \
         missing or mistyped fields anyway)"
    );
    let mistyped = r#"{"tool_name": 7, "tool_input": {}, "tool_use_id": "t"}"#;
    let out = hooks(&["run", "--event", "PreToolUse", "--input", "-"], &project, Some(mistyped));
    assert!(
        error(&out).contains("`tool_name` must be a string, found integer `7`"),
        "{}",
        out.stderr
    );
    let out = hooks(
        &["run", "--event", "PreToolUse", "--lenient", "--input", "-"],
        &project,
        Some(partial),
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
}

#[test]
fn tnsai_event_types_differing_only_in_case_get_a_hint_other_names_are_custom() {
    let root = repo();
    let list = ["--dialect", "tnsai", "--config", "examples/tnsai/hooks.yaml"];
    let run = |event: &str| {
        let mut args = vec!["run", "--event", event];
        args.extend(list);
        hooks(&args, &root, None)
    };
    assert_eq!(
        error(&run("pretooluse")),
        "hooks: unknown TNSAI event type `pretooluse` (event types are case-sensitive: did you \
         mean `PreToolUse`? other names are custom events)"
    );
    let custom = run("DeployFinished");
    assert_eq!(custom.status, 0, "{}", custom.stderr);
}

#[test]
fn verbose_output_uses_the_commands_words() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("s.json"),
        r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "echo '{\"decision\": \"block\", \"reason\": \"no\"}'"}]}]}}"#,
    )
    .unwrap();
    let input = r#"{"tool_name": "Bash", "tool_input": {}, "tool_use_id": "t"}"#;
    let out = hooks(
        &["-v", "run", "--event", "PreToolUse", "--settings", "s.json", "--input", "-"],
        dir.path(),
        Some(input),
    );
    assert_eq!(out.status, 2, "{}", out.stderr);
    assert!(out.stderr.contains("decision=deny"), "{}", out.stderr);
    assert!(!out.stderr.contains("Some("), "{}", out.stderr);
    assert!(out.stderr.contains("name=hook/result"), "{}", out.stderr);
}

#[test]
fn os_errors_read_the_same_everywhere() {
    let root = repo();
    let missing = Path::new("no-such-list.yaml");
    let out = hooks(
        &["run", "--dialect", "tnsai", "--config", missing.to_str().unwrap(), "--event", "Stop"],
        &root,
        None,
    );
    let abs = root.join("no-such-list.yaml");
    assert_eq!(
        error(&out),
        format!(
            "hooks: {}: cannot read the hook list: `{}` does not exist",
            abs.display(),
            abs.display()
        )
    );
    let out = hooks(&["run", "--event", "Stop", "--settings", "no-such.json"], &root, None);
    let abs = root.join("no-such.json");
    assert!(
        error(&out).ends_with(&format!("`{}` does not exist", abs.display())),
        "{}",
        out.stderr
    );
    let out = hooks(&["replay", "no-such.jsonl"], &root, None);
    assert_eq!(error(&out), "hooks: `no-such.jsonl` does not exist");
}
