//! `hooks run` with the Claude Code dialect: decisions, exit statuses, the JSON document.

use serde_json::Value;

use crate::support::{copy_of, hooks, hooks_with_env, snapshots};

fn run_json(project: &std::path::Path, event: &str, input: &str) -> (i32, Value) {
    let out =
        hooks(&["run", "--event", event, "--input", "-", "--format", "json"], project, Some(input));
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    assert_eq!(out.stdout.lines().count(), 1, "exactly one JSON object: {}", out.stdout);
    (out.status, serde_json::from_str(&out.stdout).unwrap())
}

#[test]
fn exit_status_follows_the_decision() {
    let project = copy_of("examples/claude-project");
    let p = project.path();
    let bash = |cmd: &str| {
        format!(
            r#"{{"tool_name":"Bash","tool_use_id":"toolu_1","tool_input":{{"command":"{cmd}"}}}}"#
        )
    };
    let (status, doc) = run_json(p, "PreToolUse", &bash("ls"));
    assert_eq!((status, doc["decision"].as_str()), (0, Some("none")));
    let (status, doc) = run_json(p, "PreToolUse", &bash("rm -rf /"));
    assert_eq!((status, doc["decision"].as_str()), (2, Some("deny")));
    let (status, doc) = run_json(p, "PreToolUse", &bash("git reset --hard"));
    assert_eq!((status, doc["decision"].as_str()), (3, Some("ask")));
    let (status, doc) = run_json(p, "Stop", r#"{"stop_hook_active": false}"#);
    assert_eq!((status, doc["decision"].as_str()), (2, Some("block")));
    let (status, doc) = run_json(p, "Stop", r#"{"stop_hook_active": true}"#);
    assert_eq!((status, doc["decision"].as_str()), (0, Some("none")));
}

#[test]
fn the_json_document_is_pinned() {
    let project = copy_of("examples/claude-project");
    let input = r#"{"tool_name":"Write","tool_use_id":"toolu_1","tool_input":{"file_path":"config/.env","content":"X=1"}}"#;
    let out = hooks(
        &["run", "--event", "PreToolUse", "--input", "-", "--format", "json"],
        project.path(),
        Some(input),
    );
    assert_eq!(out.status, 2);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    snapshots(&[]).bind(|| {
        insta::assert_snapshot!("run_document_exit2", serde_json::to_string_pretty(&doc).unwrap());
    });
}

#[test]
fn halting_hooks_exit_2_and_say_why() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("settings.json"),
        r#"{"hooks":{"PostToolUse":[{"hooks":[{"type":"command","command":"echo '{\"continue\":false,\"stopReason\":\"budget exhausted\",\"systemMessage\":\"stopping\"}'"}]}]}}"#,
    )
    .unwrap();
    let out = hooks(
        &[
            "run",
            "--settings",
            "settings.json",
            "--event",
            "PostToolUse",
            "--format",
            "json",
            "--input",
            "-",
        ],
        dir.path(),
        Some(r#"{"tool_name":"Bash","tool_use_id":"toolu_1","tool_input":{},"tool_response":{}}"#),
    );
    assert_eq!(out.status, 2, "{}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["continue"], false);
    assert_eq!(doc["stop_reason"], "budget exhausted");
    assert_eq!(doc["system_messages"][0], "stopping");
}

#[test]
fn the_hook_gets_the_input_as_given_plus_the_filled_fields() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("settings.json"),
        r#"{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"cat > got.json"}]}]}}"#,
    )
    .unwrap();
    let input = r#"{"zeta": 1, "prompt": "hi", "alpha": {"b": 2, "a": 1}}"#;
    let out = hooks(
        &["run", "--settings", "settings.json", "--event", "UserPromptSubmit", "--input", "-"],
        dir.path(),
        Some(input),
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    let got = std::fs::read_to_string(dir.path().join("got.json")).unwrap();
    let cwd = dir.path().canonicalize().unwrap();
    assert_eq!(
        got,
        format!(
            "{{\"zeta\":1,\"prompt\":\"hi\",\"alpha\":{{\"b\":2,\"a\":1}},\"hook_event_name\":\"UserPromptSubmit\",\"session_id\":\"hooks-cli\",\"transcript_path\":\"\",\"cwd\":\"{}\"}}\n",
            cwd.display()
        ),
        "one compact line, key order kept, only the missing common fields added"
    );
}

#[test]
fn text_output_for_people() {
    let project = copy_of("examples/claude-project");
    let input =
        r#"{"tool_name":"Bash","tool_use_id":"toolu_1","tool_input":{"command":"rm -rf /"}}"#;
    let out = hooks(&["run", "--event", "PreToolUse", "--input", "-"], project.path(), Some(input));
    assert_eq!(out.status, 2);
    snapshots(&[]).bind(|| insta::assert_snapshot!("run_text_deny", out.stdout));
}

#[test]
fn verbose_shows_each_hook_as_it_happens() {
    let project = copy_of("examples/claude-project");
    let input = r#"{"tool_name":"Bash","tool_use_id":"toolu_1","tool_input":{"command":"ls"}}"#;
    let out = hooks(
        &["--verbose", "run", "--event", "PreToolUse", "--input", "-"],
        project.path(),
        Some(input),
    );
    assert_eq!(out.status, 0);
    let started = out.stderr.find("hook/started").expect("a started event");
    let invoked = out.stderr.find("hook/invoked").expect("an invoked event");
    let result = out.stderr.find("hook/result").expect("a result event");
    assert!(started < invoked && invoked < result, "{}", out.stderr);
    assert!(out.stderr.contains("block-destructive.sh"), "{}", out.stderr);
}

#[test]
fn claude_code_shell_prefix_wraps_shell_form_hooks() {
    let dir = tempfile::tempdir().unwrap();
    let wrapper = dir.path().join("wrap.sh");
    std::fs::write(&wrapper, "#!/bin/sh\necho \"wrapped: $1\" >&2\nexec /bin/sh -c \"$1\"\n")
        .unwrap();
    std::fs::set_permissions(&wrapper, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .unwrap();
    std::fs::write(
        dir.path().join("settings.json"),
        r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo 'no stopping' >&2; exit 2"}]}]}}"#,
    )
    .unwrap();
    std::fs::write(dir.path().join("input.json"), r#"{"stop_hook_active":false}"#).unwrap();
    #[expect(clippy::disallowed_methods, reason = "the test drives the hooks binary itself")]
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hooks"))
        .args(["run", "--settings", "settings.json", "--event", "Stop", "--format", "json"])
        .args(["--input", "input.json"])
        .env("CLAUDE_CODE_SHELL_PREFIX", &wrapper)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    // The wrapper got the command as one argument, quotes kept, and ran it.
    assert_eq!(doc["reason"], "wrapped: echo 'no stopping' >&2; exit 2\nno stopping\n", "{doc:#}");
}

#[test]
fn a_plugin_whose_hooks_are_inline_in_its_manifest_runs_them() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = dir.path().join("guard");
    std::fs::create_dir_all(plugin.join(".claude-plugin")).unwrap();
    std::fs::write(
        plugin.join(".claude-plugin/plugin.json"),
        r#"{"name": "guard", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo \"keep going ($CLAUDE_PLUGIN_ROOT)\" >&2; exit 2"}]}]}}"#,
    )
    .unwrap();
    let out = hooks(
        &["run", "--plugin", "guard", "--event", "Stop", "--format", "json", "--input", "-"],
        dir.path(),
        Some(r#"{"stop_hook_active":false}"#),
    );
    assert_eq!(out.status, 2, "{}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["decision"], "block");
    // `--plugin guard` was relative; the hook sees the absolute root.
    assert_eq!(doc["reason"], format!("keep going ({})\n", plugin.display()));
}

#[test]
fn skills_and_sub_agents_given_on_the_command_line_bring_their_frontmatter_hooks() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("skills/guard")).unwrap();
    std::fs::write(
        dir.path().join("skills/guard/SKILL.md"),
        "---\nname: guard\ndescription: Guards\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: echo 'skill says no' >&2; exit 2\n---\n# Guard\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.path().join("agents")).unwrap();
    std::fs::write(
        dir.path().join("agents/reviewer.md"),
        "---\ndescription: Reviews\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: echo 'reviewer not done' >&2; exit 2\n---\nReview.\n",
    )
    .unwrap();
    let run = |args: &[&str], input: &str| {
        let mut all = vec!["run", "--format", "json", "--input", "-"];
        all.extend_from_slice(args);
        let out = hooks(&all, dir.path(), Some(input));
        let doc: Value = serde_json::from_str(&out.stdout).unwrap_or(Value::Null);
        (out.status, doc, out.stderr)
    };
    let (status, doc, stderr) = run(
        &["--skill", "skills/guard/SKILL.md", "--event", "Stop"],
        r#"{"stop_hook_active":false}"#,
    );
    assert_eq!(status, 2, "{stderr}");
    assert_eq!(doc["reason"], "skill says no\n");

    // The sub-agent's Stop is its SubagentStop, and runs for that sub-agent only.
    let input = |agent: &str| {
        format!(
            r#"{{"stop_hook_active":false,"agent_id":"a1","agent_type":"{agent}","agent_transcript_path":""}}"#
        )
    };
    let (status, doc, stderr) =
        run(&["--agent", "agents/reviewer.md", "--event", "SubagentStop"], &input("reviewer"));
    assert_eq!(status, 2, "{stderr}");
    assert_eq!(doc["reason"], "reviewer not done\n");
    let (status, doc, _) =
        run(&["--agent", "agents/reviewer.md", "--event", "SubagentStop"], &input("other"));
    assert_eq!((status, doc["decision"].as_str()), (0, Some("none")));

    let (status, _, stderr) = run(&["--skill", "nope.md", "--event", "Stop"], "{}");
    assert_eq!(status, 1);
    let said = format!("skill file `{}` does not exist", dir.path().join("nope.md").display());
    assert!(stderr.contains(&said), "{stderr}");
}

/// A SessionStart hook written as Anthropic's plugin guide shows (`set -u`, then `>>` to the
/// file) works under `hooks run`: `CLAUDE_ENV_FILE` is set where Claude Code sets it.
#[test]
fn session_start_hooks_get_their_claude_env_file() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("claude-home");
    std::fs::write(
        dir.path().join("settings.json"),
        r#"{"hooks":{"SessionStart":[{"hooks":[
            {"type":"command","command":"set -u; echo 'export FROM_HOOK=1' >> \"$CLAUDE_ENV_FILE\"; echo started"},
            {"type":"command","command":"set -u; echo \"second: $CLAUDE_ENV_FILE\""}
        ]}]}}"#,
    )
    .unwrap();
    let out = hooks(
        &[
            "run",
            "--settings",
            "settings.json",
            "--claude-home",
            home.to_str().unwrap(),
            "--event",
            "SessionStart",
            "--input",
            "-",
            "--format",
            "json",
        ],
        dir.path(),
        Some(r#"{"session_id":"env-demo","source":"startup"}"#),
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let folder = home.join("session-env/env-demo");
    assert_eq!(
        std::fs::read_to_string(folder.join("sessionstart-hook-0.sh")).unwrap(),
        "export FROM_HOOK=1\n"
    );
    let context: Vec<&str> =
        doc["additional_context"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
    let second = format!("second: {}", folder.join("sessionstart-hook-1.sh").display());
    assert_eq!(context, ["started", second.as_str()], "no `unbound variable`: {}", out.stdout);
}

#[test]
fn always_shell_runs_plain_commands_through_sh() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("parent.sh");
    std::fs::write(&script, "#!/bin/sh\ncat > /dev/null\ncat /proc/$PPID/comm > parent\n").unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let settings = serde_json::json!({"hooks": {"UserPromptSubmit": [{"hooks": [
        {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/parent.sh"}
    ]}]}});
    std::fs::write(dir.path().join("settings.json"), settings.to_string()).unwrap();
    let parent = |flag: Option<&str>, env: &[(&str, &std::path::Path)]| {
        let mut args = vec!["run", "--settings", "settings.json", "--event", "UserPromptSubmit"];
        args.extend(["--input", "-"]);
        args.extend(flag);
        let out = hooks_with_env(&args, dir.path(), Some(r#"{"prompt":"p"}"#), env);
        assert_eq!(out.status, 0, "{}", out.stderr);
        std::fs::read_to_string(dir.path().join("parent")).unwrap().trim().to_owned()
    };
    // Plain words run without the shell: the hook's parent is `hooks` itself.
    assert_eq!(parent(None, &[]), "hooks");
    assert_eq!(parent(Some("--always-shell"), &[]), "sh");
    assert_eq!(parent(None, &[("HOOKS_ALWAYS_SHELL", std::path::Path::new("1"))]), "sh");
    assert_eq!(parent(None, &[("HOOKS_ALWAYS_SHELL", std::path::Path::new("0"))]), "hooks");
}

#[test]
fn async_hooks_start_and_their_results_come_within_the_wait() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    // A background hook that leaves a marker and says something; one that outlives the wait
    // (its marker would come after 3 s); and a foreground one that decides.
    let settings = r#"{"hooks":{"PostToolUse":[{"hooks":[
        {"type":"command","command":"cat >/dev/null; touch marker; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"lint: clean\"}}'","async":true},
        {"type":"command","command":"cat >/dev/null; sleep 3; touch late-marker","async":true},
        {"type":"command","command":"cat >/dev/null; echo '{\"decision\":\"block\",\"reason\":\"fix it\"}'"}
    ]}]}}"#;
    std::fs::write(p.join("settings.json"), settings).unwrap();
    let input = r#"{"tool_name":"Bash","tool_use_id":"t","tool_input":{},"tool_response":{}}"#;
    let started = std::time::Instant::now();
    let out = hooks(
        &[
            "run",
            "--event",
            "PostToolUse",
            "--settings",
            "settings.json",
            "--input",
            "-",
            "--format",
            "json",
            "--async-wait",
            "1",
        ],
        p,
        Some(input),
    );
    let took = started.elapsed();
    assert_eq!(out.status, 2, "the foreground hook's block decides: {}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["decision"], "block");
    assert_eq!(doc["reason"], "fix it", "background hooks never change the decision");
    let late = doc["async_results"].as_array().unwrap();
    assert_eq!(late.len(), 1, "{doc}");
    assert!(late[0]["command"].as_str().unwrap().contains("touch marker"));
    assert_eq!(late[0]["shown"]["model"][0]["text"], "lint: clean");
    assert!(p.join("marker").exists(), "the background hook ran");
    assert!(
        out.stderr.contains("background hook `cat >/dev/null; sleep 3; touch late-marker` still ran after --async-wait 1s; it was ended"),
        "{}",
        out.stderr
    );
    assert!(took < std::time::Duration::from_millis(2900), "ended at the wait: {took:?}");
    std::thread::sleep(std::time::Duration::from_millis(3000));
    assert!(!p.join("late-marker").exists(), "the one that outlived the wait was killed");
}

