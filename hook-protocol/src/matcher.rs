//! Matchers: which events' subjects a hook cares about.
//!
//! A [`Matcher`] is match-all, a list of exact strings, or an unanchored regular expression,
//! checked when it is made and compiled once, on its first use on its own. Which
//! configuration string becomes which kind is a dialect's rule; the core only evaluates. A
//! [`MatcherSet`] tests many matchers against one subject at once: exact strings through a
//! hash lookup, the patterns that only look for a literal (`mcp__memory__.*`) through one
//! Aho-Corasick pass, and every other pattern through one [`regex::RegexSet`] pass, so that a
//! dispatcher never compiles its patterns one by one.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

use aho_corasick::AhoCorasick;
use regex::{Regex, RegexSet};
use thiserror::Error;

/// A pattern the regular-expression engine rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid matcher pattern `{pattern}`: {message}")]
#[non_exhaustive]
pub struct MatcherError {
    /// The pattern as written.
    pub pattern: String,
    /// The engine's explanation.
    pub message: String,
}

/// One hook's filter on an event's subject.
#[derive(Clone)]
pub struct Matcher {
    kind: Kind,
}

#[derive(Clone)]
enum Kind {
    Any,
    Exact(Box<[String]>),
    Pattern(Arc<Pattern>),
}

/// A pattern whose syntax was checked, compiled on its first use (shared by the clones of its
/// matcher). Loading a configuration of many patterns checks each, a few microseconds, and
/// compiles none: the dispatcher compiles them together in its [`MatcherSet`].
struct Pattern {
    source: String,
    /// The literal whose occurrence anywhere is a match, when the pattern is just that
    /// (`mcp__memory__.*`, `Edit`, `.*Bash.*`): such a pattern is never compiled, and a
    /// [`MatcherSet`] finds it with the other literals in one Aho-Corasick pass.
    literal: Option<String>,
    /// Literals one of which begins every match (the `regex` crate's prefix extraction), when
    /// there are finitely many and none is empty: a subject holding none of them cannot match,
    /// which is answered without compiling.
    needles: Option<Box<[Box<[u8]>]>>,
    /// `None` when the engine refused to compile it after all (its size limit), in which case
    /// it matches nothing; a [`MatcherSet`] holding it reports that as an error.
    compiled: OnceLock<Option<Regex>>,
}

impl Pattern {
    fn new(source: &str, hir: &regex_syntax::hir::Hir) -> Self {
        if let Some(literal) = contained_literal(hir) {
            return Self::of_literal(source, literal);
        }
        let prefixes = regex_syntax::hir::literal::Extractor::new().extract(hir);
        let needles = prefixes.literals().filter(|l| l.iter().all(|l| !l.as_bytes().is_empty()));
        Self {
            source: source.to_owned(),
            literal: None,
            needles: needles.map(|l| l.iter().map(|l| Box::from(l.as_bytes())).collect()),
            compiled: OnceLock::new(),
        }
    }

    /// A pattern that only looks for `literal`.
    fn of_literal(source: &str, literal: String) -> Self {
        Self {
            source: source.to_owned(),
            literal: Some(literal),
            needles: None,
            compiled: OnceLock::new(),
        }
    }

    fn is_match(&self, subject: &str) -> bool {
        if let Some(literal) = &self.literal {
            return subject.contains(literal.as_str());
        }
        let haystack = subject.as_bytes();
        let holds = |needle: &[u8]| haystack.windows(needle.len()).any(|w| w == needle);
        if let Some(needles) = &self.needles
            && !needles.iter().any(|n| holds(n))
        {
            return false;
        }
        self.compiled
            .get_or_init(|| Regex::new(&self.source).ok())
            .as_ref()
            .is_some_and(|re| re.is_match(subject))
    }
}

/// The literal `hir` finds a match exactly where it occurs, when it is one: a literal, or a
/// concatenation of one with repetitions that may match nothing at either end (`.*`), which
/// never decide whether an unanchored search finds a match. Groups are looked through;
/// anything else (classes, alternations, anchors, case-insensitive letters) is not a literal.
fn contained_literal(hir: &regex_syntax::hir::Hir) -> Option<String> {
    use regex_syntax::hir::HirKind;
    let optional =
        |h: &regex_syntax::hir::Hir| matches!(h.kind(), HirKind::Repetition(r) if r.min == 0);
    match hir.kind() {
        HirKind::Empty => Some(String::new()),
        HirKind::Literal(lit) => String::from_utf8(lit.0.to_vec()).ok(),
        HirKind::Capture(cap) => contained_literal(&cap.sub),
        _ if optional(hir) => Some(String::new()),
        HirKind::Concat(parts) => {
            let start = parts.iter().position(|h| !optional(h)).unwrap_or(parts.len());
            let end = parts.iter().rposition(|h| !optional(h)).map_or(start, |i| i + 1);
            match &parts[start..end] {
                [] => Some(String::new()),
                [one] => contained_literal(one),
                _ => None,
            }
        }
        _ => None,
    }
}

