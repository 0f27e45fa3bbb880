//! The harness API: one typed call per event, returning the event's decision.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hook_protocol::{
    Dispatcher, Event, Hook, HookRecord, HookStatus, MatcherError, Mode, Observer, Report, Source,
};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::delegate::{AgentRunner, McpToolCaller, ModelEvaluator};
use crate::hooks::active::{Activation, WorkspaceTrust};
use crate::hooks::hook::{DedupKey, HandlerHook, NotRun, SessionEndDeadline, Twin};
use crate::hooks::timeout::SessionEndBudget;
use crate::input::{Stop, SubagentStop, TypedInput};
use crate::present::{Presenter, Shown};
use crate::run::background::{AsyncResult, Background, BackgroundLimits};
use crate::run::env::HostEnv;
use crate::run::http::HttpPolicy;
use crate::run::runner::{Delegates, Shared};
use crate::wire::conversion::{InputObject, event_from_payload};
use crate::wire::decode::RunRecord;
use crate::wire::neutral::event_from_input;
use crate::{Config, EventName, StopDecision, StopGuard};
use hook_protocol::{FromReport, ReasonRule};

/// A decision and the dispatch report it was read from.
#[derive(Clone)]
#[non_exhaustive]
pub struct Fired<D> {
    /// The event's typed decision.
    pub decision: D,
    /// The fold and one record per hook that matched.
    pub report: Report,
    /// The stdin object the hooks received.
    input: InputObject,
    presenter: Arc<Presenter>,
}

impl<D: std::fmt::Debug> std::fmt::Debug for Fired<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fired")
            .field("event", &self.input.name())
            .field("decision", &self.decision)
            .field("report", &self.report)
            .finish_non_exhaustive()
    }
}

impl<D> Fired<D> {
    /// Per-hook records in Claude Code's terms, in configuration order.
    pub fn records(&self) -> Vec<Record> {
        self.report.records.iter().map(Record::from_record).collect()
    }

    /// The stdin object the hooks received. An event fired from a typed input reads it back
    /// from the stdin bytes on the first call (the engine itself never needs it).
    pub fn input(&self) -> &Map<String, Value> {
        self.input.object()
    }
}

impl<D: 'static> Fired<D> {
    /// What Claude Code shows after this event: the texts it adds to the conversation, each
    /// where it puts it, and the texts it shows the user, word for word
    /// ([`crate::present`]). A long text is saved under the engine's Claude home on each
    /// call; the rendering reflects the decision as it is at the call (the Stop loop guard's
    /// override included).
    pub fn shown(&self) -> Shown {
        let guard = (&self.decision as &dyn std::any::Any)
            .downcast_ref::<StopDecision>()
            .and_then(StopDecision::guard_override);
        self.presenter.shown_with(&self.report, &self.input, guard)
    }
}

/// One hook's run, in Claude Code's terms.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Record {
    /// Position in configuration order.
    pub position: usize,
    /// The hook's identifier.
    pub id: String,
    /// The command as written.
    pub command: String,
    /// Where it comes from.
    pub source: Source,
    /// `success`, `blocking_error`, `non_blocking_error`, `timed_out`, `spawn_failed`,
    /// `skipped`, `cancelled`.
    pub status: HookStatus,
    /// The exit code, when it exited with one.
    pub exit_code: Option<i32>,
    /// The HTTP status, for an `http` hook that got an answer.
    pub http_status: Option<u16>,
    /// How long it ran.
    pub duration: Duration,
    /// The blocking reason or error notice.
    pub message: Option<String>,
    /// Warnings about its answer.
    pub warnings: Vec<String>,
    /// The end of its stderr.
    pub stderr_tail: String,
    /// What it said, as it entered the fold: its decision, reason, context, rewrite.
    pub verdict: hook_protocol::Verdict,
    /// The hooks it ran as one (a TNSAI list on the engine), each a record of its own.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inner: Vec<Record>,
}

