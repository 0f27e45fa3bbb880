//! The one door every dialect goes through: load a dialect's hooks from its files, list what
//! would run for an event, run one event from its JSON input, run a recording as a session, and
//! check a file.
//!
//! A dialect crate (`hooks-claude`, `hooks-tnsai`, ...) offers one value implementing
//! [`Dialect`]; a program that drives several dialects (the `hooks` command, a harness that
//! reads its users' hooks in every format) keeps a list of them and never matches on which one
//! it holds. What a dialect's agent would do is the dialect's business: where its files are,
//! how they are read, what its events are called, what its hooks' answers mean, what the agent
//! shows the model. What comes out is the core's: [`Diagnostic`]s, [`Listed`] hooks, an
//! [`EventRun`] per event with a [`HookLine`] per hook.
//!
//! Adding a dialect to the `hooks` command is one line: its value in the command's list.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use async_trait::async_trait;
use serde::Serialize;
use serde_json::{Map, Value};
use thiserror::Error;

use crate::{
    Decision, Diagnostic, Event, HookRecord, HookStatus, Report, Scrub, Severity, Shown, Source,
};

/// What a file given to a dialect is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FileKind {
    /// A configuration file of the dialect (a settings file, a hook list, a `hooks.json`).
    Config,
    /// A plugin: a directory holding hooks and a manifest.
    Plugin,
    /// A skill whose hooks run as after it was invoked.
    Skill,
    /// A sub-agent definition whose hooks run on that sub-agent's events.
    Agent,
}

impl FileKind {
    /// `configuration file`, `plugin`, `skill`, `sub-agent`.
    pub fn as_str(self) -> &'static str {
        match self {
            FileKind::Config => "configuration file",
            FileKind::Plugin => "plugin",
            FileKind::Skill => "skill",
            FileKind::Agent => "sub-agent",
        }
    }
}

/// Where the agent runs, when its hooks behave differently there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Surface {
    /// On the developer's machine: the agent's command line or editor.
    #[default]
    Local,
    /// A hosted job with no one to ask (Copilot's cloud agent): an `ask` is a deny.
    Cloud,
}

impl Surface {
    /// `local` or `cloud`.
    pub fn as_str(self) -> &'static str {
        match self {
            Surface::Local => "local",
            Surface::Cloud => "cloud",
        }
    }
}

/// What a dialect is asked to load, and how its hooks run.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoadRequest {
    /// The project directory, absolute: where the agent would run.
    pub project_dir: PathBuf,
    /// The user's home directory, where user-level configuration is found.
    pub home: Option<PathBuf>,
    /// Files named explicitly, in order. With none of kind [`FileKind::Config`] or
    /// [`FileKind::Plugin`], the dialect discovers the files its agent reads for the project.
    pub files: Vec<(FileKind, PathBuf)>,
    /// Where the agent keeps its own state (Claude Code's `~/.claude`), when not the default.
    pub agent_home: Option<PathBuf>,
    /// Credentials kept from the environment hooks inherit.
    pub scrub: Option<Scrub>,
    /// Every shell-form command runs through the shell, even one that could run without it.
    pub always_shell: bool,
    /// Run an input that lacks a field its event requires (a partial recording).
    pub lenient: bool,
    /// Where the agent runs ([`Surface`]); a dialect takes only the surfaces it has
    /// ([`Dialect::surfaces`]).
    pub surface: Surface,
    /// The project folder is not trusted: each dialect loads what its agent loads for an
    /// untrusted folder (Copilot: no repository hooks; Codex: no project layer; Claude Code:
    /// no hook runs until the folder is trusted). Files named in [`LoadRequest::files`] load
    /// as named.
    pub untrusted: bool,
    /// Files another dialect of the same run reads (a harness running several dialects on one
    /// seam): left out of what this dialect discovers, so that no hook runs twice.
    pub read_elsewhere: Vec<PathBuf>,
}

impl LoadRequest {
    /// A request for the hooks of the project at `project_dir`, discovered as the agent would.
    pub fn new(project_dir: impl Into<PathBuf>) -> Self {
        Self {
            project_dir: project_dir.into(),
            home: None,
            files: Vec::new(),
            agent_home: None,
            scrub: None,
            always_shell: false,
            lenient: false,
            untrusted: false,
            surface: Surface::Local,
            read_elsewhere: Vec::new(),
        }
    }

    /// The files of one kind, in order.
    pub fn files_of(&self, kind: FileKind) -> impl Iterator<Item = &Path> {
        self.files.iter().filter(move |(k, _)| *k == kind).map(|(_, p)| p.as_path())
    }

