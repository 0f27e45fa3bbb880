//! The messages of a model request, in the Messages API's shape.

use serde::Serialize;
use serde_json::Value;

/// Who a message is from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Role {
    /// The person, and the tool results.
    User,
    /// The model.
    Assistant,
    /// The agent itself: the environment message and hook texts. Claude Code sends these as
    /// `role: "system"` messages among the others; an API that takes system text only at the
    /// top gets them as the harness maps them (a `<system-reminder>` block in the next user
    /// message is the usual way).
    System,
}

/// One block of a message's content.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Block {
    /// Text.
    Text {
        /// The text.
        text: String,
    },
    /// A tool call the model made.
    ToolUse {
        /// The call's identifier.
        id: String,
        /// The tool.
        name: String,
        /// Its input.
        input: Value,
    },
    /// The result of a tool call.
    ToolResult {
        /// The call it answers.
        tool_use_id: String,
        /// What the tool (or the refusal) said.
        content: Value,
        /// Whether it is an error.
        is_error: bool,
    },
}

impl Block {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Block::Text { text: text.into() }
    }

    /// A tool call.
    pub fn tool_use(id: impl Into<String>, name: impl Into<String>, input: Value) -> Self {
        Block::ToolUse { id: id.into(), name: name.into(), input }
    }

    /// A tool result.
    pub fn tool_result(tool_use_id: impl Into<String>, content: Value, is_error: bool) -> Self {
        Block::ToolResult { tool_use_id: tool_use_id.into(), content, is_error }
    }
}

/// One message of a request.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Message {
    /// Who it is from.
    pub role: Role,
    /// Its blocks, in order.
    pub content: Vec<Block>,
}

impl Message {
    /// A message.
    pub fn new(role: Role, content: Vec<Block>) -> Self {
        Self { role, content }
    }

    /// A system message of one text.
    pub fn system(text: impl Into<String>) -> Self {
        Self::new(Role::System, vec![Block::text(text)])
    }
}