impl Matcher {
    /// Matches every subject.
    pub fn any() -> Self {
        Self { kind: Kind::Any }
    }

    /// Matches a subject equal to one of `names` (case-sensitive).
    pub fn exact<I, S>(names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self { kind: Kind::Exact(names.into_iter().map(Into::into).collect()) }
    }

    /// Matches a subject in which `pattern` finds a match anywhere (unanchored, case-sensitive).
    ///
    /// The syntax is checked here, with the `regex` crate's own parser and options; the
    /// pattern is compiled when first used on its own ([`Matcher::is_match`]) on a subject
    /// it may match (one holding a literal every match starts with), and by a [`MatcherSet`]
    /// holding it. A pattern that only looks for a literal (plain characters, with `.*` or
    /// another repetition that may match nothing at either end: `mcp__memory__.*`) is never
    /// compiled: it matches where the literal occurs.
    ///
    /// # Errors
    ///
    /// [`MatcherError`] naming the pattern when the engine rejects it (e.g. lookaround or
    /// backreferences, which the linear-time engine does not support).
    pub fn pattern(pattern: &str) -> Result<Self, MatcherError> {
        // The common `mcp__server__.*` needs no parser: plain characters between `.*`s.
        let core = pattern.strip_prefix(".*").unwrap_or(pattern);
        let core = core.strip_suffix(".*").unwrap_or(core);
        if !core.chars().any(regex_syntax::is_meta_character) {
            let literal = Pattern::of_literal(pattern, core.to_owned());
            return Ok(Self { kind: Kind::Pattern(Arc::new(literal)) });
        }
        match regex_syntax::Parser::new().parse(pattern) {
            Ok(hir) => Ok(Self { kind: Kind::Pattern(Arc::new(Pattern::new(pattern, &hir))) }),
            Err(e) => {
                Err(MatcherError { pattern: pattern.to_owned(), message: flatten(&e.to_string()) })
            }
        }
    }

    /// The matcher a configuration string stands for, by the rule Codex and Claude Code (on
    /// some events) share: empty or `*` matches every subject; a string of only ASCII letters,
    /// digits, `_` and `|` is a list of exact names split on `|`; anything else is an
    /// unanchored pattern ([`Matcher::pattern`]).
    ///
    /// # Errors
    ///
    /// [`MatcherError`] naming the pattern when the engine rejects it.
    pub fn names_or_pattern(raw: &str) -> Result<Self, MatcherError> {
        if raw.is_empty() || raw == "*" {
            return Ok(Self::any());
        }
        if raw.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|') {
            return Ok(Self::exact(raw.split('|')));
        }
        Self::pattern(raw)
    }

    /// Whether this matcher matches every subject.
    pub fn is_any(&self) -> bool {
        matches!(self.kind, Kind::Any)
    }

    /// The exact names, when this is an exact list.
    pub fn exact_names(&self) -> Option<&[String]> {
        match &self.kind {
            Kind::Exact(names) => Some(names),
            _ => None,
        }
    }

    /// The pattern's source, when this is a pattern.
    pub fn pattern_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::Pattern(p) => Some(&p.source),
            _ => None,
        }
    }

    /// Whether the matcher accepts `subject`.
    pub fn is_match(&self, subject: &str) -> bool {
        match &self.kind {
            Kind::Any => true,
            Kind::Exact(names) => names.iter().any(|n| n == subject),
            Kind::Pattern(p) => p.is_match(subject),
        }
    }

    /// Whether the matcher accepts `subject` or one of its `aliases` (a tool by either agent's
    /// name), as a dispatcher with those aliases matches it.
    pub fn is_match_aliased(&self, subject: &str, aliases: &Aliases) -> bool {
        self.is_match(subject) || aliases.of(subject).iter().any(|a| self.is_match(a))
    }
}

impl Default for Matcher {
    fn default() -> Self {
        Self::any()
    }
}

impl fmt::Debug for Matcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::Any => f.write_str("Matcher::Any"),
            Kind::Exact(names) => f.debug_tuple("Matcher::Exact").field(names).finish(),
            Kind::Pattern(p) => f.debug_tuple("Matcher::Pattern").field(&p.source).finish(),
        }
    }
}

