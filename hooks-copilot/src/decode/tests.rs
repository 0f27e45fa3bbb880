use std::time::Duration;

use hook_protocol::{Decision, Exit, HookStatus, RawOutcome};
use serde_json::json;

use super::*;

fn raw(code: i32, stdout: &str, stderr: &str) -> RawOutcome {
    RawOutcome::new(Exit::Code { code }, stdout.as_bytes(), stderr.as_bytes())
}

fn run(event: EventName, code: i32, stdout: &str, stderr: &str) -> HookOutcome {
    let record = RunRecord {
        source: ".github/hooks/a.json".into(),
        command: "x".into(),
        ..RunRecord::default()
    };
    decode(event, &raw(code, stdout, stderr), Duration::from_secs(30), Form::Copilot, record)
}

fn record(o: &HookOutcome) -> RunRecord {
    o.metadata.as_ref().and_then(|m| m.downcast_ref::<RunRecord>()).cloned().unwrap()
}

#[test]
fn pre_tool_use_answers() {
    let deny = r#"{"permissionDecision":"deny","permissionDecisionReason":"no"}"#;
    let deny = run(EventName::PreToolUse, 0, deny, "");
    assert_eq!(
        (deny.verdict.decision, deny.verdict.reason.as_deref()),
        (Some(Decision::Deny), Some("no"))
    );
    assert!(deny.verdict.end_chain, "the first deny stops the event");
    let allow = r#"{"permissionDecision":"allow","modifiedArgs":{"command":"ls"}}"#;
    let allow = run(EventName::PreToolUse, 0, allow, "");
    assert_eq!(allow.verdict.decision, Some(Decision::Allow));
    assert_eq!(allow.verdict.updated_input, Some(json!({"command": "ls"})));
    let nested =
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#;
    let nested = run(EventName::PreToolUse, 0, nested, "");
    assert_eq!(nested.verdict.decision, None, "Claude Code's nesting is ignored");
    let progress =
        "{\"type\":\"progress\",\"message\":\"scanning\"}\n{\"permissionDecision\":\"ask\"}\n";
    assert_eq!(run(EventName::PreToolUse, 0, progress, "").verdict.decision, Some(Decision::Ask));
    assert_eq!(run(EventName::PreToolUse, 0, "not json", "").verdict.decision, None);
}

#[test]
fn exit_codes_by_copilots_rules() {
    let allow = r#"{"permissionDecision":"allow"}"#;
    let exit2 = run(EventName::PreToolUse, 2, allow, "secret reason");
    assert_eq!(
        (exit2.status, exit2.verdict.reason.as_deref()),
        (HookStatus::Blocked, Some(EXIT_2_REASON))
    );
    let crash = run(EventName::PreToolUse, 3, allow, "boom");
    assert_eq!((crash.status, crash.verdict.decision), (HookStatus::Failed, Some(Decision::Deny)));
    assert_eq!(
        record(&crash).error.as_deref(),
        Some("Hook command failed with code 3\nStderr: boom")
    );
    let elsewhere = run(EventName::PostToolUse, 1, "", "boom");
    assert_eq!((elsewhere.status, elsewhere.verdict.decision), (HookStatus::Failed, None));
    let warning = run(EventName::AgentStop, 2, "", "careful\n");
    assert_eq!(warning.verdict.decision, None);
    assert_eq!(warning.verdict.messages, ["careful"]);
    let permission = run(EventName::PermissionRequest, 2, "", "");
    assert_eq!(permission.verdict.decision, Some(Decision::Deny));
    let deny = br#"{"permissionDecision":"deny"}"#;
    let timed_out = RawOutcome::new(Exit::TimedOut { escalated: false }, &deny[..], &b""[..]);
    let rec = RunRecord { command: "sleep 5".into(), ..RunRecord::default() };
    let t = decode(EventName::PreToolUse, &timed_out, Duration::from_secs(1), Form::Copilot, rec);
    assert_eq!(
        (t.status, t.verdict.decision),
        (HookStatus::TimedOut, None),
        "a timeout fails open"
    );
}

#[test]
fn other_events_answers() {
    let block = r#"{"decision":"block","reason":"secret"}"#;
    let block = run(EventName::UserPromptSubmitted, 0, block, "");
    assert_eq!(block.verdict.decision, Some(Decision::Deny));
    let rewrite = r#"{"modifiedPrompt":"new","additionalContext":"ctx"}"#;
    let rewrite = run(EventName::UserPromptSubmitted, 0, rewrite, "");
    assert_eq!(record(&rewrite).modified_prompt.as_deref(), Some("new"));
    assert_eq!(rewrite.verdict.context, ["ctx"]);
    let stop = r#"{"decision":"block","reason":"run the tests"}"#;
    let stop = run(EventName::AgentStop, 0, stop, "");
    assert_eq!(stop.verdict.reason.as_deref(), Some("run the tests"));
    let result = r#"{"modifiedResult":{"textResultForLlm":"[redacted]","resultType":"success"}}"#;
    let result = run(EventName::PostToolUse, 0, result, "");
    assert_eq!(
        record(&result).modified_result,
        Some(json!({"textResultForLlm": "[redacted]", "resultType": "success"}))
    );
    let interrupt = r#"{"behavior":"deny","message":"no","interrupt":true}"#;
    let interrupt = run(EventName::PermissionRequest, 0, interrupt, "");
    assert!(interrupt.verdict.halt.is_some() && record(&interrupt).interrupt);
}