    /// Whether configuration files or plugins were named (otherwise the dialect discovers).
    pub fn names_files(&self) -> bool {
        self.files.iter().any(|(k, _)| matches!(k, FileKind::Config | FileKind::Plugin))
    }
}

/// How sure a dialect is that a file is one of its own, by its place and its text. The
/// dialect claiming a file most surely checks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Claim {
    /// Not this dialect's.
    No,
    /// It could be this dialect's (a JSON file, when the dialect's files are JSON), but
    /// nothing in it says so.
    Possible,
    /// Its text has this dialect's distinctive shape, in no place of this dialect's.
    Shape,
    /// It is where this dialect's agent reads its files, with their shape.
    Place,
}

/// Why a dialect could not do what it was asked; every message names what it is about.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum DialectError {
    /// An event name the dialect does not know.
    #[error("unknown {what} `{event}`{hint}")]
    UnknownEvent {
        /// What its events are called (`Claude Code event`, `TNSAI event type`).
        what: String,
        /// The name given.
        event: String,
        /// A hint, starting with a space (` (event names are case-sensitive: ...)`), or empty.
        hint: String,
    },
    /// An input its event cannot take.
    #[error("{event}: invalid input: {message}")]
    InvalidInput {
        /// The event.
        event: String,
        /// What is wrong, naming the field.
        message: String,
        /// Whether running it anyway ([`LoadRequest::lenient`]) would go past this problem.
        lenient_would_run: bool,
    },
    /// The hooks could not be loaded: a file named that cannot be used, a configuration that
    /// cannot be built.
    #[error("{message}")]
    Load {
        /// What, naming the file.
        message: String,
    },
    /// The dialect found none of its agent's files for the project.
    #[error("{message}")]
    NotFound {
        /// Where it looked.
        message: String,
    },
    /// A step a session cannot take now (an event before the session started, after it ended).
    #[error("{message}")]
    Session {
        /// Why, naming the event.
        message: String,
    },
    /// The dialect runs only its own agent's inputs, not a harness's neutral events.
    #[error("{dialect} does not run neutral events")]
    NoNeutralEvents {
        /// The dialect's title.
        dialect: String,
    },
}

impl DialectError {
    /// A loading problem.
    pub fn load(message: impl Into<String>) -> Self {
        DialectError::Load { message: message.into() }
    }

    /// None of the agent's files found, saying where the dialect looked.
    pub fn not_found(message: impl Into<String>) -> Self {
        DialectError::NotFound { message: message.into() }
    }
}

/// One hook that would run for an event, as a person reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Listed {
    /// What it runs (its command, or its kind).
    pub command: String,
    /// Where it comes from (its file, plugin, matcher).
    pub source: String,
    /// Why it would not run after all (a filter of its dialect), when it would not.
    pub not_run: Option<String>,
}

impl Listed {
    /// A hook that would run.
    pub fn new(command: impl Into<String>, source: impl Into<String>) -> Self {
        Self { command: command.into(), source: source.into(), not_run: None }
    }
}

/// The decision of one event, in one word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DecisionWord {
    /// A hook allowed it.
    Allow,
    /// A person must be asked.
    Ask,
    /// The decision is handed to whoever drives the harness.
    Defer,
    /// Refused: a permission the hooks denied.
    Deny,
    /// Refused: an action the hooks blocked.
    Block,
    /// No hook had an opinion.
    #[serde(rename = "none")]
    NoOpinion,
}

impl DecisionWord {
    /// Every word, as [`DecisionWord::as_str`] spells them.
    pub const ALL: [DecisionWord; 6] = [
        DecisionWord::Allow,
        DecisionWord::Ask,
        DecisionWord::Defer,
        DecisionWord::Deny,
        DecisionWord::Block,
        DecisionWord::NoOpinion,
    ];

