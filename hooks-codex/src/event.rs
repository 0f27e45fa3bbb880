//! Codex's hook events and what Codex does with each, as data.

use hook_protocol::Seam;
use serde::{Deserialize, Serialize};

/// A Codex hook event ([Events](crate::compatibility#events)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[non_exhaustive]
pub enum EventName {
    /// `SessionStart`: a session starts (`source`: `startup`, `resume`, ...).
    SessionStart,
    /// `UserPromptSubmit`: the user submitted a prompt.
    UserPromptSubmit,
    /// `PreToolUse`: a tool is about to run.
    PreToolUse,
    /// `PermissionRequest`: Codex is about to ask for approval.
    PermissionRequest,
    /// `PostToolUse`: a tool ran.
    PostToolUse,
    /// `PreCompact`: the conversation is about to be compacted.
    PreCompact,
    /// `PostCompact`: it was.
    PostCompact,
    /// `SubagentStart`: a sub-agent starts.
    SubagentStart,
    /// `SubagentStop`: a sub-agent wants to end.
    SubagentStop,
    /// `Stop`: the turn wants to end.
    Stop,
    /// `StopFailure`: the turn ended with an error.
    StopFailure,
    /// `Interrupt`: the user interrupted the turn.
    Interrupt,
    /// `SessionEnd`: the session ends.
    SessionEnd,
}

impl EventName {
    /// Every event.
    pub const ALL: [EventName; 13] = [
        EventName::SessionStart,
        EventName::UserPromptSubmit,
        EventName::PreToolUse,
        EventName::PermissionRequest,
        EventName::PostToolUse,
        EventName::PreCompact,
        EventName::PostCompact,
        EventName::SubagentStart,
        EventName::SubagentStop,
        EventName::Stop,
        EventName::StopFailure,
        EventName::Interrupt,
        EventName::SessionEnd,
    ];

    /// The event's name as configuration spells it (case-sensitive).
    pub fn as_str(self) -> &'static str {
        match self {
            EventName::SessionStart => "SessionStart",
            EventName::UserPromptSubmit => "UserPromptSubmit",
            EventName::PreToolUse => "PreToolUse",
            EventName::PermissionRequest => "PermissionRequest",
            EventName::PostToolUse => "PostToolUse",
            EventName::PreCompact => "PreCompact",
            EventName::PostCompact => "PostCompact",
            EventName::SubagentStart => "SubagentStart",
            EventName::SubagentStop => "SubagentStop",
            EventName::Stop => "Stop",
            EventName::StopFailure => "StopFailure",
            EventName::Interrupt => "Interrupt",
            EventName::SessionEnd => "SessionEnd",
        }
    }

    /// The event's label in Codex's hook keys and trust hashes (`pre_tool_use`).
    pub fn label(self) -> &'static str {
        match self {
            EventName::SessionStart => "session_start",
            EventName::UserPromptSubmit => "user_prompt_submit",
            EventName::PreToolUse => "pre_tool_use",
            EventName::PermissionRequest => "permission_request",
            EventName::PostToolUse => "post_tool_use",
            EventName::PreCompact => "pre_compact",
            EventName::PostCompact => "post_compact",
            EventName::SubagentStart => "subagent_start",
            EventName::SubagentStop => "subagent_stop",
            EventName::Stop => "stop",
            EventName::StopFailure => "stop_failure",
            EventName::Interrupt => "interrupt",
            EventName::SessionEnd => "session_end",
        }
    }

    /// The input field a matcher is tested against, or `None` when the event ignores
    /// matchers ([Matchers](crate::compatibility#matchers)).
    pub fn subject_field(self) -> Option<&'static str> {
        match self {
            EventName::PreToolUse | EventName::PermissionRequest | EventName::PostToolUse => {
                Some("tool_name")
            }
            EventName::SessionStart => Some("source"),
            _ => None,
        }
    }

    /// Whether plain text on stdout (exit 0) is context for the model.
    pub fn plain_stdout_is_context(self) -> bool {
        matches!(self, EventName::SessionStart | EventName::UserPromptSubmit)
    }

    /// Whether the event happens inside a turn (its input carries `turn_id`).
    pub fn in_turn(self) -> bool {
        !matches!(self, EventName::SessionStart | EventName::SessionEnd)
    }

    /// The neutral seam the event maps to, or `None` for events raised as custom events.
    pub fn seam(self) -> Option<Seam> {
        Some(match self {
            EventName::SessionStart => Seam::SessionStart,
            EventName::UserPromptSubmit => Seam::PromptSubmit,
            EventName::PreToolUse => Seam::PreTool,
            EventName::PermissionRequest => Seam::PermissionRequest,
            EventName::PostToolUse => Seam::PostTool,
            EventName::PreCompact => Seam::PreCompact,
            EventName::SubagentStart => Seam::SubagentStart,
            EventName::SubagentStop => Seam::SubagentEnd,
            EventName::Stop => Seam::TurnEnd,
            EventName::SessionEnd => Seam::SessionEnd,
            EventName::PostCompact | EventName::StopFailure | EventName::Interrupt => {
                return None;
            }
        })
    }

    /// The event raised at a neutral seam, if one maps to it.
    pub fn from_seam(seam: Seam) -> Option<EventName> {
        EventName::ALL.into_iter().find(|e| e.seam() == Some(seam))
    }
}

hook_kit::event_table!(EventName, "Codex event", [subject_field]);

/// The tools Codex names differently from Claude Code, and the names a matcher also matches
/// them by ([Tool names](crate::compatibility#tool-names)): `apply_patch`, Codex's one edit
/// tool, answers to `Edit` and `Write`.
pub const TOOL_ALIASES: &[(&str, &[&str])] = &[("apply_patch", &["Edit", "Write"])];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_snake_case_and_names_case_sensitive() {
        for e in EventName::ALL {
            assert!(e.label().chars().all(|c| c.is_ascii_lowercase() || c == '_'), "{e}");
        }
        assert_eq!(EventName::parse("preToolUse"), None, "names are case-sensitive");
        assert_eq!(EventName::from_seam(Seam::TurnEnd), Some(EventName::Stop));
    }
}
