//! The 34 Claude Code hook events and what each one does with a hook's answer.
//!
//! Everything event-specific that is a fact about Claude Code lives here, as data, in one table
//! ([`with_every_event!`]): the matcher subject, the default timeout, the handler types the
//! event accepts, what exit code 2 does, which output fields it discards, and which neutral
//! [`Seam`] it maps to.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use hook_protocol::Seam;
use serde::{Deserialize, Serialize};

/// The table of Claude Code's events: each one's name, the method that fires it (on
/// [`crate::Engine`] and [`crate::Session`]), a line on when it fires, and what Claude Code
/// does with it ([`Facts`]). Every per-event list of the crate is made from this table: the
/// [`EventName`] enum and its facts, the typed calls, input validation, the tests over every
/// input. Adding an event is a row here, its input struct (`wire/input/events.rs`), its decision
/// and its docs. `$callback` gets the rows as `/// doc` `Name => method { facts }`.
macro_rules! with_every_event {
    ($callback:ident) => {
        $callback! {
            /// a session starts or resumes.
            SessionStart => session_start {
                permission_mode: false,
                seam: Some(SessionStart),
                subject: Some("source"),
                plain_stdout_is_context: true,
                handlers: &[Command, McpTool],
                exit2: UserNotice,
                keeps: NoContinue,
                env_file: true,
            },
            /// `--init-only`, `-p --init`, `-p --maintenance`.
            Setup => setup {
                permission_mode: false,
                subject: Some("trigger"),
                handlers: &[Command],
                keeps: Nothing,
            },
            /// a CLAUDE.md or rules file was loaded.
            InstructionsLoaded => instructions_loaded {
                permission_mode: false,
                specific_output: false,
                subject: Some("load_reason"),
                keeps: Nothing,
            },
            /// the user submitted a prompt.
            UserPromptSubmit => user_prompt_submit {
                seam: Some(PromptSubmit),
                plain_stdout_is_context: true,
                command_timeout: Some(Duration::from_secs(30)),
                handlers: &[Command, Http, McpTool, Prompt, Agent],
                exit2: Block,
                top_level_block: true,
            },
            /// a `/command` or MCP prompt expands.
            UserPromptExpansion => user_prompt_expansion {
                subject: Some("command_name"),
                plain_stdout_is_context: true,
                handlers: &[Command, Http, McpTool, Prompt, Agent],
                exit2: Block,
                top_level_block: true,
            },
            /// a skill's shell command is about to run (an event Claude Code 2.1.332 accepts but does not document; not recorded: its hooks run, and nothing they answer is acted on).
            PreSkillShellCommand => pre_skill_shell_command {
                permission_mode: false,
            },
            /// assistant text is about to be shown.
            MessageDisplay => message_display {
                permission_mode: false,
                timeout: Some(Duration::from_secs(10)),
                keeps: NoSystemMessageNoContinue,
            },
            /// a tool is about to run.
            PreToolUse => pre_tool_use {
                seam: Some(PreTool),
                subject: Some("tool_name"),
                tool_event: true,
                handlers: &[Command, Http, McpTool, Prompt, Agent],
                exit2: Block,
                top_level_block: true,
            },
            /// a permission prompt is about to be shown.
            PermissionRequest => permission_request {
                seam: Some(PermissionRequest),
                subject: Some("tool_name"),
                tool_event: true,
                handlers: &[Command, Http, McpTool, Prompt],
            },
            /// auto mode denied a call.
            PermissionDenied => permission_denied {
                subject: Some("tool_name"),
                tool_event: true,
                handlers: &[Command, Http, McpTool, Prompt, Agent],
            },
            /// a tool succeeded.
            PostToolUse => post_tool_use {
                seam: Some(PostTool),
                subject: Some("tool_name"),
                tool_event: true,
                handlers: &[Command, Http, McpTool, Prompt, Agent],
                exit2: Feedback,
                top_level_block: true,
            },
            /// a tool started and failed.
            PostToolUseFailure => post_tool_use_failure {
                seam: Some(PostToolFailure),
                subject: Some("tool_name"),
                tool_event: true,
                handlers: &[Command, Http, McpTool, Prompt, Agent],
                exit2: Feedback,
                top_level_block: true,
            },
            /// a batch of parallel tool calls resolved.
            PostToolBatch => post_tool_batch {
                handlers: &[Command, Http, McpTool, Prompt, Agent],
                exit2: Block,
                top_level_block: true,
            },
            /// a notification is sent.
            Notification => notification {
                seam: Some(Notification),
                subject: Some("notification_type"),
                keeps: TerminalOnly,
            },
            /// a sub-agent starts.
            SubagentStart => subagent_start {
                permission_mode: false,
                seam: Some(SubagentStart),
                subject: Some("agent_type"),
                exit2: UserNotice,
                keeps: NoContinue,
            },
            /// a sub-agent wants to end.
            SubagentStop => subagent_stop {
                seam: Some(SubagentEnd),
                subject: Some("agent_type"),
                handlers: &[Command, Http, McpTool, Prompt, Agent],
                exit2: Block,
                on_failure: false,
                top_level_block: true,
            },
            /// the `TaskCreate` tool creates a task.
            TaskCreated => task_created {
                permission_mode: false,
                specific_output: false,
                handlers: &[Command, Http, McpTool, Prompt, Agent],
                exit2: Block,
                top_level_block: true,
                keeps: NoContinue,
            },
            /// a task is marked complete.
            TaskCompleted => task_completed {
                permission_mode: false,
                specific_output: false,
                handlers: &[Command, Http, McpTool, Prompt, Agent],
                exit2: Block,
                on_failure: false,
                top_level_block: true,
            },
            /// the main agent finished responding.
            Stop => stop {
                seam: Some(TurnEnd),
                handlers: &[Command, Http, McpTool, Prompt, Agent],
                exit2: Block,
                on_failure: false,
                top_level_block: true,
            },
            /// the turn ended with an API error.
            StopFailure => stop_failure {
                permission_mode: false,
                specific_output: false,
                subject: Some("error"),
                narrow_exact: true,
                keeps: TerminalOnly,
            },
            /// a teammate is about to go idle.
            TeammateIdle => teammate_idle {
                specific_output: false,
                handlers: &[Command, Http, McpTool, Prompt, Agent],
                exit2: Block,
                on_failure: false,
            },
            /// a settings, policy or skill file changed.
            ConfigChange => config_change {
                permission_mode: false,
                specific_output: false,
                subject: Some("source"),
                exit2: Block,
                top_level_block: true,
                keeps: NoSystemMessageNoContinue,
            },
            /// the working directory changed.
            CwdChanged => cwd_changed {
                exit2: UserNotice,
                keeps: NoContinue,
                env_file: true,
            },
            /// a directory was added to the session.
            DirectoryAdded => directory_added {
                permission_mode: false,
                specific_output: false,
                subject: Some("source"),
                keeps: NoContinue,
            },
            /// a watched file changed.
            FileChanged => file_changed {
                permission_mode: false,
                subject: Some("file_path"),
                narrow_exact: true,
                exit2: UserNotice,
                keeps: NoContinue,
            },
            /// a worktree is to be created by the hook.
            WorktreeCreate => worktree_create {
                permission_mode: false,
                exit2: Block,
                keeps: NoSystemMessageNoContinue,
            },
            /// a hook-created worktree is removed.
            WorktreeRemove => worktree_remove {
                permission_mode: false,
                specific_output: false,
                exit2: Block,
                keeps: Nothing,
            },
            /// the conversation is about to be compacted.
            PreCompact => pre_compact {
                permission_mode: false,
                seam: Some(PreCompact),
                subject: Some("trigger"),
                exit2: Block,
                top_level_block: true,
                keeps: NoSystemMessageNoContinue,
            },
            /// the conversation was compacted.
            PostCompact => post_compact {
                permission_mode: false,
                subject: Some("trigger"),
                exit2: UserNotice,
                keeps: NoSystemMessageNoContinue,
            },
            /// the user asked for another model.
            PreModelSwitch => pre_model_switch {
                permission_mode: false,
                subject: Some("to_model"),
                command_timeout: Some(Duration::from_secs(30)),
                exit2: Block,
                top_level_block: true,
            },
            /// the model changed.
            PostModelSwitch => post_model_switch {
                permission_mode: false,
                subject: Some("to_model"),
                plain_stdout_is_context: true,
                command_timeout: Some(Duration::from_secs(30)),
                exit2: UserNotice,
            },
            /// an MCP server asks the user for input.
            Elicitation => elicitation {
                permission_mode: false,
                subject: Some("mcp_server_name"),
                exit2: Block,
                top_level_block: true,
                keeps: NoSystemMessageNoContinue,
            },
            /// the user answered an elicitation.
            ElicitationResult => elicitation_result {
                permission_mode: false,
                subject: Some("mcp_server_name"),
                exit2: Block,
                top_level_block: true,
                keeps: NoSystemMessageNoContinue,
            },
            /// the session ends.
            SessionEnd => session_end {
                permission_mode: false,
                seam: Some(SessionEnd),
                subject: Some("reason"),
                timeout: Some(Duration::from_millis(1500)),
                max_timeout: Some(Duration::from_secs(60)),
                exit2: UserNotice,
                keeps: Nothing,
            },
        }
    };
}
pub(crate) use with_every_event;

