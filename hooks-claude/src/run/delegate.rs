//! The harness's side of `prompt`, `agent` and `mcp_tool` hooks: a model, an agent and MCP
//! servers are the harness's, so these handlers run through traits the harness implements.
//! This crate builds each request (the prompt with the event's JSON, the tool's arguments),
//! bounds it by the hook's timeout, and maps the answer to a decision, event by event.
//!
//! Without an implementation registered, such a handler is skipped with a warning naming it.

use std::fmt;
use std::time::Duration;

use async_trait::async_trait;
use serde_json::{Map, Value};

use crate::EventName;

/// Why the harness could not answer a `prompt`, `agent` or `mcp_tool` hook.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DelegateError {
    /// The MCP server is not connected (and did not connect in time).
    #[error("MCP server `{server}` is not connected")]
    NotConnected {
        /// The server's name.
        server: String,
    },
    /// The MCP server has no such tool.
    #[error("MCP server `{server}` has no tool `{tool}`")]
    UnknownTool {
        /// The server's name.
        server: String,
        /// The tool's name.
        tool: String,
    },
    /// Anything else, in the harness's words.
    #[error("{message}")]
    Failed {
        /// What went wrong.
        message: String,
    },
}

/// A question for the harness's model, from a `prompt` hook.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PromptRequest {
    /// The hook's identifier.
    pub hook_id: String,
    /// The event that fired.
    pub event: EventName,
    /// The prompt, with `$ARGUMENTS` replaced by the event's JSON (appended when absent).
    pub prompt: String,
    /// The model the hook names (`None`: the harness's fast model, Claude Code uses Haiku).
    pub model: Option<String>,
    /// How long the answer may take; the hook is cancelled past it.
    pub timeout: Duration,
    /// The JSON schema the answer must follow: `{"ok": bool, "reason"?: string,
    /// "impossible"?: bool}`, `reason` required when `ok` is false.
    pub schema: Value,
}

/// A task for the harness's agent, from an `agent` hook.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct AgentRequest {
    /// The hook's identifier.
    pub hook_id: String,
    /// The event that fired.
    pub event: EventName,
    /// The prompt, with `$ARGUMENTS` replaced by the event's JSON (appended when absent).
    pub prompt: String,
    /// The model the hook names, if any.
    pub model: Option<String>,
    /// How long the agent may work; the hook is cancelled past it.
    pub timeout: Duration,
    /// The most turns the agent may take (Claude Code: 50), with tools such as Read, Grep and
    /// Glob.
    pub max_turns: u32,
    /// The JSON schema of the final answer: `{"ok": bool, "reason"?: string}`.
    pub schema: Value,
}

/// A call of an MCP tool, from an `mcp_tool` hook.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct McpToolRequest {
    /// The hook's identifier.
    pub hook_id: String,
    /// The event that fired.
    pub event: EventName,
    /// The server (plugin servers: `plugin:<plugin>:<server>`).
    pub server: String,
    /// The tool.
    pub tool: String,
    /// The arguments, `${path}` references replaced from the event's JSON.
    pub input: Map<String, Value>,
    /// How long the call may take, waiting for a connecting server included; the hook is
    /// cancelled past it. The harness should never start an OAuth flow for it.
    pub timeout: Duration,
}

/// One item of an MCP tool's result content.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum McpContent {
    /// Text, read like a command's stdout.
    Text(String),
    /// Any other content (images, resources), ignored.
    Other(Value),
}

/// What an MCP tool returned.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct McpToolResult {
    /// The result's content, in order.
    pub content: Vec<McpContent>,
    /// `isError`: the call failed (a non-blocking error).
    pub is_error: bool,
}

impl McpToolResult {
    /// A successful result with one text item.
    pub fn text(text: impl Into<String>) -> Self {
        Self { content: vec![McpContent::Text(text.into())], is_error: false }
    }

    /// A result with `isError: true` and one text item.
    pub fn error(text: impl Into<String>) -> Self {
        Self { content: vec![McpContent::Text(text.into())], is_error: true }
    }

    /// The text items, joined by newlines.
    pub fn joined_text(&self) -> String {
        let texts: Vec<&str> = self
            .content
            .iter()
            .filter_map(|c| match c {
                McpContent::Text(t) => Some(t.as_str()),
                McpContent::Other(_) => None,
            })
            .collect();
        texts.join("\n")
    }
}

/// The harness's model, for `prompt` hooks.
#[async_trait]
pub trait ModelEvaluator: Send + Sync + fmt::Debug {
    /// Asks the model and returns its reply: a JSON object following
    /// [`PromptRequest::schema`] (this crate reads it and maps it to a decision).
    ///
    /// # Errors
    ///
    /// [`DelegateError`] when the model cannot answer; the hook is then a non-blocking error.
    async fn evaluate(&self, request: &PromptRequest) -> Result<String, DelegateError>;
}

/// The harness's agent, for `agent` hooks.
#[async_trait]
pub trait AgentRunner: Send + Sync + fmt::Debug {
    /// Runs the agent and returns its final reply: a JSON object following
    /// [`AgentRequest::schema`].
    ///
    /// # Errors
    ///
    /// [`DelegateError`] when the agent cannot finish; the hook is then a non-blocking error.
    async fn run(&self, request: &AgentRequest) -> Result<String, DelegateError>;
}

/// The harness's MCP client, for `mcp_tool` hooks.
#[async_trait]
pub trait McpToolCaller: Send + Sync + fmt::Debug {
    /// Calls the tool and returns its result.
    ///
    /// # Errors
    ///
    /// [`DelegateError::NotConnected`] when the server is not connected; any error makes the
    /// hook a non-blocking error.
    async fn call(&self, request: &McpToolRequest) -> Result<McpToolResult, DelegateError>;
}
