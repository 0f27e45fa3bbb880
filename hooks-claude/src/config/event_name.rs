//! The 33 Claude Code hook events and what each one does with a hook's answer.
//!
//! Everything event-specific that is a fact about Claude Code lives here, as data: the matcher
//! subject, the default timeout, the handler types the event accepts, what exit code 2 does,
//! which output fields it discards, and which neutral [`Seam`] it maps to.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use hook_protocol::Seam;
use serde::{Deserialize, Serialize};

macro_rules! events {
    ($($name:ident),* $(,)?) => {
        /// A Claude Code hook event ([Events](crate::compatibility#events)).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[non_exhaustive]
        pub enum EventName {
            $(
                #[doc = concat!("`", stringify!($name), "`.")]
                $name,
            )*
        }

        impl EventName {
            /// Every event, in the order of the [Events](crate::compatibility#events) table.
            pub const ALL: &'static [EventName] = &[$(EventName::$name),*];

            /// The event's name as Claude Code spells it (case-sensitive).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(EventName::$name => stringify!($name),)*
                }
            }

            /// The event with this exact name, if Claude Code has one.
            pub fn parse(name: &str) -> Option<EventName> {
                match name {
                    $(stringify!($name) => Some(EventName::$name),)*
                    _ => None,
                }
            }
        }
    };
}

events! {
    SessionStart, Setup, InstructionsLoaded, UserPromptSubmit, UserPromptExpansion,
    MessageDisplay, PreToolUse, PermissionRequest, PermissionDenied, PostToolUse,
    PostToolUseFailure, PostToolBatch, Notification, SubagentStart, SubagentStop, TaskCreated,
    TaskCompleted, Stop, StopFailure, TeammateIdle, ConfigChange, CwdChanged, DirectoryAdded,
    FileChanged, WorktreeCreate, WorktreeRemove, PreCompact, PostCompact, PreModelSwitch,
    PostModelSwitch, Elicitation, ElicitationResult, SessionEnd,
}

/// The kinds of handler a configuration may give
/// ([Handler types](crate::compatibility#handler-types)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum HandlerType {
    /// A command run as a process.
    Command,
    /// An HTTP POST.
    Http,
    /// A tool of an MCP server.
    McpTool,
    /// A prompt to a model.
    Prompt,
    /// An agent with tools.
    Agent,
}

impl HandlerType {
    /// Every type.
    pub const ALL: &'static [HandlerType] = &[
        HandlerType::Command,
        HandlerType::Http,
        HandlerType::McpTool,
        HandlerType::Prompt,
        HandlerType::Agent,
    ];

    /// The type's name as written in configuration.
    pub fn as_str(self) -> &'static str {
        match self {
            HandlerType::Command => "command",
            HandlerType::Http => "http",
            HandlerType::McpTool => "mcp_tool",
            HandlerType::Prompt => "prompt",
            HandlerType::Agent => "agent",
        }
    }

    /// The type named `name`, if any.
    pub fn parse(name: &str) -> Option<HandlerType> {
        Some(match name {
            "command" => HandlerType::Command,
            "http" => HandlerType::Http,
            "mcp_tool" => HandlerType::McpTool,
            "prompt" => HandlerType::Prompt,
            "agent" => HandlerType::Agent,
            _ => return None,
        })
    }
}

impl fmt::Display for HandlerType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What exit code 2 (a blocking error) does on an event
/// ([Exit 2 per event](crate::compatibility#exit-2-per-event)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Exit2 {
    /// Blocks the action; stderr is the reason.
    Block,
    /// The action already happened; stderr goes to the model as feedback.
    Feedback,
    /// Stderr is shown to the user; nothing is blocked.
    UserNotice,
    /// Ignored (stderr to the debug log at most).
    Ignored,
}

/// Which fields of a hook's JSON output an event keeps
/// ([Output per event](crate::compatibility#output-per-event)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Keeps {
    /// Every field.
    All,
    /// Everything but `continue`.
    NoContinue,
    /// Everything but `systemMessage` and `continue`.
    NoSystemMessageNoContinue,
    /// Only `terminalSequence`.
    TerminalOnly,
    /// Nothing.
    Nothing,
}

