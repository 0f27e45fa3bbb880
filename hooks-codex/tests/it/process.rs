//! The process contract: how Codex starts a hook and what it gives it, and which hooks a tool
//! call matches.

use hooks_codex::EventName;
use serde_json::{Value, json};

use crate::support::*;

#[tokio::test]
async fn a_hook_gets_one_compact_line_without_newline_in_the_session_directory_and_no_added_variables()
 {
    let p = Project::new();
    let saved = p.path().join("stdin.json");
    let env = p.path().join("env.txt");
    let cwd = p.path().join("cwd.txt");
    let hook = p.script(
        "save.sh",
        &format!(
            "cat > '{}'; env > '{}'; pwd > '{}'",
            saved.display(),
            env.display(),
            cwd.display()
        ),
    );
    let engine = p.engine(on("PreToolUse", Some("Bash"), &hook));
    let session_dir = tempfile::tempdir().unwrap();
    let mut input = bash("cargo test");
    input.insert("cwd".into(), json!(session_dir.path().display().to_string()));
    input.insert("model".into(), json!("gpt-5.5"));
    input.insert("turn_id".into(), json!("turn-1"));
    run(&engine, EventName::PreToolUse, input).await;
    let bytes = std::fs::read(&saved).unwrap();
    assert_ne!(bytes.last(), Some(&b'\n'), "no trailing newline");
    assert!(!bytes.windows(2).any(|w| w == b", "), "compact JSON");
    let sent: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(sent["hook_event_name"], "PreToolUse");
    assert_eq!(sent["tool_name"], "Bash");
    assert_eq!(sent["model"], "gpt-5.5");
    assert_eq!(sent["turn_id"], "turn-1");
    let env = std::fs::read_to_string(&env).unwrap();
    for name in ["CLAUDE_PROJECT_DIR", "CODEX_PROJECT_DIR", "CLAUDE_ENV_FILE"] {
        assert!(!env.lines().any(|l| l.starts_with(&format!("{name}="))), "{name} is not set");
    }
    let ran_in = std::fs::read_to_string(&cwd).unwrap();
    let expected = session_dir.path().canonicalize().unwrap();
    assert_eq!(std::path::Path::new(ran_in.trim()).canonicalize().unwrap(), expected);
}

#[tokio::test]
async fn the_command_runs_under_the_login_shell_of_shell() {
    let p = Project::new();
    let out = p.path().join("shell.txt");
    // `$0` of `sh -lc` is the shell itself.
    let hook = format!("cat >/dev/null; echo \"$0\" > '{}'", out.display());
    let engine = p.engine(on("PreToolUse", None, &hook));
    run(&engine, EventName::PreToolUse, bash("ls")).await;
    let shell = std::env::var("SHELL").unwrap_or_else(|_| "/bin/sh".into());
    let ran = std::fs::read_to_string(&out).unwrap();
    assert_eq!(ran.trim().rsplit('/').next(), shell.rsplit('/').next(), "{ran}");
}

#[tokio::test]
async fn matchers_follow_codex_rule_with_apply_patch_matched_by_edit_and_write() {
    let table: [(&str, &str, bool); 11] = [
        ("Bash", "Bash", true),
        ("exec_command", "Bash", false),
        ("Bash|apply_patch", "apply_patch", true),
        ("^Ba.*", "Bash", true),
        ("(?i)^bash$", "Bash", true),
        ("Edit|Write", "apply_patch", true),
        ("Edit", "apply_patch", true),
        ("Write", "apply_patch", true),
        ("Edit", "Bash", false),
        ("mcp__.*", "Bash", false),
        ("*", "apply_patch", true),
    ];
    for (matcher, tool, fires) in table {
        let p = Project::new();
        let engine = p.engine(on("PreToolUse", Some(matcher), "cat >/dev/null"));
        let input = object(json!({"tool_name": tool, "tool_input": {"command": "x"}}));
        let run = run(&engine, EventName::PreToolUse, input).await;
        assert_eq!(!run.report.records.is_empty(), fires, "matcher `{matcher}` on {tool}");
        assert_eq!(run.input["tool_name"], tool, "the hook sees the tool's own name");
    }
}

#[tokio::test]
async fn an_invalid_matcher_skips_its_group_and_says_so() {
    let p = Project::new();
    let hooks = json!({"PreToolUse": [
        {"matcher": "[unclosed", "hooks": [{"type": "command", "command": "echo a"}]},
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "cat >/dev/null"}]}
    ]});
    let config = p.config(hooks);
    assert_eq!(config.entries.len(), 1, "the other group still runs");
    let warning = config.diagnostics[0].to_string();
    assert!(warning.contains("warning: invalid matcher `[unclosed`"), "{warning}");
    assert!(warning.contains(".codex/hooks.json:5:"), "{warning}");
}

#[tokio::test(flavor = "multi_thread")]
async fn two_engines_each_set_their_hooks_containment_and_end_only_their_own() {
    use std::sync::Arc;
    use std::time::Duration;

    use hook_protocol::Mechanism;
    use hooks_codex::{Engine, RunGroup};

    // Each project's hook marks that it started, then waits, deaf to SIGTERM.
    let engine = |p: &Project, group: RunGroup| {
        let mark = p.path().join("started");
        let hook = p.script(
            "wait.sh",
            &format!("trap '' TERM; cat > /dev/null; : > '{}'; sleep 60 & wait", mark.display()),
        );
        let config = p.config(on("PreToolUse", Some("Bash"), &hook));
        Arc::new(Engine::new_in(config, p.path(), None, group).unwrap())
    };
    let (a, b) = (Project::new(), Project::new());
    let first = engine(&a, RunGroup::new().cgroups(false));
    let second = engine(&b, RunGroup::new());
    let fire = |engine: &Arc<Engine>| {
        let engine = Arc::clone(engine);
        tokio::spawn(async move { engine.run_json(EventName::PreToolUse, bash("make")).await })
    };
    let (one, two) = (fire(&first), fire(&second));
    while !(a.path().join("started").exists() && b.path().join("started").exists()) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!((first.running(), second.running()), (1, 1));

    let killer = Arc::clone(&first);
    let killed =
        tokio::task::spawn_blocking(move || killer.kill_running(Duration::from_millis(100)))
            .await
            .unwrap();
    assert_eq!(killed, 1);
    let ended = one.await.unwrap();
    let record = &ended.report.records[0];
    assert!(record.status.is_failure(), "its hook was killed: {record:?}");
    let facts = record.process.clone().unwrap();
    assert_eq!(facts.containment, Mechanism::TreeWalk, "this engine turned cgroups off");
    assert_eq!(second.running(), 1, "the other engine's hook still runs");
    assert!(!two.is_finished());

    let killer = Arc::clone(&second);
    let killed =
        tokio::task::spawn_blocking(move || killer.kill_running(Duration::ZERO)).await.unwrap();
    assert_eq!(killed, 1);
    let ended = two.await.unwrap();
    let facts = ended.report.records[0].process.clone().unwrap();
    assert_eq!(facts.containment, hook_exec::containment().mechanism(), "the process's choice");
}
