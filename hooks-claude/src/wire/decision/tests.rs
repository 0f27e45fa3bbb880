//! Per-event snapshots: the stdin payload of a representative input, and the decision decoded
//! from representative outputs (each alone, then all folded together), with what Claude Code
//! shows for each ([`crate::Presenter::shown`]).

use std::sync::Arc;

use hook_protocol::{BlockDecision, ContextDecision, Dispatcher, Exit, Hook, RawOutcome, Report};
use serde_json::{Value, json};

use super::*;
use crate::samples::payload_of;
use crate::wire::conversion::event_from_payload;
use crate::{EventName, OnFailure};

fn canned(
    event: EventName,
    i: usize,
    (code, stdout, stderr): &(i32, String, String),
) -> Arc<dyn Hook> {
    let raw = RawOutcome::new(Exit::Code { code: *code }, stdout.as_bytes(), stderr.as_bytes());
    let label = format!("./hook-{i}.sh");
    crate::wire::canned::canned(
        event,
        i,
        &label,
        Some(".claude/settings.json"),
        &raw,
        OnFailure::Continue,
    )
}

fn decide<D: FromReport + serde::Serialize>(report: &Report) -> Value {
    serde_json::to_value(D::from_report(report)).unwrap_or(Value::Null)
}

fn decision(event: EventName, report: &Report) -> Value {
    use EventName as E;
    match event {
        E::PreToolUse => decide::<ToolCallDecision>(report),
        E::PermissionRequest => decide::<PermissionRequestDecision>(report),
        E::PermissionDenied => decide::<RetryDecision>(report),
        E::PostToolUse | E::PostToolUseFailure | E::PostToolBatch => {
            decide::<ToolResultDecision>(report)
        }
        E::UserPromptSubmit | E::UserPromptExpansion => decide::<UserPromptDecision>(report),
        E::SessionStart => decide::<SessionStartDecision>(report),
        E::SubagentStart | E::PostModelSwitch => decide::<ContextDecision>(report),
        E::Stop | E::SubagentStop => decide::<StopDecision>(report),
        E::TaskCreated | E::TaskCompleted | E::TeammateIdle | E::ConfigChange | E::PreCompact => {
            decide::<BlockDecision>(report)
        }
        E::CwdChanged | E::FileChanged => decide::<WatchDecision>(report),
        E::WorktreeCreate => decide::<WorktreeCreateDecision>(report),
        E::WorktreeRemove => decide::<WorktreeRemoveDecision>(report),
        E::PreModelSwitch => decide::<ModelSwitchDecision>(report),
        E::Elicitation | E::ElicitationResult => decide::<ElicitationDecision>(report),
        E::MessageDisplay => decide::<MessageDisplayDecision>(report),
        _ => decide::<ObserveDecision>(report),
    }
}

fn specific(event: EventName, fields: Value) -> String {
    let mut obj = json!({"hookEventName": event.as_str()});
    if let (Some(o), Value::Object(f)) = (obj.as_object_mut(), fields) {
        o.extend(f);
    }
    json!({ "hookSpecificOutput": obj }).to_string()
}