impl Record {
    /// The Claude view of a core record (hooks of other kinds get the status the core gave).
    pub fn from_record(r: &HookRecord) -> Self {
        let meta = RunRecord::of_metadata(r.metadata.as_ref());
        let status = meta.as_ref().map_or(
            match r.status {
                hook_protocol::HookStatus::Success => HookStatus::Success,
                hook_protocol::HookStatus::Blocked => HookStatus::Blocked,
                hook_protocol::HookStatus::TimedOut => HookStatus::TimedOut,
                hook_protocol::HookStatus::SpawnFailed => HookStatus::SpawnFailed,
                hook_protocol::HookStatus::Skipped => HookStatus::Skipped,
                hook_protocol::HookStatus::Cancelled => HookStatus::Cancelled,
                _ => HookStatus::Failed,
            },
            |m| m.status,
        );
        Self {
            position: r.position,
            id: r.id.clone(),
            command: r.label.clone(),
            source: r.source.clone(),
            status,
            exit_code: meta.as_ref().and_then(|m| m.exit_code),
            http_status: meta.as_ref().and_then(|m| m.http_status),
            duration: r.duration,
            message: meta.and_then(|m| m.message.clone()).or_else(|| r.failure.clone()),
            warnings: r.warnings.clone(),
            stderr_tail: r.process.as_ref().map(|p| p.stderr_tail.clone()).unwrap_or_default(),
            verdict: r.verdict.clone(),
            inner: r.inner.iter().map(Record::from_record).collect(),
        }
    }
}

/// What a raw run ([`Engine::run_json`]) returns.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct RawRun {
    /// The event's name.
    pub event: String,
    /// The exact object sent on stdin.
    pub input: Map<String, Value>,
    /// The fold, in neutral terms.
    pub report: Report,
    /// Per-hook records.
    pub records: Vec<Record>,
    #[serde(skip)]
    presenter: Arc<Presenter>,
}

impl RawRun {
    /// The reason of the merged decision, in the hook's own words: the one Claude Code
    /// shows (for a deny or block, the last hook's in configuration order, exit 2 before a
    /// JSON answer; for an ask, the first). Every hook's reason is in
    /// [`hook_protocol::Merged::reasons`].
    pub fn reason(&self) -> Option<String> {
        crate::wire::decision::shown_reason(&self.report)
    }

    /// What Claude Code shows after this event ([`Fired::shown`]).
    pub fn shown(&self) -> Shown {
        self.presenter.shown(&self.report, &self.input)
    }
}

/// A hook that would be considered for an event, after matching.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Candidate {
    /// The hook's identifier.
    pub id: String,
    /// The command as written.
    pub command: String,
    /// The file it comes from.
    pub file: PathBuf,
    /// Its plugin, if any.
    pub plugin: Option<String>,
    /// `None` when it runs; else why not (a duplicate, an `if` that does not match, ...).
    pub not_run: Option<NotRun>,
}

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
    dispatcher: Dispatcher,
    claude: Vec<Arc<HandlerHook>>,
    shared: Arc<Shared>,
    activation: Arc<Activation>,
    config: Arc<Config>,
    session_end: SessionEndBudget,
    presenter: Arc<Presenter>,
    /// What the dispatcher is built from besides the Claude hooks, to rebuild it when a
    /// skill's hooks are added ([`Engine::add_skill`]).
    extra: Vec<Arc<dyn Hook>>,
    mode: Option<Mode>,
    observer: Option<Arc<dyn Observer>>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine").field("hooks", &self.claude.len()).finish()
    }
}