impl PartialEq for Matcher {
    fn eq(&self, other: &Self) -> bool {
        match (&self.kind, &other.kind) {
            (Kind::Any, Kind::Any) => true,
            (Kind::Exact(a), Kind::Exact(b)) => a == b,
            (Kind::Pattern(a), Kind::Pattern(b)) => a.source == b.source,
            _ => false,
        }
    }
}

/// Many matchers compiled together, answering "which of them match this subject" in one pass.
#[derive(Debug, Clone, Default)]
pub struct MatcherSet {
    len: usize,
    any: Vec<usize>,
    exact: HashMap<String, Vec<usize>>,
    patterns: Option<RegexSet>,
    pattern_owner: Vec<usize>,
    /// The patterns that are literals ([`Pattern::literal`]), found together.
    literals: Option<AhoCorasick>,
    literal_owner: Vec<usize>,
}

impl MatcherSet {
    /// Compiles a set from matchers; indices in answers are positions in `matchers`.
    ///
    /// # Errors
    ///
    /// [`MatcherError`] when the engine cannot compile the patterns together (their syntax
    /// was checked when each matcher was made; what is left is the engine's size limit).
    pub fn new<'a>(matchers: impl IntoIterator<Item = &'a Matcher>) -> Result<Self, MatcherError> {
        let mut set = Self::default();
        let mut sources = Vec::new();
        let mut literals: Vec<&str> = Vec::new();
        for (i, m) in matchers.into_iter().enumerate() {
            set.len = i + 1;
            match &m.kind {
                Kind::Any => set.any.push(i),
                Kind::Exact(names) => {
                    for name in names.iter() {
                        let owners = set.exact.entry(name.clone()).or_default();
                        if owners.last() != Some(&i) {
                            owners.push(i);
                        }
                    }
                }
                Kind::Pattern(p) => match p.literal.as_deref() {
                    Some("") => set.any.push(i),
                    Some(literal) => {
                        literals.push(literal);
                        set.literal_owner.push(i);
                    }
                    None => {
                        sources.push(p.source.clone());
                        set.pattern_owner.push(i);
                    }
                },
            }
        }
        if !literals.is_empty() {
            let searcher = AhoCorasick::new(&literals).map_err(|e| MatcherError {
                pattern: literals.join(" | "),
                message: e.to_string(),
            })?;
            set.literals = Some(searcher);
        }
        if !sources.is_empty() {
            let compiled = RegexSet::new(&sources).map_err(|e| MatcherError {
                pattern: sources.join(" | "),
                message: flatten(&e.to_string()),
            })?;
            set.patterns = Some(compiled);
        }
        Ok(set)
    }

    /// How many matchers the set holds.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the set holds no matcher.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The indices of the matchers that accept `subject`, ascending.
    ///
    /// A `None` subject (an event whose hooks ignore matchers) is accepted by every matcher.
    pub fn matching(&self, subject: Option<&str>) -> Vec<usize> {
        self.matching_any(subject, &[])
    }

    /// The matchers that accept `subject` or one of its `aliases`, in order.
    pub fn matching_any(&self, subject: Option<&str>, aliases: &[String]) -> Vec<usize> {
        let Some(subject) = subject else {
            return (0..self.len).collect();
        };
        let mut out = self.any.clone();
        if let Some(owners) = self.exact.get(subject) {
            out.extend_from_slice(owners);
        }
        if let Some(literals) = &self.literals {
            out.extend(
                literals
                    .find_overlapping_iter(subject)
                    .map(|m| self.literal_owner[m.pattern().as_usize()]),
            );
        }
        if let Some(patterns) = &self.patterns {
            out.extend(patterns.matches(subject).into_iter().map(|i| self.pattern_owner[i]));
        }
        for alias in aliases {
            out.extend(self.matching_any(Some(alias), &[]));
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Other names the subjects of a dialect's events go by, for matchers: a hook whose matcher
/// accepts a subject's alias runs as if it accepted the subject (Codex's edit tool,
/// `apply_patch`, is matched by `Edit` and `Write`; Copilot's `bash` by `Bash`). The hooks
/// still receive the subject by its own name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Aliases {
    names: HashMap<String, Vec<String>>,
}

impl Aliases {
    /// No aliases.
    pub fn new() -> Self {
        Self::default()
    }

    /// `subject` is also matched as each of `aliases`.
    #[must_use]
    pub fn alias<I, S>(mut self, subject: impl Into<String>, aliases: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.names.entry(subject.into()).or_default().extend(aliases.into_iter().map(Into::into));
        self
    }

    /// The aliases of `subject` (none when it has none).
    pub fn of(&self, subject: &str) -> &[String] {
        self.names.get(subject).map_or(&[], Vec::as_slice)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// The engine's message on one line, so that `file:line:col: message` diagnostics stay one line.
fn flatten(text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    // The regex crate renders the pattern and a caret before its explanation, `error: ...`;
    // keep the explanation, without its `error: ` (the diagnostic already says it is one).
    lines.last().map_or(text.to_owned(), |l| l.strip_prefix("error: ").unwrap_or(l).to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_match_as_documented() {
        assert!(Matcher::any().is_match("anything"));
        let exact = Matcher::exact(["Write", "Edit"]);
        assert!(exact.is_match("Edit"));
        assert!(!exact.is_match("NotebookEdit"));
        assert!(!exact.is_match("edit"));
        let pattern = Matcher::pattern("Edit.*").unwrap();
        assert!(pattern.is_match("NotebookEdit"), "unanchored");
        assert!(!Matcher::pattern("^Edit$").unwrap().is_match("NotebookEdit"));
    }

    #[test]
    fn rejected_pattern_names_itself() {
        let err = Matcher::pattern("(?=x)").unwrap_err();
        assert_eq!(err.pattern, "(?=x)");
        assert!(err.to_string().starts_with("invalid matcher pattern `(?=x)`: "), "{err}");
        assert!(!err.to_string().contains('\n'), "{err}");
        let unclosed = Matcher::pattern("(ab").unwrap_err().to_string();
        assert_eq!(unclosed, "invalid matcher pattern `(ab`: unclosed group");
        assert!(Matcher::pattern(r"(a)\1").is_err());
    }

    #[test]
    fn set_answers_like_each_matcher() {
        let ms = vec![
            Matcher::exact(["Bash"]),
            Matcher::pattern("^mcp__memory__.*").unwrap(),
            Matcher::any(),
            Matcher::pattern("Edit|Write").unwrap(),
            Matcher::exact(["Write", "Read"]),
        ];
        let set = MatcherSet::new(&ms).unwrap();
        for subject in ["Bash", "Write", "mcp__memory__get", "Read", "Other", ""] {
            let expected: Vec<usize> = ms
                .iter()
                .enumerate()
                .filter(|(_, m)| m.is_match(subject))
                .map(|(i, _)| i)
                .collect();
            assert_eq!(set.matching(Some(subject)), expected, "{subject}");
        }
        assert_eq!(set.matching(None), vec![0, 1, 2, 3, 4]);
        assert!(MatcherSet::new([]).unwrap().matching(Some("x")).is_empty());
    }

    fn arb_matcher() -> impl proptest::strategy::Strategy<Value = Matcher> {
        use proptest::prelude::*;
        prop_oneof![
            Just(Matcher::any()),
            proptest::collection::vec("[A-Ca-c_]{0,3}", 0..3).prop_map(Matcher::exact),
            "[A-Ca-c_.*|^$]{0,5}".prop_filter_map("compiles", |p| Matcher::pattern(&p).ok()),
        ]
    }

    #[test]
    fn a_pattern_is_compiled_on_first_use_and_shared_by_clones() {
        let m = Matcher::pattern("mcp__.*__get").unwrap();
        let copy = m.clone();
        let Kind::Pattern(p) = &m.kind else { panic!("not a pattern") };
        assert!(p.compiled.get().is_none(), "checked, not compiled");
        assert!(!copy.is_match("Task"), "no `mcp__` in the subject: no match");
        assert!(p.compiled.get().is_none(), "answered without compiling");
        assert!(copy.is_match("mcp__memory__get"));
        assert!(p.compiled.get().is_some_and(Option::is_some), "compiled once, for both");
        assert!(!m.is_match("Bash"));
    }

    #[test]
    fn a_pattern_that_only_looks_for_a_literal_is_never_compiled() {
        let literal = |p: &str| match &Matcher::pattern(p).unwrap().kind {
            Kind::Pattern(p) => p.literal.clone(),
            _ => panic!("not a pattern"),
        };
        assert_eq!(literal("mcp__memory__.*").as_deref(), Some("mcp__memory__"));
        assert_eq!(literal(".*Bash.*").as_deref(), Some("Bash"));
        assert_eq!(literal("(mcp__ü__.*)").as_deref(), Some("mcp__ü__"));
        assert_eq!(literal("Edit.+?").as_deref(), None, "`.+` needs a character after");
        assert_eq!(literal("a*").as_deref(), Some(""));
        for not_literal in
            ["^mcp__.*", "mcp__.*__get", "(?i)bash", "Edit|Write", r"\bBash", "[ab]c"]
        {
            assert_eq!(literal(not_literal), None, "{not_literal}");
        }
        let m = Matcher::pattern("mcp__memory__.*").unwrap();
        assert!(m.is_match("mcp__memory__get") && m.is_match("x_mcp__memory__"));
        assert!(!m.is_match("mcp__memory_get"));
        let Kind::Pattern(p) = &m.kind else { panic!("not a pattern") };
        assert!(p.compiled.get().is_none(), "compiled");
        let set = MatcherSet::new(&[m, Matcher::pattern("a*").unwrap()]).unwrap();
        assert!(set.patterns.is_none(), "a regex set was compiled for literals");
        assert_eq!(set.matching(Some("mcp__memory__get")), vec![0, 1]);
        assert_eq!(set.matching(Some("Bash")), vec![1]);
    }

    proptest::proptest! {
        /// A pattern that is a literal, with `.*` or `a*` at its ends, answers as the engine
        /// does, alone and in a set with overlapping literals.
        #[test]
        fn a_literal_pattern_matches_as_the_engine_does(
            parts in proptest::collection::vec(("(?:\\.\\*|a\\*)?", "[abü_]{0,3}", "(?:\\.\\*|b\\*)?"), 1..6),
            subjects in proptest::collection::vec("[abü_]{0,6}", 1..6),
        ) {
            let patterns: Vec<String> = parts.iter().map(|(a, l, b)| format!("{a}{l}{b}")).collect();
            let ms: Vec<Matcher> = patterns.iter().map(|p| Matcher::pattern(p).unwrap()).collect();
            let set = MatcherSet::new(&ms).unwrap();
            for subject in &subjects {
                let mut expected = Vec::new();
                for (i, (pattern, m)) in patterns.iter().zip(&ms).enumerate() {
                    let engine = Regex::new(pattern).unwrap().is_match(subject);
                    proptest::prop_assert_eq!(m.is_match(subject), engine, "{:?} on {:?}", pattern, subject);
                    if engine {
                        expected.push(i);
                    }
                }
                proptest::prop_assert_eq!(set.matching(Some(subject)), expected, "{:?} on {:?}", patterns, subject);
            }
        }

        /// The syntax check accepts exactly what the engine compiles, with its message.
        #[test]
        fn the_syntax_check_agrees_with_the_engine(pattern in r"[a\\(){}\[\]|*+?^$.:=!<>,0-9pPdwsb-]{0,8}") {
            let checked = Matcher::pattern(&pattern);
            let compiled = Regex::new(&pattern);
            proptest::prop_assert_eq!(checked.is_ok(), compiled.is_ok(), "{:?}", pattern);
            if let (Err(ours), Err(engine)) = (checked, compiled) {
                proptest::prop_assert_eq!(ours.message, flatten(&engine.to_string()));
            }
        }

        /// A pattern answers as the engine does, with or without its literal shortcut.
        #[test]
        fn a_pattern_matches_as_the_engine_does(
            pattern in r"[ab(|)*+?^$.]{0,6}|(?:ab|a\\.|[ab]\\*|\\b|\\w|\\A|\\z|\\d){1,4}",
            subjects in proptest::collection::vec("[ab.]{0,4}", 1..6),
        ) {
            let (Ok(ours), Ok(engine)) = (Matcher::pattern(&pattern), Regex::new(&pattern)) else {
                return Ok(());
            };
            for subject in &subjects {
                proptest::prop_assert_eq!(ours.is_match(subject), engine.is_match(subject), "{:?} on {:?}", pattern, subject);
            }
        }

        /// One pass over the set gives exactly the matchers that accept the subject alone.
        #[test]
        fn set_agrees_with_each_matcher_on_generated_strings(
            ms in proptest::collection::vec(arb_matcher(), 0..8),
            subjects in proptest::collection::vec("[A-Ca-c_|.]{0,4}", 1..6),
        ) {
            let set = MatcherSet::new(&ms).unwrap();
            for subject in &subjects {
                let expected: Vec<usize> =
                    ms.iter().enumerate().filter(|(_, m)| m.is_match(subject)).map(|(i, _)| i).collect();
                proptest::prop_assert_eq!(set.matching(Some(subject)), expected);
            }
        }
    }
}
