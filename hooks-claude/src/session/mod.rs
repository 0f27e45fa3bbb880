//! A Claude Code session: one object that fires each lifecycle step's hooks and does, between
//! the steps, what Claude Code does (see [`Session`]). In come an [`Engine`](crate::Engine) and
//! the harness's steps, in order; out go [`Step`]s (the decision, what is shown, late results,
//! the guard's state, exports). It is the top stage: it may use every other, and none uses it.

mod batch;
mod held;
mod interrupt;
mod order;
mod prompt;
mod skills;
mod step;

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, Hasher};
use std::path::PathBuf;

use serde_json::{Map, Value};
pub use tokio_util::sync::CancellationToken;

use crate::input::{TypedInput, payload};
use crate::run::env_file::{self, EnvFiles};
use hook_protocol::{FromReport, Placement, Shown};

use crate::{Engine, EventName, GuardOverride, RawRun, StopDecision, StopGuard};
pub use interrupt::Interrupter;
pub use order::{Phase, SessionError, check_order, check_order_from};
pub use prompt::PromptAnswer;
pub use step::{GuardState, Late, Step};

/// One Claude Code session over an [`Engine`].
///
/// A harness builds an [`Engine`] for a session, makes it a [`Session`], and calls one method
/// per step of its loop, in order: [`Session::session_start`], then for each turn
/// [`Session::user_prompt_submit`], for each tool call [`Session::pre_tool_use`] (and
/// [`Session::permission_request`] when it would ask the user), [`Session::post_tool_use`] or
/// [`Session::post_tool_use_failure`], [`Session::post_tool_batch`] after a batch, then
/// [`Session::stop`] when the turn wants to end; [`Session::subagent_start`] and
/// [`Session::subagent_stop`] around a sub-agent, [`Session::pre_compact`] before compaction,
/// [`Session::notification`], [`Session::cwd_changed`] when its shell's directory changed, and
/// [`Session::session_end`] last. Each returns a [`Step`]: the typed decision, what Claude Code
/// shows the model and the user ([`crate::Shown`]), and what happened between the events.
///
/// Between the steps the session:
///
/// - fills each input's `session_id`, `transcript_path` and `cwd` when they are empty (the
///   `SessionStart` input gives the first two, the `cwd` follows [`Session::cwd_changed`]'s
///   `new_cwd`, and a `CwdChanged` input's empty `old_cwd` is the session's directory; hooks run
///   in it, `CLAUDE_PROJECT_DIR` stays the project directory). The transcript is the harness's:
///   a step before any input gave its path is [`SessionError::NoTranscriptPath`], never an
///   empty path sent to hooks;
/// - fills `PostToolBatch`'s `tool_calls` when the harness gives none: every call since the
///   previous batch, in the order of their `PreToolUse` steps, each with the result the model
///   got (a `PostToolUse`'s `tool_response`, a `PostToolUseFailure`'s `error`, or, for a call
///   refused by the hooks, at the permission prompt or by an interrupt, the refusal text); a
///   call with no result yet is left out with a warning;
/// - runs the [Stop loop guard](crate::compatibility#stop-loop-guard): `stop_hook_active` in
///   the `Stop` and `SubagentStop` inputs (one guard for the session, one per sub-agent), the
///   count of consecutive blocks, the override of the block past the cap with Claude Code's
///   notice (in [`Step::shown`]), and a new count after each tool call;
/// - activates a skill's frontmatter hooks once the Skill tool ran it (after its
///   `PostToolUse`), loading its `SKILL.md` from the project's `.claude/skills/<name>/` or the
///   user's `<claude home>/skills/<name>/` when the configuration did not; a `once` hook
///   retires after its first success;
/// - delivers what background (`async`) hooks said when they ended, on the next step
///   ([`Step::late`]), and kills those still running at `SessionEnd`;
/// - gives each `SessionStart` and `CwdChanged` command hook its own `CLAUDE_ENV_FILE` and
///   reports what their `export`s give the shell tool ([`Step::env_file_exports`]); hooks do
///   not get them. The files live in `<claude home>/session-env/<session id>/`
///   ([`EngineBuilder::claude_home`](crate::EngineBuilder::claude_home)); they outlive the
///   session, as in Claude Code, unless the harness calls [`Session::remove_env_files`];
/// - puts the context of a tool call's `PreToolUse` in the step of the call's `PostToolUse`
///   (or `PostToolUseFailure`), in one system message with that event's texts, as Claude Code
///   does: both come after the tool result. A call the hooks refuse keeps its texts on its
///   `PreToolUse` step, one refused at its permission prompt gets them after the refusal on
///   its `PermissionRequest` step, and one that otherwise gets no `PostToolUse` gives them
///   back on the next step that is not about another tool call;
/// - applies the `SessionEnd` budget.
///
/// Ctrl-C: [`Session::interrupter`] gives a handle whose [`Interrupter::interrupt`] interrupts
/// whatever step runs, and every step also takes an optional [`CancellationToken`] of its own.
/// Either kills every running hook's process tree, and the step still returns, those hooks
/// `cancelled` ([`Step::cancelled`]); a `PreToolUse` step's decision is then
/// [`ToolPermission::Interrupted`](hook_protocol::ToolPermission::Interrupted). A step out of order (a tool call before `SessionStart`, a second
/// `SessionEnd`) is a [`SessionError`]. A harness that resumes a conversation without running
/// `SessionStart` hooks calls [`Session::resume`] first.
///
/// A harness with its own permission prompt asks the person when a `PreToolUse` step's decision
/// asks (or its own rules do), firing [`Session::permission_request`] first as Claude Code
/// does, then tells the session the answer with [`Session::answer_prompt`]. A `PreToolUse`
/// step that asks shows the model nothing yet: its context is held like an allowed call's.
/// [`Session::non_interactive`] makes the session refuse every ask with its reason, as
/// `claude -p` does (for recordings of it).
///
/// The workspace's `examples/harness-loop` crate drives a whole turn through a session.
///
/// The session owns its engine, since what lives between events (invoked skills, spent `once`
/// hooks, background hooks) is the engine's: one engine per session.
#[derive(Debug)]
pub struct Session {
    engine: Engine,
    phase: Phase,
    session_id: String,
    transcript_path: String,
    cwd: String,
    cap: u32,
    guard: StopGuard,
    agents: HashMap<String, StopGuard>,
    cwd_files: Vec<PathBuf>,
    exports: BTreeMap<String, String>,
    held: held::Held,
    /// Resumed without a `SessionStart`: the next step's ids and directory become the
    /// session's.
    adopt: bool,
    /// The calls that may be asked about, and those answered.
    prompts: prompt::Prompts,
    /// No one to ask: an ask refuses the call with its reason, as `claude -p` does.
    non_interactive: bool,
    /// The calls since the last `PostToolBatch`.
    batch: batch::Batch,
    /// Interrupts the running step.
    interrupter: Interrupter,
}

