//! The TNSAI external-script hook and its builder.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use async_trait::async_trait;
use hook_exec::{CommandSpec, Env, Invocation, RunLimits};
use hook_protocol::Scrub;
use hook_protocol::{
    Event, FailurePolicy, Hook, HookInfo, HookOutcome, HookStatus, Matcher, MatcherError, Source,
};
use thiserror::Error;

use crate::decode::interpret;
use crate::envelope::{DEFAULT_TNSAI_VERSION, PROTOCOL_VERSION, Request};
use crate::{EventSelector, EventType, TrustError, TrustRoots};

/// The dialect name in every TNSAI hook's [`Source`].
pub const DIALECT: &str = "tnsai";

/// The timeout of a hook that configures none: 60 s.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The variables the framework sets for every run; configured env may not set them.
pub const FRAMEWORK_ENV: [&str; 3] =
    ["TNSAI_HOOK_EVENT_TYPE", "TNSAI_HOOK_EVENT_ID", "TNSAI_HOOK_PROTOCOL_VERSION"];

/// Why a hook cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The id is empty.
    #[error("hook id is empty")]
    EmptyId,
    /// No executable was given.
    #[error("hook `{id}` has no executable")]
    MissingExecutable {
        /// The hook.
        id: String,
    },
    /// No event type was given.
    #[error("hook `{id}` has no event type")]
    MissingEventType {
        /// The hook.
        id: String,
    },
    /// The timeout is zero.
    #[error("hook `{id}`: timeout must be positive")]
    ZeroTimeout {
        /// The hook.
        id: String,
    },
    /// The matcher does not compile.
    #[error("hook `{id}`: {error}")]
    Matcher {
        /// The hook.
        id: String,
        /// The pattern and the engine's explanation.
        error: MatcherError,
    },
    /// An env variable name is empty, contains `=` or NUL, or is one the framework sets.
    #[error("hook `{id}`: env variable `{key}` {why}")]
    Env {
        /// The hook.
        id: String,
        /// The variable.
        key: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// The executable is not trusted.
    #[error("hook `{id}`: {error}")]
    Trust {
        /// The hook.
        id: String,
        /// The path and the rule it broke.
        error: TrustError,
    },
}

/// Compiles a TNSAI matcher: absent, empty or `*` matches everything; names joined by `|`
/// (letters, digits, `_`, `-`, `.`, `:`) are an exact list; anything else is a regular
/// expression that must match the whole subject.
///
/// # Errors
///
/// [`MatcherError`] naming the pattern when the engine rejects it.
pub fn compile_matcher(matcher: Option<&str>) -> Result<Matcher, MatcherError> {
    let Some(source) = matcher.map(str::trim).filter(|m| !m.is_empty() && *m != "*") else {
        return Ok(Matcher::any());
    };
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':' | '|');
    if source.chars().all(plain) {
        return Ok(Matcher::exact(source.split('|').filter(|s| !s.is_empty())));
    }
    Matcher::pattern(&format!("^(?:{source})$")).map_err(|mut e| {
        e.pattern = source.to_owned();
        e
    })
}

/// What is wrong with an env variable name a hook configures, if anything.
pub(crate) fn env_name_problem(key: &str) -> Option<&'static str> {
    if key.is_empty() || key.contains(['=', '\0']) {
        Some("is not a valid name")
    } else if FRAMEWORK_ENV.contains(&key) {
        Some("is set by the framework")
    } else {
        None
    }
}

/// A TNSAI external-script hook: the envelope on stdin, the decision on stdout.
///
/// Built with [`ScriptHook::builder`]; implements [`Hook`], so it sits on a
/// [`Dispatcher`](hook_protocol::Dispatcher) next to hooks of any other dialect.
#[derive(Debug, Clone)]
pub struct ScriptHook {
    info: HookInfo,
    name: Option<String>,
    event: EventSelector,
    executable: PathBuf,
    program: String,
    timeout: Duration,
    env: BTreeMap<String, String>,
    tnsai_version: String,
    working_dir: Option<PathBuf>,
    limits: RunLimits,
    scrub: Option<Scrub>,
}

impl ScriptHook {
    /// A builder for a hook with this id.
    pub fn builder(id: impl Into<String>) -> ScriptHookBuilder {
        ScriptHookBuilder::new(id)
    }

    /// The hook's id.
    pub fn id(&self) -> &str {
        &self.info.id
    }

    /// The hook's display name, when it has one.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Which events it observes.
    pub fn event(&self) -> &EventSelector {
        &self.event
    }

    /// The executable it runs, resolved (every symlink followed).
    pub fn executable(&self) -> &Path {
        &self.executable
    }

    /// How long a run may take before it is killed.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// What a failure counts as.
    pub fn failure_policy(&self) -> FailurePolicy {
        self.info.failure_policy
    }

    /// Its priority: lower runs first.
    pub fn priority(&self) -> i32 {
        self.info.priority
    }

