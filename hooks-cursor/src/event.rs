//! Cursor's hook events, what fires each, and what Cursor reads from each, as data.

use hook_protocol::Seam;
use serde::{Deserialize, Serialize};

/// A Cursor hook event ([Events](crate::compatibility#events)), as `hooks.json` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[non_exhaustive]
pub enum EventName {
    /// `sessionStart`: a conversation starts.
    SessionStart,
    /// `sessionEnd`: it ends.
    SessionEnd,
    /// `preToolUse`: before every tool call.
    PreToolUse,
    /// `postToolUse`: after a tool call that succeeded.
    PostToolUse,
    /// `postToolUseFailure`: after a tool call that failed or was denied.
    PostToolUseFailure,
    /// `subagentStart`: before a sub-agent starts.
    SubagentStart,
    /// `subagentStop`: after a sub-agent ends.
    SubagentStop,
    /// `beforeShellExecution`: before a shell command (beside `preToolUse`).
    BeforeShellExecution,
    /// `afterShellExecution`: after one (beside `postToolUse`).
    AfterShellExecution,
    /// `beforeMCPExecution`: before an MCP tool (beside `preToolUse`).
    BeforeMcpExecution,
    /// `afterMCPExecution`: after one (beside `postToolUse`).
    AfterMcpExecution,
    /// `beforeReadFile`: before the agent reads a file (beside `preToolUse`).
    BeforeReadFile,
    /// `afterFileEdit`: after the agent edits a file (beside `postToolUse`).
    AfterFileEdit,
    /// `beforeSubmitPrompt`: after the user sends a prompt, before it goes to the model.
    BeforeSubmitPrompt,
    /// `preCompact`: before the context is compacted.
    PreCompact,
    /// `stop`: the agent loop ends.
    Stop,
    /// `afterAgentResponse`: after an assistant message.
    AfterAgentResponse,
    /// `afterAgentThought`: after a thinking block.
    AfterAgentThought,
    /// `beforeTabFileRead`: before Tab (inline completion) reads a file.
    BeforeTabFileRead,
    /// `afterTabFileEdit`: after Tab edits a file.
    AfterTabFileEdit,
    /// `workspaceOpen`: the app opens a workspace.
    WorkspaceOpen,
}

/// The actions of a tool call that fire Cursor's per-action events beside the generic ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    /// A shell command (`Shell`).
    Shell,
    /// An MCP tool (`MCP:<tool>`).
    Mcp,
    /// A file read (`Read`).
    Read,
    /// A file edit (`Write`).
    Edit,
    /// Any other tool.
    Other,
}

impl EventName {
    /// Every event.
    pub const ALL: [EventName; 21] = [
        EventName::SessionStart,
        EventName::SessionEnd,
        EventName::PreToolUse,
        EventName::PostToolUse,
        EventName::PostToolUseFailure,
        EventName::SubagentStart,
        EventName::SubagentStop,
        EventName::BeforeShellExecution,
        EventName::AfterShellExecution,
        EventName::BeforeMcpExecution,
        EventName::AfterMcpExecution,
        EventName::BeforeReadFile,
        EventName::AfterFileEdit,
        EventName::BeforeSubmitPrompt,
        EventName::PreCompact,
        EventName::Stop,
        EventName::AfterAgentResponse,
        EventName::AfterAgentThought,
        EventName::BeforeTabFileRead,
        EventName::AfterTabFileEdit,
        EventName::WorkspaceOpen,
    ];

