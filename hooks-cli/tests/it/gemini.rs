//! `--dialect gemini` on the example project, and a Claude Code config under `.gemini/`.

use crate::support::*;

fn project() -> std::path::PathBuf {
    repo().join("examples/gemini-project")
}

#[test]
fn test_passes_the_example_cases() {
    let out = hooks(&["test", "--dialect", "gemini", "hooks.test.yaml"], &project(), None);
    assert_eq!(out.status, 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.ends_with("5 passed, 0 failed\n"), "{}", out.stdout);
}

#[test]
fn check_finds_a_gemini_settings_file_by_its_place() {
    let out = hooks(&["check", ".gemini/settings.json"], &project(), None);
    assert_eq!(out.status, 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
}

#[test]
fn a_claude_code_config_under_gemini_loads_as_gemini_reads_it() {
    let scratch = test_support::Scratch::new("gemini-claude-config");
    let dir = scratch.path();
    std::fs::create_dir_all(dir.join(".gemini")).unwrap();
    let claude = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 2", "timeout": 5}]}],
        "OnEverything": [{"hooks": [{"type": "command", "command": "true"}]}],
        "AfterTool": [{"hooks": [{"type": "command", "command": "true", "timeout": 5}]}]}}"#;
    std::fs::write(dir.join(".gemini/settings.json"), claude).unwrap();
    let out = hooks(&["check", ".gemini/settings.json"], dir, None);
    assert!(
        out.stdout.contains("unknown Gemini CLI event `PreToolUse` (did you mean `BeforeTool`?"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("Gemini CLI event names are BeforeTool, AfterTool"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("Gemini CLI reads it in milliseconds"), "{}", out.stdout);
    assert!(
        out.stdout.contains("unknown Gemini CLI event `OnEverything` (Gemini CLI event names are"),
        "{}",
        out.stdout
    );
}
