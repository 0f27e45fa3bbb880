//! Gemini CLI's hook events, the seams that fire them, and Gemini's tool names.

use hook_protocol::Seam;
use serde::{Deserialize, Serialize};

/// A Gemini CLI hook event ([Events](crate::compatibility#events)), as `settings.json` names
/// it: exactly eleven.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[non_exhaustive]
pub enum EventName {
    /// `BeforeTool`: before a tool runs.
    BeforeTool,
    /// `AfterTool`: after a tool ran.
    AfterTool,
    /// `BeforeAgent`: the user's prompt, before the agent works on it.
    BeforeAgent,
    /// `AfterAgent`: the agent's turn ends.
    AfterAgent,
    /// `BeforeModel`: before each model request.
    BeforeModel,
    /// `AfterModel`: after each streamed chunk of a model response.
    AfterModel,
    /// `BeforeToolSelection`: before each model request, over the tools it may call.
    BeforeToolSelection,
    /// `SessionStart`: a session starts.
    SessionStart,
    /// `SessionEnd`: it ends.
    SessionEnd,
    /// `Notification`: a tool needs the person's confirmation.
    Notification,
    /// `PreCompress`: before the history may be compressed (before every model request).
    PreCompress,
}

impl EventName {
    /// Every event, in the order Gemini's documentation lists them.
    pub const ALL: [EventName; 11] = [
        EventName::BeforeTool,
        EventName::AfterTool,
        EventName::BeforeAgent,
        EventName::AfterAgent,
        EventName::BeforeModel,
        EventName::AfterModel,
        EventName::BeforeToolSelection,
        EventName::SessionStart,
        EventName::SessionEnd,
        EventName::Notification,
        EventName::PreCompress,
    ];

    /// The event's name as `settings.json` spells it (case-sensitive).
    pub fn as_str(self) -> &'static str {
        match self {
            EventName::BeforeTool => "BeforeTool",
            EventName::AfterTool => "AfterTool",
            EventName::BeforeAgent => "BeforeAgent",
            EventName::AfterAgent => "AfterAgent",
            EventName::BeforeModel => "BeforeModel",
            EventName::AfterModel => "AfterModel",
            EventName::BeforeToolSelection => "BeforeToolSelection",
            EventName::SessionStart => "SessionStart",
            EventName::SessionEnd => "SessionEnd",
            EventName::Notification => "Notification",
            EventName::PreCompress => "PreCompress",
        }
    }

    /// The event a name nearly spells: another case, or Claude Code's name for it, for the
    /// hint of an unknown name.
    pub fn near(name: &str) -> Option<EventName> {
        let claude = match name {
            "PreToolUse" => Some(EventName::BeforeTool),
            "PostToolUse" => Some(EventName::AfterTool),
            "UserPromptSubmit" => Some(EventName::BeforeAgent),
            "Stop" => Some(EventName::AfterAgent),
            "PreCompact" => Some(EventName::PreCompress),
            _ => None,
        };
        claude
            .or_else(|| EventName::ALL.into_iter().find(|e| e.as_str().eq_ignore_ascii_case(name)))
    }

    /// The neutral seam whose events fire it.
    pub fn seam(self) -> Option<Seam> {
        Some(match self {
            EventName::BeforeTool => Seam::PreTool,
            EventName::AfterTool => Seam::PostTool,
            EventName::BeforeAgent => Seam::PromptSubmit,
            EventName::AfterAgent => Seam::TurnEnd,
            EventName::SessionStart => Seam::SessionStart,
            EventName::SessionEnd => Seam::SessionEnd,
            EventName::Notification => Seam::Notification,
            EventName::PreCompress => Seam::PreCompact,
            EventName::BeforeModel => Seam::ModelRequest,
            EventName::AfterModel => Seam::ModelResponse,
            EventName::BeforeToolSelection => Seam::ToolSelection,
        })
    }

    /// The input field a matcher is tested against: the tool's name on the tool events (a
    /// regular expression), the source, reason or trigger on the session and compression
    /// events (an exact string); the other events have none.
    pub fn subject_field(self) -> Option<&'static str> {
        match self {
            EventName::BeforeTool | EventName::AfterTool => Some("tool_name"),
            EventName::SessionStart => Some("source"),
            EventName::SessionEnd => Some("reason"),
            EventName::PreCompress => Some("trigger"),
            _ => None,
        }
    }

    /// Whether the matcher is a regular expression (the tool events) rather than an exact
    /// string.
    pub fn matches_by_pattern(self) -> bool {
        matches!(self, EventName::BeforeTool | EventName::AfterTool)
    }
}

hook_kit::event_table!(
    EventName,
    "Gemini CLI event",
    [subject_field, near],
    "Gemini CLI event names are BeforeTool, AfterTool, BeforeAgent, AfterAgent, BeforeModel, \
     AfterModel, BeforeToolSelection, SessionStart, SessionEnd, Notification, PreCompress",
    always = true
);

/// Gemini's name for a tool a harness names as Claude Code does: `run_shell_command` for a
/// shell command (`Bash`), `write_file` for a file written whole, `replace` for an edit,
/// `read_file`, `web_fetch`, `glob`, `search_file_content` (`Grep`), `google_web_search`
/// (`WebSearch`); Gemini's own names, and an MCP tool's, as they are
/// ([Tool names](crate::compatibility#tool-names)).
pub fn gemini_tool(name: &str) -> &str {
    GEMINI_TOOLS.iter().find(|(claude, _)| *claude == name).map_or(name, |(_, gemini)| gemini)
}

/// Claude Code's tool names and Gemini's.
pub const GEMINI_TOOLS: &[(&str, &str)] = &[
    ("Bash", "run_shell_command"),
    ("Write", "write_file"),
    ("Edit", "replace"),
    ("Read", "read_file"),
    ("WebFetch", "web_fetch"),
    ("Glob", "glob"),
    ("Grep", "search_file_content"),
    ("WebSearch", "google_web_search"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_codes_names_are_near_gemini_ones_and_tools_take_geminis_names() {
        assert_eq!(EventName::parse("PreToolUse"), None);
        assert_eq!(EventName::near("PreToolUse"), Some(EventName::BeforeTool));
        assert_eq!(gemini_tool("Bash"), "run_shell_command");
        assert_eq!(gemini_tool("write_file"), "write_file");
        assert_eq!(EventName::BeforeModel.seam(), Some(Seam::ModelRequest));
    }
}
