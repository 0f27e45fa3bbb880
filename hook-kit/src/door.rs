//! A command dialect behind the core's one door: the loaded hooks ([`Hooks`], a
//! [`hook_protocol::Loaded`]) and the recording session over them, for any engine that says how
//! it lists, checks and runs one of its agent's events ([`CommandEngine`]).

use std::fmt;
use std::path::Path;
use std::time::Duration;

use async_trait::async_trait;
use futures_util::future::join_all;
use hook_protocol::{
    DecisionWord, Diagnostic, DialectError, Event, EventRun, Listed, Loaded, MatcherError, Session,
    SessionStep, Settled,
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

    /// The input field naming the tool, where an event's subject is a tool
    /// ([`EventTable::subject_field`]): an input whose field is not a string is refused.
    const TOOL_FIELD: Option<&'static str> = None;

    /// Checks an input before it runs: by default, that the tool it names is a string
    /// ([`CommandEngine::TOOL_FIELD`]).
    ///
    /// # Errors
    ///
    /// [`DialectError::InvalidInput`] for an input the agent would not send.
    fn check_input(
        &self,
        event: Self::Event,
        input: &Map<String, Value>,
    ) -> Result<(), DialectError> {
        match (event.subject_field(), Self::TOOL_FIELD) {
            (Some(field), Some(tool)) if field == tool => string_field(event, input, field),
            _ => Ok(()),
        }
    }

    /// The input field naming the tool in the other form ([`CommandEngine::other_form`]),
    /// checked as [`CommandEngine::TOOL_FIELD`] is.
    const OTHER_TOOL_FIELD: Option<&'static str> = None;

    /// An event named, and its input written, in another form its agent also reads (the
    /// Claude Code form of Copilot's hooks): the agent's own event and input object; `None`
    /// for a name of no such form.
    fn other_form(
        &self,
        event: &str,
        input: &Map<String, Value>,
    ) -> Option<(Self::Event, Map<String, Value>)> {
        let _ = (event, input);
        None
    }

    /// Runs one event from its agent's input, in the core's words.
    async fn run(&self, event: Self::Event, input: Map<String, Value>) -> EventRun;

    /// A harness's neutral event written as the agent writes it: each of its events the agent
    /// fires for it, with its input object (the agent's tool names and input shapes); none
    /// where the agent has no event for it. `lenient`: a field the agent needs and the event
    /// lacks is written empty.
    ///
    /// # Errors
    ///
    /// [`DialectError::InvalidInput`] naming the agent and the field it needs.
    fn write(&self, event: &Event, lenient: bool) -> Result<Written<Self::Event>, DialectError>;

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

    /// Ends the engine's running hooks (its `kill_running`).
    fn kill_running(&self, grace: Duration) -> usize;

    /// In a session, gives what runs in the background up to `wait` to end.
    async fn wait(&self, wait: Duration) {
        let _ = wait;
    }
}

/// A neutral event as an agent writes it: each of its events that the agent fires for it,
/// with its input object.
pub type Written<E> = Vec<(E, Map<String, Value>)>;

/// A neutral event as an agent with one event per seam writes it: its event (none where it has
/// none), the tool call in the agent's own vocabulary (`tool`), and the object its hooks read
/// (`object`).
///
/// # Errors
///
/// What `tool` refuses: a field the agent needs that the call lacks.
pub fn write_one<E: EventTable>(
    event: &Event,
    tool: impl FnOnce(&hook_protocol::ToolCall, E) -> Result<hook_protocol::ToolCall, DialectError>,
    object: impl FnOnce(E, &Event) -> std::sync::Arc<Map<String, Value>>,
) -> Result<Written<E>, DialectError> {
    let Some(name) = E::of_event(event) else {
        return Ok(Vec::new());
    };
    let mut event = event.clone();
    if let Some(call) = event.payload.tool_call_mut() {
        *call = tool(call, name)?;
    }
    Ok(vec![(name, (*object(name, &event)).clone())])
}

