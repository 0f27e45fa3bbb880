//! The hooks of a configuration on a dispatcher, and an event run from its Copilot input.

use std::path::PathBuf;

use hook_kit::Core;
use hook_kit::input::{cwd_of, flag, maybe_text, text};
use hook_protocol::{
    Aliases, Common, Custom, Decision, DispatcherBuilder, Event, Fold, Mode, ModelText,
    Notification, Payload, Placement, PreCompact, PromptSubmit, Scrub, Seam, SessionEnd,
    SessionStart, SubagentEnd, SubagentStart, Surface, ToolCall, ToolFailure, ToolResult, TurnEnd,
};
use serde_json::{Map, Value};

use crate::event::TOOL_ALIASES;
use crate::hook::CommandHook;
use crate::payload::{InputObject, now_ms};
use crate::{Config, Entry, EventName, Scope};

/// A loaded Copilot configuration, ready to run events.
#[derive(Debug)]
pub struct Engine {
    config: Config,
    core: Core<CommandHook>,
    project_dir: PathBuf,
    surface: Surface,
}

/// One event run from its Copilot input: what the hooks received, the fold, what Copilot
/// shows.
pub type Run = hook_kit::Run<EventName>;

/// Copilot's tool names as the core's aliases: a harness that names its tools as Claude Code
/// does (`Bash`) still meets native matchers written for Copilot's (`bash`).
pub fn aliases() -> Aliases {
    hook_kit::aliases(TOOL_ALIASES)
}

/// How Copilot runs its hooks, for a harness's own dispatcher: one after another, with
/// [`aliases`], and a later `permissionRequest` hook's decision overriding an earlier one's
/// (Copilot merges their outputs so).
pub fn dispatcher_settings(builder: DispatcherBuilder) -> DispatcherBuilder {
    builder.mode(Mode::Pipeline).aliases(aliases()).fold(Seam::PermissionRequest, Fold::LastDecides)
}

impl Engine {
    hook_kit::engine_new! {
        /// The hooks of `config`, for a project (the hooks' working directory and
        /// `COPILOT_PROJECT_DIR`), run one after another as Copilot runs them; none when a file
        /// set `disableAllHooks`. `scrub` keeps credentials from the environment they inherit.
        new(config: Config, project_dir: impl Into<PathBuf>, scrub: Option<Scrub>) in group => {
            let project_dir: PathBuf = project_dir.into();
            let project_dir = std::path::absolute(&project_dir).unwrap_or(project_dir);
            let runs = |e: &Entry| !config.disabled || e.source.scope == Scope::Policy;
            let hooks = config.entries.iter().enumerate().filter(|(_, e)| runs(e)).map(|(i, e)| {
                CommandHook::new(e.clone(), i, &project_dir, scrub.clone()).in_group(group)
            });
            let core = Core::new(hooks, group, dispatcher_settings)?;
            Ok(Self { config, core, project_dir, surface: Surface::Local })
        }
    }

    hook_kit::engine_methods! {
        core, config: Config;
        /// The dispatcher of the hooks (sequential, as Copilot runs them).
        dispatcher;
        /// The hooks, to register on a harness's own dispatcher beside other kinds (built with
        /// [`dispatcher_settings`], to run them as Copilot does).
        hooks;
    }

    /// The neutral event of a Copilot input object, carrying the object (with `sessionId`,
    /// `timestamp` and `cwd` when absent) to send as it is.
    pub fn event(&self, name: EventName, mut input: Map<String, Value>) -> Event {
        if name == EventName::PermissionRequest && !input.contains_key("hookName") {
            let mut first = Map::new();
            first.insert("hookName".into(), Value::from("permissionRequest"));
            first.extend(input);
            input = first;
        }
        input.entry("sessionId").or_insert_with(|| Value::from("hooks-cli"));
        input.entry("timestamp").or_insert_with(|| Value::from(now_ms()));
        input.entry("cwd").or_insert_with(|| Value::from(self.project_dir.display().to_string()));
        let mut common = Common::new(text(&input, "sessionId"), cwd_of(&input, &self.project_dir));
        common.transcript_path = maybe_text(&input, "transcriptPath").map(PathBuf::from);
        let args = if name == EventName::PermissionRequest { "toolInput" } else { "toolArgs" };
        let call = || {
            ToolCall::new(text(&input, "toolName"), input.get(args).cloned().unwrap_or(Value::Null))
        };
        let payload: Payload = match name {
            EventName::SessionStart => SessionStart::new(text(&input, "source")).into(),
            EventName::UserPromptSubmitted => PromptSubmit::new(text(&input, "prompt")).into(),
            EventName::PreToolUse => Payload::PreTool(call()),
            EventName::PermissionRequest => Payload::PermissionRequest(call()),
            EventName::PostToolUse => {
                let result = input.get("toolResult").cloned().unwrap_or(Value::Null);
                ToolResult::new(call(), result).into()
            }
            EventName::PostToolUseFailure => ToolFailure::new(call(), text(&input, "error")).into(),
            EventName::AgentStop => {
                let mut end = TurnEnd::new();
                end.continuing = flag(&input, "stop_hook_active");
                end.into()
            }
            EventName::SubagentStart => {
                // Copilot matches `agentName` (older inputs have `agentType` only).
                let name =
                    maybe_text(&input, "agentName").unwrap_or_else(|| text(&input, "agentType"));
                SubagentStart::new(text(&input, "agentId"), name).into()
            }
            EventName::SubagentStop => {
                let mut end = SubagentEnd::new(text(&input, "agentId"), text(&input, "agentType"));
                end.continuing = flag(&input, "stop_hook_active");
                end.last_message = maybe_text(&input, "response");
                end.into()
            }
            EventName::PreCompact => PreCompact::new(text(&input, "trigger")).into(),
            EventName::Notification => {
                Notification::new(text(&input, "notificationType"), text(&input, "message")).into()
            }
            EventName::SessionEnd => SessionEnd::new(text(&input, "reason")).into(),
            EventName::UserPromptTransformed | EventName::ErrorOccurred => {
                Custom::new(name.as_str(), input.clone()).into()
            }
        };
        InputObject::new(name, input).event(common, payload)
    }

    /// The engine of Copilot on `surface`: on its cloud agent ([`Surface::Cloud`]),
    /// [`Engine::run_json`] treats a `preToolUse` `ask` as a deny, as no one is there to answer
    /// (the loader's side of the cloud agent is [`crate::cloud_entries`]).
    #[must_use]
    pub fn on_surface(mut self, surface: Surface) -> Self {
        self.surface = surface;
        self
    }

    /// Runs one event from its Copilot input.
    pub async fn run_json(&self, name: EventName, input: Map<String, Value>) -> Run {
        let event = self.event(name, input);
        let mut run = self
            .core
            .run(name, &event, |report, input| crate::present::shown(name, report, input))
            .await;
        if self.surface == Surface::Cloud
            && name == EventName::PreToolUse
            && run.report.merged.decision == Some(Decision::Ask)
        {
            // No one can be asked: the ask is a deny, in the words of an ask Copilot cannot put.
            run.report.merged.decision = Some(Decision::Deny);
            let reason = run.report.merged.reason().unwrap_or_default();
            let refused = crate::present::ask_refused(&reason);
            run.shown.model = vec![ModelText::new(Placement::ToolResult, refused, true)];
        }
        run
    }
}
