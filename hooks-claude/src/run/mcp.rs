//! `mcp_tool` hooks ([MCP tool hooks](crate::compatibility#mcp-tool-hooks)): the tool's arguments
//! with `${path}` references into the event's JSON.

use serde_json::{Map, Value};

/// The arguments with every `${path}` in a string value (at any depth) replaced by the value
/// at that dotted path of `event` (`${tool_input.file_path}`, `${tool_calls.0.tool_name}`):
/// a string as it is, any other value as its JSON text, a missing path as nothing. Keys and
/// non-string values are kept as written.
pub(crate) fn substitute_input(
    input: &Map<String, Value>,
    event: &Map<String, Value>,
) -> Map<String, Value> {
    input.iter().map(|(k, v)| (k.clone(), substitute_value(v, event))).collect()
}

fn substitute_value(value: &Value, event: &Map<String, Value>) -> Value {
    match value {
        Value::String(s) => Value::String(substitute_text(s, event)),
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| substitute_value(v, event)).collect())
        }
        Value::Object(map) => Value::Object(substitute_input(map, event)),
        other => other.clone(),
    }
}

fn substitute_text(text: &str, event: &Map<String, Value>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        let Some(len) = rest[start + 2..].find('}') else { break };
        out.push_str(&rest[..start]);
        let path = &rest[start + 2..start + 2 + len];
        match lookup(event, path.trim()) {
            Some(Value::String(s)) => out.push_str(s),
            Some(Value::Null) | None => {}
            Some(other) => out.push_str(&other.to_string()),
        }
        rest = &rest[start + 3 + len..];
    }
    out.push_str(rest);
    out
}

fn lookup<'a>(event: &'a Map<String, Value>, path: &str) -> Option<&'a Value> {
    let mut parts = path.split('.');
    let mut current = event.get(parts.next()?)?;
    for part in parts {
        current = match current {
            Value::Object(map) => map.get(part)?,
            Value::Array(items) => items.get(part.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(current)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    use test_support::object as obj;

    #[test]
    fn paths_are_replaced_at_any_depth() {
        let event = obj(json!({
            "hook_event_name": "PostToolUse",
            "tool_input": {"file_path": "/p/a.rs", "limit": 5},
            "tool_calls": [{"tool_name": "Read"}],
        }));
        let input = obj(json!({
            "path": "${tool_input.file_path}",
            "note": "read ${tool_input.limit} lines of ${ tool_input.file_path } (${missing.key})",
            "nested": {"list": ["${tool_calls.0.tool_name}", 3, "${tool_input}"]},
            "open": "${unterminated",
            "n": 1,
        }));
        assert_eq!(
            Value::Object(substitute_input(&input, &event)),
            json!({
                "path": "/p/a.rs",
                "note": "read 5 lines of /p/a.rs ()",
                "nested": {"list": ["Read", 3, "{\"file_path\":\"/p/a.rs\",\"limit\":5}"]},
                "open": "${unterminated",
                "n": 1,
            })
        );
    }
}
