//! Real scripts: each decision, each exit code, each failure-policy path, `modify`.

use std::fs;
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use hook_protocol::{
    Decision, Dispatcher, Event, FailurePolicy, Hook, HookInfo, HookOutcome, HookStatus, Mode,
    PreToolDecision, Seam, Source, ToolPermission, Verdict,
};
use hooks_tnsai::{DecisionKind, EventType, Request, ResponseSeverity, RunRecord, ScriptHook};
use serde_json::{Value, json};

use crate::support::{Sandbox, bash, run};

const OPEN: FailurePolicy = FailurePolicy::OPEN;
const CLOSED: FailurePolicy = FailurePolicy::CLOSED;

fn reply(json: &str) -> String {
    format!("cat >/dev/null\nprintf '%s\\n' '{json}'")
}

fn meta(o: &HookOutcome) -> RunRecord {
    RunRecord::from_metadata(o.metadata.as_ref().expect("metadata")).expect("tnsai metadata")
}

#[tokio::test]
async fn allow_and_skip_have_no_opinion() {
    let s = Sandbox::new();
    for decision in ["allow", "skip"] {
        let body = reply(&format!(
            r#"{{"hook_protocol_version": "1", "decision": "{decision}", "reason": "fine"}}"#
        ));
        let o = run(&s.hook(decision, &body, OPEN), &bash("ls")).await;
        assert_eq!(o.status, HookStatus::Success, "{o:?}");
        assert_eq!(o.verdict, Verdict::no_opinion(), "a TNSAI allow grants nothing");
        assert_eq!(meta(&o).decision.as_str(), decision);
        assert_eq!(meta(&o).reason.as_deref(), Some("fine"));
    }
}

#[tokio::test]
async fn block_denies_with_reason_severity_and_metadata() {
    let s = Sandbox::new();
    let body = reply(
        r#"{"hook_protocol_version": "1", "decision": "block", "reason": "rm is not allowed", "severity": "CRITICAL", "metadata": {"rule": "no-rm"}}"#,
    );
    let hook = s.hook("guard", &body, OPEN);
    let o = run(&hook, &bash("rm -rf /")).await;
    assert_eq!(o.status, HookStatus::Success);
    let mut deny = Verdict::deny("rm is not allowed");
    deny.severity = Some(hook_protocol::Severity::Critical);
    assert_eq!(o.verdict, deny);
    // The severity reaches the typed decision.
    let d = Dispatcher::builder().hook(hook).build().unwrap();
    let decision: PreToolDecision = d.dispatch(&bash("rm -rf /")).await.decision();
    assert_eq!(decision.control.severity, Some(hook_protocol::Severity::Critical));
    let m = meta(&o);
    assert_eq!((m.decision, m.severity), (DecisionKind::Block, Some(ResponseSeverity::Critical)));
    assert_eq!(m.metadata, Some(json!({"rule": "no-rm"})));
    assert_eq!(o.process.as_ref().unwrap().exit.code(), Some(0));
}

#[tokio::test]
async fn modify_rewrites_the_tool_input() {
    let s = Sandbox::new();
    let body = reply(
        r#"{"hook_protocol_version": "1", "decision": "modify", "modified_payload": {"tool_input": {"command": "ls -la"}}}"#,
    );
    let hook = s.hook("rewrite", &body, OPEN);
    let o = run(&hook, &bash("ls")).await;
    assert_eq!(o.status, HookStatus::Success, "{o:?}");
    assert_eq!(o.verdict.updated_input, Some(json!({"command": "ls -la"})));
    assert_eq!(o.verdict.decision, None);
    let d = Dispatcher::builder().hook(hook).build().unwrap();
    let decision: PreToolDecision = d.dispatch(&bash("ls")).await.decision();
    assert_eq!(decision.updated_input, Some(json!({"command": "ls -la"})), "reaches the harness");
}

