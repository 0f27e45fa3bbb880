//! The most-restrictive merge of several hooks' verdicts.
//!
//! The merge is a fold over verdicts *in configuration order*, whatever order the hooks finished
//! in: [`Merger`] keeps one slot per hook and folds the slots in order when every hook has
//! answered. The rules:
//!
//! - the decision is the most restrictive one: deny > defer > ask > allow > no opinion;
//! - the reasons kept are those of the hooks that gave the winning decision, in configuration
//!   order;
//! - contexts and user messages are all kept, in configuration order;
//! - a halt (`continue: false`) is sticky: one hook halting halts the merged result, with the
//!   first halting hook's reason;
//! - the input rewrite of the hook that comes last in configuration order wins; every hook that
//!   rewrote is listed, so a conflict can be reported; no rewrite applies when the merged
//!   decision is deny;
//! - a hook that ends the chain ([`Verdict::end_chain`]) makes every later hook's verdict ignored.

use serde::Serialize;
use serde_json::Value;

use crate::{Decision, Halt, Severity, Source, Verdict};

/// Which hook something in a merged result came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Attribution {
    /// The hook's position in configuration order (0-based).
    pub position: usize,
    /// The hook's identifier.
    pub hook_id: String,
    /// Where the hook comes from.
    pub source: Source,
}

impl Attribution {
    /// An attribution to the hook at `position`.
    pub fn new(position: usize, hook_id: impl Into<String>, source: Source) -> Self {
        Self { position, hook_id: hook_id.into(), source }
    }
}

/// A value in a merged result, with the hook it came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Attributed<T> {
    /// The hook that gave it.
    pub from: Attribution,
    /// The value.
    pub value: T,
}

/// Which reason a fold gives for its decision ([`Merged::reason`]): a dialect's rule, set on
/// the dispatcher ([`crate::DispatcherBuilder::reason_rule`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ReasonRule {
    /// Every winning reason, in configuration order, joined by a blank line.
    #[default]
    Every,
    /// One hook's words, whatever form its answer took: for a deny or a defer, the last hook
    /// in configuration order that gave it (so the last block is the one explained); for an
    /// ask or an allow, the first. Claude Code shows one reason this way.
    One,
}

/// How a fold decides between the hooks' decisions, set per seam on the dispatcher
/// ([`crate::DispatcherBuilder::fold`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Fold {
    /// The most restrictive decision wins: deny over defer over ask over allow.
    #[default]
    MostRestrictive,
    /// A later hook's decision, in configuration order, overrides an earlier one's, its
    /// reason with it: Copilot merges its `permissionRequest` hooks' outputs so, a later
    /// `allow` over an earlier `deny`.
    LastDecides,
}

/// The fold of every hook's verdict on one event.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct Merged {
    /// The most restrictive decision, or `None` when no hook gave one.
    pub decision: Option<Decision>,
    /// The reasons of the hooks that gave the winning decision, in configuration order.
    pub reasons: Vec<Attributed<String>>,
    /// Every hook that gave the winning decision, with or without a reason, in configuration
    /// order.
    pub deciders: Vec<Attribution>,
    /// Which reason [`Merged::reason`] gives.
    #[serde(skip)]
    pub reason_rule: ReasonRule,
    /// How the decisions were folded.
    pub fold: Fold,
    /// Every context, in configuration order.
    pub context: Vec<Attributed<String>>,
    /// The rewrite that applies: the last in configuration order, none when the result is deny.
    pub updated_input: Option<Attributed<Value>>,
    /// Every hook that returned a rewrite, in configuration order (more than one is a conflict).
    pub rewriters: Vec<Attribution>,
    /// The first halt in configuration order, if any hook halted.
    pub halt: Option<Attributed<Halt>>,
    /// Every user message, in configuration order.
    pub messages: Vec<Attributed<String>>,
    /// The hook that ended the chain, if one did; later verdicts were ignored.
    pub chain_ended_by: Option<Attribution>,
    /// The highest severity among the hooks that gave the winning decision (the first such
    /// hook in configuration order on a tie), when one said.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub severity: Option<Attributed<Severity>>,
    /// The harness interrupted the event (its Ctrl-C) before every hook answered: whatever the
    /// finished hooks said, each seam's decision is its interrupted one (a tool call does not
    /// run, a prompt is not sent). The fold of verdicts never sets it; the dispatcher does.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
    /// The follow-up prompt a turn's end goes on with, when a hook gave one (the last in
    /// configuration order).
    pub follow_up: Option<Attributed<String>>,
}

impl Merged {
    /// The reason of the decision, by the fold's [`ReasonRule`]: every winning reason joined
    /// by a blank line, or the one hook's ([`Merged::decider`]), if it gave one.
    pub fn reason(&self) -> Option<String> {
        match self.reason_rule {
            ReasonRule::Every => join(&self.reasons),
            ReasonRule::One => {
                let decider = self.decider()?;
                self.reasons
                    .iter()
                    .find(|r| r.from.position == decider.position)
                    .map(|r| r.value.clone())
            }
        }
    }