impl EventName {
    /// The input field matchers are tested against, or `None` when the event ignores matchers
    /// ([Matchers](crate::compatibility#matchers)).
    pub fn subject_field(self) -> Option<&'static str> {
        use EventName::*;
        Some(match self {
            SessionStart | DirectoryAdded | ConfigChange => "source",
            Setup | PreCompact | PostCompact => "trigger",
            InstructionsLoaded => "load_reason",
            UserPromptExpansion => "command_name",
            PreToolUse | PermissionRequest | PermissionDenied | PostToolUse
            | PostToolUseFailure => "tool_name",
            Notification => "notification_type",
            SubagentStart | SubagentStop => "agent_type",
            StopFailure => "error",
            FileChanged => "file_path",
            PreModelSwitch | PostModelSwitch => "to_model",
            Elicitation | ElicitationResult => "mcp_server_name",
            SessionEnd => "reason",
            UserPromptSubmit | MessageDisplay | PostToolBatch | TaskCreated | TaskCompleted
            | Stop | TeammateIdle | CwdChanged | WorktreeCreate | WorktreeRemove => return None,
        })
    }

    /// Whether the event's hooks are filtered by a matcher.
    pub fn has_matcher(self) -> bool {
        self.subject_field().is_some()
    }

    /// Whether the event uses the narrower exact-match character set (letters, digits, `_`,
    /// `|` only; [Matchers](crate::compatibility#matchers)).
    pub fn narrow_exact(self) -> bool {
        matches!(self, EventName::FileChanged | EventName::StopFailure)
    }

    /// Whether the event is about one tool call, so that an `if` rule is evaluated
    /// ([Handler fields](crate::compatibility#handler-fields)).
    pub fn is_tool_event(self) -> bool {
        use EventName::*;
        matches!(
            self,
            PreToolUse | PostToolUse | PostToolUseFailure | PermissionRequest | PermissionDenied
        )
    }

    /// Whether plain text on stdout (exit 0) becomes context for the model
    /// ([JSON detection](crate::compatibility#json-detection)).
    pub fn plain_stdout_is_context(self) -> bool {
        use EventName::*;
        matches!(self, UserPromptSubmit | UserPromptExpansion | SessionStart | PostModelSwitch)
    }

    /// The timeout a handler of `kind` gets when it sets none
    /// ([Timeouts](crate::compatibility#timeouts),
    /// [SessionEnd budget](crate::compatibility#sessionend-budget)).
    pub fn default_timeout(self, kind: HandlerType) -> Duration {
        use EventName::*;
        match (self, kind) {
            (SessionEnd, _) => Duration::from_millis(1500),
            (MessageDisplay, _) => Duration::from_secs(10),
            (_, HandlerType::Prompt) => Duration::from_secs(30),
            (_, HandlerType::Agent) => Duration::from_secs(60),
            (UserPromptSubmit | PreModelSwitch | PostModelSwitch, _) => Duration::from_secs(30),
            _ => Duration::from_secs(600),
        }
    }

    /// The longest timeout a handler may have on this event, when the event has a budget
    /// (SessionEnd: 60 s, [SessionEnd budget](crate::compatibility#sessionend-budget)).
    pub fn max_timeout(self) -> Option<Duration> {
        (self == EventName::SessionEnd).then_some(Duration::from_secs(60))
    }

    /// Whether the event accepts handlers of `kind`
    /// ([Handler types](crate::compatibility#handler-types)).
    pub fn accepts(self, kind: HandlerType) -> bool {
        use EventName::*;
        use HandlerType::*;
        match self {
            PermissionDenied | PostToolBatch | PostToolUse | PostToolUseFailure | PreToolUse
            | Stop | SubagentStop | TaskCompleted | TaskCreated | TeammateIdle
            | UserPromptExpansion | UserPromptSubmit => true,
            PermissionRequest => kind != Agent,
            SessionStart => matches!(kind, Command | McpTool),
            Setup => kind == Command,
            _ => matches!(kind, Command | Http | McpTool),
        }
    }

    /// What exit code 2 does on this event
    /// ([Exit 2 per event](crate::compatibility#exit-2-per-event)).
    pub fn exit2(self) -> Exit2 {
        use EventName::*;
        match self {
            PreToolUse | UserPromptSubmit | UserPromptExpansion | Stop | SubagentStop
            | TeammateIdle | TaskCreated | TaskCompleted | ConfigChange | PostToolBatch
            | PreCompact | PreModelSwitch | Elicitation | ElicitationResult | WorktreeCreate
            | WorktreeRemove => Exit2::Block,
            PostToolUse | PostToolUseFailure => Exit2::Feedback,
            SessionStart | SubagentStart | PostModelSwitch | SessionEnd | CwdChanged
            | FileChanged | PostCompact => Exit2::UserNotice,
            PermissionRequest | PermissionDenied | Notification | InstructionsLoaded
            | StopFailure | Setup | DirectoryAdded | MessageDisplay => Exit2::Ignored,
        }
    }

    /// Whether `onFailure: "block"` has an effect here (not on the events where exit 2 sends
    /// the agent back to work, [Failing closed](crate::compatibility#failing-closed)).
    pub fn on_failure_applies(self) -> bool {
        use EventName::*;
        !matches!(self, Stop | SubagentStop | TaskCompleted | TeammateIdle)
    }

    /// Whether a top-level `decision: "block"` is honoured
    /// ([JSON output](crate::compatibility#json-output)); PreToolUse reads it as the deprecated
    /// `approve` / `block`.
    pub fn honours_top_level_block(self) -> bool {
        use EventName::*;
        matches!(
            self,
            UserPromptSubmit
                | UserPromptExpansion
                | PostToolUse
                | PostToolUseFailure
                | PostToolBatch
                | Stop
                | SubagentStop
                | ConfigChange
                | PreCompact
                | TaskCreated
                | PreModelSwitch
                | Elicitation
                | ElicitationResult
                | PreToolUse
        )
    }

    /// Which output fields the event keeps
    /// ([Output per event](crate::compatibility#output-per-event)).
    pub fn keeps(self) -> Keeps {
        use EventName::*;
        match self {
            InstructionsLoaded | WorktreeRemove | SessionEnd | Setup => Keeps::Nothing,
            Notification | StopFailure => Keeps::TerminalOnly,
            MessageDisplay | ConfigChange | PreCompact | PostCompact | Elicitation
            | ElicitationResult | WorktreeCreate => Keeps::NoSystemMessageNoContinue,
            // `continue: false` has no effect at session or sub-agent start (recorded).
            SessionStart | SubagentStart | CwdChanged | FileChanged | DirectoryAdded
            | TaskCreated => Keeps::NoContinue,
            _ => Keeps::All,
        }
    }

    /// Whether hooks of this event get `CLAUDE_ENV_FILE`, one file per hook
    /// ([Hook environment](crate::compatibility#hook-environment)): `SessionStart` and
    /// `CwdChanged`, as Claude Code sets it (its documentation also names `Setup` and
    /// `FileChanged`, whose hooks do not get it).
    pub fn gets_env_file(self) -> bool {
        matches!(self, EventName::SessionStart | EventName::CwdChanged)
    }

    /// The neutral seam the event maps to, or `None` for events raised as
    /// [`hook_protocol::Payload::Custom`].
    pub fn seam(self) -> Option<Seam> {
        use EventName::*;
        Some(match self {
            PreToolUse => Seam::PreTool,
            PermissionRequest => Seam::PermissionRequest,
            PostToolUse => Seam::PostTool,
            PostToolUseFailure => Seam::PostToolFailure,
            UserPromptSubmit => Seam::PromptSubmit,
            SessionStart => Seam::SessionStart,
            Stop => Seam::TurnEnd,
            SubagentStart => Seam::SubagentStart,
            SubagentStop => Seam::SubagentEnd,
            PreCompact => Seam::PreCompact,
            Notification => Seam::Notification,
            SessionEnd => Seam::SessionEnd,
            _ => return None,
        })
    }

    /// The event raised at a neutral seam, if one maps to it.
    pub fn from_seam(seam: Seam) -> Option<EventName> {
        EventName::ALL.iter().copied().find(|e| e.seam() == Some(seam))
    }
}

