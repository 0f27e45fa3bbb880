//! Building an [`Engine`]: the harness's choices, then the dispatcher of the Claude hooks
//! beside its own.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use hook_protocol::{Hook, MatcherError, Mode, Observer};

use crate::Config;
use crate::delegate::{AgentRunner, McpToolCaller, ModelEvaluator};
use crate::hooks::active::{Activation, WorkspaceTrust};
use crate::hooks::engine::Engine;
use crate::hooks::registry::{claude_hooks, dispatcher};
use crate::hooks::timeout::SessionEndBudget;
use crate::present::Presenter;
use crate::run::background::{Background, BackgroundLimits};
use crate::run::env::HostEnv;
use crate::run::http::HttpPolicy;
use crate::run::runner::{Delegates, Shared};

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
    group: hook_exec::RunGroup,
    tool_aliases: hook_protocol::Aliases,
}

impl std::fmt::Debug for EngineBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineBuilder").field("entries", &self.config.entries.len()).finish()
    }
}

impl Engine {
    /// A builder for a loaded configuration.
    pub fn builder(config: Config) -> EngineBuilder {
        EngineBuilder { config, ..EngineBuilder::default() }
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

    /// The Claude home (Claude Code's `~/.claude`) under which [`Fired::shown`](crate::Fired::shown) saves hook
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
        self.group = self.group.resource_limits(limits);
        self
    }

    /// Whether this engine's hooks run in a cgroup of their own where the process has cgroup
    /// containment (the default), or, `false`, with the tree walk and no resource limits.
    /// The parent cgroup and the supervisor process are the process's
    /// ([`hook_exec::contain`]); this turns cgroups off for one engine only.
    pub fn cgroups(mut self, on: bool) -> Self {
        self.group = self.group.cgroups(on);
        self
    }

    /// Other names the harness's tools go by, for the hooks' matchers: a hook whose matcher
    /// names an alias of a call's tool runs as if it named the tool (a Copilot user's Claude
    /// Code file matches `Bash` where the harness calls the tool `bash`). The hooks still get
    /// the tool by its own name.
    pub fn tool_aliases(mut self, aliases: hook_protocol::Aliases) -> Self {
        self.tool_aliases = aliases;
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
            // A group of the engine's own, even when one builder builds several engines.
            group: hook_exec::RunGroup::new()
                .resource_limits(self.group.limits())
                .cgroups(self.group.uses_cgroups()),
        });
        let activation = Arc::new(Activation::new(self.trust));
        let session_end = SessionEndBudget::of(&self.config, self.session_end_budget);
        let claude = claude_hooks(&self.config.entries, 0, &shared, &activation, session_end);
        let dispatcher = dispatcher(
            &claude,
            &self.extra,
            self.mode,
            self.observer.as_ref(),
            &self.tool_aliases,
        )?;
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
            tool_aliases: self.tool_aliases,
        })
    }
}

/// `path` made absolute against the current directory (unchanged when it cannot be).
fn absolute(path: PathBuf) -> PathBuf {
    std::path::absolute(&path).unwrap_or(path)
}
