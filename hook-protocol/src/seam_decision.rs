//! Typed decisions: what the harness must do at each seam, derived from a merged result.
//!
//! Each seam has its decision type, read off a [`Merged`] fold (`from_merged`) or a whole report
//! ([`FromReport`], the one trait every decision type of every dialect implements). The
//! reading is the same for every dialect: deny is the seam's block, and everything a hook
//! injects keeps its [`Source`].

use serde::Serialize;
use serde_json::Value;

use crate::{Attributed, Decision, FromReport, Merged, Report, Severity, Source};

/// Text a hook injected into the model's context, with where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Injected {
    /// The text.
    pub text: String,
    /// Which dialect (and plugin, file) it came from; never the user.
    pub source: Source,
    /// The hook that injected it.
    pub hook_id: String,
}

/// What every decision carries besides its seam's answer.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[non_exhaustive]
pub struct Control {
    /// Stop processing altogether, with the reason to show the user, when a hook halted.
    pub halt: Option<Option<String>>,
    /// Messages for the user, in configuration order.
    pub messages: Vec<String>,
    /// How serious the seam's decision is (the highest severity a hook gave with it, e.g.
    /// TNSAI's `severity` of a block), when a hook said.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub severity: Option<Severity>,
}

fn injected(items: &[Attributed<String>]) -> Vec<Injected> {
    items
        .iter()
        .map(|a| Injected {
            text: a.value.clone(),
            source: a.from.source.clone(),
            hook_id: a.from.hook_id.clone(),
        })
        .collect()
}

/// The contexts, none when the event was interrupted: what the finished hooks of an
/// interrupted event would add never reaches the model.
fn injected_unless_interrupted(merged: &Merged) -> Vec<Injected> {
    if merged.interrupted { Vec::new() } else { injected(&merged.context) }
}

fn control(merged: &Merged) -> Control {
    Control {
        halt: merged.halt.as_ref().map(|h| h.value.reason.clone()),
        messages: merged.messages.iter().map(|m| m.value.clone()).collect(),
        severity: merged.severity.as_ref().map(|s| s.value),
    }
}

/// Session start, sub-agent start, tool failure: hooks can only add context.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct ContextDecision {
    /// Context to add, in configuration order.
    pub context: Vec<Injected>,
    /// Halt and messages.
    pub control: Control,
}

impl ContextDecision {
    /// Reads the decision off a merged result.
    pub fn from_merged(merged: &Merged) -> Self {
        Self { context: injected(&merged.context), control: control(merged) }
    }
}

impl FromReport for ContextDecision {
    fn from_report(report: &Report) -> Self {
        Self::from_merged(&report.merged)
    }
}

/// Prompt submit: go on (with context) or block the prompt.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum PromptPermission {
    /// No hook blocked it: the prompt goes to the model.
    #[serde(rename = "proceed")]
    NoOpinion,
    /// The prompt is blocked; the reason is for the user.
    Block {
        /// Why.
        reason: Option<String>,
    },
    /// The harness interrupted the event before every hook answered ([`Merged::interrupted`]):
    /// the prompt is not sent, whatever the finished hooks said.
    Interrupted,
}

/// Prompt submit's decision.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct PromptSubmitDecision {
    /// Whether the prompt goes on.
    #[serde(rename = "verdict")]
    pub permission: PromptPermission,
    /// Context to add to the prompt.
    pub context: Vec<Injected>,
    /// Halt and messages.
    pub control: Control,
}

impl PromptSubmitDecision {
    /// Reads the decision off a merged result.
    pub fn from_merged(merged: &Merged) -> Self {
        let permission = match merged.decision {
            _ if merged.interrupted => PromptPermission::Interrupted,
            Some(Decision::Deny) => PromptPermission::Block { reason: merged.reason() },
            _ => PromptPermission::NoOpinion,
        };
        Self { permission, context: injected_unless_interrupted(merged), control: control(merged) }
    }
}

