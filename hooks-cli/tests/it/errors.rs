//! Bad input: one line saying what and where, exit 1, no panic.

use crate::support::{Out, hooks, repo};

fn one_line_error(out: &Out, expected: &str) {
    assert_eq!(out.status, 1, "stdout: {} stderr: {}", out.stdout, out.stderr);
    assert_eq!(out.stderr.trim_end(), expected);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
}

#[test]
fn bad_inputs() {
    let project = repo().join("examples/claude-project");
    let run = |args: &[&str], stdin: Option<&str>| hooks(args, &project, stdin);
    one_line_error(
        &run(&["run", "--event", "Stop", "--input", "missing.json"], None),
        "hooks: `missing.json` does not exist",
    );
    one_line_error(
        &run(&["run", "--event", "Stop", "--input", "-"], Some("{\"a\": }")),
        "hooks: <stdin>:1:7: error: invalid JSON: expected value",
    );
    one_line_error(
        &run(&["run", "--event", "Stop", "--input", "-"], Some("[1, 2]")),
        "hooks: <stdin>:1:1: error: the input must be a JSON object, found array",
    );
    one_line_error(
        &run(&["run", "--event", "stop"], None),
        "hooks: unknown Claude Code event `stop` (event names are case-sensitive: did you mean `Stop`?)",
    );
    one_line_error(
        &run(&["run", "--event", "Bogus"], None),
        "hooks: unknown Claude Code event `Bogus`",
    );
    one_line_error(
        &run(&["run", "--event", "Stop", "--settings", "nope.json"], None),
        &format!("hooks: settings file `{}` does not exist", project.join("nope.json").display()),
    );
    one_line_error(
        &run(
            &[
                "run",
                "--event",
                "Stop",
                "--settings",
                "../../hooks-cli/tests/fixtures/syntax-error.json",
            ],
            None,
        ),
        &format!(
            "hooks: {}:4:20: error: invalid JSON: Unexpected close brace; no hook was run",
            repo().join("hooks-cli/tests/fixtures/syntax-error.json").display()
        ),
    );
    one_line_error(
        &run(&["run", "--dialect", "tnsai", "--event", "PreToolUse"], None),
        "hooks: --dialect tnsai needs --config FILE (a TNSAI hook list)",
    );
}

#[test]
fn usage_errors_exit_1_not_2() {
    let out = hooks(&["frobnicate"], &repo(), None);
    assert_eq!(out.status, 1, "2 means blocked, so usage errors exit 1");
    assert!(out.stderr.contains("unrecognized subcommand"), "{}", out.stderr);
    let out = hooks(&["run"], &repo(), None);
    assert_eq!(out.status, 1);
    let help = hooks(&["--help"], &repo(), None);
    assert_eq!(help.status, 0);
    assert!(help.stdout.contains("replay"));
}