    /// `allow`, `ask`, `defer`, `deny`, `block`, `none`.
    pub fn as_str(self) -> &'static str {
        match self {
            DecisionWord::Allow => "allow",
            DecisionWord::Ask => "ask",
            DecisionWord::Defer => "defer",
            DecisionWord::Deny => "deny",
            DecisionWord::Block => "block",
            DecisionWord::NoOpinion => "none",
        }
    }

    /// The word spelled `text`.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|w| w.as_str() == text)
    }

    /// The decision the word stands for, for a harness that acts on it: `None` for no opinion;
    /// a deny and a block are both [`Decision::Deny`].
    pub fn decision(self) -> Option<Decision> {
        match self {
            DecisionWord::NoOpinion => None,
            DecisionWord::Allow => Some(Decision::Allow),
            DecisionWord::Ask => Some(Decision::Ask),
            DecisionWord::Defer => Some(Decision::Defer),
            DecisionWord::Deny | DecisionWord::Block => Some(Decision::Deny),
        }
    }

    /// The word of a folded decision; `deny` is the word a deny takes on the event
    /// ([`DecisionWord::Deny`] for a permission, [`DecisionWord::Block`] for an action).
    pub fn of(decision: Option<Decision>, deny: DecisionWord) -> Self {
        match decision {
            None => DecisionWord::NoOpinion,
            Some(Decision::Allow) => DecisionWord::Allow,
            Some(Decision::Ask) => DecisionWord::Ask,
            Some(Decision::Defer) => DecisionWord::Defer,
            Some(Decision::Deny) => deny,
        }
    }
}

impl fmt::Display for DecisionWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One hook's run in an [`EventRun`], in configuration order.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HookLine {
    /// What it ran.
    pub command: String,
    /// How it went.
    pub status: HookStatus,
    /// Its exit code, when it exited with one.
    pub exit_code: Option<i32>,
    /// How long it took.
    pub duration: Duration,
    /// What a person should know about it (why it failed, what its dialect made of it).
    pub note: Option<String>,
    /// Where it comes from: its dialect and file.
    pub source: Option<Source>,
}

impl HookLine {
    /// A line for a hook's run.
    pub fn new(command: impl Into<String>, status: HookStatus, duration: Duration) -> Self {
        Self {
            command: command.into(),
            status,
            exit_code: None,
            duration,
            note: None,
            source: None,
        }
    }

    /// The line of a record: its label, status and duration, the exit code of its process, its
    /// failure (else its first warning) as the note, and its source.
    pub fn of(record: &HookRecord) -> Self {
        let mut line = Self::new(record.label.clone(), record.status, record.duration);
        line.source = Some(record.source.clone());
        line.exit_code = record.process.as_ref().and_then(|p| p.exit.code());
        line.note = record.failure.clone().or_else(|| record.warnings.first().cloned());
        line
    }
}

/// One event through a dialect's hooks: the decision, in the hooks' own words, what the agent
/// shows after it, and a line per hook.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct EventRun {
    /// The event's name, as given.
    pub event: String,
    /// What the event's matchers were tested against (a tool name, a source), when it has one.
    pub subject: Option<String>,
    /// The decision.
    pub decision: DecisionWord,
    /// The reason the agent gives for it, when it gives one.
    pub reason: Option<String>,
    /// Context the hooks added for the model, in configuration order.
    pub context: Vec<String>,
    /// The rewritten input, when a hook rewrote it.
    pub updated_input: Option<Value>,
    /// When a hook halted everything: the reason to show the user, if it gave one.
    pub halt: Option<Option<String>>,
    /// The hooks' messages for the user, in configuration order.
    pub messages: Vec<String>,
    /// What the agent shows the model and the user, for a dialect whose agent shows texts of
    /// its own.
    pub shown: Option<Shown>,
    /// One line per hook that matched, in configuration order.
    pub hooks: Vec<HookLine>,
    /// The hook whose answer gave the decision, when one did (for a hook that ran others as
    /// one, the inner hook that decided).
    pub decided_by: Option<HookLine>,
    /// How serious the decision is, when a hook said.
    pub severity: Option<Severity>,
    /// Problems met while running that are no hook's (a long text that could not be saved).
    pub warnings: Vec<String>,
    /// What the hooks answered in words of the agent's own that no field above has, by the
    /// agent's field name in snake case: Cursor's `agent_message`, Copilot's
    /// `modified_response`. Empty for most runs.
    pub dialect_fields: Map<String, Value>,
}

impl EventRun {
    /// A run of `event` in which no hook had an opinion.
    pub fn new(event: impl Into<String>) -> Self {
        Self {
            event: event.into(),
            subject: None,
            decision: DecisionWord::NoOpinion,
            reason: None,
            context: Vec::new(),
            updated_input: None,
            halt: None,
            messages: Vec::new(),
            shown: None,
            hooks: Vec::new(),
            decided_by: None,
            severity: None,
            warnings: Vec::new(),
            dialect_fields: Map::new(),
        }
    }