/// What the core of a step hands to the typed wrappers.
struct Fired {
    report: hook_protocol::Report,
    input: Map<String, Value>,
    guard: Option<GuardState>,
    guard_override: Option<GuardOverride>,
    late: Vec<Late>,
    warnings: Vec<String>,
}

/// A step per event of the table.
macro_rules! steps {
    ($(#[doc = $doc:literal] $input:ident => $method:ident { $($facts:tt)* }),* $(,)?) => {$(
        #[doc = concat!("`", stringify!($input), "`:", $doc, " A step of the session: what the")]
        /// session does around it is in [`Session`]'s documentation.
        ///
        /// # Errors
        ///
        /// [`SessionError`] when the session cannot take this step now.
        pub async fn $method(
            &mut self,
            input: &crate::input::$input,
            cancel: Option<&CancellationToken>,
        ) -> Result<Step<<crate::input::$input as TypedInput>::Decision>, SessionError> {
            self.fire(input, cancel).await
        }
    )*};
}

impl Session {
    /// A session over `engine`, not started yet; its directory is the project directory until
    /// `SessionStart` or [`Session::cwd_changed`] says otherwise.
    pub fn new(engine: Engine) -> Self {
        let cwd = engine.host().project_dir.display().to_string();
        let id = std::collections::hash_map::RandomState::new().build_hasher().finish();
        Self {
            engine,
            phase: Phase::NotStarted,
            session_id: format!("session-{id:016x}"),
            transcript_path: String::new(),
            cwd,
            cap: StopGuard::DEFAULT_MAX_BLOCKS,
            guard: StopGuard::default(),
            agents: HashMap::new(),
            cwd_files: Vec::new(),
            exports: BTreeMap::new(),
            held: held::Held::default(),
            adopt: false,
            prompts: prompt::Prompts::default(),
            non_interactive: false,
            batch: batch::Batch::default(),
            interrupter: Interrupter::default(),
        }
    }

