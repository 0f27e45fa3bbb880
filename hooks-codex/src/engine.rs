//! The hooks of a configuration on a dispatcher, and an event run from its Codex input.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use hook_exec::RunGroup;

use hook_protocol::{
    Aliases, Common, Custom, Dispatcher, Event, Hook, MatcherError, Payload, PreCompact,
    PromptSubmit, Report, Scrub, SessionEnd, SessionStart, Shown, SubagentEnd, SubagentStart,
    ToolCall, ToolResult, TurnEnd,
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
    dispatcher: Dispatcher,
    hooks: Vec<Arc<CommandHook>>,
    /// The `async` hooks, on a dispatcher of their own that only matches them.
    background_hooks: Vec<Arc<CommandHook>>,
    background_dispatcher: Dispatcher,
    background: Background,
    project_dir: PathBuf,
    group: RunGroup,
}

/// An engine that goes ends its `async` hooks still running (their process trees killed): none
/// outlives the engine that started it.
impl Drop for Engine {
    fn drop(&mut self) {
        self.background.abort_all();
    }
}

/// One event run from its Codex input: what the hooks received, the fold, what Codex shows.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Run {
    /// The event.
    pub event: EventName,
    /// The object the hooks received on stdin.
    pub input: Arc<Map<String, Value>>,
    /// The fold and one record per hook.
    pub report: Report,
    /// What Codex shows the model and the user after it.
    pub shown: Shown,
}

/// Codex's tool aliases as the core's table.
pub fn aliases() -> Aliases {
    TOOL_ALIASES
        .iter()
        .fold(Aliases::new(), |a, (tool, names)| a.alias(*tool, names.iter().copied()))
}

impl Engine {
    /// The hooks of `config` that may run (by Codex's trust rule), for a project; `scrub`
    /// keeps credentials from the environment they inherit.
    ///
    /// # Errors
    ///
    /// [`MatcherError`] when the matchers of one event cannot be compiled together.
    pub fn new(
        config: Config,
        project_dir: impl Into<PathBuf>,
        scrub: Option<Scrub>,
    ) -> Result<Self, MatcherError> {
        Self::new_in(config, project_dir, scrub, RunGroup::new())
    }

