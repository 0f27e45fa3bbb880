//! A native hook's typed answer at one seam.

use std::fmt;
use std::marker::PhantomData;

use hook_protocol::{Decision, Halt, Severity, Verdict};
use serde_json::Value;

use crate::seam::{Allows, Asks, Blocks, Continues, Denies, Informs, Rewrites, SeamKind};

/// What a native hook answers at the seam `K`: a [`Verdict`] built through typed constructors.
///
/// Only what the seam can act on is offered (see the table in [`crate::seam`]): a pre-tool hook
/// can [`deny`](Answer::deny) and [`rewrite`](Answer::with_input) but not
/// [`continue_with`](Answer::continue_with); a turn-end hook the reverse. No JSON is involved:
/// the answer is the verdict the dispatcher folds.
///
/// ```
/// use hooks_native::Answer;
/// use hooks_native::seam::{PreTool, TurnEnd};
/// use hook_protocol::Decision;
///
/// let deny: Answer<PreTool> = Answer::deny("no force pushes").with_context("see CONTRIBUTING");
/// assert_eq!(deny.verdict().decision, Some(Decision::Deny));
/// let more: Answer<TurnEnd> = Answer::continue_with("the tests still fail");
/// assert_eq!(more.verdict().reason.as_deref(), Some("the tests still fail"));
/// ```
///
/// An answer the seam cannot act on does not compile:
///
/// ```compile_fail
/// use hooks_native::Answer;
/// use hooks_native::seam::TurnEnd;
///
/// let _: Answer<TurnEnd> = Answer::with_input(Answer::no_opinion(), serde_json::json!({}));
/// ```
pub struct Answer<K> {
    verdict: Verdict,
    kind: PhantomData<fn() -> K>,
}

impl<K: SeamKind> Answer<K> {
    fn of(verdict: Verdict) -> Self {
        Self { verdict, kind: PhantomData }
    }

    fn decide(decision: Decision, reason: Option<String>) -> Self {
        Self::of(Verdict::decide(decision, reason))
    }

    /// No opinion: the harness proceeds as if the hook were not there.
    pub fn no_opinion() -> Self {
        Self::of(Verdict::no_opinion())
    }

    /// Sets the reason given with the decision.
    pub fn with_reason(mut self, reason: impl Into<String>) -> Self {
        self.verdict.reason = Some(reason.into());
        self
    }

    /// Adds a message for the user (not for the model).
    pub fn with_message(mut self, text: impl Into<String>) -> Self {
        self.verdict.messages.push(text.into());
        self
    }

    /// Stops the harness's processing altogether, with what to tell the user.
    pub fn halt(mut self, reason: impl Into<String>) -> Self {
        self.verdict.halt = Some(Halt::new(Some(reason.into())));
        self
    }

    /// Says how serious the decision is ([`Severity`]); it reaches the typed decision as
    /// [`hook_protocol::Control::severity`] when this answer's decision wins.
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.verdict.severity = Some(severity);
        self
    }

    /// Runs no hook of this event that comes after this one in configuration order.
    pub fn end_chain(mut self) -> Self {
        self.verdict.end_chain = true;
        self
    }

    /// The verdict the answer stands for.
    pub fn verdict(&self) -> &Verdict {
        &self.verdict
    }

    /// The verdict, for the dispatcher's fold.
    pub fn into_verdict(self) -> Verdict {
        self.verdict
    }
}

impl<K: Allows> Answer<K> {
    /// Let the action proceed without asking.
    pub fn allow() -> Self {
        Self::decide(Decision::Allow, None)
    }
}

impl<K: Asks> Answer<K> {
    /// Ask the user, showing them `reason`.
    pub fn ask(reason: impl Into<String>) -> Self {
        Self::decide(Decision::Ask, Some(reason.into()))
    }

    /// Hand the decision to whoever drives the harness.
    pub fn defer(reason: impl Into<String>) -> Self {
        Self::decide(Decision::Defer, Some(reason.into()))
    }
}

impl<K: Denies> Answer<K> {
    /// Refuse the action; the reason is for the model.
    pub fn deny(reason: impl Into<String>) -> Self {
        Self::decide(Decision::Deny, Some(reason.into()))
    }
}

impl<K: Blocks> Answer<K> {
    /// Block it (after a tool: give the model `reason` as blocking feedback).
    pub fn block(reason: impl Into<String>) -> Self {
        Self::decide(Decision::Deny, Some(reason.into()))
    }
}

impl<K: Continues> Answer<K> {
    /// Keep the agent going; `reason` is its next instruction.
    pub fn continue_with(reason: impl Into<String>) -> Self {
        Self::decide(Decision::Deny, Some(reason.into()))
    }
}

impl<K: Rewrites> Answer<K> {
    /// Replaces the whole tool input (ignored when the merged decision is a deny).
    pub fn with_input(mut self, input: Value) -> Self {
        self.verdict.updated_input = Some(input);
        self
    }
}

impl<K: Informs> Answer<K> {
    /// No decision, only context for the model.
    pub fn context(text: impl Into<String>) -> Self {
        Self::no_opinion().with_context(text)
    }

    /// Adds context for the model; it carries the hook's source (dialect `native`).
    pub fn with_context(mut self, text: impl Into<String>) -> Self {
        self.verdict.context.push(text.into());
        self
    }
}

impl<K: SeamKind> Default for Answer<K> {
    fn default() -> Self {
        Self::no_opinion()
    }
}

impl<K> Clone for Answer<K> {
    fn clone(&self) -> Self {
        Self { verdict: self.verdict.clone(), kind: PhantomData }
    }
}

impl<K> PartialEq for Answer<K> {
    fn eq(&self, other: &Self) -> bool {
        self.verdict == other.verdict
    }
}

impl<K: SeamKind> fmt::Debug for Answer<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Answer").field("seam", &K::SEAM).field("verdict", &self.verdict).finish()
    }
}

/// What a native hook's function may return at the seam `K`: an [`Answer`], or a `Result` of
/// one whose error becomes a failure of the hook (its failure policy then applies).
pub trait IntoAnswer<K: SeamKind> {
    /// The answer, or the failure message.
    ///
    /// # Errors
    ///
    /// The hook's error, rendered with `Display`.
    fn into_answer(self) -> Result<Answer<K>, String>;
}

impl<K: SeamKind> IntoAnswer<K> for Answer<K> {
    fn into_answer(self) -> Result<Answer<K>, String> {
        Ok(self)
    }
}

impl<K: SeamKind, E: fmt::Display> IntoAnswer<K> for Result<Answer<K>, E> {
    fn into_answer(self) -> Result<Answer<K>, String> {
        self.map_err(|e| e.to_string())
    }
}
