//! The hooks of a configuration on a dispatcher, and an event run from its Codex input.

use std::path::PathBuf;
use std::sync::Arc;

use hook_kit::Core;
use hook_kit::input::{cwd_of, flag, maybe_text, text};
use hook_protocol::{
    Aliases, Common, Custom, Event, Hook, Payload, PreCompact, PromptSubmit, Scrub, SessionEnd,
    SessionStart, SubagentEnd, SubagentStart, ToolCall, ToolResult, TurnEnd,
};
use serde_json::{Map, Value};

use crate::AsyncOutput;
use crate::background::Background;
use crate::event::TOOL_ALIASES;
use crate::hook::CommandHook;
use crate::payload::InputObject;
use crate::{Config, EventName};

/// A loaded Codex configuration, ready to run events.
#[derive(Debug)]
pub struct Engine {
    config: Config,
    core: Core<CommandHook>,
    /// The `async` hooks, on a dispatcher of their own that only matches them.
    background_core: Core<CommandHook>,
    background: Background,
    project_dir: PathBuf,
}

/// An engine that goes ends its `async` hooks still running (their process trees killed): none
/// outlives the engine that started it.
impl Drop for Engine {
    fn drop(&mut self) {
        self.background.abort_all();
    }
}

/// One event run from its Codex input: what the hooks received, the fold, what Codex shows.
pub type Run = hook_kit::Run<EventName>;

/// Codex's tool aliases as the core's table.
pub fn aliases() -> Aliases {
    hook_kit::aliases(TOOL_ALIASES)
}

impl Engine {
    hook_kit::engine_new! {
        /// The hooks of `config` that may run (by Codex's trust rule), for a project; `scrub`
        /// keeps credentials from the environment they inherit.
        new(config: Config, project_dir: impl Into<PathBuf>, scrub: Option<Scrub>) in group => {
            let (background_hooks, hooks): (Vec<CommandHook>, Vec<CommandHook>) = config
                .entries
                .iter()
                .enumerate()
                .filter(|(_, e)| e.trust.runs())
                .map(|(i, e)| CommandHook::new(e.clone(), i, scrub.clone()).in_group(group))
                .partition(|h| h.entry().is_async);
            Ok(Self {
                core: Core::new(hooks, group, |d| d.aliases(aliases()))?,
                background_core: Core::new(background_hooks, group, |d| d.aliases(aliases()))?,
                config,
                background: Background::default(),
                project_dir: project_dir.into(),
            })
        }
    }

    hook_kit::engine_methods! {
        core, config: Config;
        /// The dispatcher of the hooks that may run.
        dispatcher;
        /// The hooks that may run and are waited for (not the `async` ones, which
        /// [`Engine::run_json`] starts), to register on a harness's own dispatcher beside other
        /// kinds (with [`aliases`] on it, so that `Edit|Write` matchers see `apply_patch`).
        hooks;
    }

    /// Starts the `async` hooks that match `event` without waiting for them (a harness that
    /// runs the other hooks on its own dispatcher calls it; [`Engine::run_json`] does). Returns
    /// how many started: none past [`MAX_RUNNING`](crate::MAX_RUNNING) running at once.
    pub fn start_async(&self, event: &Event) -> usize {
        // Most configurations have none: no matching on every event for nothing.
        let background = self.background_core.commands();
        if background.is_empty() {
            return 0;
        }
        let matching = self.background_core.dispatcher().matching(event);
        let mut started = 0;
        for hook in background {
            let this = Arc::clone(hook) as Arc<dyn Hook>;
            if matching.iter().any(|m| Arc::ptr_eq(m, &this))
                && self.background.launch(Arc::clone(hook), event.clone())
            {
                started += 1;
            }
        }
        started
    }

    /// How many `async` hooks are running.
    pub fn async_running(&self) -> usize {
        self.background.running()
    }

    /// The developer message that delivers what ended `async` hooks said, for the user turn
    /// Codex is about to accept: the oldest outputs that fit in 1,000 approximate tokens, in
    /// `<async_hook_outputs>`; the rest wait for later turns. They are removed once taken.
    pub fn take_async_output(&self) -> Option<String> {
        let (count, text) = self.background.batch()?;
        self.background.commit(count);
        Some(text)
    }