    /// The hook whose words explain the decision under [`ReasonRule::One`]: the last that gave
    /// a deny or a defer, the first that gave an ask or an allow.
    pub fn decider(&self) -> Option<&Attribution> {
        match self.decision? {
            Decision::Deny | Decision::Defer => self.deciders.last(),
            Decision::Ask | Decision::Allow => self.deciders.first(),
        }
    }

    /// Whether more than one hook rewrote the input.
    pub fn rewrite_conflict(&self) -> bool {
        self.rewriters.len() > 1
    }

    /// Whether the harness must stop processing.
    pub fn halted(&self) -> bool {
        self.halt.is_some()
    }

    /// Folds one more verdict into the result; `verdict` comes after everything folded so far in
    /// configuration order.
    pub fn push(&mut self, from: Attribution, verdict: Verdict) {
        if self.chain_ended_by.is_some() {
            return;
        }
        let Verdict {
            decision,
            reason,
            context,
            updated_input,
            halt,
            messages,
            end_chain,
            severity,
            follow_up,
        } = verdict;
        let overrides = match self.fold {
            Fold::MostRestrictive => decision > self.decision,
            Fold::LastDecides => decision.is_some(),
        };
        if overrides {
            self.decision = decision;
            self.reasons.clear();
            self.deciders.clear();
            self.severity = None;
        }
        if decision.is_some() && decision == self.decision {
            self.deciders.push(from.clone());
        }
        if let Some(severity) = severity
            && decision.is_some()
            && decision == self.decision
            && self.severity.as_ref().is_none_or(|s| severity > s.value)
        {
            self.severity = Some(Attributed { from: from.clone(), value: severity });
        }
        if decision.is_some()
            && decision == self.decision
            && let Some(reason) = reason
        {
            self.reasons.push(Attributed { from: from.clone(), value: reason });
        }
        for text in context {
            self.context.push(Attributed { from: from.clone(), value: text });
        }
        for text in messages {
            self.messages.push(Attributed { from: from.clone(), value: text });
        }
        if let Some(input) = updated_input {
            self.rewriters.push(from.clone());
            self.updated_input = Some(Attributed { from: from.clone(), value: input });
        }
        if self.decision == Some(Decision::Deny) {
            self.updated_input = None;
        }
        if let (None, Some(halt)) = (&self.halt, halt) {
            self.halt = Some(Attributed { from: from.clone(), value: halt });
        }
        if let Some(prompt) = follow_up {
            self.follow_up = Some(Attributed { from: from.clone(), value: prompt });
        }
        if end_chain {
            self.chain_ended_by = Some(from);
        }
    }
}

fn join(items: &[Attributed<String>]) -> Option<String> {
    if items.is_empty() {
        return None;
    }
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str("\n\n");
        }
        out.push_str(&item.value);
    }
    Some(out)
}

/// Collects verdicts in completion order and folds them in configuration order.
///
/// # Order
///
/// [`Merger::insert`] may be called in any order; [`Merger::finish`] folds the verdicts by
/// position, so the result never depends on which hook finished first.
#[derive(Debug, Default)]
pub struct Merger {
    slots: Vec<Option<(Attribution, Verdict)>>,
}

impl Merger {
    /// A merger for `hooks` verdicts.
    pub fn new(hooks: usize) -> Self {
        Self { slots: (0..hooks).map(|_| None).collect() }
    }

    /// Records the verdict of the hook at `from.position`; a position beyond the size given to
    /// [`Merger::new`] grows the merger.
    pub fn insert(&mut self, from: Attribution, verdict: Verdict) {
        let position = from.position;
        if position >= self.slots.len() {
            self.slots.resize_with(position + 1, || None);
        }
        self.slots[position] = Some((from, verdict));
    }

    /// Folds every recorded verdict in configuration order; positions never filled count as no
    /// opinion.
    pub fn finish(self) -> Merged {
        merge(self.slots.into_iter().flatten())
    }
}

/// Folds verdicts given in configuration order, the most restrictive decision winning.
pub fn merge(verdicts: impl IntoIterator<Item = (Attribution, Verdict)>) -> Merged {
    merge_by(Fold::MostRestrictive, verdicts)
}

/// Folds verdicts given in configuration order by `fold`.
pub fn merge_by(fold: Fold, verdicts: impl IntoIterator<Item = (Attribution, Verdict)>) -> Merged {
    let mut merged = Merged { fold, ..Merged::default() };
    for (from, verdict) in verdicts {
        merged.push(from, verdict);
    }
    merged
}

#[cfg(test)]
mod tests;