#[test]
fn relative_path_options_reach_hooks_as_absolute_paths() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let plugin = root.join("plug/hooks");
    std::fs::create_dir_all(&plugin).unwrap();
    std::fs::create_dir_all(root.join("proj/.claude")).unwrap();
    // Every path a hook is given, printed as context, from a hook that runs elsewhere.
    let print =
        r#"cat >/dev/null; cd /; echo "$CLAUDE_PROJECT_DIR|$CLAUDE_ENV_FILE|$CLAUDE_PLUGIN_ROOT""#;
    let hooks_json = serde_json::json!({"hooks": {"SessionStart": [{"hooks": [
        {"type": "command", "command": print}
    ]}]}});
    std::fs::write(plugin.join("hooks.json"), hooks_json.to_string()).unwrap();
    let out = hooks(
        &[
            "run",
            "--event",
            "SessionStart",
            "--plugin",
            "plug",
            "--project-dir",
            "proj",
            "--claude-home",
            "home",
            "--input",
            "-",
            "--format",
            "json",
        ],
        &root,
        Some(r#"{"session_id": "abs-1", "source": "startup"}"#),
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let context = doc["additional_context"][0].as_str().unwrap();
    let parts: Vec<&str> = context.split('|').collect();
    assert_eq!(parts[0], root.join("proj").display().to_string(), "{context}");
    assert!(parts[1].starts_with(&root.join("home/session-env/abs-1/").display().to_string()));
    assert_eq!(parts[2], root.join("plug").display().to_string());
    assert!(parts.iter().all(|p| p.starts_with('/')), "{context}");
}
