//! The outcome table of docs/claude-code.md#exit-codes-and-output, row by row, and the per-event
//! exceptions.

use std::time::Duration;

use hook_protocol::{Decision, Exit, HookStatus, RawOutcome};

use super::*;

fn ctx(event: EventName) -> DecodeCtx<'static> {
    DecodeCtx::of(event, OnFailure::Continue, Duration::from_secs(5))
}

fn run(event: EventName, code: i32, stdout: &str, stderr: &str) -> Decoded {
    decode(&ctx(event), &RawOutcome::new(Exit::Code { code }, stdout, stderr))
}

const DENY: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json says no"}}"#;
const ALLOW: &str =
    r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#;
const BAD_TYPE: &str = r#"{"continue":"yes"}"#;

#[test]
fn row_valid_json() {
    let d = run(EventName::PreToolUse, 0, DENY, "");
    assert_eq!((d.meta.status, d.verdict.decision), (HookStatus::Success, Some(Decision::Deny)));
    let d = run(EventName::PreToolUse, 2, ALLOW, "stderr reason");
    assert_eq!(d.meta.status, HookStatus::Blocked, "exit 2 wins over a JSON allow");
    assert_eq!(
        (d.verdict.decision, d.verdict.reason.as_deref()),
        (Some(Decision::Deny), Some("stderr reason")),
        "stderr verbatim: Claude Code's tool-error framing is presentation"
    );
    let d = run(EventName::Stop, 2, "", "keep going\n");
    assert_eq!(d.verdict.reason.as_deref(), Some("keep going\n"), "other events: stderr verbatim");
    let d = run(EventName::PreToolUse, 1, DENY, "");
    assert_eq!(
        (d.meta.status, d.verdict.decision),
        (HookStatus::Failed, Some(Decision::Deny)),
        "JSON decides on other exits, and the hook is still a non-blocking error"
    );
}

#[test]
fn row_invalid_json() {
    let d = run(EventName::PreToolUse, 0, BAD_TYPE, "");
    assert_eq!((d.meta.status, d.verdict.decision), (HookStatus::Failed, None));
    assert!(d.failure.as_deref().is_some_and(|f| f.contains("`continue`")), "{:?}", d.failure);
    let d = run(EventName::PreToolUse, 2, BAD_TYPE, "blocked");
    assert_eq!((d.meta.status, d.verdict.decision), (HookStatus::Blocked, Some(Decision::Deny)));
    let d = run(EventName::PreToolUse, 1, BAD_TYPE, "");
    assert_eq!((d.meta.status, d.verdict.decision), (HookStatus::Failed, None));
}

#[test]
fn row_plain_text_or_nothing() {
    let d = run(EventName::PreToolUse, 0, "all good\n", "");
    assert_eq!(
        (d.meta.status, d.verdict.is_empty()),
        (HookStatus::Success, true),
        "plain stdout is not context here"
    );
    let d = run(EventName::PreToolUse, 2, "", "");
    assert_eq!(d.verdict.reason.as_deref(), Some("No stderr output"));
    let d = run(EventName::PreToolUse, 1, "", "first line\nsecond");
    assert_eq!(
        (d.meta.status, d.verdict.decision),
        (HookStatus::Failed, None),
        "exit 1 is not a block"
    );
    assert_eq!(d.failure.as_deref(), Some("Failed with non-blocking status code: first line"));
}

#[test]
fn json_detection() {
    // docs/claude-code.md#json-detection, as recorded: JSON only when, trimmed, stdout starts with
    // `{` and ends with `}`.
    let d = run(EventName::PreToolUse, 0, &format!("\n\n  {DENY}  \n"), "");
    assert_eq!(d.verdict.decision, Some(Decision::Deny), "leading blank lines are fine");
    for text in [format!("log line\n{DENY}"), format!("[{DENY}]")] {
        let d = run(EventName::PreToolUse, 0, &text, "");
        assert_eq!((d.meta.status, d.verdict.decision), (HookStatus::Success, None), "{text}");
    }
    // Starts like an object and does not end like one: plain text, a success, and context
    // where plain stdout is.
    for text in [format!("{DENY}\nlog line"), "{not json".to_owned()] {
        let d = run(EventName::PreToolUse, 0, &text, "");
        assert_eq!((d.meta.status, d.verdict.decision), (HookStatus::Success, None), "{text}");
        assert_eq!(d.failure, None, "{text}");
        let d = run(EventName::SessionStart, 0, &text, "");
        assert_eq!(d.meta.status, HookStatus::Success, "{text}");
        assert_eq!(d.verdict.context, vec![text.clone()], "plain stdout is context here");
    }
    // Braced and does not parse as one object: an error, and nothing read from it.
    for text in [format!("{DENY}\n{DENY}"), "{\"x\": }".to_owned()] {
        for event in [EventName::PreToolUse, EventName::SessionStart] {
            let d = run(event, 0, &text, "");
            assert_eq!((d.meta.status, d.verdict.decision), (HookStatus::Failed, None), "{text}");
            assert!(d.verdict.context.is_empty(), "{event}: not context: {text}");
            let failure = d.failure.as_deref().unwrap_or_default();
            assert!(failure.starts_with("Hook output looks like a JSON object"), "{failure}");
        }
    }
    let d = run(EventName::PreToolUse, 1, "{not json", "oops");
    assert_eq!(d.failure.as_deref(), Some("Failed with non-blocking status code: oops"));
}