/// An event as the door was given it: the agent's event, and its input object when the given
/// one was of another form.
type Named<E> = (E, Option<Map<String, Value>>);

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

    /// The loaded hooks of an engine just built, for the door: a matcher that did not compile
    /// is the load's error.
    ///
    /// # Errors
    ///
    /// [`DialectError::Load`]: `cannot compile the matchers: …`.
    pub fn boxed(
        engine: Result<E, MatcherError>,
        notes: Vec<String>,
    ) -> Result<Box<dyn Loaded>, DialectError> {
        let engine =
            engine.map_err(|e| DialectError::load(format!("cannot compile the matchers: {e}")))?;
        Ok(Box::new(Self::new(engine, notes)))
    }

    /// The engine.
    pub fn engine(&self) -> &E {
        &self.engine
    }

    /// The agent's event and input for a name and input given to the door: the agent's own
    /// name as it is, else one of another form it reads ([`CommandEngine::other_form`]).
    fn event_of(
        &self,
        event: &str,
        input: Option<&Map<String, Value>>,
    ) -> Result<Named<E::Event>, DialectError> {
        let empty = Map::new();
        match E::Event::known(event) {
            Ok(name) => Ok((name, None)),
            Err(unknown) => match self.engine.other_form(event, input.unwrap_or(&empty)) {
                Some((name, own)) => {
                    // The tool is checked in the form it was given in.
                    let tool_event = name.subject_field().is_some_and(|f| Some(f) == E::TOOL_FIELD);
                    if let (true, Some(field), Some(input)) =
                        (tool_event, E::OTHER_TOOL_FIELD, input)
                    {
                        string_field_of(event, input, field)?;
                    }
                    Ok((name, Some(own)))
                }
                None => Err(unknown),
            },
        }
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
        Ok(self.engine.list(self.event_of(event, None)?.0, subject))
    }

    fn list_event(&self, event: &Event) -> Result<Vec<Listed>, DialectError> {
        let mut listed = Vec::new();
        for (name, input) in self.engine.write(event, true)? {
            let subject = name.subject_field().and_then(|f| input.get(f)).and_then(Value::as_str);
            // An event without a subject lists every hook of its event.
            let subject = subject.filter(|s| !s.is_empty());
            listed.extend(self.engine.list(name, subject));
        }
        Ok(listed)
    }

    fn check_input(
        &self,
        event: &str,
        input: &Map<String, Value>,
        _filled: &[&str],
    ) -> Result<(), DialectError> {
        let (name, own) = self.event_of(event, Some(input))?;
        self.engine.check_input(name, own.as_ref().unwrap_or(input))
    }

    async fn run(&self, event: &str, input: Map<String, Value>) -> Result<EventRun, DialectError> {
        let (name, own) = self.event_of(event, Some(&input))?;
        let other_form = own.is_some();
        let input = own.unwrap_or(input);
        self.engine.check_input(name, &input)?;
        let mut run = self.engine.run(name, input).await;
        if other_form {
            // The run is of the event as it was named.
            event.clone_into(&mut run.event);
        }
        Ok(run)
    }

    async fn settle(&self, wait: Duration) -> Settled {
        self.engine.settle(wait).await
    }

    fn check_event(&self, event: &Event, lenient: bool) -> Result<(), DialectError> {
        self.engine.write(event, lenient).map(drop)
    }

    async fn run_event(&self, event: &Event, lenient: bool) -> Result<Vec<EventRun>, DialectError> {
        let written = self.engine.write(event, lenient)?;
        for (name, input) in &written {
            self.engine.check_input(*name, input)?;
        }
        // The events one action fires run at once, as one event's hooks do.
        Ok(join_all(written.into_iter().map(|(name, input)| self.engine.run(name, input))).await)
    }

    fn kill_running(&self, grace: Duration) -> usize {
        CommandEngine::kill_running(&self.engine, grace)
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
        let (name, own) = self.hooks.event_of(event, Some(&input))?;
        let other_form = own.is_some();
        if let Some(own) = own {
            input = own;
        }
        self.hooks.engine.before_step(&mut self.state, name, &mut input);
        let mut run = self.hooks.run(name.as_str(), input).await?;
        if other_form {
            // The step is of the event as it was named.
            event.clone_into(&mut run.event);
        }
        let mut step = SessionStep::new(run);
        self.hooks.engine.after_step(&mut self.state, name, &mut step);
        Ok(step)
    }

    fn check_event(&self, event: &Event, lenient: bool) -> Result<(), DialectError> {
        self.hooks.engine.write(event, lenient).map(drop)
    }

    async fn step_event(
        &mut self,
        event: &Event,
        lenient: bool,
    ) -> Result<Vec<SessionStep>, DialectError> {
        let engine = &self.hooks.engine;
        let mut written = engine.write(event, lenient)?;
        for (name, input) in &mut written {
            engine.before_step(&mut self.state, *name, input);
            engine.check_input(*name, input)?;
        }
        // The events one action fires run at once, as one event's hooks do.
        let runs = join_all(written.iter().map(|(name, input)| engine.run(*name, input.clone())));
        let mut steps = Vec::with_capacity(written.len());
        for ((name, _), run) in written.iter().zip(runs.await) {
            let mut step = SessionStep::new(run);
            engine.after_step(&mut self.state, *name, &mut step);
            steps.push(step);
        }
        Ok(steps)
    }

    async fn settle(&mut self, wait: Duration) {
        self.hooks.engine.wait(wait).await;
    }

    fn kill_running(&self, grace: Duration) -> usize {
        CommandEngine::kill_running(&self.hooks.engine, grace)
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
    string_field_of(event.as_str(), input, field)
}

/// [`string_field`] of an event by the name it was given.
fn string_field_of(
    event: &str,
    input: &Map<String, Value>,
    field: &str,
) -> Result<(), DialectError> {
    if input.get(field).is_some_and(Value::is_string) {
        return Ok(());
    }
    Err(DialectError::InvalidInput {
        event: event.to_owned(),
        message: format!("`{field}` must be a string"),
        lenient_would_run: false,
    })
}
