//! One configured handler as a [`Hook`] on the core's seams: registration, the filters that
//! decide whether it runs on an event (`if`, duplicates, the URL allowlist, a harness
//! implementation for its type), and the hand-over of a run to its handler type.

use std::fmt;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use hook_protocol::{
    Event, FailurePolicy, Hook, HookInfo, HookOutcome, HookStatus, Matcher, On, Source,
};
use serde::Serialize;
use serde_json::Value;

use crate::config::settings::Origin;
use crate::hooks::active::{Activation, WorkspaceTrust};
use crate::hooks::timeout::{self, SessionEndBudget};
use crate::run::env::{base_env, command_spec, direct_spec};
use crate::run::runner::{Runner, Shared};
use crate::wire::conversion::{InputObject, payload_for};
use crate::wire::lookup::field;
use crate::{
    Entry, EventName, Exit2, HandlerSpec, HandlerType, OnFailure, PermissionRule, RuleContext,
};

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
pub struct HandlerHook {
    /// What runs, and how.
    pub(crate) runner: Runner,
    pub(crate) twins: Vec<Twin>,
    /// Whether it is active this session: the workspace trust and the invoked skills.
    activation: Arc<Activation>,
    warned: AtomicBool,
    /// A skill's `once` hook after its first successful run: no longer registered.
    spent: AtomicBool,
}

impl fmt::Debug for HandlerHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = &self.runner;
        f.debug_struct("HandlerHook").field("id", &r.info.id).field("entry", &r.entry).finish()
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
            NotRun::HttpNotBuilt => {
                write!(f, "{}; this hook is skipped", crate::config::url::NOT_BUILT)
            }
            NotRun::HttpOnSessionStart => {
                f.write_str("HTTP hooks are not supported for SessionStart; this hook is skipped")
            }
        }
    }
}

