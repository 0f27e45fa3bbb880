//! `hooks list`: which hooks an event would run.

use crate::support::{hooks, repo};

#[test]
fn with_a_subject_after_matching() {
    let project = repo().join("examples/claude-project");
    let out = hooks(&["list", "--event", "PreToolUse", "--subject", "Write"], &project, None);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{}", out.stdout);
    assert!(
        lines[0].starts_with("\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/protect-paths.sh  ("),
        "{}",
        lines[0]
    );
    assert!(lines[0].ends_with(".claude/settings.json)"), "{}", lines[0]);
    let none = hooks(&["list", "--event", "PreToolUse", "--subject", "Read"], &project, None);
    assert_eq!(none.stdout.trim(), "no hook would run for PreToolUse");
}

#[test]
fn without_a_subject_every_hook_with_its_matcher() {
    let project = repo().join("examples/claude-project");
    let out = hooks(&["list", "--event", "PreToolUse"], &project, None);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert_eq!(out.stdout.lines().count(), 2, "{}", out.stdout);
    assert!(
        out.stdout.contains("matcher `Bash`")
            && out.stdout.contains("matcher `Write|Edit|MultiEdit`")
    );
}

#[test]
fn duplicates_are_noted_behind_verbose() {
    let dir = tempfile::tempdir().unwrap();
    let settings = r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}}"#;
    std::fs::write(dir.path().join("a.json"), settings).unwrap();
    std::fs::write(dir.path().join("b.json"), settings).unwrap();
    let args = ["list", "--event", "Stop", "--settings", "a.json", "--settings", "b.json"];
    let quiet = hooks(&args, dir.path(), None);
    assert_eq!(quiet.stdout.lines().count(), 1, "identical handlers run once: {}", quiet.stdout);
    assert!(quiet.stderr.is_empty(), "{}", quiet.stderr);
    let mut verbose_args = vec!["--verbose"];
    verbose_args.extend(args);
    let verbose = hooks(&verbose_args, dir.path(), None);
    let b = dir.path().join("b.json");
    let said = format!("not run: true ({})", b.display());
    assert!(verbose.stderr.contains(&said), "{}", verbose.stderr);
}
