//! Copilot's hook events and what Copilot does with each, as data.

use hook_protocol::Seam;
use serde::{Deserialize, Serialize};

/// A Copilot hook event ([Events](crate::compatibility#events)), as its `version: 1` files
/// name it (camelCase).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[non_exhaustive]
pub enum EventName {
    /// `sessionStart`: a session starts.
    SessionStart,
    /// `userPromptSubmitted`: the user submitted a prompt.
    UserPromptSubmitted,
    /// `userPromptTransformed`: the prompt, with what Copilot adds to it, is about to be sent.
    UserPromptTransformed,
    /// `preToolUse`: a tool is about to run.
    PreToolUse,
    /// `permissionRequest`: Copilot is about to ask for permission to run a tool.
    PermissionRequest,
    /// `postToolUse`: a tool ran and succeeded.
    PostToolUse,
    /// `postToolUseFailure`: a tool ran and failed.
    PostToolUseFailure,
    /// `agentStop`: the agent wants to end its turn.
    AgentStop,
    /// `subagentStart`: a sub-agent starts.
    SubagentStart,
    /// `subagentStop`: a sub-agent ends.
    SubagentStop,
    /// `preCompact`: the conversation is about to be compacted.
    PreCompact,
    /// `notification`: Copilot notifies the user.
    Notification,
    /// `errorOccurred`: an error ended something.
    ErrorOccurred,
    /// `sessionEnd`: the session ends.
    SessionEnd,
}

impl EventName {
    /// Every event.
    pub const ALL: [EventName; 14] = [
        EventName::SessionStart,
        EventName::UserPromptSubmitted,
        EventName::UserPromptTransformed,
        EventName::PreToolUse,
        EventName::PermissionRequest,
        EventName::PostToolUse,
        EventName::PostToolUseFailure,
        EventName::AgentStop,
        EventName::SubagentStart,
        EventName::SubagentStop,
        EventName::PreCompact,
        EventName::Notification,
        EventName::ErrorOccurred,
        EventName::SessionEnd,
    ];