#[tokio::test]
async fn modify_that_does_not_fit_is_a_protocol_error() {
    let s = Sandbox::new();
    let cases = [
        (r#"{"tool_name": "Write"}"#, "`modified_payload.tool_name` cannot be modified"),
        (
            r#"{"tool_input": "ls"}"#,
            "`modified_payload.tool_input` must be an object, found string",
        ),
        (r#"{"command": "ls"}"#, "`modified_payload.command` is not a field"),
    ];
    for (i, (payload, expected)) in cases.into_iter().enumerate() {
        let body = reply(&format!(
            r#"{{"hook_protocol_version": "1", "decision": "modify", "modified_payload": {payload}}}"#
        ));
        let o = run(&s.hook(&format!("m{i}"), &body, OPEN), &bash("ls")).await;
        assert_eq!(o.status, HookStatus::Failed);
        let failure = o.failure.unwrap();
        assert!(
            failure.starts_with(
                "protocol error: `modified_payload` does not fit the `PreToolUse` payload: "
            ),
            "{failure}"
        );
        assert!(failure.contains(expected), "{failure}");
        assert_eq!(o.verdict, Verdict::no_opinion());
    }
}

#[tokio::test]
async fn exit_two_blocks_with_stderr() {
    let s = Sandbox::new();
    let o = run(&s.hook("two", "echo 'no rm here' >&2\nexit 2", OPEN), &bash("rm")).await;
    assert_eq!(o.status, HookStatus::Blocked);
    let mut deny = Verdict::deny("no rm here");
    deny.severity = Some(hook_protocol::Severity::High);
    assert_eq!(o.verdict, deny);
    assert_eq!(meta(&o).severity, Some(ResponseSeverity::High));
    let o = run(
        &s.hook(
            "two-json",
            r#"echo '{"reason": "json reason", "severity": "LOW"}'; echo 'ignored' >&2; exit 2"#,
            OPEN,
        ),
        &bash("rm"),
    )
    .await;
    assert_eq!(o.verdict.reason.as_deref(), Some("json reason"));
    assert_eq!(meta(&o).severity, Some(ResponseSeverity::Low));
}

#[tokio::test]
async fn other_exits_timeouts_and_spawn_failures_fail() {
    let s = Sandbox::new();
    let o = run(&s.hook("three", "echo 'disk full' >&2\nexit 3", OPEN), &bash("ls")).await;
    assert_eq!(
        (o.status, o.failure.as_deref()),
        (HookStatus::Failed, Some("exit status 3; stderr: disk full"))
    );

    let o = run(&s.hook("killed", "kill -9 $$", OPEN), &bash("ls")).await;
    assert_eq!(o.status, HookStatus::Failed);
    assert_eq!(o.failure.as_deref(), Some("killed by signal 9 (SIGKILL)"));

    let exe = s.script("slow", "sleep 30");
    let slow = ScriptHook::builder("slow")
        .event_type(EventType::PreToolUse)
        .executable(exe)
        .trusted_root(s.root())
        .timeout(Duration::from_millis(300))
        .build()
        .unwrap();
    let started = Instant::now();
    let o = run(&slow, &bash("ls")).await;
    assert_eq!(o.status, HookStatus::TimedOut);
    assert_eq!(o.failure.as_deref(), Some("timed out after 300 ms and was killed"));
    assert!(started.elapsed() < Duration::from_secs(20), "the timeout bounds the run");

    let exe = s.root().join("bad-interpreter");
    fs::write(&exe, "#!/nonexistent/interpreter\n").unwrap();
    fs::set_permissions(&exe, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let bad = ScriptHook::builder("bad")
        .event_type(EventType::PreToolUse)
        .executable(&exe)
        .trusted_root(s.root())
        .build()
        .unwrap();
    let o = run(&bad, &bash("ls")).await;
    assert_eq!(o.status, HookStatus::SpawnFailed, "{o:?}");
    assert!(o.failure.as_deref().unwrap().starts_with("cannot run `"), "{o:?}");
}

#[tokio::test]
async fn protocol_errors_fail() {
    let s = Sandbox::new();
    let cases = [
        ("empty", "cat >/dev/null".to_owned(), "protocol error: exit status 0 with empty stdout"),
        ("text", "echo ok".to_owned(), "protocol error: stdout is not a JSON response: "),
        (
            "version",
            reply(r#"{"hook_protocol_version": "2", "decision": "allow"}"#),
            "protocol error: `hook_protocol_version` is \"2\"",
        ),
        (
            "no-version",
            reply(r#"{"decision": "allow"}"#),
            "protocol error: `hook_protocol_version` is missing",
        ),
        (
            "decision",
            reply(r#"{"hook_protocol_version": "1", "decision": "maybe"}"#),
            "protocol error: unknown `decision` \"maybe\"",
        ),
        (
            "no-reason",
            reply(r#"{"hook_protocol_version": "1", "decision": "block"}"#),
            "protocol error: `block` without a `reason`",
        ),
    ];
    for (name, body, expected) in cases {
        let o = run(&s.hook(name, &body, OPEN), &bash("ls")).await;
        assert_eq!(o.status, HookStatus::Failed, "{name}");
        let failure = o.failure.unwrap();
        assert!(failure.starts_with(expected), "{name}: {failure}");
    }
}

/// Every failure path under both policies, through the dispatcher that applies them.
#[tokio::test]
async fn failure_policies_open_and_closed() {
    let s = Sandbox::new();
    let bodies =
        [("exit3", "exit 3"), ("garbage", "echo '{not json'"), ("signal", "kill -TERM $$")];
    for (name, body) in bodies {
        for policy in [OPEN, CLOSED] {
            let id = format!("{name}-{policy:?}");
            let d = Dispatcher::builder().hook(s.hook(&id, body, policy)).build().unwrap();
            let report = d.dispatch(&bash("ls")).await;
            assert_eq!(report.records[0].status, HookStatus::Failed, "{id}");
            match policy {
                OPEN => assert_eq!(report.merged.decision, None, "{id}"),
                _ => {
                    assert_eq!(report.merged.decision, Some(Decision::Deny), "{id}");
                    let reason = report.merged.reason().unwrap();
                    assert!(
                        reason.contains(&format!("`{id}` failed and fails closed")),
                        "{reason}"
                    );
                }
            }
        }
    }
    let bad = s.root().join("no-interpreter");
    fs::write(&bad, "#!/nonexistent/interpreter\n").unwrap();
    fs::set_permissions(&bad, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    for policy in [OPEN, CLOSED] {
        let hook = ScriptHook::builder("unstartable")
            .event_type(EventType::PreToolUse)
            .executable(&bad)
            .trusted_root(s.root())
            .on_failure(policy)
            .build()
            .unwrap();
        let report = Dispatcher::builder().hook(hook).build().unwrap().dispatch(&bash("ls")).await;
        assert_eq!(report.records[0].status, HookStatus::SpawnFailed);
        let denied = report.merged.decision == Some(Decision::Deny);
        assert_eq!(denied, policy == CLOSED, "{policy:?}");
    }
    let exe = s.script("sleepy", "sleep 30");
    for policy in [OPEN, CLOSED] {
        let hook = ScriptHook::builder("sleepy")
            .event_type(EventType::PreToolUse)
            .executable(&exe)
            .trusted_root(s.root())
            .timeout(Duration::from_millis(200))
            .on_failure(policy)
            .build()
            .unwrap();
        let report = Dispatcher::builder().hook(hook).build().unwrap().dispatch(&bash("ls")).await;
        assert_eq!(report.records[0].status, HookStatus::TimedOut);
        let denied = report.merged.decision == Some(Decision::Deny);
        assert_eq!(denied, policy == CLOSED, "{policy:?}");
    }
}

#[tokio::test]
async fn environment_and_stdin_and_no_argv() {
    let s = Sandbox::new();
    let seen = s.path().join("stdin.json");
    let body = r#"cat > "$OUT"
printf '{"hook_protocol_version": "1", "decision": "allow", "metadata": {"type": "%s", "id": "%s", "version": "%s", "mode": "%s", "argc": %d}}' "$TNSAI_HOOK_EVENT_TYPE" "$TNSAI_HOOK_EVENT_ID" "$TNSAI_HOOK_PROTOCOL_VERSION" "$MODE" "$#""#;
    let exe = s.script("env", body);
    let hook = ScriptHook::builder("env")
        .event_type(EventType::PreToolUse)
        .executable(exe)
        .trusted_root(s.root())
        .env("MODE", "strict")
        .env("OUT", seen.to_str().unwrap())
        .build()
        .unwrap();
    let event = bash("echo $(whoami); rm -rf /");
    let o = run(&hook, &event).await;
    assert_eq!(o.status, HookStatus::Success, "{o:?}");
    assert_eq!(
        meta(&o).metadata,
        Some(
            json!({"type": "PreToolUse", "id": "evt-1", "version": "1", "mode": "strict", "argc": 0})
        )
    );
    let stdin = fs::read(&seen).unwrap();
    assert_eq!(stdin, Request::new(&event, "0.5.0").to_bytes(), "the envelope, byte for byte");
}

#[tokio::test]
async fn continue_chain_false_ends_the_pipeline() {
    let s = Sandbox::new();
    let mut b = Dispatcher::builder().mode(Mode::Pipeline);
    let first = reply(
        r#"{"hook_protocol_version": "1", "decision": "modify", "modified_payload": {"tool_input": {"command": "ls -a"}}, "continue_chain": false}"#,
    );
    b = b.hook(s.hook("first", &first, OPEN));
    b = b.hook(s.hook(
        "second",
        &reply(r#"{"hook_protocol_version": "1", "decision": "block", "reason": "never"}"#),
        OPEN,
    ));
    let report = b.build().unwrap().dispatch(&bash("ls")).await;
    assert_eq!(report.records[1].status, HookStatus::Skipped);
    let d: PreToolDecision = report.decision();
    assert_eq!(d.permission, ToolPermission::NoOpinion);
    assert_eq!(d.updated_input, Some(json!({"command": "ls -a"})));
}

#[tokio::test]
async fn pipeline_hooks_see_earlier_rewrites() {
    let s = Sandbox::new();
    let first = reply(
        r#"{"hook_protocol_version": "1", "decision": "modify", "modified_payload": {"tool_input": {"command": "ls -a"}}}"#,
    );
    // The second hook blocks unless it sees the first hook's rewrite.
    let second = r#"if grep -q '"ls -a"'; then
  printf '{"hook_protocol_version": "1", "decision": "allow"}'
else
  printf '{"hook_protocol_version": "1", "decision": "block", "reason": "saw the original"}'
fi"#;
    let d = Dispatcher::builder()
        .mode(Mode::Pipeline)
        .hook(s.hook("first", &first, OPEN))
        .hook(s.hook("second", second, OPEN))
        .build()
        .unwrap();
    let report = d.dispatch(&bash("ls")).await;
    assert_eq!(report.merged.decision, None, "{:?}", report.records);
}

#[derive(Debug)]
struct Native(HookInfo);

#[async_trait]
impl Hook for Native {
    fn info(&self) -> &HookInfo {
        &self.0
    }

    async fn run(&self, _event: &Event) -> HookOutcome {
        HookOutcome::success(Verdict::context("native context"))
    }
}

#[tokio::test]
async fn mixes_with_other_hooks_in_priority_order() {
    let s = Sandbox::new();
    let mut native = HookInfo::new("native", Source::new("native", None));
    native.on = hook_protocol::On::seam(Seam::PreTool);
    let late =
        s.hook("late", &reply(r#"{"hook_protocol_version": "1", "decision": "allow"}"#), OPEN);
    let exe = s.script(
        "early",
        &reply(r#"{"hook_protocol_version": "1", "decision": "block", "reason": "first"}"#),
    );
    let early = ScriptHook::builder("early")
        .event_type(EventType::PreToolUse)
        .executable(exe)
        .trusted_root(s.root())
        .priority(-10)
        .build()
        .unwrap();
    let d = Dispatcher::builder()
        .shared(Arc::new(Native(native)))
        .hook(late)
        .hook(early)
        .build()
        .unwrap();
    let report = d.dispatch(&bash("ls")).await;
    let ids: Vec<&str> = report.records.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["early", "native", "late"], "negative priority runs first");
    assert_eq!(report.merged.decision, Some(Decision::Deny));
    assert_eq!(report.merged.context[0].value, "native context");
    assert_eq!(report.records[0].source.dialect, "tnsai");
    let label = &report.records[0].label;
    assert!(label.ends_with("/hooks/early"), "{label}");
    let value: Value = serde_json::to_value(&report.records[0].metadata).unwrap();
    assert_eq!(value["severity"], "HIGH", "a block naming no severity is HIGH");
}
