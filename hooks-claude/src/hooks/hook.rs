//! One configured handler as a [`Hook`] on the core's seams: registration, the filters that
//! decide whether it runs on an event (`if`, duplicates, the URL allowlist, a harness
//! implementation for its type), and the run of each handler type.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use hook_protocol::exec::CommandSpec;
use hook_protocol::{
    Event, FailurePolicy, Hook, HookInfo, HookOutcome, Matcher, On, ProcessFacts, Source,
};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::config::settings::Origin;
use crate::delegate::{AgentRunner, McpToolCaller, ModelEvaluator};
use crate::hooks::engine::WorkspaceTrust;
use crate::run::background::Background;
use crate::run::env::{HostEnv, command_spec, direct_spec};
use crate::run::http::HttpPolicy;
use crate::wire::decode::{ClaudeMeta, ClaudeStatus, DecodeCtx, Decoded};
use crate::wire::seams::{ClaudePayload, payload_for};
use crate::{
    Entry, EventName, Exit2, HandlerSpec, HandlerType, OnFailure, PermissionRule, RuleContext,
};

/// The implementations a harness registers for the handler types it runs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Delegates {
    pub(crate) model: Option<Arc<dyn ModelEvaluator>>,
    pub(crate) agent: Option<Arc<dyn AgentRunner>>,
    pub(crate) mcp: Option<Arc<dyn McpToolCaller>>,
}

/// What every hook of an engine shares.
#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) host: HostEnv,
    pub(crate) settings_env: Vec<(String, String)>,
    pub(crate) background: Background,
    #[cfg(feature = "http")]
    pub(crate) http: crate::run::http::Client,
    pub(crate) http_policy: HttpPolicy,
    pub(crate) delegates: Delegates,
    /// The skills invoked in this session, whose frontmatter hooks are registered.
    pub(crate) skills: std::sync::RwLock<std::collections::HashSet<String>>,
    /// The [`WorkspaceTrust`], as its discriminant.
    pub(crate) trust: std::sync::atomic::AtomicU8,
}

impl Shared {
    /// The workspace trust now.
    pub(crate) fn workspace_trust(&self) -> WorkspaceTrust {
        match self.trust.load(Ordering::Acquire) {
            x if x == WorkspaceTrust::Trusted as u8 => WorkspaceTrust::Trusted,
            x if x == WorkspaceTrust::Implicit as u8 => WorkspaceTrust::Implicit,
            _ => WorkspaceTrust::Untrusted,
        }
    }
}

/// The deadline every `SessionEnd` hook of one firing shares
/// ([SessionEnd budget](crate::compatibility#sessionend-budget)), carried in [`Event::extensions`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct SessionEndDeadline(pub(crate) Instant);

/// What makes two handlers identical: the plugin (none for settings files) and what the
/// handler does (command and args, URL, prompt, tool call).
pub(crate) type DedupKey = (Option<String>, String);

/// An earlier hook with the same key: when it runs on an event, this one does not.
#[derive(Debug, Clone)]
pub(crate) struct Twin {
    pub(crate) id: String,
    pub(crate) matcher: Matcher,
    pub(crate) rule: Option<PermissionRule>,
}

/// A configured Claude Code handler on the core's seams.
pub struct ClaudeHook {
    pub(crate) info: HookInfo,
    pub(crate) entry: Entry,
    /// The command, or why the handler cannot run one.
    pub(crate) spec: Result<CommandSpec, String>,
    /// The same command run without the shell, when it is plain words (the fast path).
    pub(crate) direct: Option<Arc<crate::run::direct::Direct>>,
    pub(crate) timeout: Duration,
    pub(crate) twins: Vec<Twin>,
    pub(crate) shared: Arc<Shared>,
    warned: AtomicBool,
    /// A skill's `once` hook after its first successful run: no longer registered.
    spent: AtomicBool,
}

impl fmt::Debug for ClaudeHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClaudeHook").field("id", &self.info.id).field("entry", &self.entry).finish()
    }
}

