//! What Copilot keeps between events: the loop guard of `agentStop`
//! ([Stop loop](crate::compatibility#stop-loop)). A hook that blocks every stop keeps the agent
//! working; after 8 consecutive blocks Copilot ends the turn all the same. The guard is the
//! core's [`StopGuard`]; a new prompt starts its count again.

use hook_protocol::{DecisionWord, SessionStep, StopGuard};
use serde_json::{Map, Value};

use crate::EventName;

/// The text Copilot logs when its guard ends a turn.
pub fn guard_notice(cap: u32) -> String {
    format!("Agent stop hook blocked {cap} consecutive times; ending turn.")
}

/// Before an event of a session: a prompt starts the count again; an `agentStop` is told
/// whether the last stop was blocked (`stop_hook_active`), unless its input says.
pub(crate) fn before(guard: &mut StopGuard, name: EventName, input: &mut Map<String, Value>) {
    if name == EventName::UserPromptSubmitted {
        guard.reset();
    }
    if name == EventName::AgentStop && !input.contains_key("stop_hook_active") {
        input.insert("stop_hook_active".into(), Value::Bool(guard.stop_hook_active()));
    }
}

/// After an `agentStop`: its block counted, and past the cap overridden with Copilot's notice.
pub(crate) fn after(guard: &mut StopGuard, name: EventName, step: &mut SessionStep) {
    if name != EventName::AgentStop {
        return;
    }
    let state = guard.review(step.run.decision == DecisionWord::Block);
    if state.overridden {
        step.run.warnings.push(guard_notice(guard.cap()));
        // The overridden block's reason never reaches the model: the turn ends, and Copilot
        // sends no further request.
        if let Some(shown) = &mut step.run.shown {
            shown.model.clear();
        }
    }
    step.guard = Some(state);
}
