//! The harness API: one typed call per event, returning the event's decision.

use std::sync::Arc;
use std::time::{Duration, Instant};

use hook_protocol::{Dispatcher, Event, Hook, Mode, Observer, Report};
use serde_json::{Map, Value};

use crate::hooks::active::{Activation, WorkspaceTrust};
use crate::hooks::fired::{Candidate, Fired, RawRun, Record};
use crate::hooks::hook::{HandlerHook, SessionEndDeadline};
use crate::hooks::registry::{claude_hooks, dispatcher};
use crate::hooks::timeout::SessionEndBudget;
use crate::input::{Stop, SubagentStop, TypedInput};
use crate::present::Presenter;
use crate::run::background::AsyncResult;
use crate::run::env::HostEnv;
use crate::run::runner::Shared;
use crate::wire::conversion::{InputObject, event_from_payload};
use crate::wire::neutral::event_from_input;
use crate::{Config, EventName, StopDecision, StopGuard};
use hook_protocol::FromReport;

/// Runs a configuration's Claude Code hooks (and any other hooks given) on typed events.
///
/// # Examples
///
/// A project's real settings files, found as Claude Code finds them ([`crate::discover`]; here
/// [`crate::discover_in`], so that the machine's managed settings stay out of the example), and
/// a prompt through their hooks:
///
/// ```
/// use hooks_claude::input::{Base, UserPromptSubmit};
/// use hooks_claude::{Engine, HostEnv, Loader, discover_in};
///
/// let project = std::env::temp_dir().join(format!("engine-doc-{}", std::process::id()));
/// std::fs::create_dir_all(project.join(".claude"))?;
/// std::fs::write(
///     project.join(".claude/settings.json"),
///     r#"{"hooks": {"UserPromptSubmit": [{"hooks": [
///         {"type": "command", "command": "echo 'The build uses cargo.'"}
///     ]}]}}"#,
/// )?;
///
/// let mut loader = Loader::new();
/// for (path, scope) in discover_in(None, &project, &project.join("no-managed-settings")) {
///     loader.settings(path, scope);
/// }
/// let config = loader.finish()?;
/// assert!(config.diagnostics.is_empty(), "{:?}", config.diagnostics);
/// let engine = Engine::builder(config).host(HostEnv::new(&project)).build()?;
///
/// let input = UserPromptSubmit {
///     base: Base::new("session-1", "/tmp/transcript.jsonl", project.display().to_string()),
///     prompt: "Add a test".into(),
///     session_title: None,
/// };
/// let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
/// let fired = runtime.block_on(engine.user_prompt_submit(&input));
/// // Plain stdout of a UserPromptSubmit hook is context for the model.
/// assert_eq!(fired.decision.context[0].text, "The build uses cargo.");
/// std::fs::remove_dir_all(&project)?;
/// Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Engine {
    pub(crate) dispatcher: Dispatcher,
    pub(crate) claude: Vec<Arc<HandlerHook>>,
    pub(crate) shared: Arc<Shared>,
    pub(crate) activation: Arc<Activation>,
    pub(crate) config: Arc<Config>,
    pub(crate) session_end: SessionEndBudget,
    pub(crate) presenter: Arc<Presenter>,
    /// What the dispatcher is built from besides the Claude hooks, to rebuild it when a
    /// skill's hooks are added ([`Engine::add_skill`]).
    pub(crate) extra: Vec<Arc<dyn Hook>>,
    pub(crate) mode: Option<Mode>,
    pub(crate) observer: Option<Arc<dyn Observer>>,
    /// Other names of the harness's tools, for matchers.
    pub(crate) tool_aliases: hook_protocol::Aliases,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine").field("hooks", &self.claude.len()).finish()
    }
}