#[test]
fn plain_stdout_is_context_on_four_events_only() {
    for event in [
        EventName::UserPromptSubmit,
        EventName::UserPromptExpansion,
        EventName::SessionStart,
        EventName::PostModelSwitch,
    ] {
        let d = run(event, 0, "  remember this \n", "");
        assert_eq!(d.verdict.context, vec!["remember this".to_owned()], "{event}");
    }
    for event in
        [EventName::PreToolUse, EventName::PostToolUse, EventName::Stop, EventName::SubagentStart]
    {
        assert!(run(event, 0, "text", "").verdict.context.is_empty(), "{event}");
    }
}

#[test]
fn exit_2_per_event() {
    let blocking = run(EventName::Stop, 2, "", "keep going");
    assert_eq!(blocking.verdict.decision, Some(Decision::Deny));
    let notice = run(EventName::SessionStart, 2, "", "careful");
    assert_eq!(
        (notice.verdict.is_empty(), notice.meta.message.as_deref()),
        (true, Some("careful")),
        "a notice for the user, kept in the record (not a hook's systemMessage)"
    );
    let ignored = run(EventName::PermissionRequest, 2, "", "ignored");
    assert!(ignored.verdict.is_empty(), "PermissionRequest does not honour exit 2");
    let feedback = run(EventName::PostToolUse, 2, "", "lint failed");
    assert_eq!(feedback.verdict.decision, Some(Decision::Deny));
    let missing = run(EventName::Stop, 2, "", "/bin/sh: 1: ./stop.sh: No such file or directory");
    assert_eq!((missing.meta.status, missing.verdict.decision), (HookStatus::Failed, None));
}

#[test]
fn timeouts_give_no_decision_unless_told() {
    let raw = RawOutcome::new(Exit::TimedOut { escalated: false }, DENY, "");
    let d = decode(&ctx(EventName::PreToolUse), &raw);
    assert_eq!(
        (d.meta.status, d.verdict.decision),
        (HookStatus::TimedOut, None),
        "output of a timed-out hook is discarded"
    );
    let d = decode(&ctx(EventName::PreModelSwitch), &raw);
    assert_eq!(d.verdict.decision, Some(Decision::Deny), "PreModelSwitch timeouts block");
    let mut blocking = ctx(EventName::PreToolUse);
    blocking.on_failure = OnFailure::Block;
    let d = decode(&blocking, &raw);
    assert_eq!(d.verdict.decision, Some(Decision::Deny));
    assert!(d.meta.blocked_on_failure);
    assert_eq!(d.verdict.reason.as_deref(), Some("PreToolUse hook timed out after 5s"));
}

#[test]
fn on_failure_block() {
    let mut blocking = ctx(EventName::PreToolUse);
    blocking.on_failure = OnFailure::Block;
    let d = decode(&blocking, &RawOutcome::new(Exit::Code { code: 1 }, ALLOW, ""));
    assert_eq!(d.verdict.decision, Some(Decision::Deny), "exit 1 with an allowing JSON blocks");
    assert_eq!(d.verdict.reason.as_deref(), Some("exit code 1"), "no stderr: the failure");
    let d = decode(&blocking, &RawOutcome::new(Exit::Code { code: 1 }, "", "disk full\n"));
    assert_eq!(
        (d.verdict.reason.as_deref(), d.meta.blocked_on_failure),
        (Some("disk full\n"), true),
        "the reason is stderr verbatim"
    );
    let d = decode(&blocking, &RawOutcome::new(Exit::Code { code: 0 }, "plain", ""));
    assert_eq!(d.verdict.decision, None, "plain text is not a failure");
    let mut stop = ctx(EventName::Stop);
    stop.on_failure = OnFailure::Block;
    let d = decode(&stop, &RawOutcome::new(Exit::Code { code: 1 }, "", "x"));
    assert_eq!(d.verdict.decision, None, "no effect on Stop");
    let mut perm = ctx(EventName::PermissionRequest);
    perm.on_failure = OnFailure::Block;
    let d = decode(&perm, &RawOutcome::new(Exit::Code { code: 3 }, "", "x"));
    assert_eq!(d.verdict.decision, Some(Decision::Deny), "PermissionRequest denies");
}