    /// The variables it sets, besides the framework's.
    pub fn env(&self) -> &BTreeMap<String, String> {
        &self.env
    }

    /// The credential scrub applied to its environment, when one is set.
    pub fn scrub(&self) -> Option<&Scrub> {
        self.scrub.as_ref()
    }

    /// The `tnsai_version` its envelopes carry.
    pub fn tnsai_version(&self) -> &str {
        &self.tnsai_version
    }

    fn invocation(&self, event: &Event, request: &Request) -> Invocation {
        let cwd = self.working_dir.clone().unwrap_or_else(|| event.common.cwd.clone());
        let command = CommandSpec::exec(self.program.clone(), Vec::<String>::new());
        let mut inv = Invocation::new(command, cwd, self.timeout);
        let mut env = Env::inherit();
        if let Some(scrub) = &self.scrub {
            env.scrub_credentials(scrub.clone());
        }
        for (key, value) in &self.env {
            env.set(key, value);
        }
        env.set("TNSAI_HOOK_EVENT_TYPE", &request.event_type)
            .set("TNSAI_HOOK_EVENT_ID", &request.event_id)
            .set("TNSAI_HOOK_PROTOCOL_VERSION", PROTOCOL_VERSION);
        inv.env = env;
        inv.stdin = request.to_bytes().into();
        inv.limits = self.limits;
        inv
    }
}

#[async_trait]
impl Hook for ScriptHook {
    fn info(&self) -> &HookInfo {
        &self.info
    }

    async fn run(&self, event: &Event) -> HookOutcome {
        let request = Request::new(event, &self.tnsai_version);
        let inv = self.invocation(event, &request);
        match hook_exec::run(&inv).await {
            Ok(raw) => interpret(&raw, &EventType::of(event), &request.payload, self.timeout),
            Err(e) => HookOutcome::failure(
                HookStatus::SpawnFailed,
                format!("cannot run `{}`: {e}", self.executable.display()),
            ),
        }
    }
}

/// Builds a [`ScriptHook`]; the executable is checked against the trusted roots in
/// [`build`](ScriptHookBuilder::build).
#[derive(Debug, Clone)]
pub struct ScriptHookBuilder {
    id: String,
    name: Option<String>,
    event: Option<EventSelector>,
    matcher: Option<String>,
    priority: i32,
    executable: Option<PathBuf>,
    timeout: Duration,
    on_failure: FailurePolicy,
    env: BTreeMap<String, String>,
    trusted_roots: Vec<PathBuf>,
    tnsai_version: String,
    origin: Option<String>,
    working_dir: Option<PathBuf>,
    limits: RunLimits,
    scrub: Option<Scrub>,
}