/// Why a registered hook does not run on an event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
#[non_exhaustive]
pub enum NotRun {
    /// Its `if` rule does not match the tool call.
    IfMismatch {
        /// The rule.
        rule: String,
    },
    /// It has `if` on an event that is not about a tool call.
    IfOnNonToolEvent,
    /// An identical handler earlier in configuration order runs instead.
    Duplicate {
        /// That hook.
        of: String,
    },
    /// The harness registered no implementation for its type (a model evaluator, an agent
    /// runner, an MCP tool caller).
    NoImplementation {
        /// The type.
        kind: HandlerType,
    },
    /// Its URL is not in `allowedHttpHookUrls`.
    UrlNotAllowed {
        /// The URL.
        url: String,
    },
    /// An `mcp_tool` hook on `SessionStart` at launch, when no MCP client is connected yet.
    NoMcpAtLaunch,
    /// An `http` hook in a program built without `hooks-claude`'s `http` feature.
    HttpNotBuilt,
    /// An `http` hook on `SessionStart`, which Claude Code skips.
    HttpOnSessionStart,
}

impl fmt::Display for NotRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotRun::IfMismatch { rule } => {
                write!(f, "`if` rule `{rule}` does not match the tool call")
            }
            NotRun::IfOnNonToolEvent => f.write_str(
                "`if` is only evaluated on tool events; a handler with `if` never runs here",
            ),
            NotRun::Duplicate { of } => write!(f, "identical to hook `{of}`, which runs instead"),
            NotRun::NoImplementation { kind } => {
                let what = match kind {
                    HandlerType::Prompt => "model evaluator",
                    HandlerType::Agent => "agent runner",
                    HandlerType::McpTool => "MCP tool caller",
                    _ => "implementation",
                };
                write!(f, "no {what} is registered for `{kind}` handlers; this hook is skipped")
            }
            NotRun::UrlNotAllowed { url } => {
                write!(f, "URL `{url}` is not allowed by `allowedHttpHookUrls`")
            }
            NotRun::NoMcpAtLaunch => f.write_str(
                "`mcp_tool` hooks are not available for `SessionStart` at launch (no MCP client yet)",
            ),
            NotRun::HttpNotBuilt => write!(f, "{}; this hook is skipped", crate::run::http::NOT_BUILT),
            NotRun::HttpOnSessionStart => {
                f.write_str("HTTP hooks are not supported for SessionStart; this hook is skipped")
            }
        }
    }
}

impl ClaudeHook {
    pub(crate) fn new(id: String, entry: Entry, shared: Arc<Shared>) -> Self {
        let event = entry.event;
        let h = &entry.handler;
        let mut timeout = h
            .timeout
            .and_then(|s| hook_protocol::exec::timeout_from_secs(s).ok())
            .unwrap_or_else(|| event.default_timeout(h.kind));
        if let Some(max) = event.max_timeout() {
            timeout = timeout.min(max);
        }
        if h.runs_async() && !h.async_rewake {
            // Claude Code enforces no timeout on `async` hooks (docs/claude-code.md#timeouts); a
            // backstop only.
            timeout = shared.background.limits().async_timeout;
        }
        let blocks = matches!(event.exit2(), Exit2::Block | Exit2::Feedback)
            || event == EventName::PermissionRequest;
        let failure_policy = if h.on_failure == OnFailure::Block
            && event.on_failure_applies()
            && blocks
            && !h.runs_async()
        {
            FailurePolicy::FailClosed
        } else {
            FailurePolicy::FailOpen
        };
        let origin = match entry.source.plugin() {
            Some(p) => p.name.clone(),
            None => entry.source.path.display().to_string(),
        };
        let mut info = HookInfo::new(id, Source::new("claude", Some(origin)));
        info.label = label(&entry);
        info.failure_policy = failure_policy;
        info.on = match event.seam() {
            Some(seam) => On::seam(seam),
            None => On::Custom(event.as_str().to_owned()),
        };
        info.matcher = entry.matcher.clone();
        let spec = command_spec(&entry, &shared.host);
        let direct =
            spec.as_ref().ok().and_then(|_| direct_spec(&entry, &shared.host)).map(Arc::new);
        Self {
            info,
            entry,
            spec,
            direct,
            timeout,
            twins: Vec::new(),
            shared,
            warned: AtomicBool::new(false),
            spent: AtomicBool::new(false),
        }
    }

