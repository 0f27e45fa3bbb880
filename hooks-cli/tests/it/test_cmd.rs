//! `hooks test`: the example project's own cases, failures with diffs, `--update`, and bad case
//! files reported at their line and column.

use crate::support::{copy_of, hooks, repo};

#[test]
fn the_example_projects_cases_pass() {
    let out = hooks(&["test", "examples/claude-project/hooks.test.yaml"], &repo(), None);
    assert_eq!(out.status, 0, "{}{}", out.stdout, out.stderr);
    assert_eq!(
        out.stdout.lines().filter(|l| l.starts_with("ok    ")).count(),
        10,
        "{}",
        out.stdout
    );
    assert_eq!(out.stdout.lines().last(), Some("10 passed, 0 failed"));
}

#[test]
fn a_failing_case_shows_a_diff_and_exits_1_and_update_fixes_it() {
    let project = copy_of("examples/claude-project");
    let cases = project.path().join("t.yaml");
    std::fs::write(
        &cases,
        "# my cases\ncases:\n  - name: rm is refused\n    event: PreToolUse\n    input: {tool_name: Bash, tool_use_id: t, tool_input: {command: rm -rf /}}\n    expect:\n      decision: allow  # wrong on purpose\n      reason: nothing like it\n\n  - name: ls passes\n    event: PreToolUse\n    input: {tool_name: Bash, tool_use_id: t, tool_input: {command: ls}}\n",
    )
    .unwrap();
    let out = hooks(&["test", "t.yaml"], project.path(), None);
    assert_eq!(out.status, 1, "{}{}", out.stdout, out.stderr);
    assert_eq!(
        out.stdout,
        "FAIL  rm is refused\n      decision\n        - allow\n        + deny\n      reason does not contain \"nothing like it\"\n        + Refusing a recursive delete of the root or home directory: rm -rf /\nok    ls passes\n1 passed, 1 failed\n"
    );

    let out = hooks(&["test", "t.yaml", "--update"], project.path(), None);
    assert_eq!(
        (out.status, out.stdout.as_str()),
        (0, "updated 2 cases in t.yaml\n"),
        "{}",
        out.stderr
    );
    let text = std::fs::read_to_string(&cases).unwrap();
    assert!(text.starts_with("# my cases\ncases:\n  - name: rm is refused\n"), "{text}");
    assert!(text.contains("      decision: deny\n"), "{text}");
    assert!(text.contains("\n\n  - name: ls passes\n"), "the blank line stays\n{text}");
    assert!(text.contains("PreToolUse:Bash hook error: Refusing"), "shown is written\n{text}");
    let out = hooks(&["test", "t.yaml"], project.path(), None);
    assert_eq!(out.status, 0, "{}", out.stdout);
    assert!(out.stdout.ends_with("2 passed, 0 failed\n"), "{}", out.stdout);
}

#[test]
fn json_case_files_work_too() {
    let project = copy_of("examples/claude-project");
    std::fs::write(
        project.path().join("t.json"),
        r#"{"cases": [{"name": "stop", "event": "Stop", "input": {"stop_hook_active": true}}]}"#,
    )
    .unwrap();
    let out = hooks(&["test", "t.json", "--update"], project.path(), None);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(project.path().join("t.json")).unwrap())
            .unwrap();
    assert_eq!(doc["cases"][0]["expect"]["decision"], "none");
    let out = hooks(&["test", "t.json"], project.path(), None);
    assert_eq!((out.status, out.stdout.as_str()), (0, "ok    stop\n1 passed, 0 failed\n"));
}

#[test]
fn bad_case_files_name_the_file_line_and_column() {
    let project = copy_of("examples/claude-project");
    let run = |text: &str| {
        std::fs::write(project.path().join("bad.yaml"), text).unwrap();
        let out = hooks(&["test", "bad.yaml"], project.path(), None);
        assert_eq!(out.status, 1, "{}", out.stdout);
        assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
        out.stderr.trim_end().to_owned()
    };
    assert_eq!(
        run("cases:\n  - event: Stop\n    expct: {}\n"),
        "hooks: bad.yaml:3:5: error: unknown field `expct`, expected one of name, event, input, expect"
    );
    assert_eq!(run("cases:\n  - name: x\n"), "hooks: bad.yaml:2:5: error: missing field `event`");
    assert_eq!(run("cases: [\n"), "hooks: bad.yaml:1:8: error: unclosed bracket '['");
    assert_eq!(
        run("cases:\n  - event: Stop\n    expect: {decision: maybe}\n"),
        "hooks: bad.yaml:3:24: error: `decision` must be one of allow, ask, defer, deny, block, none, got `maybe`"
    );
    let out = hooks(&["test", "missing.yaml"], project.path(), None);
    assert_eq!((out.status, out.stderr.trim_end()), (1, "hooks: `missing.yaml` does not exist"));
    // A case whose input does not fit its event fails, naming where it is.
    std::fs::write(project.path().join("input.yaml"), "cases:\n  - event: Stop\n    input: {}\n")
        .unwrap();
    let out = hooks(&["test", "input.yaml"], project.path(), None);
    assert_eq!(out.status, 1);
    assert!(
        out.stdout.contains("input.yaml:2: Stop: invalid input: `stop_hook_active` is missing"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.ends_with("0 passed, 1 failed\n"), "{}", out.stdout);
}
