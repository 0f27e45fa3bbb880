//! The response a TNSAI hook prints on stdout, read strictly.
//!
//! ```json
//! {
//!   "hook_protocol_version": "1",
//!   "decision": "block",
//!   "reason": "rm -rf is not allowed",
//!   "severity": "HIGH",
//!   "metadata": { "rule": "no-rm" },
//!   "continue_chain": false
//! }
//! ```
//!
//! Stdout must be exactly one JSON object (surrounding whitespace allowed). It is a protocol
//! error ([`ProtocolError`]) when it is empty or not one JSON object, when
//! `hook_protocol_version` is missing or is not the string `"1"`, when `decision` is missing or
//! not one of `allow`, `skip`, `block`, `modify`, when a `block` has no non-empty `reason`, when
//! `severity` is not one of `LOW`, `MEDIUM`, `HIGH`, `CRITICAL`, when a `modify` has no
//! `modified_payload` object, or when a known field has the wrong type. Unknown fields, and
//! fields that mean nothing for the decision given (`severity` without a block,
//! `modified_payload` without a modify), are warnings.

use std::fmt;

use hook_protocol::codec::{self, JsonError, kind_of};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use thiserror::Error;

use crate::ShapeError;
use crate::envelope::PROTOCOL_VERSION;

/// The `decision` of a response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DecisionKind {
    /// Let the event proceed.
    Allow,
    /// The hook does not apply; the event proceeds.
    Skip,
    /// Block the event, with a reason and a severity.
    Block,
    /// Proceed with a modified payload.
    Modify,
}

impl DecisionKind {
    /// The decision as it is spelled on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            DecisionKind::Allow => "allow",
            DecisionKind::Skip => "skip",
            DecisionKind::Block => "block",
            DecisionKind::Modify => "modify",
        }
    }

    fn from_wire(s: &str) -> Option<Self> {
        Some(match s {
            "allow" => DecisionKind::Allow,
            "skip" => DecisionKind::Skip,
            "block" => DecisionKind::Block,
            "modify" => DecisionKind::Modify,
            _ => return None,
        })
    }
}

impl fmt::Display for DecisionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How serious a block is, ordered `Low < Medium < High < Critical`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "UPPERCASE")]
pub enum ResponseSeverity {
    /// `LOW`.
    Low,
    /// `MEDIUM`.
    Medium,
    /// `HIGH`: the severity of a block that names none (an exit 2 without one, a fail-closed
    /// failure).
    #[default]
    High,
    /// `CRITICAL`.
    Critical,
}

impl ResponseSeverity {
    /// The severity as it is spelled on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ResponseSeverity::Low => "LOW",
            ResponseSeverity::Medium => "MEDIUM",
            ResponseSeverity::High => "HIGH",
            ResponseSeverity::Critical => "CRITICAL",
        }
    }

    /// The severity of its wire spelling (upper case, exactly).
    pub fn from_wire(s: &str) -> Option<Self> {
        Some(match s {
            "LOW" => ResponseSeverity::Low,
            "MEDIUM" => ResponseSeverity::Medium,
            "HIGH" => ResponseSeverity::High,
            "CRITICAL" => ResponseSeverity::Critical,
            _ => return None,
        })
    }
}

impl From<ResponseSeverity> for hook_protocol::Severity {
    /// The neutral severity a typed decision carries ([`hook_protocol::Control::severity`]).
    fn from(severity: ResponseSeverity) -> Self {
        match severity {
            ResponseSeverity::Low => hook_protocol::Severity::Low,
            ResponseSeverity::Medium => hook_protocol::Severity::Medium,
            ResponseSeverity::High => hook_protocol::Severity::High,
            ResponseSeverity::Critical => hook_protocol::Severity::Critical,
        }
    }
}

