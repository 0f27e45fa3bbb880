//! The declarative hook list: loading a good one, and every kind of problem, by file, hook,
//! key, line and column.

use std::fs;
use std::time::Duration;

use hook_protocol::Position;
use hook_protocol::{FailurePolicy, Hook, On, Seam};
use hooks_tnsai::{EventSelector, EventType, HookList, ListErrorKind};

use crate::support::{Sandbox, bash};

const GOOD: &str = r#"trusted_roots: [./hooks]          # relative to this file
hooks:
  - id: guard
    name: Shell guard
    event_type: PreToolUse
    matcher: "Bash|Write"
    priority: -10
    executable: ./hooks/guard.sh
    timeout_ms: 5000
    on_failure: block
    env: {MODE: strict}
  - id: audit
    event_type: "*"
    executable: hooks/audit.sh
"#;

fn sandbox() -> Sandbox {
    let s = Sandbox::new();
    s.script(
        "guard.sh",
        r#"cat >/dev/null
if [ "$MODE" = strict ]; then
  printf '{"hook_protocol_version": "1", "decision": "block", "reason": "strict mode", "severity": "MEDIUM"}'
else
  printf '{"hook_protocol_version": "1", "decision": "allow"}'
fi"#,
    );
    s.script("audit.sh", r#"printf '{"hook_protocol_version": "1", "decision": "skip"}'"#);
    let outside = s.path().join("outside.sh");
    fs::write(&outside, "#!/bin/sh\n").unwrap();
    fs::set_permissions(&outside, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    s
}

/// Loads `source` as `hooks.yaml` in a sandbox and returns every error, the sandbox's path
/// replaced by `[dir]`.
fn errors(source: &str) -> Vec<String> {
    let s = sandbox();
    let file = s.path().join("hooks.yaml");
    fs::write(&file, source).unwrap();
    let dir = s.path().canonicalize().unwrap().display().to_string();
    let raw = s.path().display().to_string();
    HookList::load(&file)
        .unwrap_err()
        .errors()
        .iter()
        .map(|e| e.to_string().replace(&dir, "[dir]").replace(&raw, "[dir]"))
        .collect()
}

#[test]
fn a_good_list_loads_with_every_key() {
    let s = sandbox();
    let file = s.path().join("hooks.yaml");
    fs::write(&file, GOOD).unwrap();
    let list = HookList::load(&file).unwrap();
    let [guard, audit] = list.hooks() else { panic!("two hooks") };
    assert_eq!(guard.id(), "guard");
    assert_eq!(guard.name(), Some("Shell guard"));
    assert_eq!(guard.event(), &EventSelector::Type(EventType::PreToolUse));
    assert_eq!(guard.priority(), -10);
    assert_eq!(guard.timeout(), Duration::from_millis(5000));
    assert_eq!(guard.failure_policy(), FailurePolicy::CLOSED);
    assert_eq!(guard.env().get("MODE").map(String::as_str), Some("strict"));
    assert_eq!(guard.executable(), s.root().join("guard.sh").canonicalize().unwrap());
    assert_eq!(guard.info().on, On::seam(Seam::PreTool));
    assert!(guard.info().matcher.is_match("Write") && !guard.info().matcher.is_match("Read"));
    assert_eq!(guard.info().source.origin.as_deref(), Some(file.to_str().unwrap()));
    assert_eq!(audit.event(), &EventSelector::Every);
    assert_eq!(audit.timeout(), Duration::from_secs(60), "default timeout");
    assert_eq!(audit.failure_policy(), FailurePolicy::OPEN, "default policy");
    assert_eq!(audit.priority(), 0);
    assert_eq!(list.tnsai_version(), "0.5.0");
}

#[tokio::test]
async fn a_loaded_list_runs_in_priority_order() {
    let s = sandbox();
    let file = s.path().join("hooks.yaml");
    fs::write(&file, GOOD.replace("- id: guard", "- id: guard\n    # first by priority")).unwrap();
    let list = HookList::load(&file).unwrap();
    let report = list.run(&bash("ls")).await;
    let ids: Vec<&str> = report.records.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["guard", "audit"]);
    assert_eq!(report.merged.reason().as_deref(), Some("strict mode"));
}

#[test]
fn json_files_load_too() {
    let s = sandbox();
    let file = s.path().join("hooks.json");
    let json = r#"{
  "trusted_roots": ["hooks"],
  "hooks": [
    {"id": "guard", "event_type": "PreToolUse", "executable": "hooks/guard.sh", "priority": 5,
     "env": {"MODE": "lenient"}, "on_failure": "allow", "matcher": null}
  ]
}"#;
    fs::write(&file, json).unwrap();
    let list = HookList::load(&file).unwrap();
    assert_eq!(list.hooks()[0].priority(), 5);
    assert_eq!(list.hooks()[0].failure_policy(), FailurePolicy::OPEN);
    assert!(list.hooks()[0].info().matcher.is_any());
}

#[test]
fn every_problem_is_reported_with_file_hook_key_and_position() {
    let bad = r#"trusted_roots: [./hooks, ./missing]
colour: blue
hooks:
  - id: guard
    event_type: PreToolUse
    executable: ./hooks/guard.sh
    timeout: 5000
  - id: guard
    event_type: Stop
    executable: ./hooks/audit.sh
  - name: no id
    priority: high
    timeout_ms: 0
  - id: typed
    event_type: PreToolUse
    executable: ./hooks/guard.sh
    on_failure: maybe
    env: {MODE: 1, TNSAI_HOOK_EVENT_ID: x}
    matcher: "(?=x)"
  - just a string
  - id: outside
    event_type: Stop
    executable: ./outside.sh
  - event_type: Stop
    executable: ./hooks/absent.sh
"#;
    insta::assert_snapshot!("config_errors", errors(bad).join("\n"));
}

