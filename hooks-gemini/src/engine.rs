//! The hooks of a configuration on a dispatcher, and an event run from its Gemini input.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use hook_kit::Core;
use hook_kit::input::{cwd_of, flag, maybe_text, text};
use hook_protocol::{
    Common, Event, Hook, Mode, ModelResponse, Notification, Payload, PreCompact, PromptSubmit,
    Scrub, SessionEnd, SessionStart, ToolCall, ToolResult, ToolSelection, TurnEnd,
};
use serde_json::{Map, Value};

use crate::hook::CommandHook;
use crate::payload::{InputObject, model_request};
use crate::{Config, EventName, HooksConfig};

/// A loaded Gemini CLI configuration, ready to run events.
#[derive(Debug)]
pub struct Engine {
    config: Config,
    /// The hooks, run at once (Gemini's default).
    core: Core<CommandHook>,
    /// The same hooks, run one after another: for an event any of whose matching groups is
    /// `sequential`.
    sequential: Core<CommandHook>,
    project_dir: PathBuf,
    /// The harness's cap on consecutive `AfterAgent` blocks (Gemini has none).
    retry_cap: Option<u32>,
}

/// One event run from its Gemini input: what the hooks received, the fold, what Gemini shows.
pub type Run = hook_kit::Run<EventName>;

impl Engine {
    hook_kit::engine_new! {
        /// The hooks of `config` that run (none when `hooksConfig.enabled` is false; none of
        /// those `hooksConfig.disabled` names), for a project; `home` is the user's home
        /// (`GEMINI_PLANS_DIR`). `scrub` keeps credentials from their environment; with
        /// `hooksConfig`'s redaction on, secret-looking variables are kept from it too.
        new(config: Config, project_dir: impl Into<PathBuf>, home: Option<PathBuf>, scrub: Option<Scrub>, settings: HooksConfig) in group => {
            let project_dir: PathBuf = project_dir.into();
            let project_dir = std::path::absolute(&project_dir).unwrap_or(project_dir);
            let scrub = scrub.or_else(|| settings.redact_env.then(Scrub::new));
            let runs = |e: &crate::Entry| {
                !settings.disabled_all && !settings.disabled.iter().any(|d| d == e.label())
            };
            let hooks = || {
                config.entries.iter().enumerate().filter(|(_, e)| runs(e)).map(|(i, e)| {
                    CommandHook::new(e.clone(), i, home.clone(), scrub.clone()).in_group(group)
                })
            };
            let core = Core::new(hooks(), group, |d| d)?;
            let sequential = Core::new(hooks(), group, |d| d.mode(Mode::Pipeline))?;
            Ok(Self { config, core, sequential, project_dir, retry_cap: None })
        }
    }

    hook_kit::engine_methods! {
        core, config: Config;
        /// The dispatcher of the hooks, run at once.
        dispatcher;
        /// The hooks, to register on a harness's own dispatcher beside other kinds.
        hooks;
    }

    /// The engine, with a cap on how many times in a row its `AfterAgent` hooks may block a
    /// turn's end in a session: past it, the turn ends whatever they say. Gemini CLI has no
    /// such cap (a hook that always blocks runs until Gemini's stack overflows, after about
    /// 2,300 runs); a harness sets one so that one hook can never keep it going forever.
    #[must_use]
    pub fn with_retry_cap(mut self, cap: u32) -> Self {
        self.retry_cap = Some(cap);
        self
    }

    /// The cap on consecutive `AfterAgent` blocks, when the harness set one.
    pub fn retry_cap(&self) -> Option<u32> {
        self.retry_cap
    }

    /// The project's folder.
    pub fn project_dir(&self) -> &Path {
        &self.project_dir
    }