    /// The event's name as `hooks.json` spells it (case-sensitive).
    pub fn as_str(self) -> &'static str {
        match self {
            EventName::SessionStart => "sessionStart",
            EventName::SessionEnd => "sessionEnd",
            EventName::PreToolUse => "preToolUse",
            EventName::PostToolUse => "postToolUse",
            EventName::PostToolUseFailure => "postToolUseFailure",
            EventName::SubagentStart => "subagentStart",
            EventName::SubagentStop => "subagentStop",
            EventName::BeforeShellExecution => "beforeShellExecution",
            EventName::AfterShellExecution => "afterShellExecution",
            EventName::BeforeMcpExecution => "beforeMCPExecution",
            EventName::AfterMcpExecution => "afterMCPExecution",
            EventName::BeforeReadFile => "beforeReadFile",
            EventName::AfterFileEdit => "afterFileEdit",
            EventName::BeforeSubmitPrompt => "beforeSubmitPrompt",
            EventName::PreCompact => "preCompact",
            EventName::Stop => "stop",
            EventName::AfterAgentResponse => "afterAgentResponse",
            EventName::AfterAgentThought => "afterAgentThought",
            EventName::BeforeTabFileRead => "beforeTabFileRead",
            EventName::AfterTabFileEdit => "afterTabFileEdit",
            EventName::WorkspaceOpen => "workspaceOpen",
        }
    }

    /// The event a name nearly spells: another case, or Claude Code's name for it, for the hint
    /// of an unknown name.
    pub fn near(name: &str) -> Option<EventName> {
        let claude = match name {
            "UserPromptSubmit" => Some(EventName::BeforeSubmitPrompt),
            "SubagentStop" => Some(EventName::SubagentStop),
            _ => None,
        };
        claude
            .or_else(|| EventName::ALL.into_iter().find(|e| e.as_str().eq_ignore_ascii_case(name)))
    }

    /// The neutral seam whose events fire it, or `None` for the events a harness has no seam
    /// for (Tab, app and per-message events): they load, and never fire.
    pub fn seam(self) -> Option<Seam> {
        Some(match self {
            EventName::SessionStart => Seam::SessionStart,
            EventName::SessionEnd => Seam::SessionEnd,
            EventName::PreToolUse
            | EventName::BeforeShellExecution
            | EventName::BeforeMcpExecution
            | EventName::BeforeReadFile => Seam::PreTool,
            EventName::PostToolUse
            | EventName::AfterShellExecution
            | EventName::AfterMcpExecution
            | EventName::AfterFileEdit => Seam::PostTool,
            EventName::PostToolUseFailure => Seam::PostToolFailure,
            EventName::SubagentStart => Seam::SubagentStart,
            EventName::SubagentStop => Seam::SubagentEnd,
            EventName::BeforeSubmitPrompt => Seam::PromptSubmit,
            EventName::PreCompact => Seam::PreCompact,
            EventName::Stop => Seam::TurnEnd,
            EventName::AfterAgentResponse
            | EventName::AfterAgentThought
            | EventName::BeforeTabFileRead
            | EventName::AfterTabFileEdit
            | EventName::WorkspaceOpen => return None,
        })
    }

    /// The action a per-action event fires for, or `None` for the generic events, which fire
    /// for every call ([Projection](crate::compatibility#projection)).
    pub(crate) fn action(self) -> Option<Action> {
        match self {
            EventName::BeforeShellExecution | EventName::AfterShellExecution => Some(Action::Shell),
            EventName::BeforeMcpExecution | EventName::AfterMcpExecution => Some(Action::Mcp),
            EventName::BeforeReadFile => Some(Action::Read),
            EventName::AfterFileEdit => Some(Action::Edit),
            _ => None,
        }
    }

    /// Whether the event can stop what it is about (`permission`, `continue`).
    pub fn gating(self) -> bool {
        matches!(
            self,
            EventName::PreToolUse
                | EventName::SubagentStart
                | EventName::BeforeShellExecution
                | EventName::BeforeMcpExecution
                | EventName::BeforeReadFile
                | EventName::BeforeSubmitPrompt
                | EventName::BeforeTabFileRead
        )
    }

    /// Whether `permission: "ask"` asks the person on this event (`beforeShellExecution`,
    /// `beforeMCPExecution`); elsewhere Cursor does not enforce it.
    pub fn asks(self) -> bool {
        matches!(self, EventName::BeforeShellExecution | EventName::BeforeMcpExecution)
    }

    /// Whether the event's matcher is tested against anything
    /// ([Matchers](crate::compatibility#matchers)).
    pub fn has_matcher(self) -> bool {
        !matches!(self, EventName::SessionStart | EventName::SessionEnd | EventName::WorkspaceOpen)
    }

    /// Whether the event can keep the agent going (`followup_message`), and so has a
    /// `loop_limit`.
    pub fn continues(self) -> bool {
        matches!(self, EventName::Stop | EventName::SubagentStop)
    }
}

hook_kit::event_table!(EventName, "Cursor event", [near]);

/// Cursor's name for a tool a harness may name otherwise: `Shell` for a shell command
/// (`Bash`), `Write` for an edit (`Edit`, `Write`, `MultiEdit`), `Task` for a sub-agent
/// (`Agent`), `MCP:<tool>` for an MCP tool (`mcp__server__tool`); Cursor's own names as they
/// are ([Tool names](crate::compatibility#tool-names)).
pub fn cursor_tool(name: &str) -> String {
    match name {
        "Bash" | "Shell" => "Shell".to_owned(),
        "Read" => "Read".to_owned(),
        "Write" | "Edit" | "MultiEdit" | "NotebookEdit" => "Write".to_owned(),
        "Agent" | "Task" => "Task".to_owned(),
        _ => match name.strip_prefix("mcp__").and_then(|rest| rest.split_once("__")) {
            Some((_, tool)) => format!("MCP:{tool}"),
            None => name.to_owned(),
        },
    }
}

/// The action a tool call is, by its Cursor name.
pub(crate) fn action_of(cursor_tool: &str) -> Action {
    match cursor_tool {
        "Shell" => Action::Shell,
        "Read" => Action::Read,
        "Write" => Action::Edit,
        t if t.starts_with("MCP:") => Action::Mcp,
        _ => Action::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tools_take_cursors_names_and_near_names_are_found() {
        assert_eq!(cursor_tool("Bash"), "Shell");
        assert_eq!(cursor_tool("mcp__github__create_issue"), "MCP:create_issue");
        assert_eq!(cursor_tool("Grep"), "Grep");
        assert_eq!(action_of(&cursor_tool("Edit")), Action::Edit);
        assert_eq!(EventName::near("beforeMcpExecution"), Some(EventName::BeforeMcpExecution));
    }
}