    /// A session with no one to ask, as `claude -p` runs: a `PreToolUse` ask refuses the call
    /// with the hook's reason as its result. For replaying recordings of `claude -p`.
    #[must_use]
    pub fn non_interactive(mut self) -> Self {
        self.non_interactive = true;
        self
    }

    /// What the person answered at the harness's permission prompt about the call
    /// `tool_use_id`, and what the model gets for it ([`PromptAnswer`]): nothing for an
    /// approval (run the call, then fire its `PostToolUse`, which brings its held context);
    /// Claude Code's refusal as the call's result and its interrupt block for a refusal (no
    /// hook fires for the call after it, and its held context is dropped, as in Claude Code);
    /// the refusal with the person's words when they typed some.
    ///
    /// # Errors
    ///
    /// [`SessionError::UnknownCall`] for a call no `PreToolUse` step of the session let go
    /// on, [`SessionError::AlreadyAnswered`] for a second answer.
    pub fn answer_prompt(
        &mut self,
        tool_use_id: &str,
        answer: &PromptAnswer,
    ) -> Result<Shown, SessionError> {
        self.prompts.answer(tool_use_id)?;
        if *answer != PromptAnswer::Approved {
            self.prompts.closed(tool_use_id);
            self.held.drop_call(tool_use_id);
        }
        let shown = prompt::shown(answer);
        self.batch.refused(tool_use_id, &shown);
        Ok(shown)
    }

    /// The person interrupted the call `tool_use_id` while the tool itself ran (Esc or
    /// Ctrl-C): the harness kills the tool and drops its partial output; the model gets what
    /// it gets for a refusal, as in Claude Code, Claude Code's refusal as the call's result and
    /// its interrupt block (the person's next prompt joins them). The call's held context is
    /// dropped, and no hook fires for it; the harness fires no `Stop` for the turn either.
    ///
    /// # Errors
    ///
    /// [`SessionError::NotRunning`] for a call no `PreToolUse` step of the session let go on,
    /// one refused, or one whose result came.
    pub fn interrupt_tool(&mut self, tool_use_id: &str) -> Result<Shown, SessionError> {
        self.prompts.interrupt(tool_use_id)?;
        self.held.drop_call(tool_use_id);
        let shown = prompt::interrupted();
        self.batch.refused(tool_use_id, &shown);
        Ok(shown)
    }

    /// A handle that interrupts whatever step the session runs when it is used (Ctrl-C),
    /// without a [`CancellationToken`] per step; a token given to a step still works beside it.
    pub fn interrupter(&self) -> Interrupter {
        self.interrupter.clone()
    }

    /// Takes the session as one that had already started, without running `SessionStart`
    /// hooks: for a harness that resumes a conversation, and for a recording that begins
    /// mid-session. The next step's `session_id`, `transcript_path` and `cwd` become the
    /// session's, as a `SessionStart`'s would; steps may come at once, and `SessionEnd` still
    /// ends the session. Returns whether the session changed: one that started already, or
    /// ended, stays as it is.
    pub fn resume(&mut self) -> bool {
        if self.phase != Phase::NotStarted {
            return false;
        }
        self.phase = Phase::Running;
        self.adopt = true;
        true
    }

    /// The cap of the Stop loop guard: how many consecutive continuations the hooks may force
    /// before the next block is overridden (default 8; 0 disables the guard), as
    /// `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` sets it in Claude Code.
    pub fn with_stop_hook_block_cap(mut self, cap: u32) -> Self {
        self.cap = cap;
        self.guard = StopGuard::new(cap);
        self
    }

    /// The engine.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Where the session is in its life.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The session's identifier (from `SessionStart`'s input; generated until then).
    pub fn session_id(&self) -> &str {
        &self.session_id
    }

    /// The session's current directory.
    pub fn cwd(&self) -> &str {
        &self.cwd
    }

    /// The main agent's Stop loop guard.
    pub fn stop_guard(&self) -> &StopGuard {
        &self.guard
    }

