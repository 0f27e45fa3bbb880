//! A command dialect behind the core's one door: the loaded hooks ([`Hooks`], a
//! [`hook_protocol::Loaded`]) and the recording session over them, for any engine that says how
//! it lists, checks and runs one of its agent's events ([`CommandEngine`]).

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use async_trait::async_trait;
use hook_protocol::{
    DecisionWord, Diagnostic, DialectError, EventRun, Listed, Loaded, Session, SessionStep, Settled,
};
use serde_json::{Map, Value};

use crate::{EventTable, Run};

/// What a command dialect's engine gives the door: its events, its diagnostics, how it lists,
/// checks and runs one event from its agent's input, and what its sessions keep between events.
#[async_trait]
pub trait CommandEngine: fmt::Debug + Send + Sync + 'static {
    /// The agent's events.
    type Event: EventTable;
    /// What a session keeps between events (a loop guard, a follow-up count).
    type State: Default + fmt::Debug + Send + Sync;

    /// Every problem of the configuration.
    fn diagnostics(&self) -> &[Diagnostic];

    /// The hooks that would run for `event` (and its subject, when given), in order.
    fn list(&self, event: Self::Event, subject: Option<&str>) -> Vec<Listed>;

    /// Checks an input before it runs.
    ///
    /// # Errors
    ///
    /// [`DialectError::InvalidInput`] for an input the agent would not send.
    fn check_input(
        &self,
        event: Self::Event,
        input: &Map<String, Value>,
    ) -> Result<(), DialectError> {
        let _ = (event, input);
        Ok(())
    }

    /// Runs one event from its agent's input, in the core's words.
    async fn run(&self, event: Self::Event, input: Map<String, Value>) -> EventRun;

    /// Ends what runs in the background for a program that exits (see
    /// [`Loaded::settle`]).
    async fn settle(&self, wait: Duration) -> Settled {
        let _ = wait;
        Settled::default()
    }

    /// In a session, before `event` runs: what the session fills in its input.
    fn before_step(
        &self,
        state: &mut Self::State,
        event: Self::Event,
        input: &mut Map<String, Value>,
    ) {
        let _ = (state, event, input);
    }

    /// In a session, after `event` ran: what the session counts, overrides or delivers.
    fn after_step(&self, state: &mut Self::State, event: Self::Event, step: &mut SessionStep) {
        let _ = (state, event, step);
    }

    /// In a session, gives what runs in the background up to `wait` to end.
    async fn wait(&self, wait: Duration) {
        let _ = wait;
    }
}

/// A command dialect's configuration, loaded: its engine and the notes of its loading, behind
/// the core's door.
#[derive(Debug)]
pub struct Hooks<E> {
    engine: E,
    notes: Vec<String>,
}

impl<E: CommandEngine> Hooks<E> {
    /// The loaded hooks of `engine`, with what loading them noted (the files found).
    pub fn new(engine: E, notes: Vec<String>) -> Self {
        Self { engine, notes }
    }

    /// The engine.
    pub fn engine(&self) -> &E {
        &self.engine
    }
}

#[async_trait]
impl<E: CommandEngine> Loaded for Hooks<E> {
    fn diagnostics(&self) -> &[Diagnostic] {
        self.engine.diagnostics()
    }

    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }

    fn list(&self, event: &str, subject: Option<&str>) -> Result<Vec<Listed>, DialectError> {
        Ok(self.engine.list(E::Event::known(event)?, subject))
    }

    fn check_input(
        &self,
        event: &str,
        input: &Map<String, Value>,
        _filled: &[&str],
    ) -> Result<(), DialectError> {
        self.engine.check_input(E::Event::known(event)?, input)
    }

    async fn run(&self, event: &str, input: Map<String, Value>) -> Result<EventRun, DialectError> {
        let name = E::Event::known(event)?;
        self.engine.check_input(name, &input)?;
        Ok(self.engine.run(name, input).await)
    }

    async fn settle(&self, wait: Duration) -> Settled {
        self.engine.settle(wait).await
    }

    fn into_session(self: Box<Self>) -> Box<dyn Session> {
        Box::new(Recording { hooks: *self, state: E::State::default() })
    }
}