impl FromReport for PromptSubmitDecision {
    fn from_report(report: &Report) -> Self {
        Self::from_merged(&report.merged)
    }
}

/// Pre-tool's answer about the call.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ToolPermission {
    /// No hook had an opinion: the harness's own permission rules decide.
    NoOpinion,
    /// Run it without asking.
    Allow {
        /// Why (for logs).
        reason: Option<String>,
    },
    /// Ask the user.
    Ask {
        /// What to show in the prompt.
        reason: Option<String>,
    },
    /// Hand the call to whoever drives the harness.
    Defer {
        /// Why.
        reason: Option<String>,
    },
    /// Refuse it; the reason is for the model.
    Deny {
        /// Why.
        reason: Option<String>,
    },
    /// The harness interrupted the event (its Ctrl-C) before every hook answered
    /// ([`Merged::interrupted`]): the call must not run, whatever the finished hooks said. It
    /// is neither "no opinion" nor a hook's deny: the person stopped the call.
    Interrupted,
}

impl ToolPermission {
    /// Whether the call may run without the harness asking anyone: no hook had an opinion or
    /// one allowed it (the harness's own rules still apply to `NoOpinion`). `false` for ask,
    /// defer, deny and an interrupted call.
    pub fn may_run(&self) -> bool {
        matches!(self, ToolPermission::NoOpinion | ToolPermission::Allow { .. })
    }
}

/// Pre-tool's decision.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct PreToolDecision {
    /// The answer about the call.
    pub permission: ToolPermission,
    /// A replacement for the whole tool input (never with a deny).
    pub updated_input: Option<Value>,
    /// Context to add next to the tool result.
    pub context: Vec<Injected>,
    /// Halt and messages.
    pub control: Control,
}

impl PreToolDecision {
    /// Reads the decision off a merged result.
    pub fn from_merged(merged: &Merged) -> Self {
        let reason = merged.reason();
        let permission = match merged.decision {
            _ if merged.interrupted => ToolPermission::Interrupted,
            None => ToolPermission::NoOpinion,
            Some(Decision::Allow) => ToolPermission::Allow { reason },
            Some(Decision::Ask) => ToolPermission::Ask { reason },
            Some(Decision::Defer) => ToolPermission::Defer { reason },
            Some(Decision::Deny) => ToolPermission::Deny { reason },
        };
        let updated_input = if merged.interrupted { None } else { merged.updated_input.as_ref() };
        Self {
            permission,
            updated_input: updated_input.map(|u| u.value.clone()),
            context: injected_unless_interrupted(merged),
            control: control(merged),
        }
    }
}

impl FromReport for PreToolDecision {
    fn from_report(report: &Report) -> Self {
        Self::from_merged(&report.merged)
    }
}

/// Permission request's answer on the user's behalf.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum RequestPermission {
    /// No hook answered (or one asked/deferred): show the prompt.
    #[serde(rename = "prompt")]
    NoOpinion,
    /// Grant it, possibly with a rewritten input.
    Allow {
        /// A replacement for the whole tool input.
        updated_input: Option<Value>,
    },
    /// Refuse it.
    Deny {
        /// Why.
        reason: Option<String>,
    },
    /// The harness interrupted the event before every hook answered ([`Merged::interrupted`]):
    /// the call is refused, as when the person refuses at the prompt.
    Interrupted,
}

/// Permission request's decision.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct PermissionDecision {
    /// The permission the request gets.
    #[serde(rename = "answer")]
    pub permission: RequestPermission,
    /// Halt and messages.
    pub control: Control,
}

impl PermissionDecision {
    /// Reads the decision off a merged result.
    pub fn from_merged(merged: &Merged) -> Self {
        let answer = match merged.decision {
            _ if merged.interrupted => RequestPermission::Interrupted,
            Some(Decision::Deny) => RequestPermission::Deny { reason: merged.reason() },
            Some(Decision::Allow) => RequestPermission::Allow {
                updated_input: merged.updated_input.as_ref().map(|u| u.value.clone()),
            },
            _ => RequestPermission::NoOpinion,
        };
        Self { permission: answer, control: control(merged) }
    }
}