/// Builds an [`Engine`].
///
/// # Examples
///
/// A configuration from text, the harness's variables, and a native hook on the same dispatch
/// as the Claude Code hooks, folded most-restrictively with them:
///
/// ```
/// use std::sync::Arc;
///
/// use async_trait::async_trait;
/// use hook_protocol::{
///     Continuation, Event, Hook, HookInfo, HookOutcome, On, Seam, Source, Verdict,
/// };
/// use hooks_claude::input::{Base, Stop};
/// use hooks_claude::{Engine, HostEnv, Loader, Scope, StopGuard};
///
/// #[derive(Debug)]
/// struct TestsFirst(HookInfo);
///
/// #[async_trait]
/// impl Hook for TestsFirst {
///     fn info(&self) -> &HookInfo {
///         &self.0
///     }
///     async fn run(&self, _event: &Event) -> HookOutcome {
///         HookOutcome::success(Verdict::deny("run the tests before you stop"))
///     }
/// }
///
/// let settings = r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}"#;
/// let config = Loader::new().settings_text("settings.json", settings, Scope::Project).finish()?;
/// let mut info = HookInfo::new("tests-first", Source::new("native", None));
/// info.on = On::seam(Seam::TurnEnd);
/// let mut host = HostEnv::new(std::env::temp_dir());
/// host.extra.push(("CI".into(), "true".into()));
/// let engine = Engine::builder(config)
///     .host(host)
///     .hooks([Arc::new(TestsFirst(info)) as Arc<dyn Hook>])
///     .build()?;
///
/// let input = Stop {
///     base: Base::new("session-1", "/tmp/transcript.jsonl", "/tmp"),
///     stop_hook_active: false,
///     last_assistant_message: None,
///     background_tasks: None,
///     session_crons: None,
/// };
/// let mut guard = StopGuard::default();
/// let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
/// let fired = runtime.block_on(engine.stop(&input, &mut guard));
/// assert_eq!(fired.report.records.len(), 2, "the Claude hook and the native one");
/// assert_eq!(
///     fired.decision.continuation,
///     Continuation::Continue { reason: Some("run the tests before you stop".into()) },
///     "the native hook keeps the agent working"
/// );
/// Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Default)]
pub struct EngineBuilder {
    config: Config,
    host: Option<HostEnv>,
    extra: Vec<Arc<dyn Hook>>,
    mode: Option<Mode>,
    observer: Option<Arc<dyn Observer>>,
    http_policy: Option<HttpPolicy>,
    delegates: Delegates,
    background: BackgroundLimits,
    claude_home: Option<PathBuf>,
    session_end_budget: Option<Duration>,
    trust: WorkspaceTrust,
    containment: crate::run::runner::EngineContainment,
}

impl std::fmt::Debug for EngineBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineBuilder").field("entries", &self.config.entries.len()).finish()
    }
}

impl EngineBuilder {
    /// The harness's variables (`CLAUDE_PROJECT_DIR`, ...); the default project directory is
    /// the current directory.
    pub fn host(mut self, host: HostEnv) -> Self {
        self.host = Some(host);
        self
    }

    /// Adds hooks of other kinds (native, another dialect) to the same dispatch, after the
    /// Claude hooks of equal priority.
    pub fn hooks(mut self, hooks: impl IntoIterator<Item = Arc<dyn Hook>>) -> Self {
        self.extra.extend(hooks);
        self
    }

    /// How matching hooks run (default: in parallel).
    pub fn mode(mut self, mode: Mode) -> Self {
        self.mode = Some(mode);
        self
    }

    /// Receives `hook/started`, `hook/invoked` and `hook/result` events.
    pub fn observer(mut self, observer: Arc<dyn Observer>) -> Self {
        self.observer = Some(observer);
        self
    }

    /// The limits on `http` hooks (`allowedHttpHookUrls`, `httpHookAllowedEnvVars`); the
    /// default is what the loaded settings set ([`HttpPolicy::from_config`]).
    pub fn http_policy(mut self, policy: HttpPolicy) -> Self {
        self.http_policy = Some(policy);
        self
    }

    /// The model `prompt` hooks ask; without one they are skipped with a warning.
    pub fn model_evaluator(mut self, model: Arc<dyn ModelEvaluator>) -> Self {
        self.delegates.model = Some(model);
        self
    }