/// What Claude Code does with one event, as data: one row of [`with_every_event!`].
#[derive(Debug, Clone, Copy)]
struct Facts {
    /// The neutral seam it maps to (`None`: raised as a custom event).
    seam: Option<Seam>,
    /// The input field matchers are tested against (`None`: it ignores matchers).
    subject: Option<&'static str>,
    /// Exact matchers take only letters, digits, `_` and `|`.
    narrow_exact: bool,
    /// It is about one tool call (its `if` rules are evaluated).
    tool_event: bool,
    /// Plain stdout (exit 0) is context for the model.
    plain_stdout_is_context: bool,
    /// The default timeout of every handler type, when the event has its own.
    timeout: Option<Duration>,
    /// The default timeout of `command`, `http` and `mcp_tool` handlers, when not 600 s.
    command_timeout: Option<Duration>,
    /// The longest timeout a handler may have.
    max_timeout: Option<Duration>,
    /// The handler types it accepts.
    handlers: &'static [HandlerType],
    /// What exit code 2 does.
    exit2: Exit2,
    /// `onFailure: "block"` has an effect.
    on_failure: bool,
    /// A top-level `decision: "block"` is honoured.
    top_level_block: bool,
    /// Which output fields it keeps.
    keeps: Keeps,
    /// Its hooks get a `CLAUDE_ENV_FILE` each.
    env_file: bool,
    /// Claude Code accepts a `hookSpecificOutput` for it (otherwise the output fails
    /// validation: a non-blocking error).
    specific_output: bool,
    /// Its input carries `permission_mode`.
    permission_mode: bool,
}