impl FromReport for PermissionDecision {
    fn from_report(report: &Report) -> Self {
        Self::from_merged(&report.merged)
    }
}

/// Post-tool's decision: the tool already ran; hooks can give the model feedback.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct PostToolDecision {
    /// Blocking feedback for the model (a hook denied), when any.
    pub feedback: Option<String>,
    /// Context to add next to the tool result.
    pub context: Vec<Injected>,
    /// Halt and messages.
    pub control: Control,
}

impl PostToolDecision {
    /// Reads the decision off a merged result.
    pub fn from_merged(merged: &Merged) -> Self {
        let feedback = match merged.decision {
            Some(Decision::Deny) => Some(merged.reason().unwrap_or_default()),
            _ => None,
        };
        Self { feedback, context: injected(&merged.context), control: control(merged) }
    }
}

impl FromReport for PostToolDecision {
    fn from_report(report: &Report) -> Self {
        Self::from_merged(&report.merged)
    }
}

/// Turn end or sub-agent end: stop, or keep going.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Continuation {
    /// Let it end.
    Stop,
    /// Keep going; the reason is the next instruction for the model.
    Continue {
        /// Why.
        reason: Option<String>,
    },
    /// Keep going with this prompt, sent as the next user message (a follow-up).
    FollowUp {
        /// The prompt.
        prompt: String,
    },
}

/// Turn end's decision.
///
/// A deny keeps the agent going; so does injected context, which the model can only read if
/// the turn continues. An interrupted event ([`Merged::interrupted`]) lets the turn end.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct TurnEndDecision {
    /// Stop or continue.
    pub continuation: Continuation,
    /// Context for the model's next step.
    pub context: Vec<Injected>,
    /// Halt and messages.
    pub control: Control,
}

impl TurnEndDecision {
    /// Reads the decision off a merged result.
    pub fn from_merged(merged: &Merged) -> Self {
        let goes_on = merged.decision == Some(Decision::Deny) || !merged.context.is_empty();
        let continuation = match &merged.follow_up {
            _ if merged.interrupted => Continuation::Stop,
            // A block says what to do; a follow-up only when nothing blocked.
            Some(prompt) if merged.decision != Some(Decision::Deny) => {
                Continuation::FollowUp { prompt: prompt.value.clone() }
            }
            _ if goes_on => Continuation::Continue { reason: merged.reason() },
            _ => Continuation::Stop,
        };
        Self {
            continuation,
            context: injected_unless_interrupted(merged),
            control: control(merged),
        }
    }
}

impl FromReport for TurnEndDecision {
    fn from_report(report: &Report) -> Self {
        Self::from_merged(&report.merged)
    }
}

/// Pre-compact (and any seam whose only power is to block): blocked or not.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct BlockDecision {
    /// `Some(reason)` when a hook blocked.
    pub blocked: Option<Option<String>>,
    /// Halt and messages.
    pub control: Control,
}

impl BlockDecision {
    /// Reads the decision off a merged result.
    pub fn from_merged(merged: &Merged) -> Self {
        let blocked = (merged.decision == Some(Decision::Deny)).then(|| merged.reason());
        Self { blocked, control: control(merged) }
    }
}

impl FromReport for BlockDecision {
    fn from_report(report: &Report) -> Self {
        Self::from_merged(&report.merged)
    }
}

/// Notification and session end: hooks observe; only halt and messages remain.
impl Control {
    /// Reads the decision off a merged result.
    pub fn from_merged(merged: &Merged) -> Self {
        control(merged)
    }
}

impl FromReport for Control {
    fn from_report(report: &Report) -> Self {
        Self::from_merged(&report.merged)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Attribution, Halt, Verdict, merge};
    use serde_json::json;

    fn fold(vs: Vec<Verdict>) -> Merged {
        merge(vs.into_iter().enumerate().map(|(i, v)| {
            (Attribution::new(i, format!("h{i}"), Source::new("t", Some(format!("p{i}")))), v)
        }))
    }

