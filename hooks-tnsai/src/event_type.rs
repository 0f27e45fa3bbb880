//! TNSAI event types and their mapping onto the harness's seams.
//!
//! TNSAI names events by their Java class's simple name (`PreToolUse`, `Stop`, ...). Every
//! core seam has one TNSAI name; any other name is a custom event, routed by that name through
//! [`Seam::Custom`].
//!
//! | TNSAI `event_type` | core seam |
//! |---|---|
//! | `SessionStart` | [`Seam::SessionStart`] |
//! | `UserPromptSubmit` | [`Seam::PromptSubmit`] |
//! | `PreToolUse` | [`Seam::PreTool`] |
//! | `PermissionRequest` | [`Seam::PermissionRequest`] |
//! | `PostToolUse` | [`Seam::PostTool`] |
//! | `PostToolUseFailure` | [`Seam::PostToolFailure`] |
//! | `Stop` | [`Seam::TurnEnd`] |
//! | `SubagentStart` | [`Seam::SubagentStart`] |
//! | `SubagentStop` | [`Seam::SubagentEnd`] |
//! | `PreCompact` | [`Seam::PreCompact`] |
//! | `Notification` | [`Seam::Notification`] |
//! | `SessionEnd` | [`Seam::SessionEnd`] |
//! | any other name | [`Seam::Custom`], by name |

use std::convert::Infallible;
use std::fmt;
use std::str::FromStr;

use hook_protocol::{Event, On, Seam};

/// The `event_type` of a TNSAI envelope.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EventType {
    /// `SessionStart`: a session starts or resumes.
    SessionStart,
    /// `UserPromptSubmit`: the user submitted a prompt.
    UserPromptSubmit,
    /// `PreToolUse`: a tool is about to run.
    PreToolUse,
    /// `PermissionRequest`: the harness is about to ask for permission.
    PermissionRequest,
    /// `PostToolUse`: a tool ran.
    PostToolUse,
    /// `PostToolUseFailure`: a tool failed.
    PostToolUseFailure,
    /// `Stop`: the turn wants to end.
    Stop,
    /// `SubagentStart`: a sub-agent starts.
    SubagentStart,
    /// `SubagentStop`: a sub-agent wants to end.
    SubagentStop,
    /// `PreCompact`: the conversation is about to be compacted.
    PreCompact,
    /// `Notification`: a notification is shown.
    Notification,
    /// `SessionEnd`: the session ends.
    SessionEnd,
    /// Any other event, by its name.
    Custom(String),
}

impl EventType {
    /// Every event type that maps to a neutral seam, in seam order.
    pub const SEAMS: [EventType; 12] = [
        EventType::SessionStart,
        EventType::UserPromptSubmit,
        EventType::PreToolUse,
        EventType::PermissionRequest,
        EventType::PostToolUse,
        EventType::PostToolUseFailure,
        EventType::Stop,
        EventType::SubagentStart,
        EventType::SubagentStop,
        EventType::PreCompact,
        EventType::Notification,
        EventType::SessionEnd,
    ];

    /// The event type of a name: a seam's TNSAI name, or a custom event.
    pub fn from_name(name: &str) -> Self {
        Self::SEAMS
            .iter()
            .find(|t| t.as_str() == name)
            .cloned()
            .unwrap_or_else(|| EventType::Custom(name.to_owned()))
    }

    /// The event type of a neutral event: its seam's TNSAI name, or its custom name.
    pub fn of(event: &Event) -> Self {
        match event.custom_name() {
            Some(name) => Self::from_name(name),
            None => Self::from_seam(event.seam()).unwrap_or(EventType::Custom(String::new())),
        }
    }

    /// The TNSAI event type of a seam; `None` for [`Seam::Custom`] (whose name is the event's)
    /// and for the model seams, which TNSAI has no event type for.
    pub fn from_seam(seam: Seam) -> Option<Self> {
        Self::SEAMS.iter().find(|t| t.seam() == seam).cloned()
    }

