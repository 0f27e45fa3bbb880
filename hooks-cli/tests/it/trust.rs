//! `--untrusted` and `--surface`: what each agent loads for a folder it does not trust, and
//! Copilot's cloud agent (docs/cli.md).

use std::path::Path;

use serde_json::{Value, json};

use crate::support::*;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A Copilot project with a repository hook and a user hook, each marking a file when it runs.
fn copilot_project() -> (tempfile::TempDir, tempfile::TempDir) {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let hook = |mark: &str| {
        json!({"version": 1, "hooks": {"sessionEnd": [{"bash": format!("cat > /dev/null; touch {mark}")}]}})
            .to_string()
    };
    write(&project.path().join(".github/hooks/repo.json"), &hook("repo.ran"));
    write(&home.path().join(".copilot/hooks/user.json"), &hook("user.ran"));
    (project, home)
}

#[test]
fn an_untrusted_folder_loads_only_the_user_hooks_copilot_loads_without_trust_folder() {
    let (project, home) = copilot_project();
    let env = [("HOME", home.path())];
    let args = ["run", "--dialect", "copilot", "--event", "sessionEnd", "--input", "-"];
    let mut untrusted = args.to_vec();
    untrusted.push("--untrusted");
    let out = hooks_with_env(&untrusted, project.path(), Some(r#"{"reason": "complete"}"#), &env);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(project.path().join("user.ran").exists(), "the user's hook runs");
    assert!(!project.path().join("repo.ran").exists(), "the repository's does not");
    // Trusted (the default), both run.
    let out = hooks_with_env(&args, project.path(), Some(r#"{"reason": "complete"}"#), &env);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(project.path().join("repo.ran").exists());
}

#[test]
fn an_untrusted_codex_project_layer_is_not_read_even_when_the_config_trusts_it() {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(project.path()).unwrap();
    let hooks = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}});
    write(&root.join(".codex/hooks.json"), &hooks.to_string());
    let config = format!("[projects.\"{}\"]\ntrust_level = \"trusted\"\n", root.display());
    write(&home.path().join(".codex/config.toml"), &config);
    let env = [("HOME", home.path()), ("CODEX_HOME", Path::new(""))];
    // With `-v`, the hooks found are noted (and this one, not yet reviewed, does not run).
    let args = ["-v", "list", "--dialect", "codex", "--event", "Stop"];
    let out = hooks_with_env(&args, &root, None, &env);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(out.stderr.contains(".codex/hooks.json (project)"), "trusted: {}", out.stderr);
    let mut untrusted = args.to_vec();
    untrusted.push("--untrusted");
    let out = hooks_with_env(&untrusted, &root, None, &env);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(!out.stderr.contains(".codex/hooks.json"), "untrusted: {}", out.stderr);
    assert!(out.stderr.contains("config.toml (user)"), "the user's layer still: {}", out.stderr);
}

#[test]
fn an_untrusted_claude_code_folder_runs_no_hook_and_says_why() {
    let project = copy_of("examples/claude-project");
    let input =
        r#"{"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}, "tool_use_id": "t"}"#;
    let args = ["run", "--event", "PreToolUse", "--input", "-", "--untrusted"];
    let out = hooks(&args, project.path(), Some(input));
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(out.stdout.contains("no hook matched"), "{}", out.stdout);
    assert!(out.stderr.contains("the folder is not trusted: no hook runs"), "{}", out.stderr);
}

#[test]
fn copilots_cloud_agent_denies_an_ask_and_runs_bash_entries_of_the_repository_only() {
    let (project, home) = copilot_project();
    let ask =
        r#"{"permissionDecision": "ask", "permissionDecisionReason": "pushes need a person"}"#;
    let file = json!({"version": 1, "hooks": {
        "preToolUse": [{"bash": format!("cat > /dev/null; echo '{ask}'")}],
        "permissionRequest": [{"bash": "true"}],
        "sessionStart": [{"exec": "/bin/true"}],
    }});
    write(&project.path().join(".github/hooks/cloud.json"), &file.to_string());
    let env = [("HOME", home.path())];
    let input = r#"{"toolName": "bash", "toolArgs": {"command": "git push"}}"#;
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
        "--surface",
        "cloud",
    ];
    let out = hooks_with_env(&args, project.path(), Some(input), &env);
    assert_eq!(out.status, 2, "an ask is a deny: {}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["decision"], "deny");
    assert_eq!(
        doc["shown"]["model"][0]["text"],
        "Denied by preToolUse hook (unable to ask user for confirmation): pushes need a person"
    );
    assert!(out.stderr.contains("does not fire `permissionRequest`"), "{}", out.stderr);
    assert!(out.stderr.contains("not `exec`"), "{}", out.stderr);
    // The user's hooks are not there.
    let end = [
        "run",
        "--dialect",
        "copilot",
        "--event",
        "sessionEnd",
        "--input",
        "-",
        "--surface",
        "cloud",
    ];
    let out = hooks_with_env(&end, project.path(), Some(r#"{"reason": "complete"}"#), &env);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(project.path().join("repo.ran").exists());
    assert!(!project.path().join("user.ran").exists(), "no user hooks in the cloud");
    // A dialect without a cloud surface says so.
    let out = hooks(&["run", "--event", "Stop", "--surface", "cloud"], project.path(), None);
    assert_eq!(out.status, 1);
    assert!(out.stderr.contains("--surface cloud is not for --dialect claude"), "{}", out.stderr);
}

/// No variable of ours reaches a hook, whatever its dialect: its environment is its agent's
/// and the harness's (the run's containment mark is a resource limit, not a variable).
#[test]
fn no_variable_of_the_runner_reaches_a_hook_of_any_dialect() {
    let project = tempfile::tempdir().unwrap();
    let root = project.path();
    let dump = |name: &str| format!("env > {}", root.join(name).display());
    let claude = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": dump("claude.env")}]}]}});
    write(&root.join(".claude/settings.json"), &claude.to_string());
    let copilot = json!({"version": 1, "hooks": {"agentStop": [{"bash": dump("copilot.env")}]}});
    write(&root.join(".github/hooks/a.json"), &copilot.to_string());
    let cursor = json!({"version": 1, "hooks": {"stop": [{"command": dump("cursor.env")}]}});
    write(&root.join(".cursor/hooks.json"), &cursor.to_string());
    let codex = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": dump("codex.env")}]}]}});
    write(&root.join("codex.json"), &codex.to_string());
    let runs: [(&str, &str, &[&str]); 4] = [
        ("claude", "Stop", &[]),
        ("copilot", "agentStop", &[]),
        ("cursor", "stop", &[]),
        ("codex", "Stop", &["--settings", "codex.json"]),
    ];
    for (dialect, event, extra) in runs {
        let mut args = vec!["run", "--dialect", dialect, "--event", event, "--lenient"];
        args.extend_from_slice(extra);
        let out = hooks(&args, root, None);
        assert_eq!(out.status, 0, "{dialect}: {}", out.stderr);
        let env = std::fs::read_to_string(root.join(format!("{dialect}.env"))).unwrap();
        assert!(env.lines().any(|l| l.starts_with("PATH=")), "{dialect}: {env}");
        let ours: Vec<&str> = env.lines().filter(|l| l.starts_with("HOOK_PROTOCOL")).collect();
        assert!(ours.is_empty(), "{dialect}: {ours:?}");
    }
}
