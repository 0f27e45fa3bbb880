//! One run from the runs of several dialects on one event ([Fold](crate#the-fold)): the most
//! restrictive decision with its deciding run's reason, every context and message, each
//! dialect's texts in its agent's words, a line per hook naming its dialect, in the order of
//! [`ORDER`](crate::ORDER) whatever the order the dialects were loaded or finished in.

use std::collections::BTreeMap;

use hook_protocol::{DecisionWord, EventRun, SessionStep, Shown};

/// The dialects a project can hold files of, in the order their runs are gathered: Claude
/// Code, Codex, Copilot, Cursor, Gemini CLI, then a TNSAI list and native hooks when the
/// harness adds them.
pub const ORDER: [&str; 7] = ["claude", "codex", "copilot", "cursor", "gemini", "tnsai", "native"];

/// One dialect's runs of an event: one per event its agent fires for it (none where it has
/// none).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PartRun {
    /// The dialect's name (`codex`).
    pub dialect: &'static str,
    /// Its agent's name (`Codex`).
    pub title: &'static str,
    /// Its runs, in the order its agent fires its events.
    pub runs: Vec<EventRun>,
}

/// Where a dialect's runs go among the others: by [`ORDER`], any other last.
fn position(dialect: &str) -> usize {
    ORDER.iter().position(|d| *d == dialect).unwrap_or(ORDER.len())
}

/// How restrictive a decision is: no opinion, allow, ask, defer, then a deny or a block. A
/// word this fold does not know counts as a refusal.
fn rank(word: DecisionWord) -> u8 {
    match word {
        DecisionWord::NoOpinion => 0,
        DecisionWord::Allow => 1,
        DecisionWord::Ask => 2,
        DecisionWord::Defer => 3,
        _ => 4,
    }
}

/// The run of `event` that the dialects' runs make together; `subject` is the neutral
/// event's.
pub(crate) fn fold(event: &str, subject: Option<&str>, parts: &[PartRun]) -> EventRun {
    let mut ordered: Vec<&PartRun> = parts.iter().collect();
    ordered.sort_by_key(|p| position(p.dialect));
    let runs: Vec<(&PartRun, &EventRun)> =
        ordered.into_iter().flat_map(|p| p.runs.iter().map(move |r| (p, r))).collect();
    let mut out = EventRun::new(event);
    out.subject = subject.map(str::to_owned);
    // The first run, in order, of the most restrictive decision decides.
    let mut decider: Option<(&PartRun, &EventRun)> = None;
    for &(part, run) in &runs {
        let better = decider.is_none_or(|(_, d)| rank(run.decision) > rank(d.decision));
        if run.decision != DecisionWord::NoOpinion && better {
            decider = Some((part, run));
        }
    }
    if let Some((_, run)) = decider {
        out.decision = run.decision;
        out.reason.clone_from(&run.reason);
        out.decided_by.clone_from(&run.decided_by);
        out.severity = run.severity;
    }
    let refused = rank(out.decision) == 4;
    let mut model = Vec::new();
    let mut user = Vec::new();
    let mut shown_warnings = Vec::new();
    let mut any_shown = false;
    for &(part, run) in &runs {
        out.context.extend(run.context.iter().cloned());
        out.messages.extend(run.messages.iter().cloned());
        out.hooks.extend(run.hooks.iter().cloned());
        if out.halt.is_none() {
            out.halt.clone_from(&run.halt);
        }
        if out.severity.is_none() {
            out.severity = run.severity;
        }
        if let (Some(input), false) = (&run.updated_input, refused) {
            match &out.updated_input {
                None => {
                    out.updated_input = Some(input.clone());
                    out.dialect_fields.insert("input_rewritten_by".into(), part.dialect.into());
                }
                Some(first) if first != input => out.warnings.push(format!(
                    "{}: its hooks rewrote the input too, otherwise; the first rewrite is used",
                    part.title
                )),
                Some(_) => {}
            }
        }
        if let Some(shown) = &run.shown {
            any_shown = true;
            model.extend(shown.model.iter().cloned());
            user.extend(shown.user.iter().cloned());
            shown_warnings.extend(shown.warnings.iter().map(|w| format!("{}: {w}", part.title)));
        }
        out.warnings.extend(run.warnings.iter().map(|w| format!("{}: {w}", part.title)));
        for (key, value) in &run.dialect_fields {
            out.dialect_fields.entry(key.clone()).or_insert_with(|| value.clone());
        }
    }
    if any_shown {
        out.shown = Some(Shown::new(model, user, shown_warnings));
    }
    out
}

