//! The table of every text Claude Code shows the model and the user (recorded on the release
//! the templates follow), row by row, with exact strings.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use hook_protocol::{Dispatcher, Exit, Hook, HookStatus, RawOutcome, Report, Source};
use serde_json::{Map, Value, json};

use super::templates::{self as t, PERMISSION_RETRY, STOP_WRAPPER};
use super::*;
use crate::samples::payload_of;
use crate::wire::conversion::event_from_payload;
use hook_protocol::FromReport;

use crate::{EventName, OnFailure, StopDecision, StopGuard};

/// One hook's run: its command, exit code, stdout, stderr and `onFailure`.
#[derive(Clone)]
struct Run {
    cmd: &'static str,
    code: i32,
    stdout: String,
    stderr: String,
    on_failure: OnFailure,
}

fn out(cmd: &'static str, stdout: impl Into<String>) -> Run {
    Run {
        cmd,
        code: 0,
        stdout: stdout.into(),
        stderr: String::new(),
        on_failure: OnFailure::Continue,
    }
}

fn exit2(cmd: &'static str, stderr: impl Into<String>) -> Run {
    Run {
        cmd,
        code: 2,
        stdout: String::new(),
        stderr: stderr.into(),
        on_failure: OnFailure::Continue,
    }
}

fn specific(event: EventName, fields: Value) -> String {
    let mut obj = json!({"hookEventName": event.as_str()});
    if let (Some(o), Value::Object(f)) = (obj.as_object_mut(), fields) {
        o.extend(f);
    }
    json!({ "hookSpecificOutput": obj }).to_string()
}

fn canned(event: EventName, i: usize, run: &Run) -> Arc<dyn Hook> {
    let raw = RawOutcome::new(
        Exit::Code { code: run.code },
        run.stdout.as_bytes(),
        run.stderr.as_bytes(),
    );
    crate::wire::canned::canned(event, i, run.cmd, None, &raw, run.on_failure)
}