    /// The outputs [`Engine::take_async_output`] would deliver now, and their message, without
    /// removing them (a turn is delivered them only once accepted).
    pub(crate) fn pending_async(&self) -> Option<(Vec<AsyncOutput>, String)> {
        let (count, text) = self.background.batch()?;
        Some((self.background.peek(count), text))
    }

    /// Waits up to `wait` for the running `async` hooks to end; those still running go on.
    pub(crate) async fn wait_async(&self, wait: std::time::Duration) {
        self.background.wait(wait).await;
    }

    /// Removes the first `count` waiting outputs: a turn took them.
    pub(crate) fn commit_async(&self, count: usize) {
        self.background.commit(count);
    }

    /// Gives the running `async` hooks up to `wait` to end, ends those still running then
    /// (their process trees killed), and returns every waiting output, oldest first, and the
    /// commands of those it ended. For a program that runs one event and exits.
    pub async fn settle_async(&self, wait: std::time::Duration) -> (Vec<AsyncOutput>, Vec<String>) {
        self.background.settle(wait).await
    }

    /// The neutral event of a Codex input object, carrying the object (with `hook_event_name`,
    /// and `session_id` and `cwd` when absent) to send as it is.
    pub fn event(&self, name: EventName, mut input: Map<String, Value>) -> Event {
        input.insert("hook_event_name".into(), Value::from(name.as_str()));
        if !input.contains_key("session_id") {
            input.insert("session_id".into(), Value::from("hooks-cli"));
        }
        if !input.contains_key("cwd") {
            input.insert("cwd".into(), Value::from(self.project_dir.display().to_string()));
        }
        let mut common = Common::new(text(&input, "session_id"), cwd_of(&input, &self.project_dir));
        common.transcript_path = maybe_text(&input, "transcript_path").map(PathBuf::from);
        common.permission_mode = maybe_text(&input, "permission_mode");
        let call = || {
            let mut call = ToolCall::new(
                text(&input, "tool_name"),
                input.get("tool_input").cloned().unwrap_or(Value::Null),
            );
            call.tool_use_id = maybe_text(&input, "tool_use_id");
            call
        };
        let payload: Payload = match name {
            EventName::SessionStart => SessionStart::new(text(&input, "source")).into(),
            EventName::UserPromptSubmit => PromptSubmit::new(text(&input, "prompt")).into(),
            EventName::PreToolUse => Payload::PreTool(call()),
            EventName::PermissionRequest => Payload::PermissionRequest(call()),
            EventName::PostToolUse => {
                let response = input.get("tool_response").cloned().unwrap_or(Value::Null);
                ToolResult::new(call(), response).into()
            }
            EventName::Stop => {
                let mut end = TurnEnd::new();
                end.continuing = flag(&input, "stop_hook_active");
                end.last_message = maybe_text(&input, "last_assistant_message");
                end.into()
            }
            EventName::SubagentStart => {
                SubagentStart::new(text(&input, "agent_id"), text(&input, "agent_type")).into()
            }
            EventName::SubagentStop => {
                let mut end =
                    SubagentEnd::new(text(&input, "agent_id"), text(&input, "agent_type"));
                end.continuing = flag(&input, "stop_hook_active");
                end.into()
            }
            EventName::PreCompact => PreCompact::new(text(&input, "trigger")).into(),
            EventName::SessionEnd => SessionEnd::new(text(&input, "reason")).into(),
            EventName::PostCompact | EventName::StopFailure | EventName::Interrupt => {
                Custom::new(name.as_str(), input.clone()).into()
            }
        };
        InputObject::new(name, input).event(common, payload)
    }

    /// Runs one event from its Codex input.
    pub async fn run_json(&self, name: EventName, input: Map<String, Value>) -> Run {
        let event = self.event(name, input);
        self.start_async(&event);
        self.core
            .run(name, &event, |report, input| crate::present::shown(name, report, input))
            .await
    }
}
