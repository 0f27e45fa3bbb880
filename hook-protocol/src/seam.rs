//! The harness's interception points.

use std::fmt;

use serde::Serialize;

/// An interception point of the harness, in the harness's own vocabulary.
///
/// Dialects map their event names onto seams; `Custom` carries a dialect's events that have no
/// neutral seam.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Seam {
    /// A session starts or resumes. Hooks may add context; they cannot block.
    SessionStart,
    /// The user submitted a prompt. Hooks may add context or block the prompt.
    PromptSubmit,
    /// A tool is about to run. Hooks may allow, ask, defer or deny, and rewrite the input.
    PreTool,
    /// The harness is about to ask the user for permission. Hooks may answer for the user.
    PermissionRequest,
    /// A tool ran. Hooks may add context or give the model blocking feedback.
    PostTool,
    /// A tool failed. Hooks may add context.
    PostToolFailure,
    /// The turn wants to end. Hooks may make it continue, with a reason.
    TurnEnd,
    /// A sub-agent starts. Hooks may add context to it.
    SubagentStart,
    /// A sub-agent wants to end. Hooks may make it continue.
    SubagentEnd,
    /// The conversation is about to be compacted. Hooks may block it.
    PreCompact,
    /// A notification is shown. Hooks observe it.
    Notification,
    /// The session ends. Hooks observe it.
    SessionEnd,
    /// The harness is about to send a request to its model. Hooks may rewrite it, or refuse
    /// it (and answer in the model's place).
    ModelRequest,
    /// The model answered (a whole response, or one streamed chunk of it). Hooks may replace
    /// it, or refuse it.
    ModelResponse,
    /// The harness is about to offer its model the tools of a request. Hooks may narrow which
    /// it may call.
    ToolSelection,
    /// A dialect's own event with no neutral seam, routed by name.
    Custom,
}

impl Seam {
    /// Every seam, in declaration order.
    pub const ALL: [Seam; 16] = [
        Seam::SessionStart,
        Seam::PromptSubmit,
        Seam::PreTool,
        Seam::PermissionRequest,
        Seam::PostTool,
        Seam::PostToolFailure,
        Seam::TurnEnd,
        Seam::SubagentStart,
        Seam::SubagentEnd,
        Seam::PreCompact,
        Seam::Notification,
        Seam::SessionEnd,
        Seam::ModelRequest,
        Seam::ModelResponse,
        Seam::ToolSelection,
        Seam::Custom,
    ];

    /// The seam's stable name (`pre_tool`, `turn_end`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Seam::SessionStart => "session_start",
            Seam::PromptSubmit => "prompt_submit",
            Seam::PreTool => "pre_tool",
            Seam::PermissionRequest => "permission_request",
            Seam::PostTool => "post_tool",
            Seam::PostToolFailure => "post_tool_failure",
            Seam::TurnEnd => "turn_end",
            Seam::SubagentStart => "subagent_start",
            Seam::SubagentEnd => "subagent_end",
            Seam::PreCompact => "pre_compact",
            Seam::Notification => "notification",
            Seam::SessionEnd => "session_end",
            Seam::ModelRequest => "model_request",
            Seam::ModelResponse => "model_response",
            Seam::ToolSelection => "tool_selection",
            Seam::Custom => "custom",
        }
    }

    /// Whether a hook's deny changes what the harness does at this seam.
    pub fn can_block(self) -> bool {
        matches!(
            self,
            Seam::PromptSubmit
                | Seam::PreTool
                | Seam::PermissionRequest
                | Seam::PostTool
                | Seam::TurnEnd
                | Seam::SubagentEnd
                | Seam::PreCompact
                | Seam::ModelRequest
                | Seam::ModelResponse
                | Seam::Custom
        )
    }

    /// The index of this seam in [`Seam::ALL`].
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Seam {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_is_in_index_order() {
        for (i, seam) in Seam::ALL.iter().enumerate() {
            assert_eq!(seam.index(), i, "{seam}");
        }
    }
}