    /// The configured handler.
    pub fn entry(&self) -> &Entry {
        &self.entry
    }

    /// The timeout it runs with.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The key under which identical handlers run once per event: what the handler does
    /// (command and args; URL; prompt and model; tool call:
    /// [Configuration files](crate::compatibility#configuration-files)), and for plugin hooks the
    /// plugin, so that a plugin's copy stays separate. Background hooks are never merged.
    pub(crate) fn dedup_key(&self) -> Option<DedupKey> {
        let h = &self.entry.handler;
        if h.runs_async() {
            return None;
        }
        let what = match &h.spec {
            HandlerSpec::Command => {
                let args = h.args.as_ref().map(|a| a.join("\u{0}"));
                format!("command\u{0}{}\u{0}{args:?}", h.command.as_deref()?)
            }
            HandlerSpec::Http(s) => format!("http\u{0}{}", s.url),
            HandlerSpec::Prompt(s) | HandlerSpec::Agent(s) => {
                format!("{}\u{0}{}\u{0}{:?}", h.kind, s.prompt, s.model)
            }
            HandlerSpec::McpTool(s) => {
                format!(
                    "mcp_tool\u{0}{}\u{0}{}\u{0}{}",
                    s.server,
                    s.tool,
                    Value::Object(s.input.clone())
                )
            }
        };
        Some((self.entry.source.dedup_scope(), what))
    }

    fn rule_passes(
        rule: Option<&PermissionRule>,
        event: EventName,
        payload: &Map<String, Value>,
        rctx: RuleContext<'_>,
    ) -> bool {
        let Some(rule) = rule else { return true };
        if !event.is_tool_event() {
            return false;
        }
        let tool = payload.get("tool_name").and_then(Value::as_str).unwrap_or_default();
        let input = payload.get("tool_input").unwrap_or(&Value::Null);
        rule.matches(tool, input, rctx)
    }

    /// Why the hook would not run on `event`, or `None` when it would.
    pub fn not_run(&self, event: &Event) -> Option<NotRun> {
        self.not_run_for(event, &payload_for(event, self.entry.event.as_str()))
    }

    /// [`ClaudeHook::not_run`] with the event's Claude payload already built.
    fn not_run_for(&self, event: &Event, payload: &ClaudePayload) -> Option<NotRun> {
        let h = &self.entry.handler;
        let name = self.entry.event;
        let cwd = payload.object().get("cwd").and_then(Value::as_str).map(Path::new);
        let host = &self.shared.host;
        let rctx =
            RuleContext { cwd, project_dir: Some(&host.project_dir), home: host.home.as_deref() };
        if let Some(rule) = h.rule() {
            if !name.is_tool_event() {
                return Some(NotRun::IfOnNonToolEvent);
            }
            if !Self::rule_passes(Some(rule), name, payload.object(), rctx) {
                return Some(NotRun::IfMismatch { rule: h.if_rule.clone().unwrap_or_default() });
            }
        }
        let subject = event.subject();
        for twin in &self.twins {
            let matches = subject.is_none_or(|s| twin.matcher.is_match(s));
            if matches && Self::rule_passes(twin.rule.as_ref(), name, payload.object(), rctx) {
                return Some(NotRun::Duplicate { of: twin.id.clone() });
            }
        }
        let delegates = &self.shared.delegates;
        match &h.spec {
            HandlerSpec::Command => None,
            HandlerSpec::Http(_) if !crate::run::http::BUILT => Some(NotRun::HttpNotBuilt),
            HandlerSpec::Http(_) if name == EventName::SessionStart => {
                Some(NotRun::HttpOnSessionStart)
            }
            HandlerSpec::Http(s) => (!self.shared.http_policy.url_allowed(&s.url))
                .then(|| NotRun::UrlNotAllowed { url: crate::run::http::shown_url(&s.url) }),
            HandlerSpec::Prompt(_) => {
                delegates.model.is_none().then_some(NotRun::NoImplementation { kind: h.kind })
            }
            HandlerSpec::Agent(_) => {
                delegates.agent.is_none().then_some(NotRun::NoImplementation { kind: h.kind })
            }
            HandlerSpec::McpTool(_) => {
                let launch = name == EventName::SessionStart
                    && payload.object().get("source").and_then(Value::as_str) == Some("startup");
                if launch {
                    Some(NotRun::NoMcpAtLaunch)
                } else {
                    delegates.mcp.is_none().then_some(NotRun::NoImplementation { kind: h.kind })
                }
            }
        }
    }