    /// The event's name as configuration spells it (case-sensitive).
    pub fn as_str(self) -> &'static str {
        match self {
            EventName::SessionStart => "sessionStart",
            EventName::UserPromptSubmitted => "userPromptSubmitted",
            EventName::UserPromptTransformed => "userPromptTransformed",
            EventName::PreToolUse => "preToolUse",
            EventName::PermissionRequest => "permissionRequest",
            EventName::PostToolUse => "postToolUse",
            EventName::PostToolUseFailure => "postToolUseFailure",
            EventName::AgentStop => "agentStop",
            EventName::SubagentStart => "subagentStart",
            EventName::SubagentStop => "subagentStop",
            EventName::PreCompact => "preCompact",
            EventName::Notification => "notification",
            EventName::ErrorOccurred => "errorOccurred",
            EventName::SessionEnd => "sessionEnd",
        }
    }

    /// The event a name nearly spells: another case, or Claude Code's PascalCase name for it
    /// (`PreToolUse`, `Stop`), for the hint of an unknown name.
    pub fn near(name: &str) -> Option<EventName> {
        let claude = match name {
            "UserPromptSubmit" => Some(EventName::UserPromptSubmitted),
            "Stop" => Some(EventName::AgentStop),
            "PostToolUseFailure" => Some(EventName::PostToolUseFailure),
            _ => None,
        };
        claude
            .or_else(|| EventName::ALL.into_iter().find(|e| e.as_str().eq_ignore_ascii_case(name)))
    }

    /// The input field a matcher is tested against, or `None` when the event has no subject
    /// ([Matchers](crate::compatibility#matchers)).
    pub fn subject_field(self) -> Option<&'static str> {
        match self {
            EventName::PreToolUse
            | EventName::PermissionRequest
            | EventName::PostToolUse
            | EventName::PostToolUseFailure => Some("toolName"),
            // As Copilot's documented contract has it: the trigger, and the agent's name.
            EventName::PreCompact => Some("trigger"),
            EventName::SubagentStart => Some("agentName"),
            _ => None,
        }
    }

    /// The neutral seam the event maps to, or `None` for events raised as custom events.
    pub fn seam(self) -> Option<Seam> {
        Some(match self {
            EventName::SessionStart => Seam::SessionStart,
            EventName::UserPromptSubmitted => Seam::PromptSubmit,
            EventName::PreToolUse => Seam::PreTool,
            EventName::PermissionRequest => Seam::PermissionRequest,
            EventName::PostToolUse => Seam::PostTool,
            EventName::PostToolUseFailure => Seam::PostToolFailure,
            EventName::AgentStop => Seam::TurnEnd,
            EventName::SubagentStart => Seam::SubagentStart,
            EventName::SubagentStop => Seam::SubagentEnd,
            EventName::PreCompact => Seam::PreCompact,
            EventName::Notification => Seam::Notification,
            EventName::SessionEnd => Seam::SessionEnd,
            EventName::UserPromptTransformed | EventName::ErrorOccurred => return None,
        })
    }

    /// The event raised at a neutral seam, if one maps to it.
    pub fn from_seam(seam: Seam) -> Option<EventName> {
        EventName::ALL.into_iter().find(|e| e.seam() == Some(seam))
    }

    /// Whether a crash of the hook (a non-zero exit other than 2, a hook that cannot start)
    /// denies, as on `preToolUse`: Copilot fails closed there, and open on a timeout.
    pub fn crash_denies(self) -> bool {
        self == EventName::PreToolUse
    }

    /// Whether exit 2 denies (on `preToolUse` and `permissionRequest`); elsewhere its stderr
    /// is a warning for the user.
    pub fn exit2_denies(self) -> bool {
        matches!(self, EventName::PreToolUse | EventName::PermissionRequest)
    }

    /// The event's name in a file of Claude Code's form (`PreToolUse`, `Stop`), whose hooks
    /// Copilot runs as its own ([Claude Code's files](crate::compatibility#claude-codes-files)).
    pub fn claude_name(self) -> &'static str {
        match self {
            EventName::SessionStart => "SessionStart",
            EventName::UserPromptSubmitted => "UserPromptSubmit",
            EventName::UserPromptTransformed => "UserPromptTransformed",
            EventName::PreToolUse => "PreToolUse",
            EventName::PermissionRequest => "PermissionRequest",
            EventName::PostToolUse => "PostToolUse",
            EventName::PostToolUseFailure => "PostToolUseFailure",
            EventName::AgentStop => "Stop",
            EventName::SubagentStart => "SubagentStart",
            EventName::SubagentStop => "SubagentStop",
            EventName::PreCompact => "PreCompact",
            EventName::Notification => "Notification",
            EventName::ErrorOccurred => "ErrorOccurred",
            EventName::SessionEnd => "SessionEnd",
        }
    }

    /// The event a file of Claude Code's form names, when Copilot has it.
    pub fn from_claude(name: &str) -> Option<EventName> {
        EventName::ALL.into_iter().find(|e| e.claude_name() == name)
    }
}

/// A tool's name as Claude Code names it, as Copilot writes it in the payload of a hook of
/// Claude Code's form (`bash` is `Bash`); a tool without a Claude Code name keeps its own.
pub fn claude_tool(name: &str) -> &str {
    TOOL_ALIASES
        .iter()
        .find(|(_, copilot)| copilot.contains(&name))
        .map_or(name, |(claude, _)| claude)
}

hook_kit::event_table!(
    EventName,
    "Copilot event",
    [subject_field, near],
    "Copilot's event names are camelCase"
);

/// The tools a harness may name as Claude Code does, and Copilot's names for them, which a
/// native matcher is written against ([Tool names](crate::compatibility#tool-names)), as
/// Copilot's documentation tables them.
pub const TOOL_ALIASES: &[(&str, &[&str])] = &[
    ("Bash", &["bash", "powershell"]),
    ("Read", &["view"]),
    ("Write", &["create"]),
    ("Edit", &["edit", "str_replace_editor", "apply_patch"]),
    ("Grep", &["grep", "rg"]),
    ("Glob", &["glob"]),
    ("WebFetch", &["web_fetch"]),
    ("WebSearch", &["web_search"]),
    ("AskUserQuestion", &["ask_user"]),
    ("TodoWrite", &["update_todo"]),
    ("Agent", &["task"]),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_names_are_found_and_seams_map_to_copilots_events() {
        assert_eq!(EventName::parse("preToolUse"), Some(EventName::PreToolUse));
        assert_eq!(EventName::near("PreToolUse"), Some(EventName::PreToolUse));
        assert_eq!(EventName::near("Stop"), Some(EventName::AgentStop));
        assert_eq!(EventName::from_seam(Seam::TurnEnd), Some(EventName::AgentStop));
        assert!(EventName::PreToolUse.crash_denies() && !EventName::PostToolUse.crash_denies());
    }
}