impl fmt::Display for ResponseSeverity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a hook's answer cannot be read; the hook's failure policy decides what it counts as.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ProtocolError {
    /// Exit 0 with nothing on stdout.
    #[error("exit status 0 with empty stdout; a JSON response is expected")]
    Empty,
    /// Stdout is not one JSON object.
    #[error("stdout is not a JSON response: {error}")]
    Json {
        /// Where and why parsing failed.
        error: JsonError,
    },
    /// No `hook_protocol_version`.
    #[error("`hook_protocol_version` is missing; expected \"1\"")]
    MissingVersion,
    /// A `hook_protocol_version` other than the string `"1"`.
    #[error("`hook_protocol_version` is {found}; expected \"1\"")]
    WrongVersion {
        /// The value found, as JSON.
        found: String,
    },
    /// No `decision`.
    #[error("`decision` is missing")]
    MissingDecision,
    /// A `decision` that is not one of the four.
    #[error("unknown `decision` {found}; expected `allow`, `skip`, `block` or `modify`")]
    UnknownDecision {
        /// The value found, as JSON.
        found: String,
    },
    /// A known field with the wrong JSON type.
    #[error("`{field}` must be {expected}, found {found}")]
    WrongType {
        /// The field.
        field: &'static str,
        /// What it must be.
        expected: &'static str,
        /// The JSON kind found.
        found: &'static str,
    },
    /// A `block` without a non-empty `reason`.
    #[error("`block` without a `reason`")]
    BlockWithoutReason,
    /// A `severity` that is not one of the four.
    #[error("unknown `severity` {found}; expected `LOW`, `MEDIUM`, `HIGH` or `CRITICAL`")]
    UnknownSeverity {
        /// The value found, as JSON.
        found: String,
    },
    /// A `modify` without a `modified_payload`.
    #[error("`modify` without a `modified_payload`")]
    ModifyWithoutPayload,
    /// A `modified_payload` that does not fit the event's payload.
    #[error("`modified_payload` does not fit the `{event_type}` payload: {error}")]
    Payload {
        /// The event type.
        event_type: String,
        /// The field that does not fit.
        error: ShapeError,
    },
}

/// A hook's response, read and checked.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Response {
    /// The decision.
    pub decision: DecisionKind,
    /// Why (required for a block).
    pub reason: Option<String>,
    /// How serious the block is (read on a block only).
    pub severity: Option<ResponseSeverity>,
    /// The payload a `modify` proposes (read on a modify only; validated against the event
    /// later).
    pub modified_payload: Option<Map<String, Value>>,
    /// Free-form data for the record, not acted on.
    pub metadata: Option<Value>,
    /// `false` asks that no later hook of this event run.
    pub continue_chain: Option<bool>,
    /// Unknown fields and fields ignored for this decision.
    pub warnings: Vec<String>,
}

const FIELDS: [&str; 7] = [
    "hook_protocol_version",
    "decision",
    "reason",
    "severity",
    "modified_payload",
    "metadata",
    "continue_chain",
];

impl Response {
    /// Reads stdout that must be exactly one JSON response.
    ///
    /// # Errors
    ///
    /// [`ProtocolError`] for anything the module docs list.
    pub fn parse(stdout: &[u8]) -> Result<Self, ProtocolError> {
        let trimmed = codec::trim(stdout);
        if trimmed.is_empty() {
            return Err(ProtocolError::Empty);
        }
        let object = codec::parse_object(trimmed).map_err(|error| ProtocolError::Json { error })?;
        Self::from_object(&object)
    }