    /// As [`Engine::new`], its hooks run in `group`: with the group's containment choices
    /// (cgroups or not, resource limits), over the process's, and ended together by
    /// [`Engine::kill_running`]. Engines of one process may each have their own.
    ///
    /// # Errors
    ///
    /// [`MatcherError`] when the matchers of one event cannot be compiled together.
    pub fn new_in(
        config: Config,
        project_dir: impl Into<PathBuf>,
        scrub: Option<Scrub>,
        group: RunGroup,
    ) -> Result<Self, MatcherError> {
        let (background_hooks, hooks): (Vec<Arc<CommandHook>>, Vec<Arc<CommandHook>>) = config
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.trust.runs())
            .map(|(i, e)| Arc::new(CommandHook::new(e.clone(), i, scrub.clone()).in_group(group)))
            .partition(|h| h.entry().is_async);
        let on_dispatcher = |hooks: &[Arc<CommandHook>]| {
            Dispatcher::builder()
                .hooks(hooks.iter().map(|h| Arc::clone(h) as Arc<dyn Hook>))
                .aliases(aliases())
                .build()
        };
        Ok(Self {
            dispatcher: on_dispatcher(&hooks)?,
            background_dispatcher: on_dispatcher(&background_hooks)?,
            config,
            hooks,
            background_hooks,
            background: Background::default(),
            project_dir: project_dir.into(),
            group,
        })
    }

    /// How many of this engine's hooks are running now.
    pub fn running(&self) -> usize {
        self.group.running()
    }

    /// Ends this engine's running hooks, and no other engine's: SIGTERM to each one's process
    /// tree (or cgroup), up to `grace` for them to go, then SIGKILL; the events they ran for end
    /// as their hooks were killed. Returns how many were running. It blocks for at most
    /// `grace`: call it from a blocking task or a thread.
    pub fn kill_running(&self, grace: std::time::Duration) -> usize {
        self.group.kill_running(grace)
    }

    /// Starts the `async` hooks that match `event` without waiting for them (a harness that
    /// runs the other hooks on its own dispatcher calls it; [`Engine::run_json`] does). Returns
    /// how many started: none past [`MAX_RUNNING`](crate::MAX_RUNNING) running at once.
    pub fn start_async(&self, event: &Event) -> usize {
        // Most configurations have none: no matching on every event for nothing.
        if self.background_hooks.is_empty() {
            return 0;
        }
        let matching = self.background_dispatcher.matching(event);
        let mut started = 0;
        for hook in &self.background_hooks {
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

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The dispatcher of the hooks that may run.
    pub fn dispatcher(&self) -> &Dispatcher {
        &self.dispatcher
    }

    /// The hooks that may run and are waited for (not the `async` ones, which
    /// [`Engine::run_json`] starts), to register on a harness's own dispatcher beside other
    /// kinds (with [`aliases`] on it, so that `Edit|Write` matchers see `apply_patch`).
    pub fn hooks(&self) -> Vec<Arc<dyn Hook>> {
        self.hooks.iter().map(|h| Arc::clone(h) as Arc<dyn Hook>).collect()
    }

    /// The neutral event of a Codex input object, carrying the object (with `hook_event_name`,
    /// and `session_id` and `cwd` when absent) to send as it is.
    pub fn event(&self, name: EventName, mut input: Map<String, Value>) -> Event {
        input.insert("hook_event_name".into(), Value::from(name.as_str()));
        let text = |input: &Map<String, Value>, key: &str| {
            input.get(key).and_then(Value::as_str).unwrap_or_default().to_owned()
        };
        if !input.contains_key("session_id") {
            input.insert("session_id".into(), Value::from("hooks-cli"));
        }
        if !input.contains_key("cwd") {
            input.insert("cwd".into(), Value::from(self.project_dir.display().to_string()));
        }
        let mut common = Common::new(text(&input, "session_id"), cwd_of(&input, &self.project_dir));
        common.transcript_path =
            input.get("transcript_path").and_then(Value::as_str).map(PathBuf::from);
        common.permission_mode =
            input.get("permission_mode").and_then(Value::as_str).map(str::to_owned);
        let call = || {
            let mut call = ToolCall::new(
                text(&input, "tool_name"),
                input.get("tool_input").cloned().unwrap_or(Value::Null),
            );
            call.tool_use_id = input.get("tool_use_id").and_then(Value::as_str).map(str::to_owned);
            call
        };
        let flag = |key: &str| input.get(key).and_then(Value::as_bool).unwrap_or(false);
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
                end.continuing = flag("stop_hook_active");
                end.last_message =
                    input.get("last_assistant_message").and_then(Value::as_str).map(str::to_owned);
                end.into()
            }
            EventName::SubagentStart => {
                SubagentStart::new(text(&input, "agent_id"), text(&input, "agent_type")).into()
            }
            EventName::SubagentStop => {
                let mut end =
                    SubagentEnd::new(text(&input, "agent_id"), text(&input, "agent_type"));
                end.continuing = flag("stop_hook_active");
                end.into()
            }
            EventName::PreCompact => PreCompact::new(text(&input, "trigger")).into(),
            EventName::SessionEnd => SessionEnd::new(text(&input, "reason")).into(),
            EventName::PostCompact | EventName::StopFailure | EventName::Interrupt => {
                Custom::new(name.as_str(), input.clone()).into()
            }
        };
        let mut event = Event::new(common, payload);
        event.extensions.insert(InputObject(Arc::new(input)));
        event
    }

    /// Runs one event from its Codex input.
    pub async fn run_json(&self, name: EventName, input: Map<String, Value>) -> Run {
        let event = self.event(name, input);
        self.start_async(&event);
        let report = self.dispatcher.dispatch(&event).await;
        let input = event
            .extensions
            .get::<InputObject>()
            .map_or_else(|| Arc::new(Map::new()), |p| Arc::clone(&p.0));
        let shown = crate::present::shown(name, &report, &input);
        Run { event: name, input, report, shown }
    }
}

/// The `cwd` of an input, else the project directory.
fn cwd_of(input: &Map<String, Value>, project_dir: &Path) -> PathBuf {
    input
        .get("cwd")
        .and_then(Value::as_str)
        .filter(|c| !c.is_empty())
        .map_or_else(|| project_dir.to_path_buf(), PathBuf::from)
}
