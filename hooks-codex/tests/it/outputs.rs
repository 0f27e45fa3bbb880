//! What each answer of a hook does, event by event, as the recordings of Codex 0.171.0 say.

use hook_protocol::{
    Continuation, Decision, HookStatus, Placement, PostToolDecision, PreToolDecision,
    PromptPermission, PromptSubmitDecision, ToolPermission, TurnEndDecision,
};
use hooks_codex::EventName;
use serde_json::json;

use crate::support::*;

/// One PreToolUse case: what the hook prints and how it exits, then the expected permission,
/// rewrite, status and the tool output Codex gives the model.
struct Case {
    name: &'static str,
    script: &'static str,
    permission: ToolPermission,
    rewrite: Option<serde_json::Value>,
    status: HookStatus,
    output: Option<&'static str>,
}

#[tokio::test]
async fn pre_tool_use_answers_as_codex_reads_them() {
    let deny = |r: &str| ToolPermission::Deny { reason: Some(r.into()) };
    let cases = [
        Case {
            name: "exit 2 blocks with stderr",
            script: "echo 'not here' >&2; exit 2",
            permission: deny("not here"),
            rewrite: None,
            status: HookStatus::Blocked,
            output: Some("Command blocked by PreToolUse hook: not here. Command: rm -rf build"),
        },
        Case {
            name: "exit 2 without stderr blocks nothing",
            script: "exit 2",
            permission: ToolPermission::NoOpinion,
            rewrite: None,
            status: HookStatus::Failed,
            output: None,
        },
        Case {
            name: "a JSON deny with its reason",
            script: r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "  no deletes  "}}'"#,
            permission: deny("no deletes"),
            rewrite: None,
            status: HookStatus::Blocked,
            output: Some("Command blocked by PreToolUse hook: no deletes. Command: rm -rf build"),
        },
        Case {
            name: "the legacy block",
            script: r#"echo '{"decision": "block", "reason": "legacy"}'"#,
            permission: deny("legacy"),
            rewrite: None,
            status: HookStatus::Blocked,
            output: Some("Command blocked by PreToolUse hook: legacy. Command: rm -rf build"),
        },
        Case {
            name: "a deny without a reason is invalid",
            script: r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}'"#,
            permission: ToolPermission::NoOpinion,
            rewrite: None,
            status: HookStatus::Failed,
            output: None,
        },
        Case {
            name: "allow alone is unsupported",
            script: r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}'"#,
            permission: ToolPermission::NoOpinion,
            rewrite: None,
            status: HookStatus::Failed,
            output: None,
        },
        Case {
            name: "ask is unsupported",
            script: r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "sure?"}}'"#,
            permission: ToolPermission::NoOpinion,
            rewrite: None,
            status: HookStatus::Failed,
            output: None,
        },
        Case {
            name: "allow with updatedInput rewrites the call",
            script: r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "rm -rf build.bak"}}}'"#,
            permission: ToolPermission::Allow { reason: None },
            rewrite: Some(json!({"command": "rm -rf build.bak"})),
            status: HookStatus::Success,
            output: None,
        },
        Case {
            name: "continue false is unsupported here",
            script: r#"echo '{"continue": false, "stopReason": "halt"}'"#,
            permission: ToolPermission::NoOpinion,
            rewrite: None,
            status: HookStatus::Failed,
            output: None,
        },
        Case {
            name: "text that looks like JSON is a failure",
            script: "echo '{not json'",
            permission: ToolPermission::NoOpinion,
            rewrite: None,
            status: HookStatus::Failed,
            output: None,
        },
        Case {
            name: "plain text is ignored",
            script: "echo hello",
            permission: ToolPermission::NoOpinion,
            rewrite: None,
            status: HookStatus::Success,
            output: None,
        },
        Case {
            name: "exit 1 is non-blocking",
            script: "echo nope; exit 1",
            permission: ToolPermission::NoOpinion,
            rewrite: None,
            status: HookStatus::Failed,
            output: None,
        },
    ];
    for case in cases {
        let p = Project::new();
        let hook = p.script("hook.sh", &format!("cat >/dev/null\n{}", case.script));
        let engine = p.engine(on("PreToolUse", Some("Bash"), &hook));
        let run = run(&engine, EventName::PreToolUse, bash("rm -rf build")).await;
        let d: PreToolDecision = run.report.decision();
        assert_eq!(d.permission, case.permission, "{}", case.name);
        assert_eq!(d.updated_input, case.rewrite, "{}", case.name);
        assert_eq!(run.report.records[0].status, case.status, "{}", case.name);
        let output = run.shown.tool_result().map(|t| t.text.as_str());
        assert_eq!(output, case.output, "{}", case.name);
    }
}