    /// Reads a response already parsed as a JSON object.
    ///
    /// # Errors
    ///
    /// [`ProtocolError`] for anything the module docs list.
    pub fn from_object(object: &Map<String, Value>) -> Result<Self, ProtocolError> {
        match object.get("hook_protocol_version") {
            None => return Err(ProtocolError::MissingVersion),
            Some(Value::String(v)) if v == PROTOCOL_VERSION => {}
            Some(other) => return Err(ProtocolError::WrongVersion { found: other.to_string() }),
        }
        let decision = match object.get("decision") {
            None => return Err(ProtocolError::MissingDecision),
            Some(Value::String(s)) => DecisionKind::from_wire(s).ok_or_else(|| {
                ProtocolError::UnknownDecision { found: Value::from(s.as_str()).to_string() }
            })?,
            Some(other) => return Err(ProtocolError::UnknownDecision { found: other.to_string() }),
        };
        let reason = opt_string(object, "reason")?;
        let mut warnings: Vec<String> = object
            .keys()
            .filter(|k| !FIELDS.contains(&k.as_str()))
            .map(|k| format!("unknown response field `{k}` ignored"))
            .collect();
        let severity = match object.get("severity") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(ResponseSeverity::from_wire(s).ok_or_else(|| {
                ProtocolError::UnknownSeverity { found: Value::from(s.as_str()).to_string() }
            })?),
            Some(other) => return Err(ProtocolError::UnknownSeverity { found: other.to_string() }),
        };
        let modified_payload = match object.get("modified_payload") {
            None | Some(Value::Null) => None,
            Some(Value::Object(m)) => Some(m.clone()),
            Some(other) => {
                return Err(ProtocolError::WrongType {
                    field: "modified_payload",
                    expected: "an object",
                    found: kind_of(other),
                });
            }
        };
        let continue_chain = match object.get("continue_chain") {
            None | Some(Value::Null) => None,
            Some(Value::Bool(b)) => Some(*b),
            Some(other) => {
                return Err(ProtocolError::WrongType {
                    field: "continue_chain",
                    expected: "a boolean",
                    found: kind_of(other),
                });
            }
        };
        let metadata = object.get("metadata").filter(|v| !v.is_null()).cloned();
        let mut response = Self {
            decision,
            reason,
            severity,
            modified_payload,
            metadata,
            continue_chain,
            warnings: Vec::new(),
        };
        match decision {
            DecisionKind::Block
                if response.reason.as_deref().is_none_or(|r| r.trim().is_empty()) =>
            {
                return Err(ProtocolError::BlockWithoutReason);
            }
            DecisionKind::Modify if response.modified_payload.is_none() => {
                return Err(ProtocolError::ModifyWithoutPayload);
            }
            _ => {}
        }
        if decision != DecisionKind::Block && response.severity.take().is_some() {
            warnings.push(format!("`severity` ignored: the decision is `{decision}`, not `block`"));
        }
        if decision != DecisionKind::Modify && response.modified_payload.take().is_some() {
            warnings.push(format!(
                "`modified_payload` ignored: the decision is `{decision}`, not `modify`"
            ));
        }
        response.warnings = warnings;
        Ok(response)
    }
}

fn opt_string(
    object: &Map<String, Value>,
    field: &'static str,
) -> Result<Option<String>, ProtocolError> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => {
            Err(ProtocolError::WrongType { field, expected: "a string", found: kind_of(other) })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn severity_orders_and_defaults_to_high() {
        assert!(
            ResponseSeverity::Low < ResponseSeverity::Medium
                && ResponseSeverity::High < ResponseSeverity::Critical
        );
        assert_eq!(ResponseSeverity::default(), ResponseSeverity::High);
        assert_eq!(ResponseSeverity::from_wire("high"), None, "upper case only");
    }

    #[test]
    fn version_must_be_the_string_one() {
        let e =
            Response::parse(br#"{"hook_protocol_version": 1, "decision": "allow"}"#).unwrap_err();
        assert_eq!(e.to_string(), "`hook_protocol_version` is 1; expected \"1\"");
        let e = Response::parse(br#"{"decision": "allow"}"#).unwrap_err();
        assert_eq!(e, ProtocolError::MissingVersion);
        let e =
            Response::parse(br#"{"hook_protocol_version": "2", "decision": "allow"}"#).unwrap_err();
        assert_eq!(e.to_string(), "`hook_protocol_version` is \"2\"; expected \"1\"");
    }
}