    fn skipped(&self, why: &NotRun) -> HookOutcome {
        if matches!(
            why,
            NotRun::NoImplementation { .. }
                | NotRun::UrlNotAllowed { .. }
                | NotRun::HttpOnSessionStart
                | NotRun::HttpNotBuilt
        ) && !self.warned.swap(true, Ordering::Relaxed)
        {
            tracing::warn!(target: "hooks", hook = %self.info.id, handler = %self.info.label, "{why}");
        }
        let mut outcome = HookOutcome::skipped(why.to_string());
        let mut meta = self.meta(ClaudeStatus::Skipped);
        meta.message = Some(why.to_string());
        outcome.metadata = Some(meta.into_metadata());
        outcome
    }

    /// An empty record of this hook's run with a status.
    pub(crate) fn meta(&self, status: ClaudeStatus) -> ClaudeMeta {
        ClaudeMeta::new(self.entry.event.as_str(), status)
    }

    pub(crate) fn decode_ctx<'a>(&'a self, timeout: Duration) -> DecodeCtx<'a> {
        DecodeCtx {
            event: Some(self.entry.event),
            name: self.entry.event.as_str(),
            on_failure: self.entry.handler.on_failure,
            from_plugin: self.entry.source.plugin().is_some(),
            timeout,
        }
    }

    /// The timeout of this run: its own, and on `SessionEnd` no later than the firing's
    /// shared deadline (`None`: the deadline has passed).
    fn run_timeout(&self, event: &Event) -> Option<Duration> {
        match event.extensions.get::<SessionEndDeadline>() {
            Some(SessionEndDeadline(deadline)) if self.entry.event == EventName::SessionEnd => {
                let left = deadline.saturating_duration_since(Instant::now());
                (!left.is_zero()).then(|| self.timeout.min(left))
            }
            _ => Some(self.timeout),
        }
    }

    /// The outcome of a decoded run, with its Claude record. Texts stay whole: the
    /// 10,000-character cap is presentation ([`crate::present`]).
    pub(crate) fn finish(&self, decoded: Decoded, process: Option<ProcessFacts>) -> HookOutcome {
        let mut status = decoded.meta.status.core();
        if decoded.meta.blocked_on_failure {
            status = hook_protocol::HookStatus::Blocked;
        }
        let mut outcome = HookOutcome::with_status(status, decoded.verdict);
        outcome.failure = decoded.failure;
        outcome.warnings = decoded.warnings;
        outcome.process = process;
        outcome.metadata = Some(decoded.meta.into_metadata());
        outcome
    }

    /// The working directory a command hook is started in: the event's `cwd` (the project
    /// directory when it has none). When that directory cannot be entered, the run is repeated
    /// in the project directory (see `command::run`), so that a `cwd` that exists costs no
    /// `stat` of its own.
    pub(crate) fn start_dir(&self, payload: &ClaudePayload) -> PathBuf {
        payload
            .object()
            .get("cwd")
            .and_then(Value::as_str)
            .filter(|p| !p.is_empty())
            .map_or_else(|| self.shared.host.project_dir.clone(), PathBuf::from)
    }
}