    /// The name as it appears in `event_type`.
    pub fn as_str(&self) -> &str {
        match self {
            EventType::SessionStart => "SessionStart",
            EventType::UserPromptSubmit => "UserPromptSubmit",
            EventType::PreToolUse => "PreToolUse",
            EventType::PermissionRequest => "PermissionRequest",
            EventType::PostToolUse => "PostToolUse",
            EventType::PostToolUseFailure => "PostToolUseFailure",
            EventType::Stop => "Stop",
            EventType::SubagentStart => "SubagentStart",
            EventType::SubagentStop => "SubagentStop",
            EventType::PreCompact => "PreCompact",
            EventType::Notification => "Notification",
            EventType::SessionEnd => "SessionEnd",
            EventType::Custom(name) => name,
        }
    }

    /// The seam the event type is raised at.
    pub fn seam(&self) -> Seam {
        match self {
            EventType::SessionStart => Seam::SessionStart,
            EventType::UserPromptSubmit => Seam::PromptSubmit,
            EventType::PreToolUse => Seam::PreTool,
            EventType::PermissionRequest => Seam::PermissionRequest,
            EventType::PostToolUse => Seam::PostTool,
            EventType::PostToolUseFailure => Seam::PostToolFailure,
            EventType::Stop => Seam::TurnEnd,
            EventType::SubagentStart => Seam::SubagentStart,
            EventType::SubagentStop => Seam::SubagentEnd,
            EventType::PreCompact => Seam::PreCompact,
            EventType::Notification => Seam::Notification,
            EventType::SessionEnd => Seam::SessionEnd,
            EventType::Custom(_) => Seam::Custom,
        }
    }

    /// Whether the event is a tool call that has not run yet, whose input a `modify` rewrites.
    pub fn rewrites_tool_input(&self) -> bool {
        matches!(self, EventType::PreToolUse | EventType::PermissionRequest)
    }
}

impl fmt::Display for EventType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for EventType {
    type Err = Infallible;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Self::from_name(s))
    }
}

/// Which events a TNSAI hook observes: one event type, or every event (`"*"` in a hook list).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EventSelector {
    /// Every event, at every seam and every custom event.
    Every,
    /// Events of one type.
    Type(EventType),
}

impl EventSelector {
    /// The selector of a hook list's `event_type` value: `*` is every event, anything else
    /// one type.
    pub fn from_name(name: &str) -> Self {
        if name == "*" {
            EventSelector::Every
        } else {
            EventSelector::Type(EventType::from_name(name))
        }
    }

    /// The core registration of the selector.
    pub fn on(&self) -> On {
        match self {
            EventSelector::Every => On::Every,
            EventSelector::Type(EventType::Custom(name)) => On::Custom(name.clone()),
            EventSelector::Type(t) => On::seam(t.seam()),
        }
    }
}

impl fmt::Display for EventSelector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EventSelector::Every => f.write_str("*"),
            EventSelector::Type(t) => f.write_str(t.as_str()),
        }
    }
}

impl From<EventType> for EventSelector {
    fn from(value: EventType) -> Self {
        EventSelector::Type(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_seam_has_one_name_and_back() {
        for seam in Seam::ALL {
            match EventType::from_seam(seam) {
                Some(t) => {
                    assert_eq!(t.seam(), seam);
                    assert_eq!(EventType::from_name(t.as_str()), t);
                }
                // TNSAI's twelve event types have none for the model seams.
                None => assert!(
                    matches!(
                        seam,
                        Seam::Custom
                            | Seam::ModelRequest
                            | Seam::ModelResponse
                            | Seam::ToolSelection
                    ),
                    "{seam}"
                ),
            }
        }
        assert_eq!(EventType::from_name("Stop").seam(), Seam::TurnEnd);
        assert_eq!(EventType::from_name("SubagentStop").seam(), Seam::SubagentEnd);
    }

    #[test]
    fn other_names_are_custom() {
        let t: EventType = "DeployRequested".parse().unwrap();
        assert_eq!(t, EventType::Custom("DeployRequested".into()));
        assert_eq!(t.seam(), Seam::Custom);
        assert_eq!(EventSelector::from_name("*"), EventSelector::Every);
        assert_eq!(
            EventSelector::from_name("DeployRequested").on(),
            On::Custom("DeployRequested".into())
        );
        assert_eq!(EventSelector::from_name("PreToolUse").on(), On::seam(Seam::PreTool));
    }
}