    /// What the shell tool gets from the session's `CLAUDE_ENV_FILE`s (as of the last
    /// `SessionStart` or `CwdChanged` step).
    pub fn env_file_exports(&self) -> &BTreeMap<String, String> {
        &self.exports
    }

    /// The session's `CLAUDE_ENV_FILE`s, in the order the shell tool sources them: every
    /// `SessionStart` hook's, then the last `CwdChanged` firing's. For a harness that sources
    /// them itself before each shell command, as Claude Code does.
    pub fn env_files(&self) -> Vec<PathBuf> {
        let dir =
            env_file::session_env_dir(self.engine.presenter().claude_home(), &self.session_id);
        let mut files = env_file::session_start_files(&dir);
        files.extend(self.cwd_files.iter().cloned());
        files
    }

    /// The wake channel of `asyncRewake` hooks ([`Engine::take_wake_receiver`]).
    pub fn take_wake_receiver(&self) -> Option<tokio::sync::mpsc::Receiver<crate::AsyncResult>> {
        self.engine.take_wake_receiver()
    }

    crate::config::event_name::with_every_event!(steps);

    /// Any event's typed input, as a step of the session.
    ///
    /// # Errors
    ///
    /// [`SessionError`] when the session cannot take this step now.
    pub async fn fire<I: TypedInput>(
        &mut self,
        input: &I,
        cancel: Option<&CancellationToken>,
    ) -> Result<Step<I::Decision>, SessionError> {
        let fired = self.step(I::EVENT.as_str(), payload(input), true, cancel).await?;
        let mut decision = I::Decision::from_report(&fired.report);
        if let (Some(by), Some(stop)) = (
            &fired.guard_override,
            (&mut decision as &mut dyn std::any::Any).downcast_mut::<StopDecision>(),
        ) {
            stop.override_block(by.clone());
        }
        Ok(self.finish(decision, fired))
    }

    /// An event's raw input (a recorded line, `hooks replay`) as a step of the session: fields
    /// the session fills are filled only when absent, `stop_hook_active` included; an unknown
    /// event name passes through untyped. The decision is the raw run.
    ///
    /// # Errors
    ///
    /// [`SessionError`] when the session cannot take this step now.
    pub async fn fire_json(
        &mut self,
        name: &str,
        input: Map<String, Value>,
        cancel: Option<&CancellationToken>,
    ) -> Result<Step<RawRun>, SessionError> {
        let fired = self.step(name, input, false, cancel).await?;
        let run = self.engine.raw_run(name, fired.input.clone(), fired.report.clone());
        Ok(self.finish(run, fired))
    }

    fn finish<D>(&mut self, decision: D, fired: Fired) -> Step<D> {
        let mut shown = self.engine.presenter().shown_with(
            &fired.report,
            &fired.input,
            fired.guard_override.as_ref(),
        );
        let event = fired.input.get("hook_event_name").and_then(Value::as_str);
        let event = event.and_then(EventName::parse);
        let id = fired.input.get("tool_use_id").and_then(Value::as_str).unwrap_or_default();
        let mut asked = false;
        match (event, fired.report.merged.decision) {
            (Some(EventName::PreToolUse), Some(hook_protocol::Decision::Ask))
                if !self.non_interactive && !fired.report.cancelled() =>
            {
                // The harness asks the person: no refusal yet, and the context waits.
                shown.model.retain(|m| m.placement != Placement::ToolResult);
                self.prompts.opened(id);
                asked = true;
            }
            (Some(EventName::PreToolUse), decision)
                if decision != Some(hook_protocol::Decision::Deny) && !fired.report.cancelled() =>
            {
                self.prompts.opened(id);
            }
            (Some(EventName::PostToolUse | EventName::PostToolUseFailure), _) => {
                self.prompts.closed(id);
            }
            _ => {}
        }
        self.held.apply(event, &fired.input, &mut shown);
        self.batch.apply(event, &fired.input, &shown, asked);
        Step {
            decision,
            report: fired.report,
            shown,
            late: fired.late,
            guard: fired.guard,
            env_file_exports: self.exports.clone(),
            warnings: fired.warnings,
            input: fired.input,
        }
    }

