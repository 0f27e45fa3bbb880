//! One configured handler ready to run: its entry, command line, timeout and what it shares
//! with the engine's other runs (the harness's variables, the background, the HTTP client and
//! policy, the harness's implementations). Each handler type runs through it; the hook it
//! belongs to decides whether it runs at all.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use hook_exec::{CommandSpec, Env};
use hook_protocol::{HookInfo, HookOutcome, HookStatus, ProcessFacts};

use crate::Entry;
use crate::run::background::Background;
use crate::run::delegate::{AgentRunner, McpToolCaller, ModelEvaluator};
use crate::run::direct::Direct;
use crate::run::env::HostEnv;
use crate::run::http::HttpPolicy;
use crate::wire::conversion::InputObject;
use crate::wire::decode::{DecodeCtx, Decoded, RunRecord};

/// The implementations a harness registers for the handler types it runs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Delegates {
    pub(crate) model: Option<Arc<dyn ModelEvaluator>>,
    pub(crate) agent: Option<Arc<dyn AgentRunner>>,
    pub(crate) mcp: Option<Arc<dyn McpToolCaller>>,
}

/// What every run of an engine's hooks shares.
#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) host: HostEnv,
    pub(crate) settings_env: Vec<(String, String)>,
    pub(crate) background: Background,
    #[cfg(feature = "http")]
    pub(crate) http: crate::run::http::Client,
    pub(crate) http_policy: HttpPolicy,
    pub(crate) delegates: Delegates,
    /// The [`base_env`](crate::run::env::base_env) of every hook that is not a plugin's, the
    /// same for all of them: built for the first and shared by the rest.
    pub(crate) settings_base_env: std::sync::OnceLock<Arc<Env>>,
    /// This engine's hooks: their containment choices, and the means to end them.
    pub(crate) group: hook_exec::RunGroup,
}

/// A handler's run: what runs and how, for every handler type.
pub(crate) struct Runner {
    pub(crate) info: HookInfo,
    pub(crate) entry: Entry,
    /// The command, or why the handler cannot run one.
    pub(crate) spec: Result<CommandSpec, String>,
    /// The same command run without the shell, when it is plain words (the fast path).
    pub(crate) direct: Option<Arc<Direct>>,
    /// The environment of its process on every event ([`crate::run::env::base_env`]), shared
    /// by the hooks whose base is the same.
    pub(crate) env: Arc<Env>,
    pub(crate) timeout: Duration,
    pub(crate) shared: Arc<Shared>,
}

impl Runner {
    /// An empty record of this hook's run with a status.
    pub(crate) fn meta(&self, status: HookStatus) -> RunRecord {
        RunRecord::new(self.entry.event.as_str(), status)
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

    /// The outcome of a decoded run, with its Claude record. Texts stay whole: the
    /// 10,000-character cap is presentation ([`crate::present`]).
    pub(crate) fn finish(&self, decoded: Decoded, process: Option<ProcessFacts>) -> HookOutcome {
        let mut status = decoded.meta.status;
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
    pub(crate) fn start_dir(&self, payload: &InputObject) -> PathBuf {
        payload
            .cwd()
            .filter(|p| !p.is_empty())
            .map_or_else(|| self.shared.host.project_dir.clone(), PathBuf::from)
    }
}
