//! From what a hook process did to a neutral outcome.
//!
//! | exit | outcome |
//! |---|---|
//! | 0 | stdout is read as a [`Response`]; a [`ProtocolError`] is a failure |
//! | 2 | a block; its reason is stdout's JSON `reason`, else stderr, else stdout's text, else a default |
//! | other code, signal | a failure |
//! | timeout | a failure ([`HookStatus::TimedOut`]) |
//!
//! A failure carries a precise message and no opinion; the hook's failure policy, applied by
//! the dispatcher, turns it into a pass (fail open) or a deny (fail closed).
//!
//! The response maps onto a [`Verdict`]:
//!
//! - `allow` and `skip`: no opinion. A TNSAI `allow` lets the chain go on; it does not grant
//!   anything, so the harness's own permission rules still decide (mapping it to the core's
//!   `Allow` would let a script that merely does not object auto-approve a tool call or answer
//!   a permission prompt).
//! - `block`: [`Decision::Deny`](hook_protocol::Decision::Deny) with the reason and its severity
//!   ([`Verdict::severity`], `HIGH` when the hook names none), which reaches every typed
//!   decision as [`hook_protocol::Control::severity`].
//! - `modify`: no opinion with [`Verdict::updated_input`] = what [`validate_modified`] returns:
//!   the new tool input for a pending tool call, the whole validated payload for any other
//!   event (the core's typed decisions read only tool inputs; a harness that lets hooks rewrite
//!   other events reads `Merged::updated_input`).
//! - `continue_chain: false`: [`Verdict::end_chain`].
//!
//! The decision, severity and metadata are kept in [`HookOutcome::metadata`], readable as a
//! [`RunRecord`].

use std::time::Duration;

use hook_protocol::codec::{self, ExitClass};
use hook_protocol::{
    HookOutcome, HookRecord, HookStatus, Metadata, ProcessFacts, RawOutcome, RecordData, Verdict,
    signal_name,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::{
    DecisionKind, EventType, ProtocolError, Response, ResponseSeverity, validate_modified,
};

/// The exit code by which a TNSAI hook blocks.
pub const BLOCK_EXIT_CODE: i32 = 2;

/// How many characters of stderr a failure message quotes.
const STDERR_IN_MESSAGE: usize = 400;

/// What a TNSAI hook's record keeps of its answer ([`HookOutcome::metadata`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RunRecord {
    /// The decision the hook gave (`block` for an exit 2).
    pub decision: DecisionKind,
    /// Its reason, when it gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The block's severity (the default, `HIGH`, when the hook named none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub severity: Option<ResponseSeverity>,
    /// The free-form metadata it returned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Value>,
    /// Its `continue_chain`, when it gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub continue_chain: Option<bool>,
}

impl RunRecord {
    /// The TNSAI part of a dispatch record, when the record is a TNSAI hook's that answered.
    pub fn of(record: &HookRecord) -> Option<Self> {
        Self::from_metadata(record.metadata.as_ref()?)
    }

    /// The TNSAI part of a hook outcome's metadata: the record itself when it was kept typed,
    /// read from its JSON otherwise.
    pub fn from_metadata(metadata: &Metadata) -> Option<Self> {
        match metadata.downcast_ref::<Self>() {
            Some(meta) => Some(meta.clone()),
            None => Self::from_value(&metadata.value()),
        }
    }

    /// The TNSAI part of a hook outcome's metadata, as JSON.
    pub fn from_value(value: &Value) -> Option<Self> {
        Self::deserialize(value).ok()
    }
}

