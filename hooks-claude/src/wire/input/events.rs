//! The 34 event inputs.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{BackgroundTask, Base, BatchCall, McpServer, SessionCron, TypedInput};
use crate::EventName;
use crate::wire::decision::{
    ElicitationDecision, MessageDisplayDecision, ModelSwitchDecision, ObserveDecision,
    PermissionRequestDecision, RetryDecision, SessionStartDecision, StopDecision, ToolCallDecision,
    ToolResultDecision, UserPromptDecision, WatchDecision, WorktreeCreateDecision,
    WorktreeRemoveDecision,
};
use hook_protocol::{BlockDecision, ContextDecision};

macro_rules! input {
    ($(
        $(#[$m:meta])*
        $name:ident => $decision:ty {
            $( $(#[$fm:meta])* $field:ident : $ty:ty ),* $(,)?
        }
    )*) => {$(
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
        pub struct $name {
            /// The fields every event carries.
            #[serde(flatten)]
            pub base: Base,
            $( $(#[$fm])* pub $field: $ty, )*
        }

        impl TypedInput for $name {
            const EVENT: EventName = EventName::$name;
            type Decision = $decision;
            const UNIQUE_KEYS: bool = true;

            fn base(&self) -> &Base {
                &self.base
            }

            fn base_mut(&mut self) -> &mut Base {
                &mut self.base
            }
        }
    )*};
}

input! {
    /// `SessionStart`: a session starts or resumes.
    SessionStart => SessionStartDecision {
        /// `startup`, `resume`, `clear`, `compact` or `fork` (the matcher subject).
        source: String,
        /// The session's model.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        model: Option<String>,
        /// The session's title.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        session_title: Option<String>,
        /// On resume: seconds since the last response.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seconds_since_last_response: Option<f64>,
        /// On resume: tokens in context.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        context_tokens: Option<u64>,
        /// On resume: whether the prompt cache has likely expired.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        prompt_cache_likely_expired: Option<bool>,
        /// On resume: the estimated cost of rewriting the cache.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        estimated_cache_write_usd: Option<f64>,
    }

    /// `Setup`: `--init-only`, `-p --init`, `-p --maintenance`.
    Setup => ObserveDecision {
        /// `init` or `maintenance` (the matcher subject).
        trigger: String,
    }

    /// `InstructionsLoaded`: a CLAUDE.md or rules file was loaded.
    InstructionsLoaded => ObserveDecision {
        /// The file.
        file_path: String,
        /// `User`, `Project`, `Local` or `Managed`.
        memory_type: String,
        /// Why it was loaded (the matcher subject).
        load_reason: String,
        /// The globs that matched.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        globs: Option<Vec<String>>,
        /// The file whose access triggered the load.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        trigger_file_path: Option<String>,
        /// The file that included it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        parent_file_path: Option<String>,
    }

    /// `UserPromptSubmit`: the user submitted a prompt.
    UserPromptSubmit => UserPromptDecision {
        /// The prompt, pastes expanded.
        prompt: String,
        /// The session's title.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        session_title: Option<String>,
    }

    /// `UserPromptExpansion`: a `/command` or MCP prompt expands.
    UserPromptExpansion => UserPromptDecision {
        /// `slash_command` or `mcp_prompt`.
        expansion_type: String,
        /// The command (the matcher subject).
        command_name: String,
        /// Its arguments.
        command_args: String,
        /// Where the command comes from.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command_source: Option<String>,
        /// The expanded prompt.
        prompt: String,
    }

    /// `PreSkillShellCommand`: a skill's shell command is about to run. Its own fields were
    /// not recorded: the typed input has the common ones, and a harness that knows more fires
    /// it raw ([`crate::Engine::run_json`], [`crate::Session::fire_json`]).
    PreSkillShellCommand => ObserveDecision {}

    /// `MessageDisplay`: assistant text is about to be shown.
    MessageDisplay => MessageDisplayDecision {
        /// The turn.
        turn_id: String,
        /// The message.
        message_id: String,
        /// The batch's index in the message.
        index: u64,
        /// Whether this is the message's last batch.
        #[serde(rename = "final")]
        is_final: bool,
        /// The text.
        delta: String,
    }

    /// `PreToolUse`: a tool is about to run.
    PreToolUse => ToolCallDecision {
        /// The tool (the matcher subject).
        tool_name: String,
        /// Its input.
        tool_input: Value,
        /// The call's identifier.
        tool_use_id: String,
        /// For MCP tools: the server.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mcp_server: Option<McpServer>,
    }

    /// `PermissionRequest`: a permission prompt is about to be shown.
    PermissionRequest => PermissionRequestDecision {
        /// The tool (the matcher subject).
        tool_name: String,
        /// Its input.
        tool_input: Value,
        /// The rules the prompt would offer (`PermissionUpdate` objects).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        permission_suggestions: Option<Vec<Value>>,
        /// For MCP tools: the server.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mcp_server: Option<McpServer>,
    }

    /// `PermissionDenied`: auto mode denied a call.
    PermissionDenied => RetryDecision {
        /// The tool (the matcher subject).
        tool_name: String,
        /// Its input.
        tool_input: Value,
        /// The call's identifier.
        tool_use_id: String,
        /// Why it was denied.
        reason: String,
        /// For MCP tools: the server.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mcp_server: Option<McpServer>,
    }

    /// `PostToolUse`: a tool succeeded.
    PostToolUse => ToolResultDecision {
        /// The tool (the matcher subject).
        tool_name: String,
        /// Its input.
        tool_input: Value,
        /// What it returned (an object shaped by the tool).
        tool_response: Value,
        /// The call's identifier.
        tool_use_id: String,
        /// How long it ran.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        duration_ms: Option<u64>,
        /// For MCP tools: the server.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mcp_server: Option<McpServer>,
    }

    /// `PostToolUseFailure`: a tool started and failed.
    PostToolUseFailure => ToolResultDecision {
        /// The tool (the matcher subject).
        tool_name: String,
        /// Its input.
        tool_input: Value,
        /// The call's identifier.
        tool_use_id: String,
        /// The error.
        error: String,
        /// Whether the user interrupted it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        is_interrupt: Option<bool>,
        /// How long it ran.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        duration_ms: Option<u64>,
        /// For MCP tools: the server.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mcp_server: Option<McpServer>,
    }

    /// `PostToolBatch`: a batch of parallel tool calls resolved.
    PostToolBatch => ToolResultDecision {
        /// The calls.
        tool_calls: Vec<BatchCall>,
    }

    /// `Notification`: a notification is sent.
    Notification => ObserveDecision {
        /// Its text.
        message: String,
        /// Its title.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// Its kind (the matcher subject).
        notification_type: String,
    }

    /// `SubagentStart`: a sub-agent starts. Its `agent_id` and `agent_type` are in [`Base`]
    /// and always sent.
    SubagentStart => ContextDecision {}

    /// `SubagentStop`: a sub-agent wants to finish. Its `agent_id` and `agent_type` are in
    /// [`Base`] and always sent.
    SubagentStop => StopDecision {
        /// Whether the sub-agent already continues because of a stop hook.
        stop_hook_active: bool,
        /// The sub-agent's transcript.
        agent_transcript_path: String,
        /// Its last message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_assistant_message: Option<String>,
        /// Background tasks still running.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        background_tasks: Option<Vec<BackgroundTask>>,
        /// Scheduled prompts.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        session_crons: Option<Vec<SessionCron>>,
    }

    /// `TaskCreated`: the `TaskCreate` tool creates a task.
    TaskCreated => BlockDecision {
        /// The task.
        task_id: String,
        /// Its subject.
        task_subject: String,
        /// Its description.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        task_description: Option<String>,
        /// The teammate.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        teammate_name: Option<String>,
        /// The team (deprecated).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        team_name: Option<String>,
    }

    /// `TaskCompleted`: a task is marked complete.
    TaskCompleted => BlockDecision {
        /// The task.
        task_id: String,
        /// Its subject.
        task_subject: String,
        /// Its description.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        task_description: Option<String>,
        /// The teammate.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        teammate_name: Option<String>,
        /// The team (deprecated).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        team_name: Option<String>,
    }

    /// `Stop`: the main agent finished responding.
    Stop => StopDecision {
        /// Whether the agent already continues because of a stop hook.
        stop_hook_active: bool,
        /// Its last message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_assistant_message: Option<String>,
        /// Background tasks still running.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        background_tasks: Option<Vec<BackgroundTask>>,
        /// Scheduled prompts.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        session_crons: Option<Vec<SessionCron>>,
    }

    /// `StopFailure`: the turn ended with an API error.
    StopFailure => ObserveDecision {
        /// The matcher subject, as Claude Code 2.1.332 names the API error: `rate_limit`
        /// (429), `authentication_failed` (401), `model_not_found` (404), `server_error` (500
        /// and 529 overloaded), `unknown` (400 and others). Claude Code sends no details
        /// beside it.
        error: String,
        /// The API error text shown (`API Error: 429 ...`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_assistant_message: Option<String>,
    }

    /// `TeammateIdle`: a teammate is about to go idle.
    TeammateIdle => BlockDecision {
        /// The teammate.
        teammate_name: String,
        /// The team (deprecated).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        team_name: Option<String>,
    }

    /// `ConfigChange`: a settings, policy or skill file changed.
    ConfigChange => BlockDecision {
        /// `user_settings`, `project_settings`, ... (the matcher subject).
        source: String,
        /// The file.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        file_path: Option<String>,
    }

    /// `CwdChanged`: the working directory changed.
    CwdChanged => WatchDecision {
        /// Before.
        old_cwd: String,
        /// After.
        new_cwd: String,
    }

    /// `DirectoryAdded`: a directory was added to the session.
    DirectoryAdded => ObserveDecision {
        /// The directory.
        directory: String,
        /// `slash_command` or `register_repo_root` (the matcher subject).
        source: String,
    }

    /// `FileChanged`: a watched file changed.
    FileChanged => WatchDecision {
        /// The file (its base name is the matcher subject).
        file_path: String,
        /// `change`, `add` or `unlink`.
        event: String,
    }

    /// `WorktreeCreate`: a worktree is to be created by the hook.
    WorktreeCreate => WorktreeCreateDecision {
        /// Its name.
        name: String,
    }

    /// `WorktreeRemove`: a hook-created worktree is removed.
    WorktreeRemove => WorktreeRemoveDecision {
        /// Its path.
        worktree_path: String,
    }

    /// `PreCompact`: the conversation is about to be compacted.
    PreCompact => BlockDecision {
        /// `manual` or `auto` (the matcher subject).
        trigger: String,
        /// The user's instructions (`null` when none, as Claude Code sends it; an empty string
        /// from older releases is read as it is).
        custom_instructions: Option<String>,
    }

    /// `PostCompact`: the conversation was compacted.
    PostCompact => ObserveDecision {
        /// `manual` or `auto` (the matcher subject).
        trigger: String,
        /// The summary.
        compact_summary: String,
    }

    /// `PreModelSwitch`: the user asked for another model.
    PreModelSwitch => ModelSwitchDecision {
        /// The current model.
        from_model: String,
        /// The target model (its canonical name is the matcher subject).
        to_model: String,
        /// The model as requested (`null` when none).
        requested_model: Option<String>,
        /// `command`, `picker` or `sdk`.
        source: String,
        /// Tokens in context.
        context_tokens: u64,
        /// Whether the prompt cache is warm.
        prompt_cache_warm: bool,
        /// `5m` or `1h`.
        cache_ttl: String,
        /// The estimated cost of rewriting the cache.
        estimated_cache_write_usd: f64,
        /// `configured`, `catalog` or `default`.
        pricing: String,
    }

    /// `PostModelSwitch`: the model changed.
    PostModelSwitch => ContextDecision {
        /// The previous model.
        from_model: String,
        /// The new model (its canonical name is the matcher subject).
        to_model: String,
        /// The model as requested (`null` when none).
        requested_model: Option<String>,
        /// `command`, `picker`, `sdk`, `auto` or `resume`.
        source: String,
        /// Tokens in context.
        context_tokens: u64,
        /// Whether the prompt cache is warm.
        prompt_cache_warm: bool,
        /// `5m` or `1h`.
        cache_ttl: String,
        /// The estimated cost of rewriting the cache.
        estimated_cache_write_usd: f64,
        /// `configured`, `catalog` or `default`.
        pricing: String,
    }

    /// `Elicitation`: an MCP server asks the user for input.
    Elicitation => ElicitationDecision {
        /// The server (the matcher subject).
        mcp_server_name: String,
        /// What it asks.
        message: String,
        /// `form` or `url`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mode: Option<String>,
        /// The URL, in `url` mode.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        url: Option<String>,
        /// The request's identifier.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        elicitation_id: Option<String>,
        /// The form's JSON schema.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        requested_schema: Option<Map<String, Value>>,
    }

    /// `ElicitationResult`: the user answered an elicitation.
    ElicitationResult => ElicitationDecision {
        /// The server (the matcher subject).
        mcp_server_name: String,
        /// `accept`, `decline` or `cancel`.
        action: String,
        /// `form` or `url`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mode: Option<String>,
        /// The request's identifier.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        elicitation_id: Option<String>,
        /// The answer.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        content: Option<Map<String, Value>>,
    }

    /// `SessionEnd`: the session ends.
    SessionEnd => ObserveDecision {
        /// `clear`, `resume`, `logout`, `prompt_input_exit` or `other` (the matcher subject).
        reason: String,
    }
}