#[tokio::test]
async fn a_timed_out_pre_tool_use_hook_fails_open() {
    let p = Project::new();
    let hook = p.script("slow.sh", "sleep 30");
    let hooks =
        json!({"PreToolUse": [{"hooks": [{"type": "command", "command": hook, "timeout": 1}]}]});
    let engine = p.engine(hooks);
    let started = std::time::Instant::now();
    let run = run(&engine, EventName::PreToolUse, bash("ls")).await;
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
    assert_eq!(run.report.records[0].status, HookStatus::TimedOut);
    let d: PreToolDecision = run.report.decision();
    assert_eq!(d.permission, ToolPermission::NoOpinion, "the tool runs anyway");
}

#[tokio::test]
async fn context_comes_as_developer_messages_and_system_messages_go_to_the_user() {
    let p = Project::new();
    let hook = p.script(
        "ctx.sh",
        r#"cat >/dev/null; echo '{"systemMessage": "for the user", "hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "the repo uses cargo"}}'"#,
    );
    let engine = p.engine(on("PreToolUse", None, &hook));
    let run = run(&engine, EventName::PreToolUse, bash("ls")).await;
    let model: Vec<(Placement, &str)> =
        run.shown.model.iter().map(|m| (m.placement, m.text.as_str())).collect();
    assert_eq!(model, [(Placement::System, "the repo uses cargo")]);
    assert_eq!(run.shown.user, ["for the user"]);
}

#[tokio::test]
async fn post_tool_use_feedback_replaces_the_tool_output() {
    let cases = [
        (
            r#"echo '{"decision": "block", "reason": "output looked wrong"}'"#,
            Some("output looked wrong"),
        ),
        ("echo 'from stderr' >&2; exit 2", Some("from stderr")),
        (
            r#"echo '{"continue": false, "stopReason": "POST-HALT-REASON"}'"#,
            Some("POST-HALT-REASON"),
        ),
        (r#"echo '{"reason": "no decision"}'"#, None),
        (r#"echo '{"decision": "block"}'"#, None),
    ];
    for (script, expected) in cases {
        let p = Project::new();
        let hook = p.script("post.sh", &format!("cat >/dev/null\n{script}"));
        let engine = p.engine(on("PostToolUse", Some("Bash"), &hook));
        let mut input = bash("ls");
        input.insert("tool_response".into(), json!("SHELL-OUTPUT-TEXT\n"));
        let run = run(&engine, EventName::PostToolUse, input).await;
        let d: PostToolDecision = run.report.decision();
        assert_eq!(d.feedback.as_deref(), expected, "{script}");
        let output = run.shown.tool_result().map(|t| t.text.as_str());
        assert_eq!(output, expected, "{script}: the model gets the feedback, not the output");
        assert!(run.report.merged.halt.is_none(), "{script}: the turn goes on");
    }
}

#[tokio::test]
async fn a_blocked_prompt_is_dropped_and_shown_to_no_one() {
    for script in [
        r#"echo '{"decision": "block", "reason": "secret in prompt"}'"#,
        "echo 'secret in prompt' >&2; exit 2",
        r#"echo '{"continue": false, "stopReason": "secret in prompt"}'"#,
    ] {
        let p = Project::new();
        let hook = p.script("ups.sh", &format!("cat >/dev/null\n{script}"));
        let engine = p.engine(on("UserPromptSubmit", None, &hook));
        let run = run(&engine, EventName::UserPromptSubmit, object(json!({"prompt": "hi"}))).await;
        let d: PromptSubmitDecision = run.report.decision();
        assert!(
            matches!(d.permission, PromptPermission::Block { .. }),
            "{script}: {:?}",
            d.permission
        );
        assert!(run.shown.is_empty(), "{script}: {:?}", run.shown);
    }
}

#[tokio::test]
async fn prompt_and_session_start_context_include_plain_stdout() {
    let p = Project::new();
    let json_ctx = p.script(
        "a.sh",
        r#"cat >/dev/null; echo '{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "from JSON"}}'"#,
    );
    let plain = p.script("b.sh", "cat >/dev/null; echo 'plain words'");
    let hooks = json!({"UserPromptSubmit": [{"hooks": [
        {"type": "command", "command": json_ctx}, {"type": "command", "command": plain}
    ]}], "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": plain}]}]});
    let engine = p.engine(hooks);
    let run = run(&engine, EventName::UserPromptSubmit, object(json!({"prompt": "hi"}))).await;
    let texts: Vec<&str> = run.shown.model.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["from JSON", "plain words"], "two developer messages");
    let start = run_start(&engine, "startup").await;
    assert_eq!(start.shown.model.len(), 1);
    assert_eq!(run_start(&engine, "resume").await.report.records.len(), 0, "matched on source");
}