fn home(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("hooks-claude-present-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

async fn report(event: EventName, input: &Map<String, Value>, runs: &[Run]) -> Report {
    let ev = event_from_payload(event.as_str(), input.clone());
    let d = Dispatcher::builder()
        .hooks(runs.iter().enumerate().map(|(i, r)| canned(event, i, r)))
        .build()
        .unwrap();
    d.dispatch(&ev).await
}

/// What Claude Code shows after `runs` answered the sample input of `event`.
async fn shown_in(event: EventName, runs: &[Run], home: &Path) -> Shown {
    let input = payload_of(event);
    Presenter::new(home).shown(&report(event, &input, runs).await, &input)
}

async fn shown(event: EventName, runs: &[Run]) -> Shown {
    shown_in(event, runs, &home("unused")).await
}

fn model(placement: Placement, text: impl Into<String>) -> ModelText {
    ModelText::new(placement, text, false)
}

fn tool_error(text: impl Into<String>) -> ModelText {
    ModelText::new(Placement::ToolResult, text, true)
}

fn deny(reason: &str) -> String {
    specific(
        EventName::PreToolUse,
        json!({"permissionDecision": "deny", "permissionDecisionReason": reason}),
    )
}

fn ctx(event: EventName, text: &str) -> String {
    specific(event, json!({"additionalContext": text}))
}

fn block(reason: &str) -> String {
    json!({"decision": "block", "reason": reason}).to_string()
}

#[tokio::test]
async fn pre_tool_use_blocking_texts() {
    use EventName::PreToolUse as E;
    let s = shown(E, &[out("./guard.sh", deny("rm is not allowed"))]).await;
    assert_eq!(s.model, [tool_error("PreToolUse:Bash hook error: rm is not allowed")]);
    let s = shown(E, &[out("./guard.sh", block("legacy says no"))]).await;
    assert_eq!(s.model, [tool_error("PreToolUse:Bash hook error: legacy says no")]);
    let s =
        shown(E, &[out("./guard.sh", specific(E, json!({"permissionDecision": "deny"})))]).await;
    assert_eq!(s.model, [tool_error("PreToolUse:Bash hook error: Blocked by hook")]);
    let s = shown(E, &[exit2("./guard.sh", "no rm\n")]).await;
    assert_eq!(s.model, [tool_error("PreToolUse:Bash hook error: [./guard.sh]: no rm\n")]);
    let s = shown(E, &[exit2("./guard.sh", "")]).await;
    assert_eq!(s.model, [tool_error("PreToolUse:Bash hook error: [./guard.sh]: No stderr output")]);
    let failing = Run {
        code: 1,
        stderr: "disk full\n".into(),
        on_failure: OnFailure::Block,
        ..out("./guard.sh", "")
    };
    let s = shown(E, &[failing]).await;
    assert_eq!(
        s.model,
        [tool_error(
            "PreToolUse:Bash hook error: [./guard.sh]: failed; blocking because onFailure is \"block\"\ndisk full"
        )]
    );
    let ask = specific(
        E,
        json!({"permissionDecision": "ask", "permissionDecisionReason": "confirm the push"}),
    );
    let s = shown(E, &[out("./ask.sh", ask)]).await;
    assert_eq!(s.model, [tool_error("confirm the push")], "ask, non-interactive: the reason alone");
    let s = shown(E, &[out("./ok.sh", specific(E, json!({"permissionDecision": "allow"})))]).await;
    assert!(s.is_empty(), "{s:?}");
}

#[tokio::test]
async fn one_reason_among_several() {
    use EventName::PreToolUse as E;
    let s = shown(E, &[out("./a.sh", deny("first")), out("./b.sh", deny("second"))]).await;
    assert_eq!(
        s.model,
        [tool_error("PreToolUse:Bash hook error: second")],
        "the last in configuration order"
    );
    let s = shown(E, &[exit2("./a.sh", "exit two"), out("./b.sh", deny("json"))]).await;
    assert_eq!(
        s.model,
        [tool_error("PreToolUse:Bash hook error: json")],
        "the later hook's, whatever form the earlier took"
    );
    let s = shown(E, &[out("./a.sh", deny("json")), exit2("./b.sh", "exit two")]).await;
    assert_eq!(s.model, [tool_error("PreToolUse:Bash hook error: [./b.sh]: exit two")]);
    let ask =
        |r: &str| specific(E, json!({"permissionDecision": "ask", "permissionDecisionReason": r}));
    let s = shown(E, &[out("./a.sh", ask("one")), out("./b.sh", ask("two"))]).await;
    assert_eq!(s.model, [tool_error("one")], "asks: the first");
    let input = payload_of(E);
    let r = report(E, &input, &[out("./a.sh", deny("first")), out("./b.sh", deny("second"))]).await;
    let d = crate::ToolCallDecision::from_report(&r);
    assert_eq!(d.permission, hook_protocol::ToolPermission::Deny { reason: Some("second".into()) });
    assert_eq!(r.merged.reasons.len(), 2, "the core keeps every reason");
}

#[tokio::test]
async fn permission_texts() {
    let deny = specific(
        EventName::PermissionRequest,
        json!({"decision": {"behavior": "deny", "message": "not on main"}}),
    );
    let s = shown(EventName::PermissionRequest, &[out("./p.sh", deny)]).await;
    assert_eq!(s.model, [tool_error("not on main")]);
    let retry = specific(EventName::PermissionDenied, json!({"retry": true}));
    let s = shown(EventName::PermissionDenied, &[out("./r.sh", retry)]).await;
    assert_eq!(s.model, [model(Placement::User, PERMISSION_RETRY)]);
    assert!(
        PERMISSION_RETRY
            .starts_with("<system-reminder>\nThe refusal above is not final for this call: ")
    );
    assert!(
        PERMISSION_RETRY.ends_with("then go on with what they did ask for.\n</system-reminder>")
    );
}

#[tokio::test]
async fn post_tool_use_blocks_and_contexts() {
    for event in [EventName::PostToolUse, EventName::PostToolUseFailure] {
        let e = event.as_str();
        let s = shown(event, &[out("./lint.sh", block("the linter failed"))]).await;
        assert_eq!(
            s.model,
            [model(
                Placement::System,
                format!(
                    "{e}:Bash hook blocking error from command: \"./lint.sh\": the linter failed"
                )
            )]
        );
        let s = shown(event, &[exit2("./lint.sh", "see the logs\n")]).await;
        assert_eq!(
            s.model,
            [model(
                Placement::System,
                format!(
                    "{e}:Bash hook blocking error from command: \"./lint.sh\": [./lint.sh]: see the logs\n"
                )
            )]
        );
        let s = shown(
            event,
            &[out("./c.sh", ctx(event, "2 warnings")), out("./lint.sh", block("failed"))],
        )
        .await;
        assert_eq!(
            s.model,
            [model(
                Placement::System,
                format!(
                    "{e}:Bash hook blocking error from command: \"./lint.sh\": failed\n\n{e}:Bash hook additional context: 2 warnings"
                )
            )],
            "block first, then context, in one message"
        );
        let s = shown(event, &[block_by("./a.sh", "one"), block_by("./b.sh", "two")]).await;
        assert_eq!(s.model.len(), 1);
        assert_eq!(
            s.model[0].text,
            format!(
                "{e}:Bash hook blocking error from command: \"./a.sh\": one\n\n{e}:Bash hook blocking error from command: \"./b.sh\": two"
            ),
            "every block, one paragraph each"
        );
    }
}

fn block_by(cmd: &'static str, reason: &str) -> Run {
    out(cmd, block(reason))
}

#[tokio::test]
async fn prompt_texts() {
    use EventName::UserPromptSubmit as E;
    let s = shown(E, &[exit2("./ups.sh", "secret")]).await;
    assert_eq!(
        (s.model.as_slice(), s.user.as_slice()),
        (&[][..], &["UserPromptSubmit operation blocked by hook:\n[./ups.sh]: secret\n\n\nOriginal prompt: Fix the failing test".to_owned()][..])
    );
    // The stderr's own trailing newline goes: still three newlines in all.
    let s = shown(E, &[exit2("./ups.sh", "secret\n")]).await;
    assert_eq!(
        s.user,
        [
            "UserPromptSubmit operation blocked by hook:\n[./ups.sh]: secret\n\n\nOriginal prompt: Fix the failing test"
        ]
    );
    let s = shown(
        E,
        &[out("./ups.sh", block("the prompt has a secret")), out("./c.sh", ctx(E, "dropped"))],
    )
    .await;
    assert_eq!(
        s.user,
        [
            "UserPromptSubmit operation blocked by hook:\nthe prompt has a secret\n\nOriginal prompt: Fix the failing test"
        ]
    );
    assert!(s.model.is_empty(), "a block drops every context");
    let stop = json!({"continue": false, "stopReason": "quota reached"}).to_string();
    let s = shown(E, &[out("./ups.sh", stop)]).await;
    assert_eq!(s.user, ["Operation stopped by hook: quota reached"]);
    let s =
        shown(E, &[out("./a.sh", "plain context\n"), out("./b.sh", ctx(E, "branch: main"))]).await;
    assert_eq!(
        s.model,
        [model(
            Placement::EnvironmentEnd,
            "UserPromptSubmit hook success: plain context\n\nUserPromptSubmit hook additional context: branch: main"
        )]
    );
    let said = json!({"systemMessage": "remember the style guide"}).to_string();
    let s = shown(E, &[out("./m.sh", said)]).await;
    assert_eq!(
        (s.model.len(), s.user.as_slice()),
        (0, &["UserPromptSubmit says: remember the style guide".to_owned()][..])
    );
}

#[tokio::test]
async fn session_start_and_subagent_start_contexts() {
    use EventName::SessionStart as E;
    let runs = [
        out("./a.sh", ctx(E, "open issues: 3")),
        out("./b.sh", "plain one"),
        out("./c.sh", ctx(E, "on call: ana")),
    ];
    let s = shown(E, &runs).await;
    assert_eq!(
        s.model,
        [model(
            Placement::EnvironmentStart,
            "SessionStart:startup hook success: plain one\n\nSessionStart hook additional context: open issues: 3\non call: ana\n\n"
        )]
    );
    let s = shown(
        EventName::SubagentStart,
        &[out("./s.sh", ctx(EventName::SubagentStart, "use the fast path"))],
    )
    .await;
    assert_eq!(
        s.model,
        [model(
            Placement::EnvironmentStart,
            "SubagentStart hook additional context: use the fast path\n\n"
        )]
    );
    let halt = json!({"continue": false, "stopReason": "no"}).to_string();
    let s = shown(E, &[out("./h.sh", halt)]).await;
    assert!(s.is_empty(), "continue: false has no effect on SessionStart: {s:?}");
}

#[tokio::test]
async fn stop_texts() {
    use EventName::Stop as E;
    let w = STOP_WRAPPER;
    assert!(w.starts_with("<system-reminder>\nThe text below is the output of a hook that the user, their organization or this environment set up."));
    assert!(w.ends_with("It carries no message, answer or approval from the user.\n"));
    let s = shown(E, &[out("./stop.sh", block("tests fail"))]).await;
    assert_eq!(
        s.model,
        [
            model(
                Placement::User,
                format!("{w}Stop hook feedback:\ntests fail\n</system-reminder>")
            ),
            model(
                Placement::System,
                "Stop hook blocking error from command: \"./stop.sh\": tests fail"
            ),
        ]
    );
    let s = shown(E, &[exit2("./stop.sh", "lint first")]).await;
    assert_eq!(
        s.model,
        [model(
            Placement::User,
            format!("{w}Stop hook feedback:\n[./stop.sh]: lint first\n</system-reminder>")
        )]
    );
    let s = shown(E, &[out("./a.sh", block("tests fail")), exit2("./b.sh", "lint first")]).await;
    assert_eq!(
        s.model,
        [
            model(
                Placement::User,
                format!("{w}Stop hook feedback:\ntests fail\n</system-reminder>\n")
            ),
            model(
                Placement::User,
                format!("{w}Stop hook feedback:\n[./b.sh]: lint first\n</system-reminder>")
            ),
            model(
                Placement::System,
                "Stop hook blocking error from command: \"./a.sh\": tests fail"
            ),
        ],
        "one block per hook, a newline after the first, the JSON one's system message"
    );
    let s = shown(E, &[out("./c.sh", ctx(E, "remember the changelog"))]).await;
    assert_eq!(
        s.model,
        [model(
            Placement::User,
            "<system-reminder>\nStop hook additional context: remember the changelog\n</system-reminder>"
        )]
    );
    let s = shown(EventName::SubagentStop, &[out("./s.sh", block("not done"))]).await;
    assert_eq!(
        s.model[1].text,
        "SubagentStop hook blocking error from command: \"./s.sh\": not done"
    );
}

#[tokio::test]
async fn the_stop_guard_ends_the_turn_with_its_notice() {
    let input = payload_of(EventName::Stop);
    let r = report(EventName::Stop, &input, &[out("./stop.sh", block("again"))]).await;
    let mut guard = StopGuard::default();
    let mut decision = StopDecision::from_report(&r);
    for _ in 0..StopGuard::DEFAULT_MAX_BLOCKS {
        let mut d = decision.clone();
        guard.review(&mut d);
        assert!(d.guard_override.is_none());
    }
    guard.review(&mut decision);
    let s = Presenter::new(home("guard")).shown_with(&r, &input, decision.guard_override());
    assert_eq!(
        (s.model.as_slice(), s.user.as_slice()),
        (&[][..], &["A hook blocked the turn from ending 9 consecutive times\u{2014}overriding and ending turn. For Stop/SubagentStop hooks, check stop_hook_active in the input and return success while it's true. Set CLAUDE_CODE_STOP_HOOK_BLOCK_CAP to raise this limit.".to_owned()][..])
    );
    assert!(
        decision.control.messages.is_empty(),
        "the notice is Claude Code's, not a hook's message"
    );
}

#[tokio::test]
async fn compaction_and_session_end_notices() {
    let s = shown(EventName::PreCompact, &[exit2("./pc.sh", "not now")]).await;
    assert_eq!(s.user, ["Compaction blocked by PreCompact hook: [./pc.sh]: not now"]);
    let s = shown(EventName::SessionEnd, &[exit2("./end.sh", "cleanup failed")]).await;
    assert_eq!(
        (s.model.len(), s.user.as_slice()),
        (0, &["SessionEnd hook [./end.sh] failed: cleanup failed".to_owned()][..])
    );
}

#[tokio::test]
async fn tool_contexts_and_messages() {
    use EventName::PreToolUse as E;
    let with_ctx = specific(
        E,
        json!({"permissionDecision": "deny", "permissionDecisionReason": "no", "additionalContext": "use trash"}),
    );
    let said = json!({"systemMessage": "careful"}).to_string();
    let s =
        shown(E, &[out("./a.sh", with_ctx), out("./b.sh", ctx(E, "second")), out("./m.sh", said)])
            .await;
    assert_eq!(
        s.model,
        [
            tool_error("PreToolUse:Bash hook error: no"),
            model(
                Placement::System,
                "PreToolUse:Bash hook additional context: use trash\n\nPreToolUse:Bash hook additional context: second"
            ),
        ],
        "context is delivered with a deny, one paragraph per hook"
    );
    assert_eq!(s.user, ["PreToolUse:Bash says: careful"]);
    let s = shown(
        EventName::PostToolBatch,
        &[out("./b.sh", ctx(EventName::PostToolBatch, "batch done"))],
    )
    .await;
    assert_eq!(
        s.model,
        [model(Placement::System, "PostToolBatch hook additional context: batch done")]
    );
}

#[test]
fn late_async_context_is_a_bare_system_message() {
    let result = crate::AsyncResult {
        hook_id: "h".into(),
        command: "./bg.sh".into(),
        source: Source::new("claude", None),
        event: "PostToolUse".into(),
        session_id: "sess-1".into(),
        cwd: "/work/project".into(),
        status: HookStatus::Success,
        exit_code: Some(0),
        context: vec!["the build finished".into()],
        rewake: None,
        message: None,
        warnings: Vec::new(),
    };
    let s = Presenter::new(home("late")).late(&result);
    assert_eq!(s.model, [model(Placement::System, "the build finished")]);
}

fn saved_path(text: &str) -> PathBuf {
    let at = text.find("Full output saved to: ").unwrap() + "Full output saved to: ".len();
    PathBuf::from(&text[at..at + text[at..].find('\n').unwrap()])
}

#[tokio::test]
async fn long_contexts_are_saved_with_a_preview() {
    use EventName::PostToolUse as E;
    let dir = home("long");
    let exact = "y".repeat(t::CONTEXT_INLINE_MAX);
    let s = shown_in(E, &[out("./c.sh", ctx(E, &exact))], &dir).await;
    assert_eq!(
        s.model[0].text,
        format!("PostToolUse:Bash hook additional context: {exact}"),
        "10,000: inline"
    );
    let long: String = (0..200_000).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
    let s = shown_in(E, &[out("./c.sh", ctx(E, &long))], &dir).await;
    let text = &s.model[0].text;
    let path = saved_path(text);
    assert_eq!(
        *text,
        format!(
            "PostToolUse:Bash hook additional context: <persisted-output>\nOutput too large (195.3KB). Full output saved to: {}\n\nPreview (first 2KB):\n{}\n...\n</persisted-output>",
            path.display(),
            &long[..2000]
        )
    );
    let expected_dir = dir.join("projects/-work-project/sess-1/tool-results");
    assert_eq!(path.parent(), Some(expected_dir.as_path()));
    let name = path.file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with("hook-") && name.ends_with(".txt") && name.len() == "hook-.txt".len() + 32,
        "{name}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), long, "the whole text");
    let lines = "x".repeat(24) + "\n";
    let lined = lines.repeat(500);
    let s = shown_in(E, &[out("./c.sh", ctx(E, &lined))], &dir).await;
    let preview = s.model[0].text.split("Preview (first 2KB):\n").nth(1).unwrap();
    let preview = preview.strip_suffix("\n...\n</persisted-output>").unwrap();
    assert_eq!(preview.len(), 1999, "cut back to the last newline in the second half");
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn long_pre_tool_use_blocking_texts_are_cut() {
    use EventName::PreToolUse as E;
    let dir = home("cut");
    let whole = "w".repeat(51_000);
    let s = shown_in(E, &[out("./g.sh", deny(&whole))], &dir).await;
    assert_eq!(
        s.model,
        [tool_error(format!("PreToolUse:Bash hook error: {whole}"))],
        "51,000: whole"
    );
    let long: String = (0..60_000).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
    let s = shown_in(E, &[out("./g.sh", deny(&long))], &dir).await;
    let text = &s.model[0].text;
    let path = saved_path(text);
    assert_eq!(
        *text,
        format!(
            "PreToolUse:Bash hook error: {}\n\n... [10000 characters truncated] ...\n\n{}\n\n<persisted-output>\nOutput too large (58.6KB). Full output saved to: {}\n\nPreview (first 2KB):\n{}\n...\n</persisted-output>",
            &long[..25_000],
            &long[35_000..],
            path.display(),
            &long[..2000]
        )
    );
    let name = path.file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with("hook-toolu_01-PreToolUse-") && name.ends_with("-blockingError.txt"),
        "{name}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), long);
    assert!(s.model[0].is_error);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn an_unwritable_home_keeps_the_preview_and_says_so() {
    use EventName::PostToolUse as E;
    let long = "z".repeat(12_000);
    let s = shown_in(E, &[out("./c.sh", ctx(E, &long))], Path::new("/proc/no-such-home")).await;
    let text = &s.model[0].text;
    assert!(
        text.starts_with("PostToolUse:Bash hook additional context: <persisted-output>\nOutput too large (11.7KB). The full output could not be saved ("),
        "{}",
        &text[..200]
    );
    assert!(text.ends_with(&format!(
        "only this preview remains.\n\nPreview (first 2KB):\n{}\n...\n</persisted-output>",
        &long[..2000]
    )));
    assert_eq!(s.warnings.len(), 1);
    assert!(s.warnings[0].contains("12000 characters could not be saved"), "{}", s.warnings[0]);
}

#[test]
fn sizes_previews_and_cuts_count_utf16_units() {
    assert_eq!(t::size_kb(200_000), "195.3");
    assert_eq!(t::size_kb(10_496), "10.3", "a tie rounds up, as toFixed does");
    assert_eq!(t::size_kb(10_001), "9.8");
    let emoji = "\u{1F600}".repeat(1500);
    assert_eq!(t::chars(&emoji), 3000);
    assert_eq!(t::preview(&emoji).chars().count(), 1000, "2,000 units: 1,000 emoji");
    let odd = format!("a{emoji}");
    assert_eq!(t::chars(t::preview(&odd)), 1999, "never half a surrogate pair");
    assert_eq!(t::byte_index_from_end("abc", 2), 1);
    assert_eq!(t::byte_index_from_end("abc", 5), 0);
}
