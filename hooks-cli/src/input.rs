//! Reading event inputs: one JSON object from a file or stdin, or a JSON Lines session.

use std::io::Read;
use std::path::Path;

use serde_json::{Map, Value};

use crate::error::{CliError, cli_error};

/// Reads the `--input` of `run`: a file, `-` for stdin, or nothing for `{}`.
pub(crate) fn read_object(input: Option<&str>) -> Result<Map<String, Value>, CliError> {
    let (text, name) = match input {
        None => return Ok(Map::new()),
        Some("-") => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| cli_error!("cannot read the input from stdin: {e}"))?;
            (text, "<stdin>".to_owned())
        }
        Some(path) => (read_file(Path::new(path))?, path.to_owned()),
    };
    parse_object(&text, &name)
}

/// Reads a whole file, with the path in the error.
pub(crate) fn read_file(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path)
        .map_err(|e| cli_error!("cannot read `{}`: {}", path.display(), lower(&e)))
}

/// Parses text that must be one JSON object.
pub(crate) fn parse_object(text: &str, name: &str) -> Result<Map<String, Value>, CliError> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(cli_error!(
            "{name}: the input must be a JSON object, found {}",
            hook_protocol::codec::kind_of(&other)
        )),
        Err(e) => Err(cli_error!(
            "{name}:{}:{}: invalid JSON: {}",
            e.line(),
            e.column(),
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
    let text = read_file(path)?;
    let name = path.display().to_string();
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(line).map_err(|e| {
            cli_error!("{name}:{line_no}:{}: invalid JSON: {}", e.column(), strip_position(&e))
        })?;
        let Value::Object(mut obj) = value else {
            return Err(cli_error!("{name}:{line_no}:1: each line must be a JSON object"));
        };
        let event = match obj.remove("event") {
            Some(Value::String(s)) => s,
            Some(_) => return Err(cli_error!("{name}:{line_no}: `event` must be a string")),
            None => return Err(cli_error!("{name}:{line_no}: missing `event`")),
        };
        let input = match obj.remove("input") {
            Some(Value::Object(m)) => m,
            None => Map::new(),
            Some(other) => {
                return Err(cli_error!(
                    "{name}:{line_no}: `input` must be a JSON object, found {}",
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

/// An I/O error's text, lower-cased at the start as our messages are.
pub(crate) fn lower(e: &std::io::Error) -> String {
    let text = e.to_string();
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_only() {
        assert!(parse_object("{\"a\": 1}", "x").is_ok());
        assert_eq!(
            parse_object("[1]", "in.json").unwrap_err().0,
            "in.json: the input must be a JSON object, found array"
        );
        assert_eq!(
            parse_object("{\n\"a\" 1}", "in.json").unwrap_err().0,
            "in.json:2:5: invalid JSON: expected `:`"
        );
    }
}