    /// The run of `event` as its report says it, where the agent gives the first deciding
    /// hook's reason: the decision (`deny` the word for a deny: [`DecisionWord::Deny`] on the
    /// tool seams, [`DecisionWord::Block`] elsewhere), every context, the rewritten input, the
    /// halt, the hooks' messages for the user, what the agent shows, and a line per hook
    /// ([`HookLine::of`]). A dialect sets what is its own (the subject, another reason rule).
    pub fn of(event: impl Into<String>, report: &Report, deny: DecisionWord, shown: Shown) -> Self {
        let merged = &report.merged;
        let mut out = Self::new(event);
        out.decision = DecisionWord::of(merged.decision, deny);
        out.reason = merged.reasons.first().map(|r| r.value.clone());
        out.context = merged.context.iter().map(|c| c.value.clone()).collect();
        out.updated_input = merged.updated_input.as_ref().map(|u| u.value.clone());
        out.halt = merged.halt.as_ref().map(|h| h.value.reason.clone());
        out.messages = merged.messages.iter().map(|m| m.value.clone()).collect();
        out.shown = Some(shown);
        out.hooks = report.records.iter().map(HookLine::of).collect();
        out.decided_by = report.decided_by().map(HookLine::of);
        out
    }
}

/// The loop guard of a dialect whose hooks can keep a turn going, after one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct GuardState {
    /// How many consecutive blocks of the turn's end this step makes: 0 when the hooks let it
    /// end.
    pub consecutive_blocks: u32,
    /// Whether the guard overrode this step's block and ended the turn.
    pub overridden: bool,
}

impl GuardState {
    /// The guard's state after a step.
    pub fn new(consecutive_blocks: u32, overridden: bool) -> Self {
        Self { consecutive_blocks, overridden }
    }
}

/// What a background hook said when it ended, delivered on a later step.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct LateLine {
    /// Its command.
    pub command: String,
    /// What the model gets from it.
    pub shown: Shown,
}

impl LateLine {
    /// A late result of `command`.
    pub fn new(command: impl Into<String>, shown: Shown) -> Self {
        Self { command: command.into(), shown }
    }
}

/// One step of a session: the event's run, and what the session did around it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SessionStep {
    /// The event's run.
    pub run: EventRun,
    /// Background hooks' results this step delivers.
    pub late: Vec<LateLine>,
    /// What the shell tool gets from the hooks' environment files from now on.
    pub exports: BTreeMap<String, String>,
    /// The loop guard, on the steps that end a turn.
    pub guard: Option<GuardState>,
    /// Set on the first step of a recording that begins mid-session (its first event is not
    /// the session's start): the session took it as one that had already started, and ran no
    /// start hooks.
    pub resumed: bool,
}

impl SessionStep {
    /// A step that is only its run.
    pub fn new(run: EventRun) -> Self {
        Self { run, late: Vec::new(), exports: BTreeMap::new(), guard: None, resumed: false }
    }
}

/// A dialect: how its agent's hook files are found, read, checked and run.
pub trait Dialect: Send + Sync {
    /// The name a person picks it by (`claude`, `tnsai`): lower case, one word.
    fn name(&self) -> &'static str;

    /// Its agent's name, as people write it (`Claude Code`).
    fn title(&self) -> &'static str;

    /// What a file of this dialect is, for a person who must name one (`a TNSAI hook list`),
    /// when the dialect needs files named and finds none of its own.
    fn needs_file(&self) -> Option<&'static str> {
        None
    }

    /// Whether it reads files of this kind.
    fn reads(&self, kind: FileKind) -> bool;

    /// The surfaces its agent runs on ([`LoadRequest::surface`]): the developer's machine
    /// only, unless the dialect says.
    fn surfaces(&self) -> &'static [Surface] {
        &[Surface::Local]
    }

    /// How sure it is that `path`, holding `text`, is one of its files.
    fn claims(&self, path: &Path, text: &str) -> Claim;

    /// The project a file of this dialect belongs to, from the file's place alone (the folder
    /// above `.claude/` for `p/.claude/settings.json`), when its place says.
    fn project_of(&self, path: &Path) -> Option<PathBuf> {
        let _ = path;
        None
    }

    /// Every problem of one file (its text read already), errors and warnings, each at its
    /// position; what the file names that cannot run (a missing command) included.
    fn check(&self, path: &Path, text: &str, project_dir: &Path) -> Vec<Diagnostic>;

    /// Loads the hooks a request names (or discovers), ready to run.
    ///
    /// # Errors
    ///
    /// [`DialectError::Load`] when a file named cannot be used, nothing can be found, or the
    /// hooks cannot be built. A file with problems loads: its problems are in
    /// [`Loaded::diagnostics`], errors included.
    fn load(&self, request: &LoadRequest) -> Result<Box<dyn Loaded>, DialectError>;
}