impl fmt::Display for EventName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An event name Claude Code does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown Claude Code hook event `{name}`")]
#[non_exhaustive]
pub struct UnknownEvent {
    /// The name as given.
    pub name: String,
}

impl FromStr for EventName {
    type Err = UnknownEvent;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EventName::parse(s).ok_or_else(|| UnknownEvent { name: s.to_owned() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_33_events_and_names_round_trip() {
        assert_eq!(EventName::ALL.len(), 33);
        for e in EventName::ALL {
            assert_eq!(EventName::parse(e.as_str()), Some(*e));
        }
        assert_eq!(EventName::parse("postToolUse"), None, "names are case-sensitive");
    }

    #[test]
    fn matcherless_events_are_the_documented_ten() {
        let none: Vec<_> = EventName::ALL.iter().filter(|e| !e.has_matcher()).collect();
        assert_eq!(none.len(), 10, "{none:?}");
    }

    #[test]
    fn seams_map_one_to_one() {
        for seam in Seam::ALL {
            if let Some(e) = EventName::from_seam(seam) {
                assert_eq!(e.seam(), Some(seam));
            }
        }
        assert_eq!(EventName::from_seam(Seam::TurnEnd), Some(EventName::Stop));
        assert_eq!(EventName::from_seam(Seam::Custom), None);
    }

    #[test]
    fn timeouts_follow_the_reference() {
        use HandlerType::*;
        assert_eq!(EventName::PreToolUse.default_timeout(Command), Duration::from_secs(600));
        assert_eq!(EventName::UserPromptSubmit.default_timeout(Command), Duration::from_secs(30));
        assert_eq!(EventName::MessageDisplay.default_timeout(Http), Duration::from_secs(10));
        assert_eq!(EventName::Stop.default_timeout(Prompt), Duration::from_secs(30));
        assert_eq!(EventName::SessionEnd.default_timeout(Command), Duration::from_millis(1500));
    }

    #[test]
    fn handler_types_per_event() {
        use HandlerType::*;
        assert!(EventName::PreToolUse.accepts(Agent));
        assert!(!EventName::PermissionRequest.accepts(Agent));
        assert!(!EventName::SessionStart.accepts(Prompt));
        assert!(!EventName::Setup.accepts(McpTool));
        assert!(!EventName::Notification.accepts(Prompt));
    }
}