async fn run_start(engine: &hooks_codex::Engine, source: &str) -> hooks_codex::Run {
    run(engine, EventName::SessionStart, object(json!({"source": source}))).await
}

#[tokio::test]
async fn a_stop_block_continues_the_turn_with_a_hook_prompt_and_no_cap() {
    let p = Project::new();
    let hook = p.script(
        "stop.sh",
        r#"cat >/dev/null; echo '{"decision": "block", "reason": "run the tests"}'"#,
    );
    let engine = p.engine(on("Stop", None, &hook));
    let source = p.path().join(".codex/hooks.json").display().to_string();
    for round in 0..30 {
        let input =
            object(json!({"stop_hook_active": round > 0, "last_assistant_message": "done"}));
        let run = run(&engine, EventName::Stop, input).await;
        let d: TurnEndDecision = run.report.decision();
        assert_eq!(d.continuation, Continuation::Continue { reason: Some("run the tests".into()) });
        let texts: Vec<(Placement, &str)> =
            run.shown.model.iter().map(|m| (m.placement, m.text.as_str())).collect();
        let prompt =
            format!(r#"<hook_prompt hook_run_id="stop:0:{source}">run the tests</hook_prompt>"#);
        assert_eq!(texts, [(Placement::User, prompt.as_str())], "round {round}");
    }
    let p = Project::new();
    let hook = p
        .script("stop.sh", r#"cat >/dev/null; echo '{"continue": false, "stopReason": "enough"}'"#);
    let engine = p.engine(on("Stop", None, &hook));
    let run = run(&engine, EventName::Stop, object(json!({}))).await;
    let d: TurnEndDecision = run.report.decision();
    assert_eq!(d.continuation, Continuation::Stop, "continue:false ends the turn");
    assert!(run.shown.model.is_empty());
}

#[tokio::test]
async fn the_first_blocking_hook_gives_the_reason_and_every_rewrite_is_refused_with_a_deny() {
    let p = Project::new();
    let first = p.script("first.sh", "cat >/dev/null; echo first >&2; exit 2");
    let second = p.script("second.sh", "cat >/dev/null; echo second >&2; exit 2");
    let hooks = json!({"PreToolUse": [{"hooks": [
        {"type": "command", "command": first}, {"type": "command", "command": second}
    ]}]});
    let engine = p.engine(hooks);
    let run = run(&engine, EventName::PreToolUse, bash("make")).await;
    assert_eq!(run.report.merged.decision, Some(Decision::Deny));
    let output = run.shown.tool_result().map(|t| t.text.clone());
    assert_eq!(output.as_deref(), Some("Command blocked by PreToolUse hook: first. Command: make"));
}