impl ScriptHookBuilder {
    /// A builder with the defaults: priority 0, a 60 s timeout, fail open, no env, no trusted
    /// root, `tnsai_version` "0.5.0", the event's `cwd` as working directory.
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            name: None,
            event: None,
            matcher: None,
            priority: 0,
            executable: None,
            timeout: DEFAULT_TIMEOUT,
            on_failure: FailurePolicy::OPEN,
            env: BTreeMap::new(),
            trusted_roots: Vec::new(),
            tnsai_version: DEFAULT_TNSAI_VERSION.to_owned(),
            origin: None,
            working_dir: None,
            limits: RunLimits::DEFAULT,
            scrub: None,
        }
    }

    /// Sets the display name.
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// Sets which events the hook observes (required): an [`EventType`] or
    /// [`EventSelector::Every`].
    pub fn event_type(mut self, event: impl Into<EventSelector>) -> Self {
        self.event = Some(event.into());
        self
    }

    /// Sets the matcher tested against the event's subject (see [`compile_matcher`]).
    pub fn matcher(mut self, matcher: impl Into<String>) -> Self {
        self.matcher = Some(matcher.into());
        self
    }

    /// Sets the priority: lower runs first, negative before zero (default 0).
    pub fn priority(mut self, priority: i32) -> Self {
        self.priority = priority;
        self
    }

    /// Sets the executable (required); it runs with no arguments, never through a shell.
    pub fn executable(mut self, path: impl Into<PathBuf>) -> Self {
        self.executable = Some(path.into());
        self
    }

    /// Sets the timeout (default [`DEFAULT_TIMEOUT`]).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Sets the failure policy (default [`FailurePolicy::OPEN`]).
    pub fn on_failure(mut self, policy: FailurePolicy) -> Self {
        self.on_failure = policy;
        self
    }

    /// Sets an environment variable for the hook, on top of the harness's environment.
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.env.insert(key.into(), value.into());
        self
    }

    /// Adds a trusted root; the executable must resolve under one of them.
    pub fn trusted_root(mut self, root: impl Into<PathBuf>) -> Self {
        self.trusted_roots.push(root.into());
        self
    }

    /// Adds trusted roots.
    pub fn trusted_roots<I, P>(mut self, roots: I) -> Self
    where
        I: IntoIterator<Item = P>,
        P: Into<PathBuf>,
    {
        self.trusted_roots.extend(roots.into_iter().map(Into::into));
        self
    }

    /// Sets the `tnsai_version` the envelopes carry (default "0.5.0").
    pub fn tnsai_version(mut self, version: impl Into<String>) -> Self {
        self.tnsai_version = version.into();
        self
    }

    /// Sets where the hook comes from (a file name), shown in its [`Source`].
    pub fn origin(mut self, origin: impl Into<String>) -> Self {
        self.origin = Some(origin.into());
        self
    }

    /// Sets the working directory of runs (default: the event's `cwd`).
    pub fn working_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.working_dir = Some(dir.into());
        self
    }

    /// Sets the output caps and kill grace of runs (default [`RunLimits::DEFAULT`]).
    pub fn limits(mut self, limits: RunLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Drops the harness's credentials from the hook's environment (`*_API_KEY`, `*_TOKEN`,
    /// `*_SECRET`, `*_PASSWORD` and the scrub's extra names); the hook's own `env` still
    /// reaches it. Off by default: hooks inherit the harness's environment.
    pub fn scrub_credentials(mut self, scrub: Scrub) -> Self {
        self.scrub = Some(scrub);
        self
    }

    /// Checks everything and builds the hook.
    ///
    /// # Errors
    ///
    /// [`BuildError`] when the id is empty, the event type or executable is missing, the
    /// timeout is zero, the matcher does not compile, an env variable is invalid, or the
    /// executable is not trusted ([`TrustRoots::check`]).
    pub fn build(&self) -> Result<ScriptHook, BuildError> {
        let id = self.id.clone();
        if id.trim().is_empty() {
            return Err(BuildError::EmptyId);
        }
        let event =
            self.event.clone().ok_or_else(|| BuildError::MissingEventType { id: id.clone() })?;
        let executable = self
            .executable
            .as_ref()
            .ok_or_else(|| BuildError::MissingExecutable { id: id.clone() })?;
        if self.timeout.is_zero() {
            return Err(BuildError::ZeroTimeout { id });
        }
        let matcher = compile_matcher(self.matcher.as_deref())
            .map_err(|error| BuildError::Matcher { id: id.clone(), error })?;
        for key in self.env.keys() {
            if let Some(why) = env_name_problem(key) {
                return Err(BuildError::Env { id, key: key.clone(), why });
            }
        }
        let trust = |error| BuildError::Trust { id: id.clone(), error };
        let roots = TrustRoots::new(&self.trusted_roots).map_err(trust)?;
        let resolved = roots.check(executable).map_err(trust)?;
        let program = resolved.to_str().map(str::to_owned).unwrap_or_default();
        let mut info = HookInfo::new(id, Source::new(DIALECT, self.origin.clone()));
        info.label = program.clone();
        info.priority = self.priority;
        info.failure_policy = self.on_failure;
        info.on = event.on();
        info.matcher = matcher;
        Ok(ScriptHook {
            info,
            name: self.name.clone(),
            event,
            executable: resolved,
            program,
            timeout: self.timeout,
            env: self.env.clone(),
            tnsai_version: self.tnsai_version.clone(),
            working_dir: self.working_dir.clone(),
            limits: self.limits,
            scrub: self.scrub.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matcher_rule() {
        assert!(compile_matcher(None).unwrap().is_any());
        assert!(compile_matcher(Some("*")).unwrap().is_any());
        let exact = compile_matcher(Some("Bash|Write")).unwrap();
        assert_eq!(exact.exact_names(), Some(&["Bash".to_owned(), "Write".to_owned()][..]));
        assert!(!exact.is_match("BashOutput"));
        let pattern = compile_matcher(Some("mcp__.*")).unwrap();
        assert!(pattern.is_match("mcp__memory__get"));
        assert!(!pattern.is_match("x_mcp__memory"), "whole subject");
        let err = compile_matcher(Some("(?=x)")).unwrap_err();
        assert_eq!(err.pattern, "(?=x)");
    }

    #[test]
    fn builder_refuses_missing_parts() {
        assert_eq!(ScriptHook::builder(" ").build().unwrap_err(), BuildError::EmptyId);
        let b = ScriptHook::builder("h");
        assert!(matches!(b.build(), Err(BuildError::MissingEventType { .. })));
        let b = b.event_type(EventType::PreToolUse);
        assert!(matches!(b.build(), Err(BuildError::MissingExecutable { .. })));
        let b = b.executable("/bin/true").env("TNSAI_HOOK_EVENT_ID", "x");
        assert_eq!(
            b.build().unwrap_err().to_string(),
            "hook `h`: env variable `TNSAI_HOOK_EVENT_ID` is set by the framework"
        );
    }
}
