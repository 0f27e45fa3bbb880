//! Reading event inputs: one JSON object from a file or stdin, or a JSON Lines session.

use std::path::Path;

use serde_json::{Map, Value};

use hook_protocol::text_file::{Cap, read_stream, read_text};

use crate::error::{CliError, cli_error};

/// Reads the `--input` of `run`: a file, `-` for stdin, or nothing for `{}`.
pub(crate) fn read_object(input: Option<&str>) -> Result<Map<String, Value>, CliError> {
    let (text, name) = match input {
        None => return Ok(Map::new()),
        Some("-") => {
            let text = read_stream(std::io::stdin().lock(), Path::new("<stdin>"), Cap::INPUT)
                .map_err(|e| cli_error!("{e}"))?;
            (text, "<stdin>".to_owned())
        }
        Some(path) => (read_file(Path::new(path), Cap::INPUT)?, path.to_owned()),
    };
    parse_object(&text, &name)
}

/// Reads a whole regular file of at most `cap`, with the path in the error.
pub(crate) fn read_file(path: &Path, cap: Cap) -> Result<String, CliError> {
    read_text(path, cap).map_err(|e| cli_error!("{e}"))
}

/// Parses text that must be one JSON object.
pub(crate) fn parse_object(text: &str, name: &str) -> Result<Map<String, Value>, CliError> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(cli_error!(
            "{name}:1:1: error: the input must be a JSON object, found {}",
            hook_protocol::codec::kind_of(&other)
        )),
        Err(e) => Err(cli_error!(
            "{name}:{}:{}: error: invalid JSON: {}",
            e.line(),
            column(&e),
            strip_position(&e)
        )),
    }
}

/// One recorded event of a replay file.
#[derive(Debug, Clone)]
pub(crate) struct Recorded {
    pub(crate) line: usize,
    pub(crate) event: String,
    pub(crate) input: Map<String, Value>,
}

/// Reads a replay file: `{"event": NAME, "input": {...}}` per line; blank lines are skipped.
pub(crate) fn read_session(path: &Path) -> Result<Vec<Recorded>, CliError> {
    let text = read_file(path, Cap::RECORDING)?;
    let name = path.display().to_string();
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(line).map_err(|e| {
            cli_error!(
                "{name}:{line_no}:{}: error: invalid JSON: {}",
                column(&e),
                strip_position(&e)
            )
        })?;
        let Value::Object(mut obj) = value else {
            return Err(cli_error!("{name}:{line_no}:1: error: each line must be a JSON object"));
        };
        let event = match obj.remove("event") {
            Some(Value::String(s)) => s,
            Some(_) => {
                let col = key_column(line, "event");
                return Err(cli_error!("{name}:{line_no}:{col}: error: `event` must be a string"));
            }
            None => return Err(cli_error!("{name}:{line_no}:1: error: `event` is missing")),
        };
        let input = match obj.remove("input") {
            Some(Value::Object(m)) => m,
            None => Map::new(),
            Some(other) => {
                return Err(cli_error!(
                    "{name}:{line_no}:{}: error: `input` must be a JSON object, found {}",
                    key_column(line, "input"),
                    hook_protocol::codec::kind_of(&other)
                ));
            }
        };
        out.push(Recorded { line: line_no, event, input });
    }
    Ok(out)
}

fn strip_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}

/// The column (from 1, in characters) of the last `"key"` of a one-line JSON object: where the
/// offending member is (the last, as serde_json keeps the last of duplicate keys), else 1.
fn key_column(line: &str, key: &str) -> usize {
    line.rfind(&format!("\"{key}\"")).map_or(1, |at| line[..at].chars().count() + 1)
}

/// The column of a JSON error, from 1: serde_json gives 0 for an error at the start of a line
/// (an end of file after a newline).
fn column(e: &serde_json::Error) -> usize {
    e.column().max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_only() {
        assert!(parse_object("{\"a\": 1}", "x").is_ok());
        assert_eq!(
            parse_object("[1]", "in.json").unwrap_err().0,
            "in.json:1:1: error: the input must be a JSON object, found array"
        );
        assert_eq!(
            parse_object("{\n\"a\" 1}", "in.json").unwrap_err().0,
            "in.json:2:5: error: invalid JSON: expected `:`"
        );
        assert_eq!(
            parse_object("{\"a\": 1,\n", "in.json").unwrap_err().0,
            "in.json:2:1: error: invalid JSON: EOF while parsing a value"
        );
    }
}
