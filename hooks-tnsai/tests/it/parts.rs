//! Events from `(event_type, payload, context)` objects, and the `allow` / `block` summary the
//! `hooks` command prints.

use std::fs;
use std::path::Path;

use hook_protocol::Seam;
use hooks_tnsai::{EventType, HookList, Request, Summary, event_from_input, event_from_parts};
use serde_json::{Value, json};

use crate::support::Sandbox;

use test_support::object as obj;

#[test]
fn parts_become_a_neutral_event_with_their_wire_form() {
    let payload = obj(json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "extra": true}));
    let context = obj(json!({"session_id": "s-9", "cwd": "/srv", "tenant": "acme"}));
    let e = event_from_parts(&EventType::PreToolUse, payload, Some(context), Path::new("/tmp"))
        .unwrap();
    assert_eq!(e.seam(), Seam::PreTool);
    assert_eq!(e.subject(), Some("Bash"));
    assert_eq!(e.common.session_id, "s-9");
    assert_eq!(e.common.cwd, Path::new("/srv"));
    let r = Request::new(&e, "0.5.0");
    assert_eq!(r.context, json!({"session_id": "s-9", "cwd": "/srv", "tenant": "acme"}));
    assert_eq!(r.payload.get("extra"), Some(&json!(true)), "the payload as given");

    let custom = event_from_parts(
        &"DeployRequested".parse().unwrap(),
        obj(json!({"subject": "api", "env": "prod"})),
        None,
        Path::new("/tmp"),
    )
    .unwrap();
    assert_eq!(
        (custom.seam(), custom.custom_name(), custom.subject()),
        (Seam::Custom, Some("DeployRequested"), Some("api"))
    );
    assert_eq!(custom.common.cwd, Path::new("/tmp"), "fallback cwd");

    let err = event_from_parts(
        &EventType::UserPromptSubmit,
        obj(json!({"prompt": 1})),
        None,
        Path::new("/"),
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "`payload.prompt` must be a string, found number");
}

#[test]
fn one_input_object_splits_into_payload_and_context() {
    let input = obj(json!({"prompt": "hi", "context": {"session_id": "s-1", "team": "a"}}));
    let e = event_from_input(&EventType::UserPromptSubmit, input, Path::new("/")).unwrap();
    let r = Request::new(&e, "0.5.0");
    assert_eq!(Value::Object(r.payload), json!({"prompt": "hi"}));
    assert_eq!(r.context, json!({"session_id": "s-1", "team": "a"}));
    assert_eq!(e.common.session_id, "s-1");
    let bad = event_from_input(&EventType::Stop, obj(json!({"context": "x"})), Path::new("/"));
    assert_eq!(bad.unwrap_err().to_string(), "`context` must be an object, found string");
}

async fn summary(s: &Sandbox, reply: &str, event_type: &str, payload: Value) -> Summary {
    s.script("h.sh", &format!("cat >/dev/null\nprintf '%s' '{reply}'"));
    let file = s.path().join("hooks.yaml");
    let list = "trusted_roots: [hooks]\nhooks:\n  - id: h\n    event_type: \"*\"\n    executable: hooks/h.sh\n";
    fs::write(&file, list).unwrap();
    let list = HookList::load(&file).unwrap();
    let event =
        event_from_parts(&event_type.parse().unwrap(), obj(payload), None, s.path()).unwrap();
    Summary::from_report(&list.run(&event).await)
}

#[tokio::test]
async fn summaries_as_the_command_prints_them() {
    let s = Sandbox::new();
    let bash = json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}});
    let block = summary(
        &s,
        r#"{"hook_protocol_version": "1", "decision": "block", "reason": "no rm", "severity": "CRITICAL"}"#,
        "PreToolUse",
        bash.clone(),
    )
    .await;
    assert_eq!(block.exit_code(), 2);
    insta::assert_json_snapshot!("summary_block", block);
    let modify = summary(
        &s,
        r#"{"hook_protocol_version": "1", "decision": "modify", "modified_payload": {"tool_input": {"command": "ls"}}}"#,
        "PreToolUse",
        bash,
    )
    .await;
    assert_eq!(modify.exit_code(), 0);
    insta::assert_json_snapshot!("summary_modify", modify);
    let custom = summary(
        &s,
        r#"{"hook_protocol_version": "1", "decision": "modify", "modified_payload": {"replicas": 2}}"#,
        "ScaleRequested",
        json!({"service": "api", "replicas": 50}),
    )
    .await;
    insta::assert_json_snapshot!("summary_modify_custom", custom);
    let skip =
        summary(&s, r#"{"hook_protocol_version": "1", "decision": "skip"}"#, "Stop", json!({}))
            .await;
    assert_eq!(
        (skip.exit_code(), serde_json::to_value(&skip).unwrap()),
        (0, json!({"decision": "allow"}))
    );
}
