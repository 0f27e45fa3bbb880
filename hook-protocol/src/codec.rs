//! The codec's shared rules: how an exit is classified and what stdout holds.
//!
//! Dialects pick the rules they need: [`classify`] turns the [`Exit`] of a hook that exited
//! into an [`ExitClass`] given the dialect's block code (2 in every dialect of this workspace); [`sniff`] reads
//! stdout as empty, one JSON object, the first JSON object of newline-delimited output, or text;
//! [`parse_object`] parses bytes that must be one JSON object and says where they are not.
//! Nothing here panics on any input, whatever bytes a hook printed.

use serde::Serialize;
use serde_json::{Map, Value};
use thiserror::Error;

use crate::Exit;

/// The class of a hook's exit, for a dialect whose block code is known. A hook that ran past
/// its timeout did not exit: that is [`Exit::TimedOut`], the one timed-out state of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ExitClass {
    /// Exit code 0.
    Success,
    /// The dialect's block code.
    Block,
    /// Any other exit code.
    Failure {
        /// The code.
        code: i32,
    },
    /// Ended by a signal it did not handle.
    Signal {
        /// The signal number.
        signal: i32,
    },
}

impl ExitClass {
    /// Whether the class is a failure of the hook (anything but success or block).
    pub fn is_failure(self) -> bool {
        !matches!(self, ExitClass::Success | ExitClass::Block)
    }
}

/// Classifies an exit for a dialect whose block code is `block_code`; `None` for a hook that
/// did not exit ([`Exit::TimedOut`]).
pub fn classify(exit: Exit, block_code: i32) -> Option<ExitClass> {
    match exit {
        Exit::Code { code: 0 } => Some(ExitClass::Success),
        Exit::Code { code } if code == block_code => Some(ExitClass::Block),
        Exit::Code { code } => Some(ExitClass::Failure { code }),
        Exit::Signal { signal } => Some(ExitClass::Signal { signal }),
        Exit::TimedOut { .. } => None,
    }
}

/// What a hook's stdout holds, read by the common rule.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Stdout {
    /// Nothing but whitespace.
    Empty,
    /// One JSON object spanning the whole output (surrounding whitespace allowed).
    Object(Map<String, Value>),
    /// Newline-delimited output whose first line that parses as a JSON object is this one.
    ObjectLine {
        /// The object.
        object: Map<String, Value>,
        /// Its line, counted from 1.
        line: usize,
    },
    /// Anything else, as text (invalid UTF-8 replaced), trimmed.
    Text(String),
}

/// Reads stdout by the common rule: empty; else one JSON object spanning the output; else the
/// first line that parses as a JSON object (newline-delimited JSON, first parseable line wins);
/// else text.
pub fn sniff(stdout: &[u8]) -> Stdout {
    let trimmed = trim(stdout);
    if trimmed.is_empty() {
        return Stdout::Empty;
    }
    if let Ok(object) = parse_object(trimmed) {
        return Stdout::Object(object);
    }
    for (i, line) in trimmed.split(|&b| b == b'\n').enumerate() {
        let line = trim(line);
        if line.first() == Some(&b'{')
            && let Ok(object) = parse_object(line)
        {
            return Stdout::ObjectLine { object, line: i + 1 };
        }
    }
    Stdout::Text(String::from_utf8_lossy(trimmed).into_owned())
}

/// `bytes` without leading and trailing ASCII whitespace.
pub fn trim(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(bytes.len());
    let end = bytes.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(start, |i| i + 1);
    &bytes[start..end.max(start)]
}

/// Why bytes are not one JSON object.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum JsonError {
    /// The bytes are not valid JSON.
    #[error("invalid JSON at line {line}, column {column}: {message}")]
    Syntax {
        /// Line of the error, from 1.
        line: usize,
        /// Column of the error, from 1.
        column: usize,
        /// The parser's explanation.
        message: String,
    },
    /// The bytes are valid JSON but not an object.
    #[error("expected a JSON object, found {found}")]
    NotAnObject {
        /// What was found (`array`, `string`, ...).
        found: &'static str,
    },
}

/// Parses bytes that must be exactly one JSON object.
///
/// # Errors
///
/// [`JsonError`] with the line and column of a syntax error, or the kind of value found.
pub fn parse_object(bytes: &[u8]) -> Result<Map<String, Value>, JsonError> {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(JsonError::NotAnObject { found: kind_of(&other) }),
        Err(e) => Err(JsonError::Syntax {
            line: e.line(),
            column: e.column(),
            message: strip_position(&e.to_string()),
        }),
    }
}

/// The JSON kind of a value, for messages.
pub fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_owned(),
        None => message.to_owned(),
    }
}

#[cfg(test)]
mod proptests;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => unreachable!(),
        }
    }

    #[test]
    fn classify_each_exit() {
        assert_eq!(classify(Exit::Code { code: 0 }, 2), Some(ExitClass::Success));
        assert_eq!(classify(Exit::Code { code: 2 }, 2), Some(ExitClass::Block));
        assert_eq!(classify(Exit::Code { code: 127 }, 2), Some(ExitClass::Failure { code: 127 }));
        assert_eq!(classify(Exit::Signal { signal: 9 }, 2), Some(ExitClass::Signal { signal: 9 }));
        assert_eq!(classify(Exit::TimedOut { escalated: false }, 2), None);
        assert!(ExitClass::Signal { signal: 9 }.is_failure());
        assert!(!ExitClass::Block.is_failure());
    }

    #[test]
    fn sniff_each_shape() {
        assert_eq!(sniff(b""), Stdout::Empty);
        assert_eq!(sniff(b" \n\t\r\n"), Stdout::Empty);
        assert_eq!(sniff(b"\n {\"a\": 1}\n\n"), Stdout::Object(obj(json!({"a": 1}))));
        assert_eq!(
            sniff(b"{\"a\":\n 1}"),
            Stdout::Object(obj(json!({"a": 1}))),
            "an object may span lines"
        );
        assert_eq!(
            sniff(b"starting\n{\"first\": true}\n{\"second\": true}\n"),
            Stdout::ObjectLine { object: obj(json!({"first": true})), line: 2 }
        );
        assert_eq!(
            sniff(b"{broken\n{\"ok\": 1}"),
            Stdout::ObjectLine { object: obj(json!({"ok": 1})), line: 2 }
        );
        assert_eq!(sniff(b"[1, 2]"), Stdout::Text("[1, 2]".into()));
        assert_eq!(sniff(b"  hello\n"), Stdout::Text("hello".into()));
    }

    #[test]
    fn non_utf8_never_panics() {
        assert_eq!(sniff(b"\xff\xfe ok"), Stdout::Text("\u{fffd}\u{fffd} ok".into()));
        assert!(matches!(sniff(b"{\"a\": \"\xff\"}"), Stdout::Text(_)));
        assert!(parse_object(b"\xc3").is_err());
    }

    #[test]
    fn parse_object_says_where() {
        let err = parse_object(b"{\n  \"a\" 1\n}").unwrap_err();
        match err {
            JsonError::Syntax { line, column, .. } => assert_eq!((line, column), (2, 7)),
            other => panic!("{other:?}"),
        }
        assert_eq!(parse_object(b"\"s\"").unwrap_err(), JsonError::NotAnObject { found: "string" });
        assert_eq!(trim(b"  "), b"");
    }
}