impl Facts {
    /// What an event does unless its row says otherwise.
    const BASE: Facts = Facts {
        seam: None,
        subject: None,
        narrow_exact: false,
        tool_event: false,
        plain_stdout_is_context: false,
        timeout: None,
        command_timeout: None,
        max_timeout: None,
        handlers: &[HandlerType::Command, HandlerType::Http, HandlerType::McpTool],
        exit2: Exit2::Ignored,
        on_failure: true,
        top_level_block: false,
        keeps: Keeps::All,
        env_file: false,
        specific_output: true,
        permission_mode: true,
    };
}

macro_rules! events {
    ($(
        #[doc = $doc:literal]
        $name:ident => $method:ident { $($field:ident: $value:expr),* $(,)? }
    ),* $(,)?) => {
        /// A Claude Code hook event ([Events](crate::compatibility#events)).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[non_exhaustive]
        pub enum EventName {
            $(
                #[doc = concat!("`", stringify!($name), "`:", $doc)]
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

            /// The event's row of the table.
            fn facts(self) -> &'static Facts {
                use HandlerType::*;
                use Exit2::*;
                use Keeps::*;
                use Seam::*;
                match self {
                    $(EventName::$name => {
                        const FACTS: Facts = Facts { $($field: $value,)* ..Facts::BASE };
                        &FACTS
                    })*
                }
            }
        }
    };
}

