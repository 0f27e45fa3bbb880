//! `hooks replay` on the shipped example session.

use crate::support::{copy_of, hooks, hooks_with_env, json_lines, snapshots};

#[test]
fn the_example_session_as_a_table() {
    let project = copy_of("examples/claude-project");
    let out = hooks(&["replay", "session.jsonl"], project.path(), None);
    assert_eq!(out.status, 0, "{}", out.stderr);
    snapshots(&[]).bind(|| insta::assert_snapshot!("example_session_table", out.stdout));
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

/// A recorded session with a Stop cap of 1, a background linter, a skill and an env file:
/// one session across the lines, pinned as JSON.
#[test]
fn a_recorded_session_runs_as_one_session() {
    let project = copy_of("hooks-cli/tests/fixtures/replay-session");
    let cap = [("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", std::path::Path::new("1"))];
    let out = hooks_with_env(
        &["replay", "session.jsonl", "--format", "json"],
        project.path(),
        None,
        &cap,
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    let docs = json_lines(&out.stdout);
    assert_eq!(docs.len(), 9);
    assert_eq!(docs[0]["env_file_exports"], serde_json::json!({"REPLAY_MODE": "demo"}));
    assert_eq!(docs[3]["async_results"][0]["shown"]["model"][0]["text"], "lint: clean");
    assert_eq!(docs[1]["hooks"].as_array().unwrap().len(), 0, "no skill hook before its call");
    assert_eq!(docs[5]["additional_context"][0], "review skill on", "after its call");
    assert_eq!(docs[6]["reason"], "keep going (stop_hook_active: false)");
    assert_eq!(docs[6]["guard"], serde_json::json!({"consecutive_blocks": 1, "overridden": false}));
    assert_eq!(docs[7]["reason"], "keep going (stop_hook_active: true)", "filled by the session");
    assert_eq!(docs[7]["guard"]["overridden"], true);
    assert!(docs[2]["guard"].is_null());
    let pretty: Vec<String> =
        docs.iter().map(|d| serde_json::to_string_pretty(d).unwrap()).collect();
    snapshots(&[]).bind(|| insta::assert_snapshot!("recorded_session_json", pretty.join("\n")));

    let table = hooks_with_env(&["replay", "session.jsonl"], project.path(), None, &cap);
    assert_eq!(table.status, 0, "{}", table.stderr);
    snapshots(&[]).bind(|| insta::assert_snapshot!("recorded_session_table", table.stdout));
}

#[test]
fn a_line_out_of_order_stops_the_replay_before_anything_runs() {
    let project = copy_of("hooks-cli/tests/fixtures/replay-session");
    std::fs::write(
        project.path().join("twice.jsonl"),
        "{\"event\":\"SessionStart\",\"input\":{\"session_id\":\"twice\",\"source\":\"startup\"}}\n\
         {\"event\":\"SessionStart\",\"input\":{\"session_id\":\"twice\",\"source\":\"startup\"}}\n",
    )
    .unwrap();
    let out = hooks(&["replay", "twice.jsonl"], project.path(), None);
    assert_eq!(out.status, 1);
    assert_eq!(
        out.stderr.trim(),
        "hooks: twice.jsonl:2: `SessionStart` with source `startup` while the session runs: end it \
         first (`SessionEnd`); only `compact` starts a running session again"
    );
    assert!(out.stdout.is_empty());
    let env = crate::support::home().join(".claude/session-env/twice");
    assert!(!env.exists(), "the first line did not run either");
    std::fs::write(
        project.path().join("ended.jsonl"),
        "{\"event\":\"Stop\",\"input\":{\"session_id\":\"e\"}}\n\
         {\"event\":\"SessionEnd\",\"input\":{\"reason\":\"other\"}}\n\
         {\"event\":\"Stop\",\"input\":{}}\n",
    )
    .unwrap();
    let out = hooks(&["replay", "ended.jsonl"], project.path(), None);
    assert_eq!(out.status, 1, "a log may begin mid-session, but nothing follows its end");
    assert_eq!(
        out.stderr.trim(),
        "hooks: ended.jsonl:3: `Stop` after the session ended: only a new `SessionStart` can follow `SessionEnd`"
    );
}

#[test]
fn a_log_that_begins_mid_session_runs_as_a_session_already_started() {
    let project = copy_of("hooks-cli/tests/fixtures/replay-session");
    std::fs::write(
        project.path().join("mid.jsonl"),
        "{\"event\":\"PostToolUse\",\"input\":{\"session_id\":\"mid-1\",\"tool_name\":\"Bash\",\"tool_input\":{},\"tool_response\":{},\"tool_use_id\":\"t\"}}\n\
         {\"event\":\"Stop\",\"input\":{}}\n",
    )
    .unwrap();
    let text = hooks(&["replay", "mid.jsonl"], project.path(), None);
    assert_eq!(text.status, 0, "{}", text.stderr);
    let notes: Vec<&str> = text.stdout.lines().filter(|l| l.starts_with("note:")).collect();
    assert_eq!(
        notes,
        ["note: the log begins mid-session (no SessionStart): it ran as a session that had \
          already started, and no SessionStart hooks ran"],
        "said once: {}",
        text.stdout
    );
    let json = hooks(&["replay", "mid.jsonl", "--format", "json"], project.path(), None);
    assert_eq!(json.status, 0, "{}", json.stderr);
    let lines = json_lines(&json.stdout);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["resumed"], true);
    assert!(lines[1].get("resumed").is_none(), "said once: {}", lines[1]);
    assert_eq!(lines[1]["decision"], "block");
    assert_eq!(lines[1]["guard"]["consecutive_blocks"], 1, "the guard runs: {}", lines[1]);
    assert_eq!(
        lines[1]["async_results"][0]["shown"]["model"][0]["text"], "lint: clean",
        "the first row's background hook delivers on the next"
    );
    let env = crate::support::home().join(".claude/session-env/mid-1");
    assert!(!env.exists(), "no SessionStart hook ran, so no env file was made");
}

/// A background hook's result comes once, on the first line after it arrived; one still
/// running when the log ends is killed, as `claude -p` kills it at teardown, not waited for
/// (claude-code.md, Background hooks).
#[test]
fn background_hooks_deliver_once_and_are_killed_at_the_end_of_a_replay() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join(".claude")).unwrap();
    let alive = root.join("ALIVE");
    let settings = serde_json::json!({"hooks": {
        "PostToolUse": [{"hooks": [{"type": "command", "async": true,
            "command": "echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PostToolUse\", \"additionalContext\": \"lint: clean\"}}'"}]}],
        "Stop": [{"hooks": [{"type": "command", "async": true,
            "command": format!("sleep 1; touch '{}'", alive.display())}]}],
    }});
    std::fs::write(root.join(".claude/settings.json"), settings.to_string()).unwrap();
    let common = format!(
        "\"session_id\": \"s\", \"transcript_path\": \"/t\", \"cwd\": \"{}\"",
        root.display()
    );
    let lines = [
        format!(
            "{{\"event\": \"SessionStart\", \"input\": {{{common}, \"source\": \"startup\"}}}}"
        ),
        format!(
            "{{\"event\": \"PostToolUse\", \"input\": {{{common}, \"tool_name\": \"Bash\", \
             \"tool_input\": {{}}, \"tool_response\": {{}}, \"tool_use_id\": \"t1\"}}}}"
        ),
        format!("{{\"event\": \"UserPromptSubmit\", \"input\": {{{common}, \"prompt\": \"a\"}}}}"),
        format!("{{\"event\": \"UserPromptSubmit\", \"input\": {{{common}, \"prompt\": \"b\"}}}}"),
        format!("{{\"event\": \"Stop\", \"input\": {{{common}, \"stop_hook_active\": false}}}}"),
    ];
    std::fs::write(root.join("log.jsonl"), lines.join("\n")).unwrap();
    let out = hooks(&["replay", "log.jsonl", "--format", "json"], root, None);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let docs = json_lines(&out.stdout);
    let results: Vec<usize> =
        docs.iter().map(|d| d["async_results"].as_array().map_or(0, Vec::len)).collect();
    assert_eq!(results, [0, 0, 1, 0, 0], "once, on the line after it arrived");
    assert_eq!(docs[2]["async_results"][0]["shown"]["model"][0]["text"], "lint: clean");
    // The Stop hook was started and then killed with the replay: its file never comes.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(!alive.exists(), "a background hook outlived the replay");
}
