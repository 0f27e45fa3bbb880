//! One configured command handler as a [`Hook`] on the core's seams.

use std::fmt;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use hook_protocol::exec::{CommandSpec, Invocation, run};
use hook_protocol::{
    Event, FailurePolicy, Hook, HookInfo, HookOutcome, Matcher, On, ProcessFacts, Source, Verdict,
};
use serde::Serialize;
use serde_json::Value;

use crate::decode::{ClaudeMeta, ClaudeStatus, DecodeCtx, decode, decode_spawn_error};
use crate::env::{HostEnv, command_spec, hook_env};
use crate::seams::payload_for;
use crate::{Entry, EventName, Exit2, HandlerType, OnFailure, PermissionRule, RuleContext};

/// How long a background (`async`) hook may run: Claude Code does not enforce its timeout.
const ASYNC_TIMEOUT: Duration = Duration::from_secs(24 * 3600);

/// What a background hook said when it finished, for the harness to deliver on a later turn.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct AsyncResult {
    /// The hook's identifier.
    pub hook_id: String,
    /// The command.
    pub command: String,
    /// Where it comes from.
    pub source: Source,
    /// The event that started it.
    pub event: String,
    /// How it went.
    pub status: ClaudeStatus,
    /// `additionalContext` and `systemMessage`, for the model on the next request.
    pub context: Vec<String>,
    /// With `asyncRewake` and exit 2: wake the model now with this (stderr, or stdout).
    pub rewake: Option<String>,
}

/// Results of background hooks, waiting for the harness.
#[derive(Debug, Clone, Default)]
pub(crate) struct Inbox(Arc<Mutex<Vec<AsyncResult>>>);

impl Inbox {
    pub(crate) fn push(&self, result: AsyncResult) {
        if let Ok(mut items) = self.0.lock() {
            items.push(result);
        }
    }

    pub(crate) fn drain(&self) -> Vec<AsyncResult> {
        self.0.lock().map(|mut items| std::mem::take(&mut *items)).unwrap_or_default()
    }
}

/// What every command hook of an engine shares.
#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) host: HostEnv,
    pub(crate) settings_env: Vec<(String, String)>,
    pub(crate) inbox: Inbox,
}

/// What makes two handlers identical: the plugin (none for settings files), the command and
/// the args.
pub(crate) type DedupKey = (Option<String>, String, Option<Vec<String>>);

/// An earlier hook with the same command: when it runs on an event, this one does not.
#[derive(Debug, Clone)]
pub(crate) struct Twin {
    pub(crate) id: String,
    pub(crate) matcher: Matcher,
    pub(crate) rule: Option<PermissionRule>,
}

/// A configured Claude Code handler on the core's seams.
pub struct ClaudeHook {
    info: HookInfo,
    entry: Entry,
    spec: Option<CommandSpec>,
    timeout: Duration,
    pub(crate) twins: Vec<Twin>,
    shared: Arc<Shared>,
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
    /// Its handler type is not run yet.
    TypeNotRun {
        /// The type.
        kind: HandlerType,
    },
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
            NotRun::TypeNotRun { kind } => write!(f, "`{kind}` handlers are not run yet"),
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
        if h.runs_async() && !h.async_rewake && h.timeout.is_none() {
            timeout = ASYNC_TIMEOUT;
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
        let spec = command_spec(&entry, &shared.host.project_dir);
        Self { info, entry, spec, timeout, twins: Vec::new(), shared }
    }

    /// The configured handler.
    pub fn entry(&self) -> &Entry {
        &self.entry
    }

    /// The timeout it runs with.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The key under which identical handlers run once per event: the command and args, and
    /// for plugin hooks the plugin, so that a plugin's copy stays separate.
    pub(crate) fn dedup_key(&self) -> Option<DedupKey> {
        let h = &self.entry.handler;
        if h.kind != HandlerType::Command || h.runs_async() {
            return None;
        }
        let plugin =
            self.entry.source.plugin().map(|p| format!("{}\u{0}{}", p.name, p.root.display()));
        Some((plugin, h.command.clone()?, h.args.clone()))
    }

    fn rule_passes(
        rule: Option<&PermissionRule>,
        event: EventName,
        payload: &serde_json::Map<String, Value>,
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
        let h = &self.entry.handler;
        if h.kind != HandlerType::Command {
            return Some(NotRun::TypeNotRun { kind: h.kind });
        }
        let name = self.entry.event;
        let payload = payload_for(event, name.as_str());
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
        None
    }

    fn skipped(&self, why: &NotRun) -> HookOutcome {
        let mut outcome = HookOutcome::skipped(why.to_string());
        let meta = ClaudeMeta {
            event: self.entry.event.as_str().to_owned(),
            status: ClaudeStatus::Skipped,
            exit_code: None,
            output: None,
            plain_stdout: None,
            message: Some(why.to_string()),
            blocked_on_failure: false,
            background: false,
        };
        outcome.metadata = Some(meta.to_metadata());
        outcome
    }