#[test]
fn structural_errors() {
    insta::assert_snapshot!("config_syntax_error", errors("hooks:\n  - id: [guard\n").join("\n"));
    insta::assert_snapshot!("config_empty_file", errors("").join("\n"));
    insta::assert_snapshot!("config_missing_keys", errors("tnsai_version: \"0.6.0\"\n").join("\n"));
    insta::assert_snapshot!(
        "config_wrong_top_types",
        errors("trusted_roots: ./hooks\nhooks: {id: x}\n").join("\n")
    );
    insta::assert_snapshot!(
        "config_duplicate_yaml_key",
        errors("trusted_roots: [hooks]\nhooks: []\nhooks: []\n").join("\n")
    );
}

#[test]
fn errors_are_typed() {
    let s = sandbox();
    let src = "trusted_roots: [hooks]\nhooks:\n  - id: a\n    event_type: Stop\n    executable: hooks/audit.sh\n    retries: 3\n";
    let err = HookList::parse(src, &s.path().join("x.yaml")).unwrap_err();
    let [e] = err.errors() else { panic!("{err}") };
    assert_eq!(e.kind, ListErrorKind::UnknownKey);
    assert_eq!(e.key.as_deref(), Some("retries"));
    assert_eq!(e.hook.as_ref().and_then(|h| h.id.as_deref()), Some("a"));
    assert_eq!(e.position, Some(Position::new(6, 5)));
    assert_eq!(e.message(), "hook `a`: unknown key `retries`");
    let missing = HookList::load(s.path().join("absent.yaml")).unwrap_err();
    assert!(matches!(missing.errors()[0].kind, ListErrorKind::Read { .. }));
    assert!(missing.to_string().contains("absent.yaml: cannot read the hook list: "), "{missing}");
}

/// `rewrite` turns `ls` into `ls -la`; `check` blocks only when it sees `ls -la`, so it blocks
/// only when it runs after `rewrite` in a pipeline; `later` has a higher priority number.
const CHAINED: &str = r#"trusted_roots: [./hooks]
hooks:
  - id: rewrite
    event_type: PreToolUse
    priority: 1
    executable: ./hooks/rewrite.sh
  - id: check
    event_type: PreToolUse
    priority: 2
    executable: ./hooks/check.sh
"#;

fn chained() -> (Sandbox, HookList) {
    let s = Sandbox::new();
    s.script(
        "rewrite.sh",
        r#"cat >/dev/null
printf '{"hook_protocol_version": "1", "decision": "modify", "modified_payload": {"tool_input": {"command": "ls -la"}}}'"#,
    );
    s.script(
        "check.sh",
        r#"if grep -q 'ls -la'; then
  printf '{"hook_protocol_version": "1", "decision": "block", "reason": "saw the rewrite", "severity": "CRITICAL"}'
else
  printf '{"hook_protocol_version": "1", "decision": "allow"}'
fi"#,
    );
    let file = s.path().join("hooks.yaml");
    fs::write(&file, CHAINED).unwrap();
    let list = HookList::load(&file).unwrap();
    (s, list)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn as_one_hook_the_list_keeps_its_pipeline_on_a_parallel_dispatcher() {
    use hook_protocol::{Dispatcher, PreToolDecision, ToolPermission};
    use hooks_tnsai::RunRecord;

    let (_s, list) = chained();
    // One hook on a parallel dispatcher: the pipeline runs inside it.
    let parallel = Dispatcher::builder().shared(list.as_hook()).build().unwrap();
    assert_eq!(parallel.hooks()[0].info().priority, 1, "the list's lowest priority");
    let report = parallel.dispatch(&bash("ls")).await;
    assert_eq!(report.records.len(), 1);
    let decision: PreToolDecision = report.decision();
    assert_eq!(
        decision.permission,
        ToolPermission::Deny { reason: Some("saw the rewrite".into()) }
    );
    assert_eq!(decision.control.severity, Some(hook_protocol::Severity::Critical));
    let inner = &report.records[0].inner;
    let ids: Vec<&str> = inner.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["rewrite", "check"], "each inner hook is a record of its own");
    assert_eq!(inner[1].verdict.severity, Some(hook_protocol::Severity::Critical));
    assert_eq!(inner[1].process.as_ref().and_then(|p| p.exit.code()), Some(0));
    // Who decided: the inner hook, not the list.
    let decider = report.decided_by().unwrap();
    assert_eq!(decider.id, "check");
    assert_eq!(decider.source.dialect, "tnsai");
    // Not registered where none of its hooks match: no record at all.
    let stop = hook_protocol::Event::new(
        hook_protocol::Common::new("s", "/"),
        hook_protocol::Payload::TurnEnd(hook_protocol::TurnEnd::new()),
    );
    assert!(parallel.dispatch(&stop).await.records.is_empty());

    // One by one on the same kind of dispatcher, they run in parallel: `check` sees the
    // original input, and the rewrite is what comes out.
    let one_by_one = Dispatcher::builder().hooks(list.shared_hooks()).build().unwrap();
    let report = one_by_one.dispatch(&bash("ls")).await;
    assert_eq!(report.records.len(), 2);
    let decision: PreToolDecision = report.decision();
    assert_eq!(decision.permission, ToolPermission::NoOpinion);
    assert_eq!(decision.updated_input, Some(serde_json::json!({"command": "ls -la"})));
    assert!(RunRecord::of(&report.records[1]).is_some());
}
