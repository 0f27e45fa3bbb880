//! The matcher compilers (Claude Code's rule, TNSAI's rule, the core's set): any pattern
//! compiles or is refused (never a panic), the set agrees with each matcher alone, and exact
//! lists match exactly their names.
#![no_main]

use hook_protocol::{Matcher, MatcherSet};
use hooks_claude::EventName;
use hooks_claude::matcher::{MatcherKind, classify, compile};
use hooks_tnsai::compile_matcher;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let event = EventName::ALL[usize::from(selector) % EventName::ALL.len()];
    // Every line but the last is a pattern; the last is the subject.
    let mut lines: Vec<&str> = text.split('\n').collect();
    let subject = lines.pop().unwrap_or_default();
    let mut matchers: Vec<Matcher> = Vec::new();
    for pattern in lines.iter().take(8) {
        let kind = classify(Some(pattern), Some(event));
        if let Ok(m) = compile(Some(pattern), Some(event)) {
            if event.has_matcher() {
                match &kind {
                    MatcherKind::All => assert!(m.is_match(subject)),
                    // On the tool events `Agent` is also matched by its former name, `Task`.
                    MatcherKind::Exact(names) => {
                        let former = event.subject_field() == Some("tool_name")
                            && subject == "Agent"
                            && names.iter().any(|n| n == "Task");
                        assert_eq!(
                            m.is_match(subject),
                            former || names.iter().any(|n| n == subject)
                        );
                    }
                    _ => {}
                }
            }
            matchers.push(m);
        }
        if let Ok(m) = compile_matcher(Some(pattern)) {
            matchers.push(m);
        }
    }
    if let Ok(set) = MatcherSet::new(&matchers) {
        let expected: Vec<usize> = matchers
            .iter()
            .enumerate()
            .filter(|(_, m)| m.is_match(subject))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(set.matching(Some(subject)), expected, "{matchers:?} on {subject:?}");
    }
});
