use hook_protocol::{Decision, Exit, HookStatus, RawOutcome};
use serde_json::json;

use super::*;

fn ctx(event: EventName, fail_closed: bool) -> Context {
    Context {
        event,
        timeout: Duration::from_secs(60),
        fail_closed,
        completed: true,
        mcp_tool: true,
    }
}

fn run(ctx: Context, code: i32, stdout: &str) -> HookOutcome {
    let raw = RawOutcome::new(Exit::Code { code }, stdout.as_bytes(), &b""[..]);
    decode(ctx, &raw, RunRecord { command: "x".into(), ..RunRecord::default() })
}

#[test]
fn permissions_by_event() {
    let deny =
        r#"{"permission":"deny","user_message":"no curl","agent_message":"use the fetch tool"}"#;
    let d = run(ctx(EventName::BeforeShellExecution, false), 0, deny);
    assert_eq!(
        (d.verdict.decision, d.verdict.reason.as_deref()),
        (Some(Decision::Deny), Some("no curl"))
    );
    assert_eq!(d.verdict.messages, ["no curl"], "user_message is for the user too");
    let ask = r#"{"permission":"ask","user_message":"sure?"}"#;
    assert_eq!(
        run(ctx(EventName::BeforeShellExecution, false), 0, ask).verdict.decision,
        Some(Decision::Ask)
    );
    assert_eq!(
        run(ctx(EventName::PreToolUse, false), 0, ask).verdict.decision,
        None,
        "not enforced"
    );
    assert_eq!(run(ctx(EventName::BeforeReadFile, false), 0, ask).verdict.decision, None);
    let nested = r#"{"hookSpecificOutput":{"permissionDecision":"deny"},"userMessage":"x"}"#;
    assert_eq!(run(ctx(EventName::PreToolUse, false), 0, nested).verdict.decision, None);
    let rewrite = r#"{"permission":"allow","updated_input":{"command":"ls -la"}}"#;
    let r = run(ctx(EventName::PreToolUse, false), 0, rewrite);
    assert_eq!(r.verdict.updated_input, Some(json!({"command": "ls -la"})));
}

#[test]
fn exit_codes_and_fail_closed() {
    let two = run(ctx(EventName::PreToolUse, false), 2, "");
    assert_eq!(
        (two.status, two.verdict.reason.as_deref()),
        (HookStatus::Blocked, Some(EXIT_2_NO_REASON))
    );
    let raw = run(ctx(EventName::PreToolUse, false), 2, r#"{"agent_message":"m"}"#);
    assert_eq!(raw.verdict.reason.as_deref(), Some(r#"{"agent_message":"m"}"#), "not parsed");
    assert_eq!(
        run(ctx(EventName::Stop, false), 2, "x").verdict.decision,
        None,
        "no effect on stop"
    );
    let crash = run(ctx(EventName::PreToolUse, false), 1, "");
    assert_eq!((crash.status, crash.verdict.decision), (HookStatus::Failed, None));
    let garbage = run(ctx(EventName::PreToolUse, false), 0, "not json");
    assert_eq!((garbage.status, garbage.verdict.decision), (HookStatus::Failed, None));
    let empty = run(ctx(EventName::BeforeShellExecution, true), 0, "");
    assert_eq!(empty.verdict.decision, Some(Decision::Deny), "failClosed and no output blocks");
    assert_eq!(run(ctx(EventName::BeforeShellExecution, false), 0, "").verdict.decision, None);
}

#[test]
fn continuations_context_and_prompts() {
    let follow = r#"{"followup_message":"run the tests"}"#;
    assert_eq!(
        run(ctx(EventName::Stop, false), 0, follow).verdict.follow_up.as_deref(),
        Some("run the tests")
    );
    let mut aborted = ctx(EventName::SubagentStop, false);
    aborted.completed = false;
    assert_eq!(run(aborted, 0, follow).verdict.follow_up, None, "only a completed sub-agent");
    assert_eq!(
        run(ctx(EventName::Stop, false), 0, r#"{"followup_message":""}"#).verdict.follow_up,
        None
    );
    let stop = run(
        ctx(EventName::BeforeSubmitPrompt, false),
        0,
        r#"{"continue":false,"user_message":"no secrets"}"#,
    );
    assert_eq!(
        (stop.verdict.decision, stop.verdict.reason.as_deref()),
        (Some(Decision::Deny), Some("no secrets"))
    );
    let start = run(
        ctx(EventName::SessionStart, false),
        0,
        r#"{"additional_context":"ctx","env":{"A":"1"}}"#,
    );
    assert_eq!(start.verdict.context, ["ctx"]);
    let record =
        start.metadata.as_ref().and_then(|m| m.downcast_ref::<RunRecord>()).cloned().unwrap();
    assert_eq!(record.env, [("A".to_owned(), "1".to_owned())]);
}
