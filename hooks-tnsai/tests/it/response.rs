//! Responses read and checked: one snapshot per case, whether it reads or is refused.

use hooks_tnsai::{DecisionKind, ProtocolError, Response, ResponseSeverity};
use serde_json::{Value, json};

fn read(stdout: &str) -> Value {
    match Response::parse(stdout.as_bytes()) {
        Ok(r) => json!({"ok": r}),
        Err(e) => json!({"protocol_error": e.to_string()}),
    }
}

const CASES: &[(&str, &str)] = &[
    ("allow", r#"{"hook_protocol_version": "1", "decision": "allow"}"#),
    (
        "skip_with_reason",
        r#"{"hook_protocol_version": "1", "decision": "skip", "reason": "not my tool"}"#,
    ),
    (
        "block_full",
        r#"{"hook_protocol_version": "1", "decision": "block", "reason": "rm -rf is not allowed",
            "severity": "CRITICAL", "metadata": {"rule": "no-rm", "hits": 3}, "continue_chain": false}"#,
    ),
    (
        "block_without_severity",
        r#"{"hook_protocol_version": "1", "decision": "block", "reason": "no"}"#,
    ),
    ("block_without_reason", r#"{"hook_protocol_version": "1", "decision": "block"}"#),
    (
        "block_with_blank_reason",
        r#"{"hook_protocol_version": "1", "decision": "block", "reason": "  "}"#,
    ),
    (
        "modify",
        r#"{"hook_protocol_version": "1", "decision": "modify",
            "modified_payload": {"tool_input": {"command": "ls"}}}"#,
    ),
    ("modify_without_payload", r#"{"hook_protocol_version": "1", "decision": "modify"}"#),
    (
        "modify_payload_not_object",
        r#"{"hook_protocol_version": "1", "decision": "modify", "modified_payload": [1]}"#,
    ),
    ("unknown_decision", r#"{"hook_protocol_version": "1", "decision": "deny"}"#),
    ("decision_not_string", r#"{"hook_protocol_version": "1", "decision": true}"#),
    ("missing_decision", r#"{"hook_protocol_version": "1"}"#),
    ("missing_version", r#"{"decision": "allow"}"#),
    ("other_version", r#"{"hook_protocol_version": "2", "decision": "allow"}"#),
    ("numeric_version", r#"{"hook_protocol_version": 1, "decision": "allow"}"#),
    (
        "unknown_severity",
        r#"{"hook_protocol_version": "1", "decision": "block", "reason": "r", "severity": "SEVERE"}"#,
    ),
    (
        "lowercase_severity",
        r#"{"hook_protocol_version": "1", "decision": "block", "reason": "r", "severity": "high"}"#,
    ),
    ("reason_not_string", r#"{"hook_protocol_version": "1", "decision": "allow", "reason": 3}"#),
    (
        "continue_chain_not_bool",
        r#"{"hook_protocol_version": "1", "decision": "allow", "continue_chain": "no"}"#,
    ),
    (
        "ignored_and_unknown_fields",
        r#"{"hook_protocol_version": "1", "decision": "allow", "severity": "LOW",
            "modified_payload": {}, "extra": 1}"#,
    ),
    ("empty", "  \n"),
    ("not_json", "all good"),
    ("broken_json", "{\"hook_protocol_version\": \"1\",\n \"decision\": }"),
    ("json_array", "[1, 2]"),
    ("two_objects", "{\"hook_protocol_version\": \"1\", \"decision\": \"allow\"}\n{}"),
];

#[test]
fn every_response_case() {
    for (name, stdout) in CASES {
        insta::assert_json_snapshot!(format!("response_{name}"), read(stdout));
    }
}

#[test]
fn decoded_fields_are_typed() {
    let r = Response::parse(CASES[2].1.as_bytes()).unwrap();
    assert_eq!(r.decision, DecisionKind::Block);
    assert_eq!(r.severity, Some(ResponseSeverity::Critical));
    assert_eq!(r.continue_chain, Some(false));
    assert_eq!(r.metadata, Some(json!({"rule": "no-rm", "hits": 3})));
    let e = Response::parse(b"{\"hook_protocol_version\": \"1\", \"decision\": \"block\"}")
        .unwrap_err();
    assert_eq!(e, ProtocolError::BlockWithoutReason);
}