/// One dialect's steps of an event in a session.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PartStep {
    /// The dialect's name.
    pub dialect: &'static str,
    /// Its agent's name.
    pub title: &'static str,
    /// Its steps, one per event its agent fires for the event.
    pub steps: Vec<SessionStep>,
}

/// The step the dialects' steps make together: their runs folded ([`fold`]), every late
/// result and export, the first loop guard, and whether any session took the event as one of
/// a session already started.
pub(crate) fn fold_steps(event: &str, subject: Option<&str>, parts: &[PartStep]) -> SessionStep {
    let runs: Vec<PartRun> = parts
        .iter()
        .map(|p| PartRun {
            dialect: p.dialect,
            title: p.title,
            runs: p.steps.iter().map(|s| s.run.clone()).collect(),
        })
        .collect();
    let mut out = SessionStep::new(fold(event, subject, &runs));
    let mut exports = BTreeMap::new();
    let mut ordered: Vec<&PartStep> = parts.iter().collect();
    ordered.sort_by_key(|p| position(p.dialect));
    for step in ordered.into_iter().flat_map(|p| &p.steps) {
        out.late.extend(step.late.iter().cloned());
        for (key, value) in &step.exports {
            exports.entry(key.clone()).or_insert_with(|| value.clone());
        }
        if out.guard.is_none() {
            out.guard = step.guard;
        }
        out.resumed |= step.resumed;
    }
    out.exports = exports;
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use hook_protocol::{HookLine, HookStatus, Source};
    use proptest::prelude::*;

    const DIALECTS: [&str; 7] = ORDER;

    fn word(i: u8) -> DecisionWord {
        [
            DecisionWord::NoOpinion,
            DecisionWord::Allow,
            DecisionWord::Ask,
            DecisionWord::Defer,
            DecisionWord::Deny,
            DecisionWord::Block,
        ][usize::from(i % 6)]
    }

    fn part(dialect: &'static str, decision: DecisionWord) -> PartRun {
        let mut run = EventRun::new("PreToolUse");
        run.decision = decision;
        run.reason = Some(format!("{dialect} {decision}"));
        run.context = vec![format!("{dialect} context")];
        let mut line = HookLine::new(dialect, HookStatus::Success, std::time::Duration::ZERO);
        line.source = Some(Source::new(dialect, None));
        run.decided_by = (decision != DecisionWord::NoOpinion).then(|| line.clone());
        run.hooks = vec![line];
        PartRun { dialect, title: dialect, runs: vec![run] }
    }

    proptest! {
        /// Whatever order the dialects were loaded or finished in, the fold is the same, and
        /// a refusal of any one of them is the decision.
        #[test]
        fn the_fold_does_not_depend_on_the_order_of_the_dialects(
            words in proptest::collection::vec(0u8..6, 7),
            order in Just((0..7).collect::<Vec<usize>>()).prop_shuffle(),
        ) {
            let parts: Vec<PartRun> =
                DIALECTS.iter().zip(&words).map(|(d, w)| part(d, word(*w))).collect();
            let shuffled: Vec<PartRun> = order.iter().map(|i| parts[*i].clone()).collect();
            let a = fold("PreToolUse", Some("Bash"), &parts);
            let b = fold("PreToolUse", Some("Bash"), &shuffled);
            prop_assert_eq!(&a, &b);
            let refused = words.iter().any(|w| w % 6 >= 4);
            prop_assert_eq!(refused, matches!(a.decision, DecisionWord::Deny | DecisionWord::Block));
            let first = words.iter().zip(DIALECTS).find(|(w, _)| rank(word(**w)) == rank(a.decision));
            if let (Some((_, dialect)), true) = (first, a.decision != DecisionWord::NoOpinion) {
                let by = a.decided_by.as_ref().and_then(|l| l.source.as_ref()).map(|s| s.dialect.clone());
                prop_assert_eq!(by.as_deref(), Some(dialect));
            }
            prop_assert_eq!(a.context.len(), 7);
        }
    }

    #[test]
    fn a_rewrite_is_kept_unless_the_decision_refuses() {
        let mut allow = part("copilot", DecisionWord::Allow);
        allow.runs[0].updated_input = Some(serde_json::json!({"command": "ls -a"}));
        let folded = fold("PreToolUse", None, std::slice::from_ref(&allow));
        assert_eq!(folded.updated_input, Some(serde_json::json!({"command": "ls -a"})));
        assert_eq!(folded.dialect_fields["input_rewritten_by"], "copilot");
        let deny = part("claude", DecisionWord::Deny);
        let folded = fold("PreToolUse", None, &[allow, deny]);
        assert_eq!(folded.updated_input, None);
        assert_eq!(folded.reason.as_deref(), Some("claude deny"));
    }
}
