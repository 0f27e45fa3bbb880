//! Through the `hooks` command, for both dialects: credentials scrubbed with `--scrub-secrets`
//! and `--scrub`, fail-closed on every failure path, and the event kept off argv.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

/// The credentials `hooks` gets in its environment, and one ordinary variable.
const VARS: &[(&str, &str)] = &[
    ("GITHUB_TOKEN", "ghp_secret_1"),
    ("OPENAI_API_KEY", "sk_secret_2"),
    ("Aws_Secret", "secret_3"),
    ("DB_PASSWORD", "secret_4"),
    ("DATABASE_URL", "postgres://secret_5"),
    ("HOOKS_IT_ORDINARY", "visible"),
];

/// Runs `hooks run ARGS --format json` in `dir` with `VARS` in its environment.
fn hooks(dir: &Path, args: &[&str]) -> (i32, Value) {
    #[expect(clippy::disallowed_methods, reason = "the tests drive the hooks binary itself")]
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hooks"));
    cmd.arg("run").args(args).args(["--format", "json", "--input", "input.json"]);
    cmd.envs(VARS.iter().copied()).current_dir(dir).stdin(Stdio::null());
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let doc = serde_json::from_str(&stdout)
        .map_err(|e| {
            format!(
                "not one JSON document ({e}): {stdout}\n{}",
                String::from_utf8_lossy(&out.stderr)
            )
        })
        .unwrap();
    (out.status.code().unwrap_or(-1), doc)
}

/// A project holding `hooks/hook.sh` (`body`), a settings file and a hook list running it on
/// PreToolUse, and a Bash event whose command is `command`.
fn project(body: &str, command: &str, on_failure: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::create_dir(p.join("hooks")).unwrap();
    let script = p.join("hooks/hook.sh");
    std::fs::write(&script, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut handler = json!({"type": "command", "command": script.to_str().unwrap(), "timeout": 1});
    let mut policy = "";
    if on_failure {
        handler["onFailure"] = json!("block");
        policy = "    on_failure: block\n";
    }
    let settings = json!({"hooks": {"PreToolUse": [{"hooks": [handler]}]}});
    std::fs::write(p.join("settings.json"), settings.to_string()).unwrap();
    let list = format!(
        "trusted_roots: [./hooks]\nhooks:\n  - id: hook\n    event_type: PreToolUse\n    executable: ./hooks/hook.sh\n    timeout_ms: 1000\n{policy}"
    );
    std::fs::write(p.join("hooks.yaml"), list).unwrap();
    let input =
        json!({"tool_name": "Bash", "tool_use_id": "toolu_1", "tool_input": {"command": command}});
    std::fs::write(p.join("input.json"), input.to_string()).unwrap();
    dir
}

const CLAUDE: &[&str] = &["--settings", "settings.json", "--event", "PreToolUse"];
const TNSAI: &[&str] = &["--dialect", "tnsai", "--config", "hooks.yaml", "--event", "PreToolUse"];
const ALLOW: &str = r#"printf '{"hook_protocol_version": "1", "decision": "allow"}'"#;

fn with<'a>(dialect: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    dialect.iter().chain(extra).copied().collect()
}

#[test]
fn scrub_flags_keep_credentials_from_hooks_in_both_dialects() {
    let dir = project(
        &format!("cat >/dev/null; env > \"$(dirname \"$0\")/../env.txt\"; {ALLOW}"),
        "ls",
        false,
    );
    let p = dir.path();
    let env = || std::fs::read_to_string(p.join("env.txt")).unwrap();
    for dialect in [CLAUDE, TNSAI] {
        let (status, doc) = hooks(p, dialect);
        assert_eq!(status, 0, "{doc}");
        let seen = env();
        for (key, value) in VARS {
            assert!(seen.contains(&format!("{key}={value}\n")), "{key} is inherited by default");
        }

        hooks(p, &with(dialect, &["--scrub-secrets"]));
        let seen = env();
        for (key, value) in &VARS[..4] {
            assert!(!seen.contains(value), "{key} reached the hook:\n{seen}");
        }
        assert!(seen.contains("DATABASE_URL="), "not a credential by name");
        assert!(seen.contains("HOOKS_IT_ORDINARY=visible\n"), "{seen}");

        hooks(p, &with(dialect, &["--scrub", "DATABASE_URL"]));
        let seen = env();
        for (key, value) in &VARS[..5] {
            assert!(!seen.contains(value), "{key} reached the hook:\n{seen}");
        }
        assert!(seen.contains("HOOKS_IT_ORDINARY=visible\n"), "{seen}");
    }
}

#[test]
fn every_failure_path_blocks_when_failing_closed_in_both_dialects() {
    let cases = [
        ("timeout", "cat >/dev/null; sleep 30"),
        ("crash", "cat >/dev/null; kill -SEGV $$"),
        ("exit 1", "cat >/dev/null; exit 1"),
        ("garbage", r#"cat >/dev/null; echo '{"continue": "yes", "hook_protocol_version": 1}'"#),
        (
            "protocol error",
            r#"cat >/dev/null; echo '{"decision": "maybe", "hook_protocol_version": "1"}'"#,
        ),
    ];
    for (name, body) in cases {
        let dir = project(body, "ls", true);
        for (dialect, blocked) in [(CLAUDE, "deny"), (TNSAI, "block")] {
            let (status, doc) = hooks(dir.path(), dialect);
            assert_eq!((status, doc["decision"].as_str()), (2, Some(blocked)), "{name}: {doc}");
        }
        let dir = project(body, "ls", false);
        for (dialect, open) in [(CLAUDE, "none"), (TNSAI, "allow")] {
            let (status, doc) = hooks(dir.path(), dialect);
            assert_eq!((status, doc["decision"].as_str()), (0, Some(open)), "{name} open: {doc}");
        }
    }
    // Spawn failure: an executable whose interpreter does not exist (it passes the TNSAI
    // trust check, and fails when started).
    let dir = project("", "ls", true);
    std::fs::write(dir.path().join("hooks/hook.sh"), "#!/nonexistent/interpreter\n").unwrap();
    for (dialect, blocked) in [(CLAUDE, "deny"), (TNSAI, "block")] {
        let (status, doc) = hooks(dir.path(), dialect);
        assert_eq!((status, doc["decision"].as_str()), (2, Some(blocked)), "spawn: {doc}");
    }
}

#[test]
fn the_event_never_reaches_argv_in_either_dialect() {
    let marker = "secret-marker-51d0";
    let body = format!(
        "cat > \"$(dirname \"$0\")/../stdin.txt\"; tr '\\0' ' ' < /proc/$$/cmdline > \"$(dirname \"$0\")/../argv.txt\"; {ALLOW}"
    );
    let dir = project(&body, &format!("echo {marker}"), false);
    let p = dir.path();
    for dialect in [CLAUDE, TNSAI] {
        let (status, doc) = hooks(p, dialect);
        assert_eq!(status, 0, "{doc}");
        let stdin = std::fs::read_to_string(p.join("stdin.txt")).unwrap();
        let argv = std::fs::read_to_string(p.join("argv.txt")).unwrap();
        assert!(stdin.contains(marker), "the event is on stdin: {stdin}");
        assert!(argv.contains("hook.sh"), "{argv}");
        assert!(!argv.contains(marker), "the event reached argv: {argv}");
    }
}