impl HandlerHook {
    pub(crate) fn new(
        id: String,
        origin: String,
        entry: Entry,
        shared: Arc<Shared>,
        activation: Arc<Activation>,
        session_end: SessionEndBudget,
    ) -> Self {
        let event = entry.event;
        let h = &entry.handler;
        let backstop = shared.background.limits().async_timeout;
        let timeout = timeout::timeout(h, event, backstop, session_end);
        let blocks = matches!(event.exit2(), Exit2::Block | Exit2::Feedback)
            || event == EventName::PermissionRequest;
        let failure_policy = if h.on_failure == OnFailure::Block
            && event.on_failure_applies()
            && blocks
            && !h.runs_async()
        {
            FailurePolicy::CLOSED
        } else {
            FailurePolicy::OPEN
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
        let env = if entry.source.plugin().is_none() {
            let shared_base = shared
                .settings_base_env
                .get_or_init(|| Arc::new(base_env(&entry, &shared.host, &shared.settings_env)));
            Arc::clone(shared_base)
        } else {
            Arc::new(base_env(&entry, &shared.host, &shared.settings_env))
        };
        let direct =
            spec.as_ref().ok().and_then(|_| direct_spec(&entry, &shared.host)).map(Arc::new);
        if direct.is_some() {
            crate::run::direct::start_probe();
        }
        Self {
            runner: Runner { info, entry, spec, direct, env, timeout, shared },
            twins: Vec::new(),
            activation,
            warned: AtomicBool::new(false),
            spent: AtomicBool::new(false),
        }
    }

    /// Where a hook of `entry` comes from, as its [`HookInfo`]'s source says: the plugin's
    /// name, or the settings file.
    pub(crate) fn origin(entry: &Entry) -> String {
        match entry.source.plugin() {
            Some(p) => p.name.clone(),
            None => entry.source.path.display().to_string(),
        }
    }

    /// The configured handler.
    pub fn entry(&self) -> &Entry {
        &self.runner.entry
    }

    /// The timeout it runs with.
    pub fn timeout(&self) -> Duration {
        self.runner.timeout
    }

    /// The key under which identical handlers run once per event: what the handler does
    /// (command and args; URL; prompt and model; tool call:
    /// [Configuration files](crate::compatibility#configuration-files)), and for plugin hooks the
    /// plugin, so that a plugin's copy stays separate. Background hooks are never merged.
    pub(crate) fn dedup_key(&self) -> Option<DedupKey> {
        let h = &self.runner.entry.handler;
        if h.runs_async() {
            return None;
        }
        let what = match &h.spec {
            HandlerSpec::Command => command_key(h.command.as_deref()?, h.args.as_deref()),
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
        Some((self.runner.entry.source.dedup_scope(), what))
    }

    fn rule_passes(
        rule: Option<&PermissionRule>,
        event: EventName,
        call: Option<(&str, &Value)>,
        rctx: RuleContext<'_>,
    ) -> bool {
        let Some(rule) = rule else { return true };
        if !event.is_tool_event() {
            return false;
        }
        let (tool, input) = call.unwrap_or(("", &Value::Null));
        rule.matches(tool, input, rctx)
    }

    /// The tool name and input an `if` rule is matched against: the payload's `tool_name` and
    /// `tool_input`. A payload printed from a typed input has them in the neutral event's tool
    /// call, made from the same input, which spares reading its object back.
    fn tool_call<'e>(event: &'e Event, payload: &'e InputObject) -> Option<(&'e str, &'e Value)> {
        if let Some(call) = event.payload.tool_call().filter(|_| payload.is_printed()) {
            return Some((&call.tool_name, &call.tool_input));
        }
        let object = payload.object();
        let tool = field(object, "tool_name").and_then(Value::as_str).unwrap_or_default();
        Some((tool, field(object, "tool_input").unwrap_or(&Value::Null)))
    }

    /// Why the hook would not run on `event`, or `None` when it would.
    pub fn not_run(&self, event: &Event) -> Option<NotRun> {
        self.not_run_for(event, &payload_for(event, self.runner.entry.event.as_str()))
    }

    /// [`HandlerHook::not_run`] with the event's Claude payload already built.
    fn not_run_for(&self, event: &Event, payload: &InputObject) -> Option<NotRun> {
        let h = &self.runner.entry.handler;
        let name = self.runner.entry.event;
        let cwd = payload.cwd().map(Path::new);
        let host = &self.runner.shared.host;
        let rctx =
            RuleContext { cwd, project_dir: Some(&host.project_dir), home: host.home.as_deref() };
        if let Some(rule) = h.rule() {
            if !name.is_tool_event() {
                return Some(NotRun::IfOnNonToolEvent);
            }
            if !Self::rule_passes(Some(rule), name, Self::tool_call(event, payload), rctx) {
                return Some(NotRun::IfMismatch { rule: h.if_rule.clone().unwrap_or_default() });
            }
        }
        let subject = event.subject();
        for twin in &self.twins {
            let matches = subject.is_none_or(|s| twin.matcher.is_match(s));
            if matches
                && Self::rule_passes(
                    twin.rule.as_ref(),
                    name,
                    twin.rule.as_ref().and_then(|_| Self::tool_call(event, payload)),
                    rctx,
                )
            {
                return Some(NotRun::Duplicate { of: twin.id.clone() });
            }
        }
        let delegates = &self.runner.shared.delegates;
        match &h.spec {
            HandlerSpec::Command => None,
            HandlerSpec::Http(_) if !crate::config::url::BUILT => Some(NotRun::HttpNotBuilt),
            HandlerSpec::Http(_) if name == EventName::SessionStart => {
                Some(NotRun::HttpOnSessionStart)
            }
            HandlerSpec::Http(s) => (!self.runner.shared.http_policy.url_allowed(&s.url))
                .then(|| NotRun::UrlNotAllowed { url: crate::config::url::shown_url(&s.url) }),
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
            let info = &self.runner.info;
            tracing::warn!(target: "hooks", hook = %info.id, handler = %info.label, "{why}");
        }
        let mut outcome = HookOutcome::skipped(why.to_string());
        let mut meta = self.runner.meta(HookStatus::Skipped);
        meta.message = Some(why.to_string());
        outcome.metadata = Some(meta.into_metadata());
        outcome
    }

    /// The timeout of this run: its own, and on `SessionEnd` no later than the firing's
    /// shared deadline (`None`: the deadline has passed).
    fn run_timeout(&self, event: &Event) -> Option<Duration> {
        match event.extensions.get::<SessionEndDeadline>() {
            Some(SessionEndDeadline(deadline))
                if self.runner.entry.event == EventName::SessionEnd =>
            {
                let left = deadline.saturating_duration_since(Instant::now());
                (!left.is_zero()).then(|| self.runner.timeout.min(left))
            }
            _ => Some(self.runner.timeout),
        }
    }
}

/// What a command handler does, as a dedup key: the command, then whether it has `args` and
/// each of them, every part with its length before it, so that no two handlers that differ
/// share a key (`["a b"]` and `["a", "b"]`, no `args` and empty `args`).
fn command_key(command: &str, args: Option<&[String]>) -> String {
    let all = args.unwrap_or_default();
    let len = all.iter().map(|a| a.len() + 8).sum::<usize>();
    let mut what = String::with_capacity("command".len() + command.len() + 9 + len);
    what.push_str("command");
    push_counted(&mut what, command);
    what.push(if args.is_some() { '+' } else { '-' });
    for arg in all {
        push_counted(&mut what, arg);
    }
    what
}

/// Appends `text`'s length in bytes, a colon and `text`.
fn push_counted(out: &mut String, text: &str) {
    out.push_str(itoa::Buffer::new().format(text.len()));
    out.push(':');
    out.push_str(text);
}

/// What the handler runs, for records: the command line, the URL, the prompt, the tool.
fn label(entry: &Entry) -> String {
    let h = &entry.handler;
    match (&h.spec, &h.command, &h.args) {
        (HandlerSpec::Command, Some(c), Some(args)) if !args.is_empty() => {
            let mut label =
                String::with_capacity(c.len() + args.iter().map(|a| a.len() + 1).sum::<usize>());
            label.push_str(c);
            for arg in args {
                label.push(' ');
                label.push_str(arg);
            }
            label
        }
        (HandlerSpec::Command, Some(c), _) => c.clone(),
        (HandlerSpec::Http(s), _, _) => crate::config::url::shown_url(&s.url),
        (HandlerSpec::Prompt(s) | HandlerSpec::Agent(s), _, _) => s.prompt.clone(),
        (HandlerSpec::McpTool(s), _, _) => format!("{}/{}", s.server, s.tool),
        _ => h.kind.as_str().to_owned(),
    }
}

#[async_trait]
impl Hook for HandlerHook {
    fn info(&self) -> &HookInfo {
        &self.runner.info
    }