    /// The agent `agent` hooks run; without one they are skipped with a warning.
    pub fn agent_runner(mut self, agent: Arc<dyn AgentRunner>) -> Self {
        self.delegates.agent = Some(agent);
        self
    }

    /// The MCP client `mcp_tool` hooks call; without one they are skipped with a warning.
    pub fn mcp_tool_caller(mut self, mcp: Arc<dyn McpToolCaller>) -> Self {
        self.delegates.mcp = Some(mcp);
        self
    }

    /// Bounds on background (`async`) hooks (default [`BackgroundLimits::DEFAULT`]).
    pub fn background_limits(mut self, limits: BackgroundLimits) -> Self {
        self.background = limits;
        self
    }

    /// The Claude home (Claude Code's `~/.claude`) under which [`Fired::shown`] saves hook
    /// texts too long for the conversation, in
    /// `projects/<cwd slug>/<session id>/tool-results/` (default: `.claude` in
    /// [`HostEnv::home`], else in `$HOME`).
    pub fn claude_home(mut self, dir: impl Into<PathBuf>) -> Self {
        self.claude_home = Some(dir.into());
        self
    }

    /// Whether the user trusted the project folder
    /// ([Workspace trust](crate::compatibility#workspace-trust)); [`WorkspaceTrust::Implicit`], as
    /// in `-p` and SDK sessions, when not set.
    pub fn workspace_trust(mut self, trust: WorkspaceTrust) -> Self {
        self.trust = trust;
        self
    }

    /// Resource limits for each of this engine's hooks (`pids.max`, `memory.max`,
    /// `cpu.weight`), over the process's ([`hook_exec::contain`]); they apply where its
    /// hooks run in cgroups. Engines of one process may each set their own.
    pub fn resource_limits(mut self, limits: hook_exec::ResourceLimits) -> Self {
        self.containment.resources = limits;
        self
    }

    /// Whether this engine's hooks run in a cgroup of their own where the process has cgroup
    /// containment (the default), or, `false`, with the tree walk and no resource limits.
    /// The parent cgroup and the supervisor process are the process's
    /// ([`hook_exec::contain`]); this turns cgroups off for one engine only.
    pub fn cgroups(mut self, on: bool) -> Self {
        self.containment.no_cgroups = !on;
        self
    }

    /// The shared budget of `SessionEnd` hooks and the timeout of those that set none, as
    /// `CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS` sets it in Claude Code
    /// ([SessionEnd budget](crate::compatibility#sessionend-budget)). Without it the budget is 1.5
    /// s, raised to the highest `timeout` of a `SessionEnd` hook from a settings file, at most 60
    /// s.
    pub fn session_end_budget(mut self, budget: Duration) -> Self {
        self.session_end_budget = Some(budget);
        self
    }

    /// Builds the engine.
    ///
    /// # Errors
    ///
    /// [`MatcherError`] when the matchers of one seam cannot be compiled together.
    pub fn build(self) -> Result<Engine, MatcherError> {
        let mut host = match self.host {
            Some(h) => h,
            None => HostEnv::new(std::env::current_dir().unwrap_or_default()),
        };
        // Hooks run elsewhere than the harness: every path they are given is absolute.
        host.project_dir = absolute(host.project_dir);
        host.home = host.home.map(absolute);
        let http_policy = self.http_policy.unwrap_or_else(|| HttpPolicy::from_config(&self.config));
        let presenter = Arc::new(match self.claude_home {
            Some(dir) => Presenter::new(absolute(dir)),
            None => Presenter::for_home(host.home.as_deref()),
        });
        let shared = Arc::new(Shared {
            host,
            settings_env: self.config.env.clone(),
            background: Background::new(self.background),
            #[cfg(feature = "http")]
            http: crate::run::http::Client::default(),
            http_policy,
            delegates: self.delegates,
            settings_base_env: std::sync::OnceLock::new(),
            containment: self.containment,
        });
        let activation = Arc::new(Activation::new(self.trust));
        let session_end = SessionEndBudget::of(&self.config, self.session_end_budget);
        let claude = claude_hooks(&self.config.entries, 0, &shared, &activation, session_end);
        let dispatcher = dispatcher(&claude, &self.extra, self.mode, self.observer.as_ref())?;
        Ok(Engine {
            dispatcher,
            claude,
            shared,
            activation,
            config: Arc::new(self.config),
            session_end,
            presenter,
            extra: self.extra,
            mode: self.mode,
            observer: self.observer,
        })
    }
}

