//! `hooks check` on broken and clean configurations.

use crate::support::{hooks, repo, snapshots};

#[test]
fn every_problem_at_its_line_and_column() {
    let fixtures = repo().join("hooks-cli/tests/fixtures");
    let out = hooks(
        &["check", "broken-settings.json", "syntax-error.json", "broken-list.yaml"],
        &fixtures,
        None,
    );
    assert_eq!(out.status, 1, "errors exit 1");
    let root = repo().display().to_string();
    snapshots(&[(&root, "[repo]")]).bind(|| insta::assert_snapshot!("check_broken", out.stdout));
    assert!(out.stderr.starts_with("checked 3 files: "), "{}", out.stderr);
    for line in out.stdout.lines() {
        let mut parts = line.splitn(4, ':');
        let (file, l, c) = (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap());
        assert!(file.ends_with(".json") || file.ends_with(".yaml"), "{line}");
        assert!(l.parse::<u32>().is_ok() && c.parse::<u32>().is_ok(), "FILE:LINE:COL: {line}");
        let rest = parts.next().unwrap();
        assert!(rest.starts_with(" error: ") || rest.starts_with(" warning: "), "{line}");
    }
}

#[test]
fn the_shipped_examples_are_clean() {
    let out = hooks(
        &[
            "check",
            "examples/claude-project/.claude/settings.json",
            "examples/tnsai/hooks.yaml",
            "--project-dir",
            "examples/claude-project",
        ],
        &repo(),
        None,
    );
    assert_eq!(out.status, 0, "{}{}", out.stdout, out.stderr);
    assert_eq!(out.stdout, "");
    assert_eq!(out.stderr.trim(), "checked 2 files: 0 errors, 0 warnings");
}

#[test]
fn a_missing_file_is_one_error() {
    let out = hooks(&["check", "no-such-file.json"], &repo(), None);
    assert_eq!(out.status, 1);
    assert_eq!(out.stdout.trim(), "no-such-file.json: error: does not exist");
}

#[test]
fn skills_sub_agents_and_plugin_manifests_are_checked_as_what_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let write = |path: &str, text: &str| {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("skills/fmt/SKILL.md", "---\nname: fmt\nhooks:\n  Stopp: []\n---\n# Formats\n");
    write("agents/reviewer.md", "---\nhooks:\n  Stop:\n    - matcher: [1]\n---\n");
    write(".claude-plugin/plugin.json", r#"{"name": "p", "hooks": "extra.json"}"#);
    let out = hooks(
        &["check", "skills/fmt/SKILL.md", "agents/reviewer.md", ".claude-plugin/plugin.json"],
        dir.path(),
        None,
    );
    assert_eq!(out.status, 1, "{}{}", out.stdout, out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", out.stdout);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("skills/fmt/SKILL.md:3:1: warning: unknown hook event `Stopp`")),
        "{}",
        out.stdout
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("agents/reviewer.md:2:1: error: `matcher` must be a string")),
        "{}",
        out.stdout
    );
    assert!(
        lines.iter().any(|l| l.contains(".claude-plugin/plugin.json:1:")
            && l.contains("error: hook file `extra.json` must be a path starting with `./`")),
        "{}",
        out.stdout
    );
}

#[test]
fn a_plugins_function_hook_modules_are_listed_as_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let hooks_dir = dir.path().join("fmt/hooks");
    std::fs::create_dir_all(&hooks_dir).unwrap();
    let text = r#"{"modules": ["./mods/guard.js"], "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}"#;
    std::fs::write(hooks_dir.join("hooks.json"), text).unwrap();
    let out = hooks(&["check", "fmt/hooks/hooks.json"], dir.path(), None);
    assert_eq!(out.status, 0, "a warning is not an error: {}{}", out.stdout, out.stderr);
    let root = std::fs::canonicalize(dir.path()).unwrap().display().to_string();
    assert_eq!(
        out.stdout.replace(&root, "[dir]"),
        "[dir]/fmt/hooks/hooks.json:1:14: warning: plugin `fmt`: function-hook module `./mods/guard.js` is not run (in-process JavaScript runs only inside Claude Code); the plugin's command hooks still run\n"
    );
    let listed = hooks(&["list", "--event", "Stop", "--plugin", "fmt"], dir.path(), None);
    assert!(listed.stdout.starts_with("true  ("), "the command hook loads: {listed:?}");
}

#[test]
fn a_user_level_hook_under_home_is_found_as_the_shell_finds_it() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("hooks-cli-check-home-{}", std::process::id()));
    let hooks_dir = dir.join("home/.claude/hooks");
    std::fs::create_dir_all(&hooks_dir).unwrap();
    let script = hooks_dir.join("guard.sh");
    std::fs::write(&script, "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let settings = dir.join("settings.json");
    std::fs::write(
        &settings,
        r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "~/.claude/hooks/guard.sh"}]}]}}"#,
    )
    .unwrap();
    let run = |home: &std::path::Path| {
        crate::support::hooks_with_env(&["check", "settings.json"], &dir, None, &[("HOME", home)])
    };
    let found = run(&dir.join("home"));
    assert_eq!(found.status, 0, "{}{}", found.stdout, found.stderr);
    assert_eq!(found.stdout, "");
    let elsewhere = run(&dir);
    assert_eq!(elsewhere.status, 1);
    assert!(
        elsewhere.stdout.contains(&format!(
            "error: command not found: `{}`",
            dir.join(".claude/hooks/guard.sh").display()
        )),
        "{}",
        elsewhere.stdout
    );
}
