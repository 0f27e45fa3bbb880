//! What Cursor keeps between the events of a conversation: `loop_count`, the follow-ups its
//! `stop` hooks caused so far ([Stop and follow-ups](crate::compatibility#stop-and-follow-ups)),
//! which each hook's `loop_limit` is checked against; and the `env` its `sessionStart` hooks
//! gave (kept by the engine).

use async_trait::async_trait;
use hook_protocol::{DecisionWord, DialectError, Loaded, Session, SessionStep};
use serde_json::{Map, Value};

use crate::EventName;

/// A recording through Cursor's hooks, with its follow-up count.
#[derive(Debug)]
pub(crate) struct Recording {
    loaded: Box<dyn Loaded>,
    loop_count: u32,
}

impl Recording {
    pub(crate) fn new(loaded: Box<dyn Loaded>) -> Self {
        Self { loaded, loop_count: 0 }
    }
}

#[async_trait]
impl Session for Recording {
    fn check(&self, events: &[(&str, &Map<String, Value>)]) -> Result<(), (usize, DialectError)> {
        for (i, (event, input)) in events.iter().enumerate() {
            self.loaded.check_input(event, input, &[]).map_err(|e| (i, e))?;
        }
        Ok(())
    }

    async fn step(
        &mut self,
        event: &str,
        mut input: Map<String, Value>,
    ) -> Result<SessionStep, DialectError> {
        let name = EventName::parse(event);
        if name == Some(EventName::Stop) && !input.contains_key("loop_count") {
            input.insert("loop_count".into(), Value::from(self.loop_count));
        }
        let run = self.loaded.run(event, input).await?;
        // A `stop` goes on only with a follow-up: that is its `block`.
        if name == Some(EventName::Stop) && run.decision == DecisionWord::Block {
            self.loop_count += 1;
        }
        Ok(SessionStep::new(run))
    }
}
