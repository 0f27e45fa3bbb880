//! `hooks replay` on the shipped example session.

use crate::support::{copy_of, hooks, json_lines, redact_times};

#[test]
fn the_example_session_as_a_table() {
    let project = copy_of("examples/claude-project");
    let out = hooks(&["replay", "session.jsonl"], project.path(), None);
    assert_eq!(out.status, 0, "{}", out.stderr);
    insta::assert_snapshot!("example_session_table", redact_times(&out.stdout));
}

#[test]
fn the_example_session_as_json_lines() {
    let project = copy_of("examples/claude-project");
    let out = hooks(&["replay", "session.jsonl", "--format", "json"], project.path(), None);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let docs = json_lines(&out.stdout);
    let decisions: Vec<&str> = docs.iter().map(|d| d["decision"].as_str().unwrap()).collect();
    assert_eq!(
        decisions,
        [
            "none", "none", "none", "none", "none", "deny", "ask", "deny", "block", "none",
            "block", "none"
        ]
    );
    assert_eq!(
        docs[0]["additional_context"][0].as_str().unwrap().lines().next(),
        Some(
            "Project: ".to_owned()
                + &project.path().file_name().unwrap().to_string_lossy()
                + ". Git branch: none."
        )
        .as_deref()
    );
    assert_eq!(docs[5]["hooks"][0]["status"], "blocking_error");
    assert_eq!(docs[5]["hooks"][0]["exit_code"], 2);
    assert!(docs[5]["reason"].as_str().unwrap().contains("protected path"));
    assert_eq!(docs[11]["hooks"].as_array().unwrap().len(), 0, "no SessionEnd hook is configured");
}

#[test]
fn a_bad_line_names_the_file_and_line() {
    let project = copy_of("examples/claude-project");
    std::fs::write(
        project.path().join("bad.jsonl"),
        "{\"event\":\"Stop\",\"input\":{}}\n{\"event\": 3}\n",
    )
    .unwrap();
    let out = hooks(&["replay", "bad.jsonl"], project.path(), None);
    assert_eq!(out.status, 1);
    assert_eq!(out.stderr.trim(), "hooks: bad.jsonl:2:2: error: `event` must be a string");
    assert!(out.stdout.is_empty());
}