/// `path` made absolute against the current directory (unchanged when it cannot be).
fn absolute(path: PathBuf) -> PathBuf {
    std::path::absolute(&path).unwrap_or(path)
}

/// The dispatcher of an engine's hooks.
fn dispatcher(
    claude: &[Arc<HandlerHook>],
    extra: &[Arc<dyn Hook>],
    mode: Option<Mode>,
    observer: Option<&Arc<dyn Observer>>,
) -> Result<Dispatcher, MatcherError> {
    // Claude Code shows one reason, whatever form each hook's answer took.
    let mut builder = Dispatcher::builder()
        .hooks(claude.iter().map(|h| Arc::clone(h) as Arc<dyn Hook>))
        .hooks(extra.iter().cloned())
        .reason_rule(ReasonRule::One);
    if let Some(mode) = mode {
        builder = builder.mode(mode);
    }
    if let Some(observer) = observer {
        builder = builder.observer(Arc::clone(observer));
    }
    builder.build()
}

/// Turns the active entries of a configuration into hooks, with their duplicate twins.
/// `first` is the index of the first entry in the engine's configuration (its hooks' ids
/// count from it).
fn claude_hooks(
    entries: &[crate::Entry],
    first: usize,
    shared: &Arc<Shared>,
    activation: &Arc<Activation>,
    session_end: SessionEndBudget,
) -> Vec<Arc<HandlerHook>> {
    let mut hooks: Vec<HandlerHook> = Vec::with_capacity(entries.len());
    let mut seen: HashMap<(EventName, DedupKey), Vec<Twin>> = HashMap::new();
    // The entries of one file come together: its origin is written once.
    let mut origin: Option<(&Arc<crate::SourceFile>, String)> = None;
    let mut digits = itoa::Buffer::new();
    for (i, entry) in entries.iter().enumerate() {
        if entry.disabled {
            continue;
        }
        let event = entry.event.as_str();
        let index = digits.format(first + i);
        let mut id = String::with_capacity("claude::".len() + event.len() + index.len());
        id.push_str("claude:");
        id.push_str(event);
        id.push(':');
        id.push_str(index);
        let from = match &origin {
            Some((source, text)) if Arc::ptr_eq(source, &entry.source) => text.clone(),
            _ => {
                let text = HandlerHook::origin(entry);
                origin = Some((&entry.source, text.clone()));
                text
            }
        };
        let mut hook = HandlerHook::new(
            id,
            from,
            entry.clone(),
            Arc::clone(shared),
            Arc::clone(activation),
            session_end,
        );
        if let Some(key) = hook.dedup_key() {
            let twins = seen.entry((entry.event, key)).or_default();
            hook.twins = twins.clone();
            twins.push(Twin {
                id: hook.info().id.clone(),
                matcher: entry.matcher.clone(),
                rule: entry.handler.rule().cloned(),
            });
        }
        hooks.push(hook);
    }
    hooks.into_iter().map(Arc::new).collect()
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
    /// A builder for a loaded configuration.
    pub fn builder(config: Config) -> EngineBuilder {
        EngineBuilder { config, ..EngineBuilder::default() }
    }

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
        match dispatcher(&claude, &self.extra, self.mode, self.observer.as_ref()) {
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
                    format!("the skill's matchers cannot be compiled with the others: {e}; no hook from it registers"),
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
