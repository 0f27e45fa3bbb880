//! Claude Code's matcher rule against a reference written from docs/claude-code.md#matchers alone,
//! on generated matcher strings and subjects.

use proptest::prelude::*;

use super::*;

/// docs/claude-code.md#matchers, read literally: `""`, `"*"` or nothing matches all; a string of
/// only letters, digits, `_`, `|` (and, except on the narrow events, `-`, space and `,`) is a list
/// of exact names; anything else is an unanchored, case-sensitive regular expression.
fn reference(raw: Option<&str>, event: EventName, subject: &str) -> Option<bool> {
    if !event.has_matcher() {
        return Some(true);
    }
    let raw = match raw {
        None | Some("" | "*") => return Some(true),
        Some(raw) => raw,
    };
    let narrow = matches!(event, EventName::FileChanged | EventName::StopFailure);
    let plain = raw.chars().all(|c| {
        c.is_ascii_alphanumeric() || c == '_' || c == '|' || (!narrow && "- ,".contains(c))
    });
    if plain {
        let separators: &[char] = if narrow { &['|'] } else { &['|', ','] };
        let mut names = raw.split(separators).map(str::trim).filter(|n| !n.is_empty()).peekable();
        if names.peek().is_none() {
            return Some(true);
        }
        return Some(names.any(|n| n == subject));
    }
    regex::Regex::new(raw).ok().map(|r| r.is_match(subject))
}

fn arb_event() -> impl Strategy<Value = EventName> {
    prop_oneof![
        Just(EventName::PreToolUse),
        Just(EventName::SubagentStop),
        Just(EventName::FileChanged),
        Just(EventName::StopFailure),
        Just(EventName::Stop),
    ]
}

/// Matcher strings mixing names, separators, spaces and regex syntax.
fn arb_raw() -> impl Strategy<Value = Option<String>> {
    proptest::option::weighted(0.95, "[ABab_|, .*^$()+?-]{0,8}")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// Compiled matchers answer as the reference does, on random subjects and on subjects
    /// taken from the matcher string itself (so exact lists get hits).
    #[test]
    fn compiled_matchers_agree_with_the_reference(
        raw in arb_raw(),
        event in arb_event(),
        random_subjects in proptest::collection::vec("[ABab_ .|-]{0,4}", 1..4),
    ) {
        let mut subjects = random_subjects;
        if let Some(raw) = &raw {
            subjects.extend(raw.split(['|', ',']).map(|s| s.trim().to_owned()));
        }
        let compiled = compile(raw.as_deref(), Some(event));
        for subject in &subjects {
            let expected = reference(raw.as_deref(), event, subject);
            match (&compiled, expected) {
                (Ok(m), Some(hit)) => prop_assert_eq!(m.is_match(subject), hit, "{:?} on {:?}", raw, subject),
                (Err(_), None) => {}
                (got, want) => prop_assert!(false, "{raw:?}: compiled {got:?}, reference {want:?}"),
            }
        }
    }
}