    #[test]
    fn pre_tool_reads_permission_rewrite_and_context() {
        let mut a = Verdict::allow();
        a.updated_input = Some(json!({"command": "ls -la"}));
        a.context.push("ctx".into());
        let d = PreToolDecision::from_merged(&fold(vec![a]));
        assert_eq!(d.permission, ToolPermission::Allow { reason: None });
        assert_eq!(d.updated_input, Some(json!({"command": "ls -la"})));
        assert_eq!(d.context[0].source, Source::new("t", Some("p0".into())));
        assert_eq!(
            PreToolDecision::from_merged(&fold(vec![])).permission,
            ToolPermission::NoOpinion
        );
    }

    #[test]
    fn an_interrupted_event_never_reads_as_go_ahead() {
        let mut allow = Verdict::allow();
        allow.updated_input = Some(json!({"command": "ls"}));
        allow.context.push("ctx".into());
        allow.messages.push("seen".into());
        for verdicts in [vec![], vec![allow.clone()], vec![Verdict::deny("no"), allow]] {
            let mut merged = fold(verdicts);
            merged.interrupted = true;
            let pre = PreToolDecision::from_merged(&merged);
            assert_eq!(pre.permission, ToolPermission::Interrupted);
            assert!(!pre.permission.may_run());
            assert_eq!((pre.updated_input, pre.context.len()), (None, 0), "nothing of it applies");
            let prompt = PromptSubmitDecision::from_merged(&merged);
            assert_eq!(prompt.permission, PromptPermission::Interrupted);
            assert!(prompt.context.is_empty());
            let ask = PermissionDecision::from_merged(&merged);
            assert_eq!(ask.permission, RequestPermission::Interrupted);
            let end = TurnEndDecision::from_merged(&merged);
            assert_eq!(end.continuation, Continuation::Stop, "the turn ends");
        }
        assert!(ToolPermission::NoOpinion.may_run());
        assert!(!ToolPermission::Ask { reason: None }.may_run());
    }

    #[test]
    fn turn_end_continues_on_deny_or_context() {
        let stop = TurnEndDecision::from_merged(&fold(vec![Verdict::allow()]));
        assert_eq!(stop.continuation, Continuation::Stop);
        let deny = TurnEndDecision::from_merged(&fold(vec![Verdict::deny("tests fail")]));
        assert_eq!(deny.continuation, Continuation::Continue { reason: Some("tests fail".into()) });
        let ctx = TurnEndDecision::from_merged(&fold(vec![Verdict::context("note")]));
        assert_eq!(ctx.continuation, Continuation::Continue { reason: None });
    }

    #[test]
    fn prompt_block_and_halt() {
        let mut v = Verdict::deny("secret in prompt");
        v.halt = Some(Halt::new(Some("stop".into())));
        let d = PromptSubmitDecision::from_merged(&fold(vec![Verdict::context("c"), v]));
        assert_eq!(
            d.permission,
            PromptPermission::Block { reason: Some("secret in prompt".into()) }
        );
        assert_eq!(d.control.halt, Some(Some("stop".into())));
        assert_eq!(d.context.len(), 1);
    }

    #[test]
    fn permission_answers() {
        assert_eq!(
            PermissionDecision::from_merged(&fold(vec![Verdict::allow()])).permission,
            RequestPermission::Allow { updated_input: None }
        );
        assert_eq!(
            PermissionDecision::from_merged(&fold(vec![Verdict::decide(Decision::Ask, None)]))
                .permission,
            RequestPermission::NoOpinion
        );
        assert_eq!(
            PostToolDecision::from_merged(&fold(vec![Verdict::deny("bad")])).feedback.as_deref(),
            Some("bad")
        );
        assert_eq!(
            BlockDecision::from_merged(&fold(vec![Verdict::deny("no")])).blocked,
            Some(Some("no".into()))
        );
    }
}