    /// The neutral event of a Gemini input object, carrying the object (with
    /// `hook_event_name`, and `session_id`, `cwd` and `timestamp` when absent) to send as it is.
    pub fn event(&self, name: EventName, mut input: Map<String, Value>) -> Event {
        input.insert("hook_event_name".into(), Value::from(name.as_str()));
        if !input.contains_key("session_id") {
            input.insert("session_id".into(), Value::from("hooks-cli"));
        }
        if !input.contains_key("cwd") {
            input.insert("cwd".into(), Value::from(self.project_dir.display().to_string()));
        }
        if !input.contains_key("timestamp") {
            let now = humantime::format_rfc3339_millis(std::time::SystemTime::now());
            input.insert("timestamp".into(), Value::from(now.to_string()));
        }
        let mut common = Common::new(text(&input, "session_id"), cwd_of(&input, &self.project_dir));
        common.transcript_path = maybe_text(&input, "transcript_path").map(PathBuf::from);
        let call = || {
            ToolCall::new(
                text(&input, "tool_name"),
                input.get("tool_input").cloned().unwrap_or(Value::Null),
            )
        };
        let payload: Payload = match name {
            EventName::SessionStart => SessionStart::new(text(&input, "source")).into(),
            EventName::BeforeAgent => PromptSubmit::new(text(&input, "prompt")).into(),
            EventName::BeforeTool => Payload::PreTool(call()),
            EventName::AfterTool => {
                let response = input.get("tool_response").cloned().unwrap_or(Value::Null);
                ToolResult::new(call(), response).into()
            }
            EventName::AfterAgent => {
                let mut end = TurnEnd::new();
                end.continuing = flag(&input, "stop_hook_active");
                end.last_message = maybe_text(&input, "prompt_response");
                end.into()
            }
            EventName::PreCompress => PreCompact::new(text(&input, "trigger")).into(),
            EventName::Notification => {
                Notification::new(text(&input, "notification_type"), text(&input, "message")).into()
            }
            EventName::SessionEnd => SessionEnd::new(text(&input, "reason")).into(),
            EventName::BeforeModel => {
                Payload::ModelRequest(model_request(input.get("llm_request")))
            }
            EventName::BeforeToolSelection => {
                let request = model_request(input.get("llm_request"));
                Payload::ToolSelection(ToolSelection::new(request, Vec::new()))
            }
            EventName::AfterModel => {
                let request = model_request(input.get("llm_request"));
                let response = input.get("llm_response");
                let text = response.and_then(|r| r.get("text")).and_then(Value::as_str);
                Payload::ModelResponse(ModelResponse::new(request, text.unwrap_or_default()))
            }
        };
        InputObject::new(name, input).event(common, payload)
    }

    /// Runs one event from its Gemini input: at once, or one after another when a matching
    /// group is `sequential`.
    pub async fn run_json(&self, name: EventName, input: Map<String, Value>) -> Run {
        let event = self.event(name, input);
        self.run_event(name, &event).await
    }

    /// Runs a neutral event as Gemini's event `name`.
    pub(crate) async fn run_event(&self, name: EventName, event: &Event) -> Run {
        // Most configurations have no `sequential` group: no matching twice for nothing.
        let any = self.config.entries.iter().any(|e| e.sequential);
        let sequential = any
            && self
                .sequential
                .dispatcher()
                .matching(event)
                .iter()
                .filter_map(|h| {
                    self.sequential.commands().iter().find(|c| std::ptr::eq(c.info(), h.info()))
                })
                .any(|c| c.entry().sequential);
        let piped;
        let (core, event) = if sequential {
            // One hook after another, each seeing what the ones before passed on.
            let mut with = event.clone();
            with.extensions.insert(Arc::new(crate::hook::Piped::default()));
            piped = with;
            (&self.sequential, &piped)
        } else {
            (&self.core, event)
        };
        core.run(name, event, |report, input| {
            let tool = input.get("tool_name").and_then(Value::as_str).unwrap_or_default();
            crate::present::shown(name, report, tool)
        })
        .await
    }
}