#[test]
fn worktree_create_takes_the_last_line() {
    let d = run(EventName::WorktreeCreate, 0, "creating\n\u{1b}[32m/trees/x\u{1b}[0m\n\n", "");
    assert_eq!(worktree_path(&d.meta).as_deref(), Some("/trees/x"));
    let d = run(EventName::WorktreeCreate, 1, "/trees/x", "git failed");
    assert_eq!(d.verdict.decision, Some(Decision::Deny), "any non-zero exit fails creation");
}

#[test]
fn exit_two_on_notice_events_is_no_system_message() {
    let d = run(EventName::SessionEnd, 2, "", "cleanup failed\n");
    assert_eq!(d.meta.status, HookStatus::Blocked);
    assert!(d.verdict.is_empty(), "{:?}", d.verdict);
    assert_eq!(d.meta.message.as_deref(), Some("cleanup failed\n"), "kept in the record");
}

#[test]
fn invalid_utf8_is_read_with_a_warning() {
    let d = run_bytes(EventName::UserPromptSubmit, 0, b"ok \xff\xfe ctx", b"");
    assert_eq!(d.verdict.context, ["ok \u{fffd}\u{fffd} ctx"]);
    assert!(d.warnings.iter().any(|w| w.contains("stdout is not valid UTF-8")), "{:?}", d.warnings);
    let d = run_bytes(EventName::PreToolUse, 2, b"", b"no \xc3");
    assert_eq!(d.verdict.reason.as_deref(), Some("no \u{fffd}"));
    assert!(d.warnings.iter().any(|w| w.contains("stderr is not valid UTF-8")), "{:?}", d.warnings);
}

fn run_bytes(event: EventName, code: i32, stdout: &[u8], stderr: &[u8]) -> Decoded {
    decode(&ctx(event), &RawOutcome::new(Exit::Code { code }, stdout, stderr))
}

#[test]
fn never_panics_on_garbage() {
    for bytes in
        [&b"\xff\xfe{"[..], b"{\"a\": \"\xff\"}", b"{}", b"{\"hookSpecificOutput\": 3}", b"null"]
    {
        for code in [0, 1, 2, 127] {
            let _ = decode(
                &ctx(EventName::PreToolUse),
                &RawOutcome::new(Exit::Code { code }, bytes, bytes),
            );
        }
    }
}

#[test]
fn metadata_built_by_hand_is_the_serialized_record() {
    let mut full = RunRecord::new("PreToolUse", HookStatus::Blocked);
    full.exit_code = Some(2);
    full.output = serde_json::from_str(r#"{"decision":"block","n":[1,2]}"#).ok();
    full.plain_stdout = Some("text".into());
    full.message = Some("why".into());
    full.blocked_on_failure = true;
    full.background = true;
    full.http_status = Some(503);
    for meta in [RunRecord::new("Stop", HookStatus::Success), full] {
        let serialized = serde_json::json!({ "claude": serde_json::to_value(&meta).unwrap() });
        assert_eq!(meta.clone().into_json(), serialized);
        // Key order too (maps compare equal in any order).
        assert_eq!(meta.clone().into_json().to_string(), serialized.to_string());
        // Kept typed, it reads back as itself and serializes as its JSON; kept as JSON, it
        // reads back the same.
        let typed = meta.clone().into_metadata();
        assert_eq!(typed.downcast_ref::<RunRecord>(), Some(&meta));
        assert_eq!(serde_json::to_string(&typed).unwrap(), serialized.to_string());
        assert_eq!(typed, hook_protocol::Metadata::json(serialized.clone()));
        assert_eq!(RunRecord::from_metadata(Some(&typed)), Some(meta.clone()));
        let json = hook_protocol::Metadata::json(serialized);
        assert_eq!(RunRecord::from_metadata(Some(&json)), Some(meta));
    }
}