    fn decode_ctx<'a>(&'a self, subject: Option<&'a str>) -> DecodeCtx<'a> {
        DecodeCtx {
            event: Some(self.entry.event),
            name: self.entry.event.as_str(),
            subject,
            label: &self.info.label,
            on_failure: self.entry.handler.on_failure,
            from_plugin: self.entry.source.plugin().is_some(),
            timeout: self.timeout,
        }
    }
}

/// The command as written: the line, or the program and its arguments.
fn label(entry: &Entry) -> String {
    let h = &entry.handler;
    match (&h.command, &h.args) {
        (Some(c), Some(args)) if !args.is_empty() => format!("{c} {}", args.join(" ")),
        (Some(c), _) => c.clone(),
        (None, _) => h
            .raw
            .get("url")
            .or_else(|| h.raw.get("prompt"))
            .or_else(|| h.raw.get("tool"))
            .and_then(Value::as_str)
            .map_or_else(|| h.kind.as_str().to_owned(), str::to_owned),
    }
}

#[async_trait]
impl Hook for ClaudeHook {
    fn info(&self) -> &HookInfo {
        &self.info
    }

    async fn run(&self, event: &Event) -> HookOutcome {
        if let Some(why) = self.not_run(event) {
            return self.skipped(&why);
        }
        let Some(spec) = self.spec.clone() else {
            return self.skipped(&NotRun::TypeNotRun { kind: self.entry.handler.kind });
        };
        let name = self.entry.event.as_str();
        let payload = payload_for(event, name);
        let host = &self.shared.host;
        let cwd = payload
            .object()
            .get("cwd")
            .and_then(Value::as_str)
            .map(std::path::PathBuf::from)
            .filter(|p| p.is_dir())
            .unwrap_or_else(|| host.project_dir.clone());
        let mut inv = Invocation::new(spec, cwd, self.timeout);
        inv.env = hook_env(&self.entry, host, &self.shared.settings_env, payload.object());
        inv.stdin = Arc::clone(payload.bytes());
        let subject = event.subject().map(str::to_owned);
        if self.entry.handler.runs_async() {
            return self.start_background(inv, subject);
        }
        let ctx = self.decode_ctx(subject.as_deref());
        let (decoded, process) = match run(&inv).await {
            Ok(raw) => (decode(&ctx, &raw), Some(ProcessFacts::from_outcome(&raw))),
            Err(e) => (decode_spawn_error(&ctx, &e), None),
        };
        let mut status = decoded.meta.status.core();
        if decoded.meta.blocked_on_failure {
            status = hook_protocol::HookStatus::Blocked;
        }
        let mut outcome = HookOutcome::with_status(status, decoded.verdict);
        outcome.failure = decoded.failure;
        outcome.warnings = decoded.warnings;
        outcome.process = process;
        outcome.metadata = Some(decoded.meta.to_metadata());
        outcome
    }
}

impl ClaudeHook {
    fn start_background(&self, inv: Invocation, subject: Option<String>) -> HookOutcome {
        let inbox = self.shared.inbox.clone();
        let id = self.info.id.clone();
        let command = self.info.label.clone();
        let source = self.info.source.clone();
        let event = self.entry.event;
        let mut ctx_owned =
            (self.entry.handler.on_failure, self.entry.source.plugin().is_some(), self.timeout);
        ctx_owned.0 = OnFailure::Continue;
        let rewake = self.entry.handler.async_rewake;
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return HookOutcome::failure(
                hook_protocol::HookStatus::SpawnFailed,
                "background (`async`) hooks need a Tokio runtime",
            );
        };
        runtime.spawn(async move {
            let ctx = DecodeCtx {
                event: Some(event),
                name: event.as_str(),
                subject: subject.as_deref(),
                label: &command,
                on_failure: ctx_owned.0,
                from_plugin: ctx_owned.1,
                timeout: ctx_owned.2,
            };
            let (decoded, raw) = match run(&inv).await {
                Ok(raw) => (decode(&ctx, &raw), Some(raw)),
                Err(e) => (decode_spawn_error(&ctx, &e), None),
            };
            let mut context = decoded.verdict.context.clone();
            context.extend(decoded.verdict.messages.iter().cloned());
            let woke = rewake && raw.as_ref().and_then(|r| r.exit.code()) == Some(2);
            let rewake_text = woke.then(|| {
                let raw = raw.as_ref();
                let stderr = raw.map(|r| r.stderr_text()).unwrap_or_default();
                if stderr.is_empty() {
                    raw.map(|r| String::from_utf8_lossy(&r.stdout).trim().to_owned())
                        .unwrap_or_default()
                } else {
                    stderr
                }
            });
            if woke {
                context.clear();
            }
            inbox.push(AsyncResult {
                hook_id: id,
                command,
                source,
                event: event.as_str().to_owned(),
                status: decoded.meta.status,
                context,
                rewake: rewake_text,
            });
        });
        let mut outcome = HookOutcome::success(Verdict::none());
        let meta = ClaudeMeta {
            event: self.entry.event.as_str().to_owned(),
            status: ClaudeStatus::Success,
            exit_code: None,
            output: None,
            plain_stdout: None,
            message: Some("started in the background".to_owned()),
            blocked_on_failure: false,
            background: true,
        };
        outcome.metadata = Some(meta.to_metadata());
        outcome
    }
}