/// Kept typed in the record; its JSON is its serialization.
impl RecordData for RunRecord {
    fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// Turns a finished run into an outcome: exit codes, response, `modify` validation.
///
/// `payload` is the envelope's payload the hook was sent (what a `modify` is laid over).
pub(crate) fn interpret(
    raw: &RawOutcome,
    event_type: &EventType,
    payload: &Map<String, Value>,
    timeout: Duration,
) -> HookOutcome {
    let mut outcome = match codec::classify(raw.exit, BLOCK_EXIT_CODE) {
        Some(ExitClass::Success) => answered(raw, event_type, payload),
        Some(ExitClass::Block) => blocked_by_exit(raw),
        Some(ExitClass::Failure { code }) => HookOutcome::failure(
            HookStatus::Failed,
            format!("exit status {code}{}", stderr_note(raw)),
        ),
        Some(ExitClass::Signal { signal }) => HookOutcome::failure(
            HookStatus::Failed,
            format!("killed by signal {signal} ({}){}", signal_name(signal), stderr_note(raw)),
        ),
        None => HookOutcome::failure(
            HookStatus::TimedOut,
            format!("timed out after {} ms and was killed", timeout.as_millis()),
        ),
        _ => HookOutcome::failure(HookStatus::Failed, raw.exit.to_string()),
    };
    if !event_type.seam().can_block() && outcome.verdict.decision.is_some() {
        outcome.warnings.push(format!("a block has no effect on `{event_type}` events"));
    }
    outcome.process = Some(ProcessFacts::from_outcome(raw));
    outcome
}

fn stderr_note(raw: &RawOutcome) -> String {
    let tail = raw.stderr_tail(STDERR_IN_MESSAGE);
    if tail.is_empty() { String::new() } else { format!("; stderr: {tail}") }
}

/// Exit 0: the response decides.
fn answered(raw: &RawOutcome, event_type: &EventType, payload: &Map<String, Value>) -> HookOutcome {
    let protocol_failure = |e: ProtocolError| {
        let cut = if raw.stdout_truncated {
            format!(" (stdout was cut at {} of {} bytes)", raw.stdout.len(), raw.stdout_len)
        } else {
            String::new()
        };
        HookOutcome::failure(HookStatus::Failed, format!("protocol error: {e}{cut}"))
    };
    let response = match Response::parse(&raw.stdout) {
        Ok(r) => r,
        Err(e) => return protocol_failure(e),
    };
    let mut verdict = Verdict::no_opinion();
    match response.decision {
        DecisionKind::Allow | DecisionKind::Skip => {}
        DecisionKind::Block => {
            verdict = Verdict::deny(response.reason.clone().unwrap_or_default());
            verdict.severity = Some(response.severity.unwrap_or_default().into());
        }
        DecisionKind::Modify => {
            let modified = response.modified_payload.as_ref().cloned().unwrap_or_default();
            match validate_modified(event_type, payload, &modified) {
                Ok(applied) => verdict.updated_input = Some(applied),
                Err(error) => {
                    return protocol_failure(ProtocolError::Payload {
                        event_type: event_type.to_string(),
                        error,
                    });
                }
            }
        }
    }
    verdict.end_chain = response.continue_chain == Some(false);
    let meta = RunRecord {
        decision: response.decision,
        reason: response.reason,
        severity: (response.decision == DecisionKind::Block)
            .then(|| response.severity.unwrap_or_default()),
        metadata: response.metadata,
        continue_chain: response.continue_chain,
    };
    let mut outcome = HookOutcome::success(verdict);
    outcome.warnings = response.warnings;
    outcome.metadata = Some(Metadata::typed(meta));
    outcome
}

/// Exit 2: a block, whatever stdout says; stdout may still carry a reason, a severity,
/// metadata and `continue_chain`.
fn blocked_by_exit(raw: &RawOutcome) -> HookOutcome {
    let mut warnings = Vec::new();
    let object = match codec::sniff(&raw.stdout) {
        codec::Stdout::Object(o) => Some(o),
        _ => None,
    };
    let field = |key: &str| object.as_ref().and_then(|o| o.get(key)).filter(|v| !v.is_null());
    let json_reason = field("reason").and_then(Value::as_str).filter(|r| !r.trim().is_empty());
    let stdout_text = match codec::sniff(&raw.stdout) {
        codec::Stdout::Text(t) => Some(t),
        _ => None,
    };
    let stderr = raw.stderr_text();
    let reason = json_reason
        .map(str::to_owned)
        .or_else(|| (!stderr.is_empty()).then_some(stderr))
        .or(stdout_text)
        .unwrap_or_else(|| format!("blocked by exit status {BLOCK_EXIT_CODE}"));
    let severity = match field("severity") {
        None => ResponseSeverity::default(),
        Some(v) => v.as_str().and_then(ResponseSeverity::from_wire).unwrap_or_else(|| {
            warnings.push(format!("unknown `severity` {v} ignored; the block counts as `HIGH`"));
            ResponseSeverity::default()
        }),
    };
    let continue_chain = field("continue_chain").and_then(Value::as_bool);
    let mut verdict = Verdict::deny(reason.clone());
    verdict.end_chain = continue_chain == Some(false);
    verdict.severity = Some(severity.into());
    let meta = RunRecord {
        decision: DecisionKind::Block,
        reason: Some(reason),
        severity: Some(severity),
        metadata: field("metadata").cloned(),
        continue_chain,
    };
    let mut outcome = HookOutcome::with_status(HookStatus::Blocked, verdict);
    outcome.warnings = warnings;
    outcome.metadata = Some(Metadata::typed(meta));
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use hook_protocol::{Decision, Exit};
    use serde_json::json;

    fn run(code: i32, stdout: &str, stderr: &str) -> HookOutcome {
        let raw = RawOutcome::new(Exit::Code { code }, stdout, stderr);
        let Value::Object(payload) = json!({"tool_name": "Bash", "tool_input": {"command": "ls"}})
        else {
            unreachable!()
        };
        interpret(&raw, &EventType::PreToolUse, &payload, Duration::from_secs(1))
    }

    #[test]
    fn exit_two_reason_order() {
        let o = run(2, r#"{"reason": "from json", "severity": "LOW"}"#, "from stderr");
        assert_eq!(o.verdict.reason.as_deref(), Some("from json"));
        assert_eq!(o.verdict.severity, Some(hook_protocol::Severity::Low));
        assert_eq!(
            RunRecord::from_metadata(o.metadata.as_ref().unwrap()).unwrap().severity,
            Some(ResponseSeverity::Low)
        );
        let o = run(2, "some text", "from stderr");
        assert_eq!(o.verdict.reason.as_deref(), Some("from stderr"));
        let o = run(2, "some text", "");
        assert_eq!(o.verdict.reason.as_deref(), Some("some text"));
        let o = run(2, "", "");
        assert_eq!(o.verdict.reason.as_deref(), Some("blocked by exit status 2"));
        assert_eq!(o.verdict.severity, Some(hook_protocol::Severity::High), "the default");
        assert_eq!(o.status, HookStatus::Blocked);
        assert_eq!(o.verdict.decision, Some(Decision::Deny));
    }

    #[test]
    fn other_exits_fail_with_stderr() {
        let o = run(3, "", "boom\n");
        assert_eq!(o.status, HookStatus::Failed);
        assert_eq!(o.failure.as_deref(), Some("exit status 3; stderr: boom"));
        let raw = RawOutcome::new(Exit::TimedOut { escalated: false }, "", "");
        let o = interpret(&raw, &EventType::Stop, &Map::new(), Duration::from_millis(250));
        assert_eq!(o.status, HookStatus::TimedOut);
        assert_eq!(o.failure.as_deref(), Some("timed out after 250 ms and was killed"));
    }
}