    /// One step: the order check, the fields the session fills, the dispatch, and what the
    /// session does after it. `typed`: the input is a typed one, whose `stop_hook_active` the
    /// guard always sets (a raw one keeps its own).
    async fn step(
        &mut self,
        name: &str,
        mut input: Map<String, Value>,
        typed: bool,
        cancel: Option<&CancellationToken>,
    ) -> Result<Fired, SessionError> {
        let event = EventName::parse(name);
        let source = input.get("source").and_then(Value::as_str).map(str::to_owned);
        let next = self.phase.after(name, source.as_deref())?;
        if typed
            && self.transcript_path.is_empty()
            && non_empty(&input, "transcript_path").is_none()
        {
            return Err(SessionError::NoTranscriptPath { event: name.to_owned() });
        }
        if event == Some(EventName::SessionStart) {
            self.begin(&input, source.as_deref());
        } else if std::mem::take(&mut self.adopt) {
            self.adopt_ids(&input);
        }
        if event == Some(EventName::CwdChanged) {
            fill(&mut input, "old_cwd", &self.cwd);
            if let Some(new) = non_empty(&input, "new_cwd") {
                self.cwd = new;
            }
        }
        fill(&mut input, "session_id", &self.session_id);
        fill(&mut input, "transcript_path", &self.transcript_path);
        fill(&mut input, "cwd", &self.cwd);
        let agent = non_empty(&input, "agent_id");
        if matches!(event, Some(EventName::Stop | EventName::SubagentStop)) {
            let active = self.guard_of(event, agent.as_deref()).stop_hook_active();
            if typed || !input.contains_key("stop_hook_active") {
                input.insert("stop_hook_active".to_owned(), Value::Bool(active));
            }
        }
        let mut warnings = Vec::new();
        match event {
            Some(EventName::PostToolBatch) => self.batch.fill(&mut input, &mut warnings),
            // A new turn: the calls of the last one are done with.
            Some(EventName::UserPromptSubmit) => {
                self.batch.clear();
                self.prompts.clear();
            }
            _ => {}
        }
        let late = self.drain_late();
        let raw = self.engine.raw_event(name, input, &self.session_id);
        let cancel = self.interrupter.step(cancel);
        let (report, payload, files) = self.engine.fire_prepared(name, raw, Some(&cancel)).await;
        let input = payload.into_object();
        self.phase = next;
        let mut fired = Fired { report, input, guard: None, guard_override: None, late, warnings };
        match event {
            Some(EventName::PreToolUse) => self.guard_of(event, agent.as_deref()).tool_called(),
            Some(EventName::PostToolUse) if !fired.report.cancelled() => self.run_skill(&mut fired),
            Some(EventName::Stop | EventName::SubagentStop) if !fired.report.cancelled() => {
                self.review(event, agent.as_deref(), &mut fired);
            }
            // The session's env files survive its end, as in Claude Code: a resumed session's
            // hooks append to them ([`Session::remove_env_files`] removes them on request).
            // The ended session's shell tool, and its exports, are gone.
            Some(EventName::SessionEnd) => {
                self.engine.kill_background().await;
                self.cwd_files.clear();
                self.exports.clear();
            }
            _ => {}
        }
        if let Some(files) = files {
            self.env_files_changed(event, files, &mut fired.warnings).await;
        }
        Ok(fired)
    }