/// A recording through a command dialect's hooks: the events in order, with what the dialect's
/// agent keeps between them.
#[derive(Debug)]
struct Recording<E: CommandEngine> {
    hooks: Hooks<E>,
    state: E::State,
}

#[async_trait]
impl<E: CommandEngine> Session for Recording<E> {
    fn check(&self, events: &[(&str, &Map<String, Value>)]) -> Result<(), (usize, DialectError)> {
        for (i, (event, input)) in events.iter().enumerate() {
            self.hooks.check_input(event, input, &[]).map_err(|e| (i, e))?;
        }
        Ok(())
    }

    async fn step(
        &mut self,
        event: &str,
        mut input: Map<String, Value>,
    ) -> Result<SessionStep, DialectError> {
        let name = E::Event::known(event)?;
        self.hooks.engine.before_step(&mut self.state, name, &mut input);
        let run = self.hooks.run(event, input).await?;
        let mut step = SessionStep::new(run);
        self.hooks.engine.after_step(&mut self.state, name, &mut step);
        Ok(step)
    }

    async fn settle(&mut self, wait: Duration) {
        self.hooks.engine.wait(wait).await;
    }
}

/// A run in the core's words, where the agent gives the first deciding hook's reason: `deny`
/// on the tool events ([`DecisionWord::Deny`] where `denies`, [`DecisionWord::Block`]
/// elsewhere), and the subject from the event's subject field.
pub fn event_run<E: EventTable>(run: &Run<E>, denies: bool) -> EventRun {
    let deny = if denies { DecisionWord::Deny } else { DecisionWord::Block };
    let mut out = EventRun::of(run.event.as_str(), &run.report, deny, run.shown.clone());
    out.subject = run
        .event
        .subject_field()
        .and_then(|f| run.input.get(f))
        .and_then(Value::as_str)
        .map(str::to_owned);
    out
}

/// One configured hook as `hooks list` shows it: its command, its file and matcher.
pub fn listed(command: impl Into<String>, file: &Path, matcher: Option<&str>) -> Listed {
    let source = format!("{}; matcher `{}`", file.display(), matcher.unwrap_or("*"));
    Listed::new(command, source)
}

/// The input check every tool event shares: `field` must be a string.
///
/// # Errors
///
/// [`DialectError::InvalidInput`] naming the field.
pub fn string_field(
    event: impl EventTable,
    input: &Map<String, Value>,
    field: &str,
) -> Result<(), DialectError> {
    if input.get(field).is_some_and(Value::is_string) {
        return Ok(());
    }
    Err(DialectError::InvalidInput {
        event: event.as_str().to_owned(),
        message: format!("`{field}` must be a string"),
        lenient_would_run: false,
    })
}

/// The files a dialect found for a project, as the note the door gives: `{title} hook files:
/// a (place), b (place)`, or `none found`.
pub fn found_note<'a>(title: &str, found: impl IntoIterator<Item = (&'a Path, &'a str)>) -> String {
    let names: Vec<String> =
        found.into_iter().map(|(p, place)| format!("{} ({place})", p.display())).collect();
    let names = if names.is_empty() { "none found".to_owned() } else { names.join(", ") };
    format!("{title} hook files: {names}")
}

/// A hook file named to the door, checked to be a regular file.
///
/// # Errors
///
/// [`DialectError::Load`] naming the file (`{what} {why}`: `Codex hook file … is a folder`).
pub fn named_file(path: &Path, what: &str) -> Result<(), DialectError> {
    hook_protocol::text_file::regular_file(path)
        .map(|_| ())
        .map_err(|e| DialectError::load(format!("{what} {e}")))
}

/// A plugin folder named to the door, checked to be a folder.
///
/// # Errors
///
/// [`DialectError::Load`]: `{title} plugin `DIR` is not a folder`.
pub fn plugin_dir(dir: &Path, title: &str) -> Result<PathBuf, DialectError> {
    if dir.is_dir() {
        return Ok(dir.to_path_buf());
    }
    Err(DialectError::load(format!("{title} plugin `{}` is not a folder", dir.display())))
}
