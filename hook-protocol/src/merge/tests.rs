use super::*;
use proptest::prelude::*;
use serde_json::json;

fn at(position: usize) -> Attribution {
    Attribution::new(position, format!("h{position}"), Source::new("test", None))
}

fn decided(decision: Decision, reason: &str) -> Verdict {
    Verdict::decide(decision, Some(reason.to_owned()))
}

#[test]
fn most_restrictive_decision_wins() {
    let order = [
        None,
        Some(Decision::Allow),
        Some(Decision::Ask),
        Some(Decision::Defer),
        Some(Decision::Deny),
    ];
    for (i, lower) in order.iter().enumerate() {
        for higher in &order[i..] {
            let a = Verdict { decision: *lower, ..Verdict::no_opinion() };
            let b = Verdict { decision: *higher, ..Verdict::no_opinion() };
            assert_eq!(merge([(at(0), a.clone()), (at(1), b.clone())]).decision, *higher);
            assert_eq!(merge([(at(0), b), (at(1), a)]).decision, *higher);
        }
    }
}

#[test]
fn no_opinion_is_the_identity() {
    let merged = merge([
        (at(0), Verdict::no_opinion()),
        (at(1), Verdict::allow()),
        (at(2), Verdict::no_opinion()),
    ]);
    assert_eq!(merged.decision, Some(Decision::Allow));
    assert_eq!(merge([(at(0), Verdict::no_opinion())]), Merged::default());
}

#[test]
fn reasons_of_the_winning_level_only_in_configuration_order() {
    let merged = merge([
        (at(0), decided(Decision::Ask, "ask")),
        (at(1), decided(Decision::Deny, "first deny")),
        (at(2), decided(Decision::Allow, "allow")),
        (at(3), decided(Decision::Deny, "second deny")),
    ]);
    assert_eq!(merged.decision, Some(Decision::Deny));
    let reasons: Vec<_> = merged.reasons.iter().map(|r| r.value.as_str()).collect();
    assert_eq!(reasons, ["first deny", "second deny"]);
    assert_eq!(merged.reason().as_deref(), Some("first deny\n\nsecond deny"));
    assert_eq!(merged.reasons[1].from.position, 3);
}

#[test]
fn contexts_and_messages_keep_configuration_order() {
    let mut a = Verdict::context("a1");
    a.context.push("a2".into());
    a.messages.push("warn a".into());
    let mut c = Verdict::deny("no");
    c.context.push("c".into());
    let merged = merge([(at(0), a), (at(1), Verdict::context("b")), (at(2), c)]);
    let ctx: Vec<_> = merged.context.iter().map(|r| r.value.as_str()).collect();
    assert_eq!(ctx, ["a1", "a2", "b", "c"]);
    assert_eq!(merged.messages.len(), 1);
}

#[test]
fn halt_is_sticky_and_keeps_the_first_reason() {
    let halt = |r: &str| Verdict { halt: Some(Halt::new(Some(r.into()))), ..Verdict::no_opinion() };
    let merged = merge([
        (at(0), Verdict::allow()),
        (at(1), halt("one")),
        (at(2), halt("two")),
        (at(3), Verdict::allow()),
    ]);
    assert_eq!(merged.halt.as_ref().map(|h| h.value.reason.as_deref()), Some(Some("one")));
    assert_eq!(merged.halt.unwrap().from.position, 1);
}

#[test]
fn last_rewrite_in_configuration_order_wins_and_conflict_is_visible() {
    let rw = |v: i32| Verdict { updated_input: Some(json!({"v": v})), ..Verdict::allow() };
    let merged = merge([(at(0), rw(1)), (at(1), Verdict::allow()), (at(2), rw(2))]);
    assert_eq!(merged.updated_input.as_ref().map(|u| &u.value), Some(&json!({"v": 2})));
    assert!(merged.rewrite_conflict());
    assert_eq!(merged.rewriters.iter().map(|a| a.position).collect::<Vec<_>>(), [0, 2]);
}

#[test]
fn no_rewrite_applies_under_deny() {
    let rw = Verdict { updated_input: Some(json!({"x": 1})), ..Verdict::allow() };
    let before = merge([(at(0), Verdict::deny("no")), (at(1), rw.clone())]);
    let after = merge([(at(0), rw), (at(1), Verdict::deny("no"))]);
    assert_eq!(before.updated_input, None);
    assert_eq!(after.updated_input, None);
    assert_eq!(after.rewriters.len(), 1);
}

#[test]
fn end_chain_ignores_later_hooks() {
    let stop = Verdict { end_chain: true, ..Verdict::allow() };
    let merged = merge([(at(0), stop), (at(1), Verdict::deny("late"))]);
    assert_eq!(merged.decision, Some(Decision::Allow));
    assert_eq!(merged.chain_ended_by.map(|a| a.position), Some(0));
}

#[test]
fn merger_fills_slots_in_any_order() {
    let mut m = Merger::new(2);
    m.insert(at(1), Verdict::context("second"));
    m.insert(at(0), Verdict::context("first"));
    m.insert(at(3), Verdict::context("grown"));
    let ctx: Vec<_> = m.finish().context.into_iter().map(|c| c.value).collect();
    assert_eq!(ctx, ["first", "second", "grown"]);
}

fn arb_decision() -> impl Strategy<Value = Option<Decision>> {
    prop_oneof![
        Just(None),
        Just(Some(Decision::Allow)),
        Just(Some(Decision::Ask)),
        Just(Some(Decision::Defer)),
        Just(Some(Decision::Deny)),
    ]
}

