//! Native hooks (typed Rust hooks, `hooks-native`, or any [`Hook`]) as one more part of a
//! mixed run: they take the neutral event itself.

use std::sync::Arc;

use async_trait::async_trait;
use hook_protocol::{
    DecisionWord, Diagnostic, DialectError, Dispatcher, Event, EventRun, Hook, Listed, Loaded,
    MatcherError, Seam, Session,
};
use serde_json::{Map, Value};

/// The harness's own hooks, on a dispatcher of their own.
#[derive(Debug)]
pub(crate) struct NativeHooks {
    dispatcher: Dispatcher,
}

impl NativeHooks {
    /// The hooks, on a dispatcher.
    pub(crate) fn new(hooks: Vec<Arc<dyn Hook>>) -> Result<Self, MatcherError> {
        Ok(Self { dispatcher: Dispatcher::builder().hooks(hooks).build()? })
    }
}

/// What a native hook's refusal is called on an event of `seam`.
fn deny_word(seam: Seam) -> DecisionWord {
    match seam {
        Seam::PreTool | Seam::PermissionRequest => DecisionWord::Deny,
        _ => DecisionWord::Block,
    }
}

#[async_trait]
impl Loaded for NativeHooks {
    fn diagnostics(&self) -> &[Diagnostic] {
        &[]
    }

    fn list(&self, _event: &str, _subject: Option<&str>) -> Result<Vec<Listed>, DialectError> {
        Err(DialectError::NoNeutralEvents { dialect: "native hooks".to_owned() })
    }

    fn list_event(&self, event: &Event) -> Result<Vec<Listed>, DialectError> {
        let matching = self.dispatcher.matching(event);
        Ok(matching.iter().map(|h| Listed::new(h.info().label.clone(), "native")).collect())
    }

    fn check_input(
        &self,
        _event: &str,
        _input: &Map<String, Value>,
        _filled: &[&str],
    ) -> Result<(), DialectError> {
        Err(DialectError::NoNeutralEvents { dialect: "native hooks".to_owned() })
    }

    async fn run(
        &self,
        _event: &str,
        _input: Map<String, Value>,
    ) -> Result<EventRun, DialectError> {
        Err(DialectError::NoNeutralEvents { dialect: "native hooks".to_owned() })
    }

    async fn run_event(
        &self,
        event: &Event,
        _lenient: bool,
    ) -> Result<Vec<EventRun>, DialectError> {
        let report = self.dispatcher.dispatch(event).await;
        let name = event.custom_name().unwrap_or(event.seam().as_str());
        let mut run = EventRun::of(name, &report, deny_word(event.seam()), Default::default());
        run.subject = event.subject().map(str::to_owned);
        run.shown = None;
        Ok(vec![run])
    }

    fn into_session(self: Box<Self>) -> Box<dyn Session> {
        hook_protocol::dialect::alone(self)
    }
}