impl fmt::Debug for dyn Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Dialect").field("name", &self.name()).finish()
    }
}

/// A dialect's hooks, loaded.
#[async_trait]
pub trait Loaded: fmt::Debug + Send + Sync {
    /// Every problem found while loading, errors and warnings. A program that runs hooks goes
    /// on after a warning; after an error, what did not load does not run.
    fn diagnostics(&self) -> &[Diagnostic];

    /// What was read, for a person who asks (the files found, in order).
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }

    /// The hooks that would run for `event`, in configuration order; with a `subject`, only
    /// those whose matcher accepts it.
    ///
    /// # Errors
    ///
    /// [`DialectError::UnknownEvent`] for an event the dialect does not know.
    fn list(&self, event: &str, subject: Option<&str>) -> Result<Vec<Listed>, DialectError>;

    /// The hooks that would run for a harness's neutral event, as [`Loaded::run_event`] would
    /// run it: for each of the agent's events it fires, those whose matcher accepts its
    /// subject, in configuration order.
    ///
    /// # Errors
    ///
    /// [`DialectError::NoNeutralEvents`] for a dialect that takes only its agent's inputs (the
    /// default).
    fn list_event(&self, event: &Event) -> Result<Vec<Listed>, DialectError> {
        let _ = event;
        Err(DialectError::NoNeutralEvents { dialect: "this dialect".to_owned() })
    }

    /// Checks an input without running it: a known event, and the fields it requires (unless
    /// the request was lenient). `filled`: fields a session fills when they are absent.
    ///
    /// # Errors
    ///
    /// [`DialectError::UnknownEvent`], [`DialectError::InvalidInput`].
    fn check_input(
        &self,
        event: &str,
        input: &Map<String, Value>,
        filled: &[&str],
    ) -> Result<(), DialectError>;

    /// Runs one event, its input a JSON object as the agent would give it.
    ///
    /// # Errors
    ///
    /// [`DialectError::UnknownEvent`], [`DialectError::InvalidInput`].
    async fn run(&self, event: &str, input: Map<String, Value>) -> Result<EventRun, DialectError>;

    /// Gives the background hooks that [`Loaded::run`] started (hooks the agent does not wait
    /// for) up to `wait` to end, and returns what those that ended said; those still running at
    /// the deadline are ended, their process trees killed, and named in [`Settled::ended`]. For
    /// a program that runs one event and exits. A dialect without background hooks has none.
    async fn settle(&self, wait: Duration) -> Settled {
        let _ = wait;
        Settled::default()
    }

    /// Checks that [`Loaded::run_event`] can write a neutral event as the agent writes it,
    /// without running anything: the fields the agent needs. Yes by default.
    ///
    /// # Errors
    ///
    /// [`DialectError::InvalidInput`] naming the agent and the field it needs.
    fn check_event(&self, event: &Event, lenient: bool) -> Result<(), DialectError> {
        let _ = (event, lenient);
        Ok(())
    }

    /// Runs a harness's neutral event as this dialect's agent would: written as the agent
    /// writes it (its own events, tool names and input shapes), each event the agent fires for
    /// it in turn; none where the agent has no event for it. `lenient`: a field the agent needs
    /// and the event lacks is written empty rather than refused.
    ///
    /// # Errors
    ///
    /// [`DialectError::InvalidInput`] naming the agent and the field it needs;
    /// [`DialectError::NoNeutralEvents`] for a dialect that takes only its agent's inputs (the
    /// default).
    async fn run_event(&self, event: &Event, lenient: bool) -> Result<Vec<EventRun>, DialectError> {
        let _ = (event, lenient);
        Err(DialectError::NoNeutralEvents { dialect: "this dialect".to_owned() })
    }

    /// Ends this dialect's running hooks (their process trees), giving them up to `grace` after
    /// SIGTERM; returns how many were running. It blocks for at most `grace`. None by default.
    fn kill_running(&self, grace: Duration) -> usize {
        let _ = grace;
        0
    }

    /// The hooks as one session, for events given in order (a recording). A dialect whose
    /// agent keeps nothing between events returns [`alone`] of itself.
    fn into_session(self: Box<Self>) -> Box<dyn Session>;
}

