//! The neutral tool vocabulary: what a harness's tool call is, named as Claude Code names its
//! tools, so that each dialect can write it with its own agent's tool name and input shape.
//!
//! | neutral tool | name | input |
//! | --- | --- | --- |
//! | a shell command | `Bash` | `command` |
//! | a file read | `Read` | `file_path` |
//! | a file write | `Write` | `file_path`, `content` |
//! | a file edit | `Edit` | `file_path`, `old_string`, `new_string` |
//! | a web fetch | `WebFetch` | `url` (`prompt`) |
//! | an MCP tool | `mcp__<server>__<tool>` | the tool's arguments |
//! | a sub-agent | `Agent` (or `Task`) | `prompt`, `description`, `subagent_type` |
//! | any other tool | its name | its input |

use serde_json::Value;

use crate::{DialectError, ToolCall};

/// What a neutral tool call is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NeutralTool<'a> {
    /// A shell command (`Bash`).
    Shell,
    /// A file read (`Read`).
    Read,
    /// A file written whole (`Write`).
    Write,
    /// A file edited, one string replaced by another (`Edit`).
    Edit,
    /// A web page fetched (`WebFetch`).
    WebFetch,
    /// An MCP server's tool (`mcp__<server>__<tool>`).
    Mcp {
        /// The server's name.
        server: &'a str,
        /// The tool's name on that server.
        tool: &'a str,
    },
    /// A sub-agent started (`Agent`, or `Task` as Claude Code called it before).
    Subagent,
    /// Any other tool, by its name.
    Other,
}

impl<'a> NeutralTool<'a> {
    /// What a tool named `name` in the neutral vocabulary is.
    pub fn of(name: &'a str) -> Self {
        match name {
            "Bash" => NeutralTool::Shell,
            "Read" => NeutralTool::Read,
            "Write" => NeutralTool::Write,
            "Edit" => NeutralTool::Edit,
            "WebFetch" => NeutralTool::WebFetch,
            "Agent" | "Task" => NeutralTool::Subagent,
            _ => match name.strip_prefix("mcp__").and_then(|rest| rest.split_once("__")) {
                Some((server, tool)) if !server.is_empty() && !tool.is_empty() => {
                    NeutralTool::Mcp { server, tool }
                }
                _ => NeutralTool::Other,
            },
        }
    }
}

/// Reads a neutral tool call's input for an agent that needs its fields: the text at `field`
/// in the call's input, or an error naming the agent and the field (an empty text when the
/// read is `lenient`).
#[derive(Debug, Clone, Copy)]
pub struct ToolInput<'a> {
    call: &'a ToolCall,
    event: &'a str,
    agent: &'a str,
    lenient: bool,
}

impl<'a> ToolInput<'a> {
    /// The input of `call`, on `event`, written for `agent` (its title, `Codex`).
    pub fn new(call: &'a ToolCall, event: &'a str, agent: &'a str, lenient: bool) -> Self {
        Self { call, event, agent, lenient }
    }

    /// The text at `field`, which `agent` needs.
    ///
    /// # Errors
    ///
    /// [`DialectError::InvalidInput`] naming the agent and the field, when it is not a text
    /// and the read is not lenient.
    pub fn text(&self, field: &str) -> Result<&'a str, DialectError> {
        match self.call.tool_input.get(field).and_then(Value::as_str) {
            Some(text) => Ok(text),
            None if self.lenient => Ok(""),
            None => Err(DialectError::InvalidInput {
                event: self.event.to_owned(),
                message: format!(
                    "{} needs `tool_input.{field}` (a string) for `{}`",
                    self.agent, self.call.tool_name
                ),
                lenient_would_run: true,
            }),
        }
    }

    /// The value at `field`, if any.
    pub fn get(&self, field: &str) -> Option<&'a Value> {
        self.call.tool_input.get(field)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tools_are_named_as_claude_code_names_them() {
        assert_eq!(NeutralTool::of("Bash"), NeutralTool::Shell);
        assert_eq!(NeutralTool::of("Task"), NeutralTool::Subagent);
        assert_eq!(
            NeutralTool::of("mcp__github__create_issue"),
            NeutralTool::Mcp { server: "github", tool: "create_issue" }
        );
        assert_eq!(NeutralTool::of("mcp__github"), NeutralTool::Other);
        assert_eq!(NeutralTool::of("mcp____x"), NeutralTool::Other);
        assert_eq!(NeutralTool::of("bash"), NeutralTool::Other, "names are case-sensitive");
    }

    #[test]
    fn a_missing_field_names_the_agent_unless_lenient() {
        let call = ToolCall::new("Edit", serde_json::json!({"file_path": "a"}));
        let strict = ToolInput::new(&call, "PreToolUse", "Codex", false);
        assert_eq!(strict.text("file_path").ok(), Some("a"));
        let e = strict.text("old_string").err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(
            e,
            "PreToolUse: invalid input: Codex needs `tool_input.old_string` (a string) for `Edit`"
        );
        let lenient = ToolInput::new(&call, "PreToolUse", "Codex", true);
        assert_eq!(lenient.text("old_string").ok(), Some(""));
    }
}