    /// A skill's hooks are registered once the skill was invoked, until a `once` hook's first
    /// success; a sub-agent's run on the events of that sub-agent only (its `agent_type`).
    fn active(&self, event: &Event) -> bool {
        let source = &self.runner.entry.source;
        match self.activation.workspace_trust() {
            WorkspaceTrust::Trusted => {}
            WorkspaceTrust::Untrusted => return false,
            WorkspaceTrust::Implicit => {
                let project = &self.runner.shared.host.project_dir;
                if matches!(source.origin, Origin::Agent { .. }) && source.path.starts_with(project)
                {
                    return false;
                }
            }
        }
        match &source.origin {
            Origin::Skill { name } => {
                let invoked = self.activation.skills.read().unwrap_or_else(|e| e.into_inner());
                invoked.contains(name) && !self.spent.load(Ordering::Acquire)
            }
            Origin::Agent { name } => event.common.agent_type.as_deref() == Some(name.as_str()),
            _ => true,
        }
    }

    async fn run(&self, event: &Event) -> HookOutcome {
        let mut outcome = self.run_once(event).await;
        // A TaskCompleted that TaskUpdate fired in the main session (no `teammate_name`): its
        // `continue: false` is ignored, the task completes and the session goes on
        // ([Output per event](crate::compatibility#output-per-event)).
        if self.runner.entry.event == EventName::TaskCompleted
            && outcome.verdict.halt.is_some()
            && !payload_for(event, self.runner.entry.event.as_str())
                .object()
                .contains_key("teammate_name")
        {
            outcome.verdict.halt = None;
        }
        if self.runner.entry.handler.once
            && matches!(self.runner.entry.source.origin, Origin::Skill { .. })
            && outcome.status == hook_protocol::HookStatus::Success
        {
            self.spent.store(true, Ordering::Release);
        }
        outcome
    }
}

impl HandlerHook {
    /// One run, whatever its registration.
    async fn run_once(&self, event: &Event) -> HookOutcome {
        let payload = payload_for(event, self.runner.entry.event.as_str());
        if let Some(why) = self.not_run_for(event, &payload) {
            return self.skipped(&why);
        }
        let Some(timeout) = self.run_timeout(event) else {
            let ctx = self.runner.decode_ctx(self.runner.timeout);
            let mut d = crate::wire::decode::decode_timeout(&ctx);
            d.warnings
                .push("the shared `SessionEnd` budget was spent before it started".to_owned());
            return self.runner.finish(d, None);
        };
        match &self.runner.entry.handler.spec {
            HandlerSpec::Command => {
                let files = event.extensions.get::<crate::run::env_file::EnvFiles>();
                let file = files.and_then(|f| f.of(&self.runner.info.id));
                let mut outcome =
                    crate::run::command::run(&self.runner, &payload, timeout, file).await;
                if let Some(warning) = files.and_then(|f| f.warnings.get(&self.runner.info.id)) {
                    outcome.warnings.push(warning.clone());
                }
                outcome
            }
            #[cfg(feature = "http")]
            HandlerSpec::Http(spec) => {
                let d = self.runner.run_http(spec, &payload, timeout).await;
                self.runner.finish(d, None)
            }
            // `not_run_for` skipped it already.
            #[cfg(not(feature = "http"))]
            HandlerSpec::Http(_) => self.skipped(&NotRun::HttpNotBuilt),
            HandlerSpec::Prompt(spec) | HandlerSpec::Agent(spec) => {
                let d = self.runner.run_prompt(spec, &payload, timeout).await;
                self.runner.finish(d, None)
            }
            HandlerSpec::McpTool(spec) => {
                let d = self.runner.run_mcp(spec, &payload, timeout).await;
                self.runner.finish(d, None)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::command_key;

    fn key(command: &str, args: Option<&[&str]>) -> String {
        let args: Option<Vec<String>> = args.map(|a| a.iter().map(|s| (*s).to_owned()).collect());
        command_key(command, args.as_deref())
    }

    #[test]
    fn command_keys_are_equal_exactly_when_command_and_args_are() {
        assert_eq!(key("run.sh", Some(&["a", "b"])), key("run.sh", Some(&["a", "b"])));
        assert_eq!(key("echo hi", None), key("echo hi", None));
        let distinct = [
            key("run.sh", Some(&["a", "b"])),
            key("run.sh", Some(&["a b"])),
            key("run.sh", Some(&["b", "a"])),
            key("run.sh", Some(&["a"])),
            key("run.sh", Some(&[])),
            key("run.sh", Some(&[""])),
            key("run.sh", None),
            key("run.sh a", Some(&["b"])),
            key("run.sh1:a", None),
            key("run.sh\u{0}", None),
        ];
        for (i, a) in distinct.iter().enumerate() {
            for b in &distinct[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}