/// What the handler runs, for records: the command line, the URL, the prompt, the tool.
fn label(entry: &Entry) -> String {
    let h = &entry.handler;
    match (&h.spec, &h.command, &h.args) {
        (HandlerSpec::Command, Some(c), Some(args)) if !args.is_empty() => {
            format!("{c} {}", args.join(" "))
        }
        (HandlerSpec::Command, Some(c), _) => c.clone(),
        (HandlerSpec::Http(s), _, _) => crate::run::http::shown_url(&s.url),
        (HandlerSpec::Prompt(s) | HandlerSpec::Agent(s), _, _) => s.prompt.clone(),
        (HandlerSpec::McpTool(s), _, _) => format!("{}/{}", s.server, s.tool),
        _ => h.kind.as_str().to_owned(),
    }
}

#[async_trait]
impl Hook for ClaudeHook {
    fn info(&self) -> &HookInfo {
        &self.info
    }

    /// A skill's hooks are registered once the skill was invoked, until a `once` hook's first
    /// success; a sub-agent's run on the events of that sub-agent only (its `agent_type`).
    fn active(&self, event: &Event) -> bool {
        let source = &self.entry.source;
        match self.shared.workspace_trust() {
            WorkspaceTrust::Trusted => {}
            WorkspaceTrust::Untrusted => return false,
            WorkspaceTrust::Implicit => {
                let project = &self.shared.host.project_dir;
                if matches!(source.origin, Origin::Agent { .. }) && source.path.starts_with(project)
                {
                    return false;
                }
            }
        }
        match &source.origin {
            Origin::Skill { name } => {
                let invoked = self.shared.skills.read().unwrap_or_else(|e| e.into_inner());
                invoked.contains(name) && !self.spent.load(Ordering::Acquire)
            }
            Origin::Agent { name } => event.common.agent_type.as_deref() == Some(name.as_str()),
            _ => true,
        }
    }

    async fn run(&self, event: &Event) -> HookOutcome {
        let outcome = self.run_once(event).await;
        if self.entry.handler.once
            && matches!(self.entry.source.origin, Origin::Skill { .. })
            && outcome.status == hook_protocol::HookStatus::Success
        {
            self.spent.store(true, Ordering::Release);
        }
        outcome
    }
}

impl ClaudeHook {
    /// One run, whatever its registration.
    async fn run_once(&self, event: &Event) -> HookOutcome {
        let payload = payload_for(event, self.entry.event.as_str());
        if let Some(why) = self.not_run_for(event, &payload) {
            return self.skipped(&why);
        }
        let Some(timeout) = self.run_timeout(event) else {
            let ctx = self.decode_ctx(self.timeout);
            let mut d = crate::wire::decode::decode_timeout(&ctx);
            d.warnings
                .push("the shared `SessionEnd` budget was spent before it started".to_owned());
            return self.finish(d, None);
        };
        match &self.entry.handler.spec {
            HandlerSpec::Command => {
                let files = event.extensions.get::<crate::run::env_file::EnvFiles>();
                let file = files.and_then(|f| f.of(&self.info.id));
                let mut outcome = crate::run::command::run(self, &payload, timeout, file).await;
                if let Some(warning) = files.and_then(|f| f.warnings.get(&self.info.id)) {
                    outcome.warnings.push(warning.clone());
                }
                outcome
            }
            #[cfg(feature = "http")]
            HandlerSpec::Http(spec) => {
                let d = self.run_http(spec, &payload, timeout).await;
                self.finish(d, None)
            }
            // `not_run_for` skipped it already.
            #[cfg(not(feature = "http"))]
            HandlerSpec::Http(_) => self.skipped(&NotRun::HttpNotBuilt),
            HandlerSpec::Prompt(spec) | HandlerSpec::Agent(spec) => {
                let d = self.run_prompt(spec, &payload, timeout).await;
                self.finish(d, None)
            }
            HandlerSpec::McpTool(spec) => {
                let d = self.run_mcp(spec, &payload, timeout).await;
                self.finish(d, None)
            }
        }
    }
}