fn outputs(event: EventName) -> Vec<(i32, String, String)> {
    use EventName as E;
    let ok = |s: String| (0, s, String::new());
    let exit2 = |e: &str| (2, String::new(), e.to_owned());
    let block = |r: &str| ok(json!({"decision": "block", "reason": r}).to_string());
    let ctx = |text: &str| ok(specific(event, json!({"additionalContext": text})));
    match event {
        E::PreToolUse => vec![
            ok(specific(event, json!({"permissionDecision": "deny", "permissionDecisionReason": "rm -rf is not allowed"}))),
            ok(specific(event, json!({"permissionDecision": "ask", "permissionDecisionReason": "confirm the push"}))),
            ok(specific(event, json!({"permissionDecision": "allow", "updatedInput": {"command": "cargo test --locked"}, "additionalContext": "CI uses --locked"}))),
            exit2("blocked by policy"),
            block("legacy block"),
        ],
        E::PermissionRequest => vec![
            ok(specific(event, json!({"decision": {"behavior": "allow", "updatedPermissions": [{"type": "setMode", "mode": "acceptEdits", "destination": "session"}]}}))),
            ok(specific(event, json!({"decision": {"behavior": "deny", "message": "not on main", "interrupt": true}}))),
        ],
        E::PermissionDenied => vec![ok(specific(event, json!({"retry": true})))],
        E::PostToolUse => vec![
            block("the linter failed"),
            ok(specific(event, json!({"additionalContext": "2 warnings", "updatedToolOutput": {"stdout": "ok (filtered)", "stderr": "", "interrupted": false, "isImage": false}}))),
        ],
        E::PostToolUseFailure => vec![ctx("the test needs a database"), exit2("see the logs")],
        E::PostToolBatch => vec![block("stop here"), ctx("batch done")],
        E::UserPromptSubmit => vec![
            ok(specific(event, json!({"additionalContext": "branch: main", "sessionTitle": "Fix tests"}))),
            ok("plain context\n".to_owned()),
            block("the prompt contains a secret"),
        ],
        E::UserPromptExpansion => vec![ok("expanded context".to_owned()), block("not allowed")],
        E::SessionStart => vec![
            ok(specific(event, json!({"additionalContext": "open issues: 3", "watchPaths": ["/work/project/.env"], "sessionTitle": "Morning"}))),
            ok("plain context".to_owned()),
            exit2("could not reach the tracker"),
        ],
        E::Setup | E::InstructionsLoaded | E::SessionEnd | E::PreSkillShellCommand => vec![ok(json!({"systemMessage": "discarded", "continue": false}).to_string()), exit2("noted")],
        E::MessageDisplay => vec![ok(specific(event, json!({"displayContent": "Done (redacted)."})))],
        E::Notification | E::StopFailure => vec![ok(json!({"systemMessage": "discarded", "terminalSequence": "\u{1b}]9;done\u{7}"}).to_string())],
        E::SubagentStart | E::PostModelSwitch => vec![ctx("use the fast path"), ok("plain".to_owned()), exit2("notice")],
        E::Stop | E::SubagentStop => vec![block("tests still fail"), ctx("remember the changelog"), exit2("lint first")],
        E::TaskCreated | E::ConfigChange | E::PreCompact => vec![block("not now"), exit2("refused"), ok(json!({"continue": false, "stopReason": "halt"}).to_string())],
        E::TaskCompleted | E::TeammateIdle => vec![exit2("tests fail"), ok(json!({"continue": false, "stopReason": "done for today"}).to_string())],
        E::CwdChanged | E::FileChanged => vec![ok(json!({"systemMessage": "watching", "continue": false, "hookSpecificOutput": {"hookEventName": event.as_str(), "watchPaths": ["/work/project/.envrc"]}}).to_string())],
        E::DirectoryAdded | E::PostCompact => vec![ok(json!({"systemMessage": "noted"}).to_string()), exit2("stderr")],
        E::WorktreeCreate => vec![ok("Preparing worktree\n/work/trees/feature-x\n".to_owned()), (1, String::new(), "git failed".to_owned())],
        E::WorktreeRemove => vec![(1, String::new(), "directory busy".to_owned())],
        E::PreModelSwitch => vec![
            ok(specific(event, json!({"permissionDecision": "ask", "permissionDecisionReason": "opus is expensive"}))),
            ok(specific(event, json!({"permissionDecision": "deny", "permissionDecisionReason": "not in CI"}))),
        ],
        E::Elicitation => vec![
            ok(specific(event, json!({"action": "accept", "content": {"repo": "a/b"}}))),
            ok(specific(event, json!({"action": "decline"}))),
        ],
        E::ElicitationResult => vec![block("no")],
    }
}

#[tokio::test]
async fn every_event_payload_decisions_and_shown_texts() {
    let presenter = crate::Presenter::new(std::env::temp_dir().join("hooks-claude-unused-home"));
    for &event in EventName::ALL {
        let payload = payload_of(event);
        let ev = event_from_payload(event.as_str(), payload.clone());
        let outs = outputs(event);
        let mut cases = Vec::new();
        for (i, out) in outs.iter().enumerate() {
            let d = Dispatcher::builder().shared(canned(event, i, out)).build().unwrap();
            let report = d.dispatch(&ev).await;
            let shown = presenter.shown(&report, &payload);
            cases.push(json!({"exit": out.0, "stdout": out.1, "stderr": out.2, "decision": decision(event, &report), "shown": shown}));
        }
        // As the engine folds Claude hooks: one reason, Claude Code's.
        let all = Dispatcher::builder()
            .hooks(outs.iter().enumerate().map(|(i, o)| canned(event, i, o)))
            .reason_rule(hook_protocol::ReasonRule::One)
            .build()
            .unwrap();
        let report = all.dispatch(&ev).await;
        let folded = decision(event, &report);
        let shown = presenter.shown(&report, &payload);
        let snapshot =
            json!({"stdin": payload, "outputs": cases, "all_together": folded, "shown": shown});
        insta::assert_json_snapshot!(event.as_str(), snapshot);
    }
}