/// A typed call per event of the table, except the two that take a loop guard
/// ([`Engine::stop`], [`Engine::subagent_stop`]).
macro_rules! typed_calls {
    (@one $doc:literal Stop => $method:ident) => {};
    (@one $doc:literal SubagentStop => $method:ident) => {};
    (@one $doc:literal $input:ident => $method:ident) => {
        #[doc = concat!("Fires `", stringify!($input), "`:", $doc, " Returns its decision.")]
        pub async fn $method(&self, input: &crate::input::$input) -> Fired<<crate::input::$input as TypedInput>::Decision> {
            self.fire(input).await
        }
    };
    ($(#[doc = $doc:literal] $input:ident => $method:ident { $($facts:tt)* }),* $(,)?) => {
        $(typed_calls!(@one $doc $input => $method);)*
    };
}

impl Engine {
    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The Claude hooks, to register on a harness's own [`Dispatcher`] next to other kinds.
    pub fn claude_hooks(&self) -> Vec<Arc<dyn Hook>> {
        self.claude.iter().map(|h| Arc::clone(h) as Arc<dyn Hook>).collect()
    }

    /// The dispatcher.
    pub fn dispatcher(&self) -> &Dispatcher {
        &self.dispatcher
    }

    /// Fires a typed input and returns the event's typed decision. The hooks get exactly this
    /// input's JSON on stdin.
    pub async fn fire<I: TypedInput>(&self, input: &I) -> Fired<I::Decision> {
        let mut event = event_from_input(input);
        self.prepare(I::EVENT.as_str(), &mut event);
        let report = self.dispatcher.dispatch(&event).await;
        let input = match event.extensions.get::<InputObject>() {
            Some(p) => p.clone(),
            None => InputObject::of_input(input),
        };
        Fired {
            decision: I::Decision::from_report(&report),
            report,
            input,
            presenter: Arc::clone(&self.presenter),
        }
    }

    /// The harness's variables the engine was built with.
    pub(crate) fn host(&self) -> &HostEnv {
        &self.shared.host
    }

    /// A raw run of an event already fired.
    pub(crate) fn raw_run(&self, name: &str, input: Map<String, Value>, report: Report) -> RawRun {
        let records = report.records.iter().map(Record::from_record).collect();
        RawRun {
            event: name.to_owned(),
            input,
            report,
            records,
            presenter: Arc::clone(&self.presenter),
        }
    }

    /// The presenter of [`Fired::shown`], for reports and background results
    /// ([`Presenter::late`]).
    pub fn presenter(&self) -> &Presenter {
        &self.presenter
    }

    /// Fires `Stop` under the loop guard: `stop_hook_active` comes from the guard, and a
    /// block past its cap is overridden (reported in [`StopDecision::guard_override`]).
    pub async fn stop(&self, input: &Stop, guard: &mut StopGuard) -> Fired<StopDecision> {
        let mut input = input.clone();
        input.stop_hook_active = guard.stop_hook_active();
        let mut fired = self.fire(&input).await;
        guard.review(&mut fired.decision);
        fired
    }

    /// Fires `SubagentStop` under the sub-agent's loop guard.
    pub async fn subagent_stop(
        &self,
        input: &SubagentStop,
        guard: &mut StopGuard,
    ) -> Fired<StopDecision> {
        let mut input = input.clone();
        input.stop_hook_active = guard.stop_hook_active();
        let mut fired = self.fire(&input).await;
        guard.review(&mut fired.decision);
        fired
    }

    crate::config::event_name::with_every_event!(typed_calls);

    /// The neutral event for a raw input: `hook_event_name` set, `session_id`,
    /// `transcript_path` and `cwd` filled only when absent; nothing else added or reordered.
    pub fn raw_event(&self, name: &str, mut input: Map<String, Value>, session_id: &str) -> Event {
        input.insert("hook_event_name".to_owned(), Value::String(name.to_owned()));
        let defaults = [
            ("session_id", session_id.to_owned()),
            ("transcript_path", String::new()),
            ("cwd", self.shared.host.project_dir.display().to_string()),
        ];
        for (key, value) in defaults {
            if !input.contains_key(key) {
                input.insert(key.to_owned(), Value::String(value));
            }
        }
        event_from_payload(name, input)
    }

    /// Runs an event from a raw JSON object (for `hooks run`); unknown event names pass
    /// through untyped.
    pub async fn run_json(
        &self,
        name: &str,
        input: Map<String, Value>,
        session_id: &str,
    ) -> RawRun {
        let mut event = self.raw_event(name, input, session_id);
        self.prepare(name, &mut event);
        let report = self.dispatcher.dispatch(&event).await;
        let payload = event.extensions.get::<crate::InputObject>().cloned();
        drop(event);
        // The event's handle is gone: the object is taken, not copied, unless a hook still
        // holds the payload.
        let sent = payload.map(InputObject::into_object).unwrap_or_default();
        let records = report.records.iter().map(Record::from_record).collect();
        RawRun {
            event: name.to_owned(),
            input: sent,
            report,
            records,
            presenter: Arc::clone(&self.presenter),
        }
    }

    /// The user trusted the project folder (the trust dialog was accepted): every hook runs
    /// from now on, a project sub-agent's included.
    pub fn trust_workspace(&self) {
        self.activation
            .trust
            .store(WorkspaceTrust::Trusted as u8, std::sync::atomic::Ordering::Release);
    }

    /// Whether the project folder is trusted.
    pub fn workspace_trust(&self) -> WorkspaceTrust {
        self.activation.workspace_trust()
    }

    /// Registers the frontmatter hooks of skill `name` (loaded with
    /// [`crate::Loader::skill`]) for the rest of the session, as Claude Code does when the
    /// skill is invoked. Returns whether it was not registered yet.
    pub fn activate_skill(&self, name: &str) -> bool {
        let mut skills = self.activation.skills.write().unwrap_or_else(|e| e.into_inner());
        skills.insert(name.to_owned())
    }

    /// Loads the frontmatter hooks of a skill's `SKILL.md` into the engine, as
    /// [`crate::Loader::skill`] would have at load time (they run once the skill is activated,
    /// [`Engine::activate_skill`]), and returns the skill's name with the problems the file
    /// has (an unreadable or broken file registers nothing). A [`crate::Session`] does this
    /// when the Skill tool runs a skill the configuration did not load.
    pub fn add_skill(
        &mut self,
        path: &std::path::Path,
    ) -> (Option<String>, Vec<hook_protocol::Diagnostic>) {
        let mut loader = crate::Loader::new();
        loader.skill(path);
        let loaded = loader.finish().unwrap_or_else(crate::LoadErrors::into_config);
        let name = loaded.sources.iter().find_map(|s| match &s.origin {
            crate::Origin::Skill { name } => Some(name.clone()),
            _ => None,
        });
        let first = self.config.entries.len();
        let hooks =
            claude_hooks(&loaded.entries, first, &self.shared, &self.activation, self.session_end);
        let mut claude = self.claude.clone();
        claude.extend(hooks);
        match dispatcher(
            &claude,
            &self.extra,
            self.mode,
            self.observer.as_ref(),
            &self.tool_aliases,
        ) {
            Ok(rebuilt) => {
                self.dispatcher = rebuilt;
                self.claude = claude;
                let config = Arc::make_mut(&mut self.config);
                config.entries.extend(loaded.entries);
                config.sources.extend(loaded.sources);
                config.diagnostics.extend(loaded.diagnostics.iter().cloned());
                (name, loaded.diagnostics)
            }
            Err(e) => {
                let mut problems = loaded.diagnostics;
                problems.push(hook_protocol::Diagnostic::new(
                    path,
                    hook_protocol::Position::default(),
                    hook_protocol::Level::Error,
                    hook_protocol::skipping(
                        format!("the skill's matchers cannot be compiled with the others: {e}"),
                        hook_protocol::Skipped::File,
                        "no hook from it registers",
                    ),
                ));
                (name, problems)
            }
        }
    }

    /// Fires a prepared raw event, cancelled when `cancel` is: the report, the stdin object
    /// and the firing's env files.
    pub(crate) async fn fire_prepared(
        &self,
        name: &str,
        mut event: Event,
        cancel: Option<&tokio_util::sync::CancellationToken>,
    ) -> (Report, InputObject, Option<crate::run::env_file::EnvFiles>) {
        self.prepare(name, &mut event);
        let report = match cancel {
            Some(token) => self.dispatcher.dispatch_until(&event, token.cancelled()).await,
            None => self.dispatcher.dispatch(&event).await,
        };
        let payload = match event.extensions.get::<InputObject>() {
            Some(p) => p.clone(),
            None => InputObject::new(name, Map::new()),
        };
        let files = event.extensions.get::<crate::run::env_file::EnvFiles>().cloned();
        (report, payload, files)
    }

    /// Ends every background hook now (its process tree killed) and waits until they are
    /// gone; unlike [`Engine::shutdown`], background hooks may start again afterwards.
    pub(crate) async fn kill_background(&self) {
        self.shared.background.kill_all().await;
    }

    /// Whether skill `name` was invoked ([`Engine::activate_skill`]).
    pub fn skill_active(&self, name: &str) -> bool {
        let skills = self.activation.skills.read().unwrap_or_else(|e| e.into_inner());
        skills.contains(name)
    }

    /// The Claude hooks that match an event (after the matcher), each with whether it would
    /// run (duplicates and `if` mismatches say why not), in configuration order.
    pub fn list(&self, event: &Event) -> Vec<Candidate> {
        self.dispatcher
            .matching(event)
            .into_iter()
            .filter_map(|h| {
                let id = &h.info().id;
                self.claude.iter().find(|c| &c.info().id == id)
            })
            .map(|c| Candidate {
                id: c.info().id.clone(),
                command: c.info().label.clone(),
                file: c.entry().source.path.clone(),
                plugin: c.entry().source.plugin().map(|p| p.name.clone()),
                not_run: c.not_run(event),
            })
            .collect()
    }

    /// What an event needs before it is dispatched: `SessionEnd` gets its shared deadline,
    /// `SessionStart` and `CwdChanged` their hooks' `CLAUDE_ENV_FILE`s.
    fn prepare(&self, name: &str, event: &mut Event) {
        if name == EventName::SessionEnd.as_str() {
            event.extensions.insert(SessionEndDeadline(Instant::now() + self.session_end.budget));
        }
        if let Some(files) = self.env_files(name, event) {
            event.extensions.insert(files);
        }
    }

    /// The `CLAUDE_ENV_FILE`s of a `SessionStart` or `CwdChanged` firing, created: one per
    /// command hook that runs, numbered in configuration order.
    fn env_files(&self, name: &str, event: &Event) -> Option<crate::run::env_file::EnvFiles> {
        let event_name = EventName::parse(name).filter(|e| e.gets_env_file())?;
        let object = event.extensions.get::<InputObject>()?.object();
        let session_id = object.get("session_id").and_then(Value::as_str).unwrap_or_default();
        let source = object.get("source").and_then(Value::as_str);
        let ids: Vec<String> = self
            .dispatcher
            .matching(event)
            .into_iter()
            .filter_map(|h| self.claude.iter().find(|c| c.info().id == h.info().id))
            .filter(|c| {
                c.entry().event == event_name
                    && matches!(c.entry().handler.spec, crate::HandlerSpec::Command)
                    && c.not_run(event).is_none()
            })
            .map(|c| c.info().id.clone())
            .collect();
        let dir = crate::run::env_file::session_env_dir(self.presenter.claude_home(), session_id);
        let empty = crate::run::env_file::starts_empty(event_name, source);
        Some(crate::run::env_file::create(&dir, event_name, empty, &ids))
    }

    /// The shared budget of one `SessionEnd` firing.
    pub fn session_end_budget(&self) -> Duration {
        self.session_end.budget
    }

    /// Results of background (`async`) hooks that ended since the last call, oldest first:
    /// their `additionalContext` and `systemMessage` are for the model's next request.
    /// `asyncRewake` wake-ups go to the wake channel instead, once it is taken.
    pub fn drain_async(&self) -> Vec<AsyncResult> {
        self.shared.background.drain()
    }

    /// The wake channel: an `asyncRewake` hook that exits 2 arrives here at once, to wake
    /// the model even when it is idle. Only the first call gets it; until it is taken,
    /// wake-ups wait in [`Engine::drain_async`].
    pub fn take_wake_receiver(&self) -> Option<tokio::sync::mpsc::Receiver<AsyncResult>> {
        self.shared.background.take_wake_receiver()
    }

    /// How many of this engine's command hooks are running now, in the foreground or the
    /// background.
    pub fn running(&self) -> usize {
        self.shared.group.running()
    }

    /// Ends this engine's running command hooks, and no other engine's: SIGTERM to each one's
    /// process tree (or cgroup), up to `grace` for them to go, then SIGKILL; the events they
    /// ran for end as their hooks were killed. Returns how many were running. For a harness
    /// that drops one engine while others go on ([`hook_exec::kill_running`] ends every hook of
    /// the process). It blocks for at most `grace`: call it from a blocking task or a thread.
    pub fn kill_running(&self, grace: Duration) -> usize {
        self.shared.group.kill_running(grace)
    }

    /// How many background hooks are running or queued.
    pub fn background_pending(&self) -> usize {
        self.shared.background.pending()
    }

    /// Gives the background hooks up to `wait` to end (their results then wait in
    /// [`Engine::drain_async`]), ends those still running or queued at the deadline (their
    /// process trees killed), and returns the commands of the ones it ended. For a program
    /// that fires one event and exits, as `hooks run` does.
    pub async fn settle_background(&self, wait: Duration) -> Vec<String> {
        let started = std::time::Instant::now();
        while self.background_pending() > 0 && started.elapsed() < wait {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let ended = self.shared.background.commands();
        if !ended.is_empty() {
            self.kill_background().await;
        }
        ended
    }

    /// Ends every background hook (killing its process tree) and waits until they are gone;
    /// no background hook starts afterwards. Call it when the session ends.
    pub async fn shutdown(&self) {
        self.shared.background.shutdown().await;
    }
}
