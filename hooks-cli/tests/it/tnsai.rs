//! `hooks run --dialect tnsai` on the shipped hook list.

use std::os::unix::fs::PermissionsExt;

use serde_json::Value;

use crate::support::{copy_of, hooks};

fn example() -> crate::support::Copy {
    let dir = copy_of("examples/tnsai");
    // Trust roots refuse group- or world-writable executables; a checkout under a permissive
    // umask could produce one, so set the mode the repository records.
    let script = dir.path().join("hooks/shell-guard.sh");
    std::fs::set_permissions(script, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

fn run(dir: &std::path::Path, input: &str) -> (i32, Value) {
    let out = hooks(
        &[
            "run",
            "--dialect",
            "tnsai",
            "--config",
            "hooks.yaml",
            "--event",
            "PreToolUse",
            "--input",
            input,
            "--format",
            "json",
        ],
        dir,
        None,
    );
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    (out.status, serde_json::from_str(&out.stdout).unwrap())
}

#[test]
fn block_with_severity_exits_2() {
    let dir = example();
    let (status, doc) = run(dir.path(), "rm.json");
    assert_eq!(status, 2);
    assert_eq!(doc["decision"], "block");
    assert_eq!(doc["reason"], "recursive deletes are not allowed");
    assert_eq!(doc["severity"], "CRITICAL");
}

#[test]
fn modify_applies_the_rewritten_input() {
    let dir = example();
    let (status, doc) = run(dir.path(), "push.json");
    assert_eq!(status, 0);
    assert_eq!(doc["decision"], "allow");
    assert_eq!(doc["updated_input"], serde_json::json!({"command": "git push --force-with-lease"}));
    assert!(doc.get("severity").is_none());
}

#[test]
fn a_writable_executable_is_refused_at_load() {
    let dir = example();
    let script = dir.path().join("hooks/shell-guard.sh");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o777)).unwrap();
    let out = hooks(
        &["run", "--dialect", "tnsai", "--config", "hooks.yaml", "--event", "PreToolUse"],
        dir.path(),
        None,
    );
    assert_eq!(out.status, 1);
    assert!(out.stderr.contains("writable by group or others"), "{}", out.stderr);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
}
