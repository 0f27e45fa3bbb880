//! The calls of the batch under way, for `PostToolBatch`'s `tool_calls`.
//!
//! A session sees every call of a batch go by: its `PreToolUse`, then its result (a
//! `PostToolUse` or `PostToolUseFailure`), or its refusal (by the hooks, at the permission
//! prompt, or an interrupt). When the harness fires `PostToolBatch` without `tool_calls`, the
//! session fills them with the calls since the previous batch, in the order their
//! `PreToolUse` steps came, each with the result the model got for it:
//!
//! - a call that ran: its `PostToolUse`'s `tool_response`, as the harness gave it;
//! - a call that failed: its `PostToolUseFailure`'s `error`;
//! - a call refused by the hooks, at the permission prompt, or interrupted: the refusal text the
//!   model got as its tool result.
//!
//! A call with no result yet is left out, with a warning on the `PostToolBatch` step. Each
//! agent (the main one, each sub-agent by `agent_id`) has its batch; a new prompt
//! starts every batch again, and a batch keeps its last 256 calls.

use serde_json::{Map, Value};

use crate::input::BatchCall;
use crate::{EventName, Shown};

/// One call of the batch, and the agent that made it.
#[derive(Debug)]
struct Call {
    agent: Option<String>,
    call: BatchCall,
    resolved: bool,
}

/// The most calls a batch keeps (the oldest go first): far above a real batch, so that a
/// harness that never fires `PostToolBatch` does not make a session grow.
const MOST_CALLS: usize = 256;

/// The calls since the last `PostToolBatch`, per agent.
#[derive(Debug, Default)]
pub(super) struct Batch {
    calls: std::collections::VecDeque<Call>,
}

impl Batch {
    /// What a step that just fired says about a call: it was made, it got its result, or it was
    /// refused (a tool result in what the model is shown). `asked`: a `PreToolUse` that waits
    /// for the person's answer, whose input is kept for a refusal; a call that goes on gets it
    /// from its `PostToolUse`.
    pub(super) fn apply(
        &mut self,
        event: Option<EventName>,
        input: &Map<String, Value>,
        shown: &Shown,
        asked: bool,
    ) {
        let field = |key: &str| input.get(key).cloned().unwrap_or(Value::Null);
        let id = input.get("tool_use_id").and_then(Value::as_str).unwrap_or_default();
        let refusal = shown.tool_result().map(|r| Value::String(r.text.clone()));
        match event {
            Some(EventName::PreToolUse) => {
                // A call is made once: it goes at the end without a search (a repeated id
                // keeps its last entry when the batch is listed).
                let at = self.push(id, input);
                if refusal.is_some() || asked {
                    at.call.tool_input = field("tool_input");
                }
                if let Some(refusal) = refusal {
                    at.call.tool_response = refusal;
                    at.resolved = true;
                }
            }
            Some(EventName::PostToolUse) => {
                let at = self.at(id, input);
                at.call.tool_input = field("tool_input");
                at.call.tool_response = field("tool_response");
                at.resolved = true;
            }
            Some(EventName::PostToolUseFailure) => {
                let at = self.at(id, input);
                at.call.tool_input = field("tool_input");
                at.call.tool_response = field("error");
                at.resolved = true;
            }
            Some(EventName::PermissionRequest) => {
                // Refused at the prompt by a PermissionRequest hook; the input names no call:
                // the latest open one with the same tool.
                let Some(refusal) = refusal else { return };
                let tool = input.get("tool_name");
                let agent = agent(input);
                if let Some(at) = self.calls.iter_mut().rev().find(|c| {
                    !c.resolved
                        && c.agent == agent
                        && tool.and_then(Value::as_str) == Some(c.call.tool_name.as_str())
                }) {
                    at.call.tool_response = refusal;
                    at.resolved = true;
                }
            }
            _ => {}
        }
    }

    /// A call refused at the harness's prompt, with the text the model got for it.
    pub(super) fn refused(&mut self, tool_use_id: &str, shown: &Shown) {
        let Some(result) = shown.tool_result() else { return };
        if let Some(at) = self.calls.iter_mut().rev().find(|c| c.call.tool_use_id == tool_use_id) {
            at.call.tool_response = Value::String(result.text.clone());
            at.resolved = true;
        }
    }

    /// Fills a `PostToolBatch` input's `tool_calls` when it has none, with the agent's calls
    /// since its last batch, which end there; a call with no result yet is a warning.
    pub(super) fn fill(&mut self, input: &mut Map<String, Value>, warnings: &mut Vec<String>) {
        let agent = agent(input);
        let (mine, others): (Vec<Call>, Vec<Call>) =
            std::mem::take(&mut self.calls).into_iter().partition(|c| c.agent == agent);
        self.calls = others.into();
        let given =
            input.get("tool_calls").and_then(Value::as_array).is_some_and(|a| !a.is_empty());
        if given {
            return;
        }
        let mut seen = std::collections::HashSet::new();
        let mut mine: Vec<Call> =
            mine.into_iter().rev().filter(|c| seen.insert(c.call.tool_use_id.clone())).collect();
        mine.reverse();
        let mut calls = Vec::new();
        for call in mine {
            if call.resolved {
                calls.push(serde_json::to_value(call.call).unwrap_or(Value::Null));
            } else {
                warnings.push(format!(
                    "tool call `{}` ({}) has no result yet; it is left out of PostToolBatch's \
                     `tool_calls`",
                    call.call.tool_use_id, call.call.tool_name
                ));
            }
        }
        input.insert("tool_calls".to_owned(), Value::Array(calls));
    }

    /// Forgets every call: a new turn or session.
    pub(super) fn clear(&mut self) {
        self.calls.clear();
    }

    /// The call `id` of the input's agent (the latest with that id), added at the end when it
    /// is new.
    fn at(&mut self, id: &str, input: &Map<String, Value>) -> &mut Call {
        let agent = agent(input);
        match self.calls.iter().rposition(|c| c.call.tool_use_id == id && c.agent == agent) {
            Some(index) => &mut self.calls[index],
            None => self.push(id, input),
        }
    }

    /// A new call at the end, the oldest dropped past [`MOST_CALLS`].
    fn push(&mut self, id: &str, input: &Map<String, Value>) -> &mut Call {
        if self.calls.len() >= MOST_CALLS {
            self.calls.pop_front();
        }
        let tool_name = input.get("tool_name").and_then(Value::as_str).unwrap_or_default();
        let call = BatchCall {
            tool_name: tool_name.to_owned(),
            tool_use_id: id.to_owned(),
            ..BatchCall::default()
        };
        self.calls.push_back(Call { agent: agent(input), call, resolved: false });
        let last = self.calls.len() - 1;
        &mut self.calls[last]
    }
}

/// The agent an input comes from: `None` for the main one.
fn agent(input: &Map<String, Value>) -> Option<String> {
    input.get("agent_id").and_then(Value::as_str).filter(|a| !a.is_empty()).map(str::to_owned)
}