    /// Removes the session's env files (its folder under the Claude home's `session-env/`),
    /// and the shell tool's exports end with them. Claude Code leaves them, and a resumed
    /// session finds them again; a harness that wants nothing left on the machine calls this
    /// after the session's end.
    ///
    /// # Errors
    ///
    /// The folder could not be removed (a missing folder is not an error).
    pub fn remove_env_files(&mut self) -> std::io::Result<()> {
        let dir =
            env_file::session_env_dir(self.engine.presenter().claude_home(), &self.session_id);
        self.cwd_files.clear();
        self.exports.clear();
        match std::fs::remove_dir_all(&dir) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            other => other,
        }
    }

    /// The ids and directory an input gives, made the session's.
    fn adopt_ids(&mut self, input: &Map<String, Value>) {
        if let Some(id) = non_empty(input, "session_id") {
            self.session_id = id;
        }
        if let Some(path) = non_empty(input, "transcript_path") {
            self.transcript_path = path;
        }
        if let Some(cwd) = non_empty(input, "cwd") {
            self.cwd = cwd;
        }
    }

    /// A `SessionStart`: its ids and directory become the session's; a new session (not a
    /// `compact` or `resume`) starts the guards and env files again.
    fn begin(&mut self, input: &Map<String, Value>, source: Option<&str>) {
        self.adopt = false;
        self.adopt_ids(input);
        if source != Some("compact") {
            self.guard = StopGuard::new(self.cap);
            self.agents.clear();
            self.cwd_files.clear();
            self.exports.clear();
            self.held = held::Held::default();
            self.batch.clear();
        }
    }

    /// The loop guard of the main agent (`Stop`, a main-agent tool call) or of a sub-agent.
    fn guard_of(&mut self, event: Option<EventName>, agent: Option<&str>) -> &mut StopGuard {
        match agent {
            Some(id) if event != Some(EventName::Stop) => {
                let cap = self.cap;
                self.agents.entry(id.to_owned()).or_insert_with(|| StopGuard::new(cap))
            }
            _ => &mut self.guard,
        }
    }

    /// The loop guard's review of a `Stop` or `SubagentStop` firing.
    fn review(&mut self, event: Option<EventName>, agent: Option<&str>, fired: &mut Fired) {
        let mut decision = StopDecision::from_report(&fired.report);
        let guard = self.guard_of(event, agent);
        let before = guard.consecutive();
        guard.review(&mut decision);
        let overridden = decision.guard_override.is_some();
        let consecutive_blocks = if overridden { before + 1 } else { guard.consecutive() };
        fired.guard = Some(GuardState::new(consecutive_blocks, overridden));
        fired.guard_override = decision.guard_override;
        let ends = decision.continuation == hook_protocol::Continuation::Stop;
        if let (Some(EventName::SubagentStop), Some(id), true) = (event, agent, ends) {
            self.agents.remove(id);
        }
    }

    /// After a Skill call ran: the skill's frontmatter hooks are on, its `SKILL.md` loaded
    /// first when the configuration does not have it.
    fn run_skill(&mut self, fired: &mut Fired) {
        let Some(name) = skills::invoked(&fired.input) else { return };
        let loaded = self
            .engine
            .config()
            .sources
            .iter()
            .any(|s| matches!(&s.origin, crate::Origin::Skill { name: n } if *n == name));
        if !loaded {
            let project = self.engine.host().project_dir.clone();
            let home = self.engine.presenter().claude_home().to_owned();
            match skills::find(&project, &home, &name) {
                Some(path) => {
                    let (found, problems) = self.engine.add_skill(&path);
                    fired.warnings.extend(problems.iter().map(ToString::to_string));
                    if let Some(other) = found.filter(|n| *n != name) {
                        self.engine.activate_skill(&other);
                    }
                }
                None => fired.warnings.push(format!(
                    "skill `{name}` has no SKILL.md in `{}` or `{}`; no skill hook starts",
                    project.join(".claude/skills").display(),
                    home.join("skills").display()
                )),
            }
        }
        self.engine.activate_skill(&name);
    }

    /// What background hooks said since the last step, with what the model gets from it.
    fn drain_late(&self) -> Vec<Late> {
        let presenter = self.engine.presenter();
        self.engine
            .drain_async()
            .into_iter()
            .map(|result| Late { shown: presenter.late(&result), result })
            .collect()
    }

    /// A firing with env files: a `CwdChanged`'s replace the previous one's; the exports are
    /// read again.
    async fn env_files_changed(
        &mut self,
        event: Option<EventName>,
        files: EnvFiles,
        warnings: &mut Vec<String>,
    ) {
        if event == Some(EventName::CwdChanged) {
            self.cwd_files = files.files;
        }
        let cwd = PathBuf::from(&self.cwd);
        match env_file::exports(&self.env_files(), &cwd).await {
            Ok(exports) => {
                self.exports = exports.vars;
                warnings.extend(exports.warnings);
            }
            Err(e) => warnings.push(format!("{e}; the shell tool's exports stay as they were")),
        }
    }
}

/// Sets `key` to `value` when it is absent or an empty string.
fn fill(input: &mut Map<String, Value>, key: &str, value: &str) {
    let empty = match input.get(key) {
        None => true,
        Some(Value::String(s)) => s.is_empty(),
        Some(_) => false,
    };
    if empty && !value.is_empty() {
        input.insert(key.to_owned(), Value::String(value.to_owned()));
    }
}

/// A string field that is present and not empty.
fn non_empty(input: &Map<String, Value>, key: &str) -> Option<String> {
    input.get(key).and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_owned)
}