#[test]
fn the_highest_severity_of_the_winning_decision_is_kept() {
    let deny = |r: &str, s: Option<Severity>| Verdict { severity: s, ..Verdict::deny(r) };
    let asking =
        Verdict { severity: Some(Severity::Critical), ..Verdict::decide(Decision::Ask, None) };
    let m = merge([
        (at(0), asking),
        (at(1), deny("a", Some(Severity::Medium))),
        (at(2), deny("b", None)),
        (at(3), deny("c", Some(Severity::High))),
        (at(4), deny("d", Some(Severity::High))),
    ]);
    let s = m.severity.unwrap();
    assert_eq!(
        (s.value, s.from.position),
        (Severity::High, 3),
        "an ask's severity is not a deny's"
    );
    let none = merge([(at(0), deny("x", None))]);
    assert!(none.severity.is_none());
}

fn arb_verdict() -> impl Strategy<Value = Verdict> {
    (
        arb_decision(),
        proptest::option::of("[a-z]{0,4}"),
        proptest::collection::vec("[a-z]{0,3}", 0..3),
        proptest::option::of(0_i32..4),
        proptest::option::of(proptest::option::of("[a-z]{0,3}")),
        proptest::collection::vec("[a-z]{0,3}", 0..2),
        proptest::bool::weighted(0.1),
        proptest::option::of(proptest::sample::select(vec![
            Severity::Low,
            Severity::Medium,
            Severity::High,
            Severity::Critical,
        ])),
    )
        .prop_map(|(decision, reason, context, input, halt, messages, end_chain, severity)| {
            Verdict {
                decision,
                reason,
                context,
                updated_input: input.map(|v| json!({ "v": v })),
                halt: halt.map(Halt::new),
                messages,
                end_chain,
                severity,
                follow_up: None,
            }
        })
}

proptest! {
    /// The merged result is the same for every completion order.
    #[test]
    fn merge_is_independent_of_completion_order(
        (verdicts, order) in proptest::collection::vec(arb_verdict(), 0..7)
            .prop_flat_map(|vs| {
                let n = vs.len();
                (Just(vs), Just((0..n).collect::<Vec<_>>()).prop_shuffle())
            })
    ) {
        let in_order = merge(verdicts.iter().cloned().enumerate().map(|(i, v)| (at(i), v)));
        let mut merger = Merger::new(verdicts.len());
        for &i in &order {
            merger.insert(at(i), verdicts[i].clone());
        }
        prop_assert_eq!(merger.finish(), in_order);
    }

    /// Adding a deny never yields anything but deny, and never an applied rewrite.
    #[test]
    fn merge_is_monotone_under_deny(
        verdicts in proptest::collection::vec(arb_verdict(), 0..6),
        at_pos in 0_usize..6,
    ) {
        let mut vs: Vec<Verdict> = verdicts.into_iter().map(|mut v| { v.end_chain = false; v }).collect();
        let pos = at_pos.min(vs.len());
        vs.insert(pos, Verdict::deny("policy"));
        let merged = merge(vs.into_iter().enumerate().map(|(i, v)| (at(i), v)));
        prop_assert_eq!(merged.decision, Some(Decision::Deny));
        prop_assert!(merged.updated_input.is_none());
    }
}

proptest! {
    /// Adding any verdict (one that does not end the chain) never lowers the merged decision.
    #[test]
    fn adding_a_verdict_never_lowers_the_decision(
        verdicts in proptest::collection::vec(arb_verdict(), 0..6),
        added in arb_verdict(),
        at_pos in 0_usize..6,
    ) {
        let before = merge(verdicts.iter().cloned().enumerate().map(|(i, v)| (at(i), v)));
        let mut vs = verdicts;
        let pos = at_pos.min(vs.len());
        vs.insert(pos, Verdict { end_chain: false, ..added });
        let after = merge(vs.into_iter().enumerate().map(|(i, v)| (at(i), v)));
        prop_assert!(after.decision >= before.decision, "{:?} < {:?}", after.decision, before.decision);
    }

    /// Raising one hook's decision never lowers the merged decision.
    #[test]
    fn raising_one_decision_never_lowers_the_result(
        verdicts in proptest::collection::vec(arb_verdict(), 1..6),
        which in 0_usize..6,
        raised in arb_decision(),
    ) {
        let before = merge(verdicts.iter().cloned().enumerate().map(|(i, v)| (at(i), v)));
        let mut vs = verdicts;
        let i = which % vs.len();
        vs[i].decision = vs[i].decision.max(raised);
        let after = merge(vs.into_iter().enumerate().map(|(i, v)| (at(i), v)));
        prop_assert!(after.decision >= before.decision, "{:?} < {:?}", after.decision, before.decision);
    }
}

#[test]
fn a_fold_where_the_last_decides_takes_the_last_decision_and_its_reason() {
    let verdicts = || {
        vec![
            (at(0), decided(Decision::Deny, "first")),
            (at(1), Verdict::no_opinion()),
            (at(2), decided(Decision::Allow, "second")),
            (at(3), Verdict::context("kept")),
        ]
    };
    let merged = merge_by(Fold::LastDecides, verdicts());
    assert_eq!(merged.decision, Some(Decision::Allow));
    assert_eq!(merged.reason().as_deref(), Some("second"));
    assert_eq!(merged.context.len(), 1);
    // The same verdicts, most restrictive: the deny.
    assert_eq!(merge(verdicts()).decision, Some(Decision::Deny));
    // Two denies: the last one's words.
    let denies = [(at(0), decided(Decision::Deny, "a")), (at(1), decided(Decision::Deny, "b"))];
    assert_eq!(merge_by(Fold::LastDecides, denies).reason().as_deref(), Some("b"));
}