with_every_event!(events);

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
        self.facts().subject
    }

    /// Whether Claude Code accepts a `hookSpecificOutput` for the event; for the others such an
    /// output fails validation and the hook is a non-blocking error
    /// ([JSON output](crate::compatibility#json-output)).
    pub fn accepts_specific_output(self) -> bool {
        self.facts().specific_output
    }

    /// Whether the event's hooks are filtered by a matcher.
    pub fn has_matcher(self) -> bool {
        self.subject_field().is_some()
    }

    /// Whether the event uses the narrower exact-match character set (letters, digits, `_`,
    /// `|` only; [Matchers](crate::compatibility#matchers)).
    pub fn narrow_exact(self) -> bool {
        self.facts().narrow_exact
    }

    /// Whether the event is about one tool call, so that an `if` rule is evaluated
    /// ([Handler fields](crate::compatibility#handler-fields)).
    pub fn is_tool_event(self) -> bool {
        self.facts().tool_event
    }

    /// Whether plain text on stdout (exit 0) becomes context for the model
    /// ([JSON detection](crate::compatibility#json-detection)).
    pub fn plain_stdout_is_context(self) -> bool {
        self.facts().plain_stdout_is_context
    }

    /// The timeout a handler of `kind` gets when it sets none
    /// ([Timeouts](crate::compatibility#timeouts),
    /// [SessionEnd budget](crate::compatibility#sessionend-budget)): the event's own for every
    /// type when it has one, else 30 s for `prompt`, 60 s for `agent`, and the event's command
    /// timeout (600 s unless it says) for the others.
    pub fn default_timeout(self, kind: HandlerType) -> Duration {
        let facts = self.facts();
        match (facts.timeout, kind) {
            (Some(all), _) => all,
            (None, HandlerType::Prompt) => Duration::from_secs(30),
            (None, HandlerType::Agent) => Duration::from_secs(60),
            (None, _) => facts.command_timeout.unwrap_or(Duration::from_secs(600)),
        }
    }

    /// The longest timeout a handler may have on this event, when the event has a budget
    /// (SessionEnd: 60 s, [SessionEnd budget](crate::compatibility#sessionend-budget)).
    pub fn max_timeout(self) -> Option<Duration> {
        self.facts().max_timeout
    }

    /// Whether the event accepts handlers of `kind`
    /// ([Handler types](crate::compatibility#handler-types)).
    pub fn accepts(self, kind: HandlerType) -> bool {
        self.facts().handlers.contains(&kind)
    }

    /// What exit code 2 does on this event
    /// ([Exit 2 per event](crate::compatibility#exit-2-per-event)).
    pub fn exit2(self) -> Exit2 {
        self.facts().exit2
    }

    /// Whether `onFailure: "block"` has an effect here (not on the events where exit 2 sends
    /// the agent back to work, [Failing closed](crate::compatibility#failing-closed)).
    pub fn on_failure_applies(self) -> bool {
        self.facts().on_failure
    }

    /// Whether a top-level `decision: "block"` is honoured
    /// ([JSON output](crate::compatibility#json-output)); PreToolUse reads it as the deprecated
    /// `approve` / `block`.
    pub fn honours_top_level_block(self) -> bool {
        self.facts().top_level_block
    }

    /// Which output fields the event keeps
    /// ([Output per event](crate::compatibility#output-per-event)).
    pub fn keeps(self) -> Keeps {
        self.facts().keeps
    }

    /// Whether hooks of this event get `CLAUDE_ENV_FILE`, one file per hook
    /// ([Hook environment](crate::compatibility#hook-environment)): `SessionStart` and
    /// `CwdChanged`, as Claude Code sets it (its documentation also names `Setup` and
    /// `FileChanged`, whose hooks do not get it).
    pub fn gets_env_file(self) -> bool {
        self.facts().env_file
    }

    /// Whether Claude Code's input for this event carries `permission_mode` (when the session
    /// has one): not on the events whose recordings have none
    /// ([Event inputs](crate::compatibility#event-inputs)).
    pub fn sends_permission_mode(self) -> bool {
        self.facts().permission_mode
    }

    /// The neutral seam the event maps to, or `None` for events raised as
    /// [`hook_protocol::Payload::Custom`].
    pub fn seam(self) -> Option<Seam> {
        self.facts().seam
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
    fn there_are_34_events_and_names_round_trip() {
        assert_eq!(EventName::ALL.len(), 34);
        for e in EventName::ALL {
            assert_eq!(EventName::parse(e.as_str()), Some(*e));
        }
        assert_eq!(EventName::parse("postToolUse"), None, "names are case-sensitive");
    }

    #[test]
    fn matcherless_events_are_the_documented_ten_and_the_undocumented_one() {
        let none: Vec<_> = EventName::ALL.iter().filter(|e| !e.has_matcher()).collect();
        assert_eq!(none.len(), 11, "{none:?}");
        assert!(!EventName::PreSkillShellCommand.has_matcher(), "its subject is not recorded");
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