/// What [`Loaded::settle`] found of the background hooks.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Settled {
    /// What each background hook that ended in time said, in the order they ended.
    pub late: Vec<LateLine>,
    /// The commands of those still running at the deadline, which were ended.
    pub ended: Vec<String>,
}

impl Settled {
    /// What settling found: the results that came, and the commands that were ended.
    pub fn new(late: Vec<LateLine>, ended: Vec<String>) -> Self {
        Self { late, ended }
    }
}

/// The session of a dialect whose agent keeps nothing between events: each event runs alone,
/// as in [`Loaded::run`], after every input was checked.
pub fn alone(loaded: Box<dyn Loaded>) -> Box<dyn Session> {
    Box::new(Alone(loaded))
}

/// A session: events in order, with what the dialect's agent does between them.
#[async_trait]
pub trait Session: Send {
    /// Checks a whole recording before any of it runs: every input, and the order.
    ///
    /// # Errors
    ///
    /// The index of the first event that cannot be taken, and why.
    fn check(&self, events: &[(&str, &Map<String, Value>)]) -> Result<(), (usize, DialectError)>;

    /// Runs the next event. A recording may begin mid-session (a hook that logs only some
    /// events never sees the start): a dialect whose sessions start with an event takes a
    /// first event that is not that start as the step of a session that had already started,
    /// and says so in [`SessionStep::resumed`]; [`Session::check`] accepts such a recording.
    ///
    /// # Errors
    ///
    /// [`DialectError::Session`] for a step the session cannot take now, and the errors of
    /// [`Loaded::run`].
    async fn step(
        &mut self,
        event: &str,
        input: Map<String, Value>,
    ) -> Result<SessionStep, DialectError>;

    /// Checks that [`Session::step_event`] can take a neutral event, as
    /// [`Loaded::check_event`] does. Yes by default.
    ///
    /// # Errors
    ///
    /// [`DialectError::InvalidInput`] naming the agent and the field it needs.
    fn check_event(&self, event: &Event, lenient: bool) -> Result<(), DialectError> {
        let _ = (event, lenient);
        Ok(())
    }

    /// Takes a harness's neutral event as the next step, as [`Loaded::run_event`] runs it:
    /// one step per event the agent fires for it, with what the agent does between events.
    ///
    /// # Errors
    ///
    /// The errors of [`Session::step`] and [`Loaded::run_event`].
    async fn step_event(
        &mut self,
        event: &Event,
        lenient: bool,
    ) -> Result<Vec<SessionStep>, DialectError> {
        let _ = (event, lenient);
        Err(DialectError::NoNeutralEvents { dialect: "this dialect".to_owned() })
    }

    /// Gives what still runs in the background up to `wait` to end, so that its results come
    /// on the next step.
    async fn settle(&mut self, wait: Duration) {
        let _ = wait;
    }

    /// Ends the session's running hooks, as [`Loaded::kill_running`] does.
    fn kill_running(&self, grace: Duration) -> usize {
        let _ = grace;
        0
    }
}

/// The session of a dialect without one: each event alone.
#[derive(Debug)]
struct Alone(Box<dyn Loaded>);

#[async_trait]
impl Session for Alone {
    fn check(&self, events: &[(&str, &Map<String, Value>)]) -> Result<(), (usize, DialectError)> {
        for (i, (event, input)) in events.iter().enumerate() {
            self.0.check_input(event, input, &[]).map_err(|e| (i, e))?;
        }
        Ok(())
    }

    async fn step(
        &mut self,
        event: &str,
        input: Map<String, Value>,
    ) -> Result<SessionStep, DialectError> {
        self.0.run(event, input).await.map(SessionStep::new)
    }

    fn check_event(&self, event: &Event, lenient: bool) -> Result<(), DialectError> {
        self.0.check_event(event, lenient)
    }

    fn kill_running(&self, grace: Duration) -> usize {
        self.0.kill_running(grace)
    }

    async fn step_event(
        &mut self,
        event: &Event,
        lenient: bool,
    ) -> Result<Vec<SessionStep>, DialectError> {
        let runs = self.0.run_event(event, lenient).await?;
        Ok(runs.into_iter().map(SessionStep::new).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_stands_for_the_decision_it_was_made_of() {
        for decision in [Decision::Allow, Decision::Ask, Decision::Defer, Decision::Deny] {
            for deny in [DecisionWord::Deny, DecisionWord::Block] {
                assert_eq!(DecisionWord::of(Some(decision), deny).decision(), Some(decision));
            }
        }
        assert_eq!(DecisionWord::of(None, DecisionWord::Deny).decision(), None);
    }
}
