//! Claude Code's matcher rule: which configuration string becomes which kind of matcher
//! ([Matchers](crate::compatibility#matchers)).
//!
//! - `""`, `"*"` or no matcher: match all;
//! - only letters, digits, `_`, `-`, space, `,` and `|`: an exact name, or a list of exact
//!   names split on `|` or `,` (surrounding whitespace allowed); `FileChanged` and `StopFailure`
//!   use the narrower set of letters, digits, `_` and `|`, split on `|` only;
//! - anything else: a regular expression, unanchored and case-sensitive (JavaScript's
//!   `RegExp.prototype.test`), compiled by the `regex` crate, which rejects the few
//!   JavaScript-only constructs (lookaround, backreferences) with an error naming the pattern.
//!
//! On tool events the `Agent` tool is also matched by its former name, `Task`: a matcher that
//! matches `Task` matches `Agent` too.

use hook_protocol::{Matcher, MatcherError};

use crate::EventName;

/// What a matcher string is, by Claude Code's character rule.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MatcherKind {
    /// Matches every subject.
    All,
    /// Matches one of these exact names.
    Exact(Vec<String>),
    /// An unanchored regular expression.
    Regex(String),
}

/// Classifies a matcher string for an event (`None` = no `matcher` key).
pub fn classify(raw: Option<&str>, event: Option<EventName>) -> MatcherKind {
    let Some(raw) = raw else { return MatcherKind::All };
    if raw.is_empty() || raw == "*" {
        return MatcherKind::All;
    }
    let narrow = event.is_some_and(EventName::narrow_exact);
    let exact_char = |c: char| {
        c.is_ascii_alphanumeric()
            || c == '_'
            || c == '|'
            || (!narrow && matches!(c, '-' | ' ' | ','))
    };
    if raw.chars().all(exact_char) {
        let names: Vec<String> = raw
            .split(|c| c == '|' || (!narrow && c == ','))
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        if names.is_empty() {
            return MatcherKind::All;
        }
        return MatcherKind::Exact(names);
    }
    MatcherKind::Regex(raw.to_owned())
}

/// Compiles a matcher string for an event into a core [`Matcher`]. On an event that ignores
/// matchers, every string matches all (Claude Code ignores it silently).
///
/// # Errors
///
/// [`MatcherError`] naming the pattern when the regular-expression engine rejects it.
pub fn compile(raw: Option<&str>, event: Option<EventName>) -> Result<Matcher, MatcherError> {
    if event.is_some_and(|e| !e.has_matcher()) {
        return Ok(Matcher::any());
    }
    let tool_event = event.is_some_and(|e| e.subject_field() == Some("tool_name"));
    match classify(raw, event) {
        MatcherKind::All => Ok(Matcher::any()),
        MatcherKind::Exact(mut names) => {
            if tool_event && names.iter().any(|n| n == LEGACY_AGENT) {
                names.push(AGENT.to_owned());
            }
            Ok(Matcher::exact(names))
        }
        MatcherKind::Regex(pattern) => {
            let matcher = Matcher::pattern(&pattern)?;
            if tool_event && matcher.is_match(LEGACY_AGENT) && !matcher.is_match(AGENT) {
                return Matcher::pattern(&format!("(?:{pattern})|\\A{AGENT}\\z"));
            }
            Ok(matcher)
        }
    }
}

/// The tool that runs a sub-agent.
const AGENT: &str = "Agent";
/// Its former name, which matchers still use.
const LEGACY_AGENT: &str = "Task";

/// A warning for an exact matcher that names an MCP server without a tool (`mcp__memory`),
/// which matches nothing: the whole server needs `mcp__memory__.*`
/// ([MCP tool names](crate::compatibility#mcp-tool-names)).
pub fn mcp_server_warning(raw: &str, event: Option<EventName>) -> Option<String> {
    let MatcherKind::Exact(names) = classify(Some(raw), event) else { return None };
    names.iter().find(|n| n.starts_with("mcp__") && !n[5..].contains("__")).map(|n| {
        format!("matcher `{n}` names an MCP server without a tool and matches nothing; use `{n}__.*` to match every tool of the server")
    })
}

/// The subject a `PreModelSwitch` / `PostModelSwitch` matcher is tested against: the canonical
/// model name, without a `[1m]`-style context suffix; `None` when it cannot be told (then every
/// hook runs, [Matchers](crate::compatibility#matchers)).
pub fn canonical_model(model: &str) -> Option<String> {
    let base = match model.find('[') {
        Some(i) if model.ends_with(']') => &model[..i],
        _ => model,
    };
    let base = base.trim();
    (!base.is_empty()).then(|| base.to_owned())
}

/// The subject a `FileChanged` matcher is tested against: the changed file's base name.
pub fn file_basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[cfg(test)]
mod proptests;

#[cfg(test)]
mod tests {
    use super::*;
    use EventName::*;

    fn hits(raw: &str, event: EventName, subject: &str) -> bool {
        compile(Some(raw), Some(event)).unwrap().is_match(subject)
    }

    #[test]
    fn the_agent_tool_is_matched_by_its_former_name() {
        for event in
            [PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, PermissionDenied]
        {
            assert!(hits("Task", event, "Agent"), "{event}");
            assert!(hits("Agent", event, "Agent"));
            assert!(hits("Bash|Task", event, "Agent"));
            assert!(hits("^Task$", event, "Agent"));
            assert!(hits("Ta.k", event, "Agent"));
            assert!(hits("Ta.k", event, "Tank"), "the pattern still matches what it did");
            assert!(!hits("TaskOutput", event, "Agent"));
            assert!(!hits("Bash", event, "Agent"));
            assert!(!hits("Task", event, "Bash"));
        }
        assert!(!hits("Task", SubagentStart, "Agent"), "on tool events only");
    }

    #[test]
    fn three_way_classification() {
        assert_eq!(classify(None, Some(PreToolUse)), MatcherKind::All);
        assert_eq!(classify(Some(""), Some(PreToolUse)), MatcherKind::All);
        assert_eq!(classify(Some("*"), Some(PreToolUse)), MatcherKind::All);
        assert_eq!(
            classify(Some("Write | Edit, Read"), Some(PreToolUse)),
            MatcherKind::Exact(vec!["Write".into(), "Edit".into(), "Read".into()])
        );
        assert_eq!(classify(Some("Edit.*"), Some(PreToolUse)), MatcherKind::Regex("Edit.*".into()));
        assert_eq!(
            classify(Some("code-reviewer"), Some(SubagentStop)),
            MatcherKind::Exact(vec!["code-reviewer".into()])
        );
    }

    #[test]
    fn exact_is_exact_and_regex_is_unanchored() {
        assert!(!hits("Writ", PreToolUse, "Write"), "exact path");
        assert!(hits("rit.", PreToolUse, "Write"), "regex path");
        assert!(hits("W(rit)e", PreToolUse, "Write"));
        assert!(hits("Edit.*", PreToolUse, "NotebookEdit"));
        assert!(!hits("^Edit$", PreToolUse, "NotebookEdit"));
        assert!(!hits("bash", PreToolUse, "Bash"), "case-sensitive");
        assert!(hits("mcp__memory__.*", PreToolUse, "mcp__memory__create"));
        assert!(!hits("mcp__memory", PreToolUse, "mcp__memory__create"));
        assert!(hits("my-plugin:reviewer", SubagentStart, "my-plugin:reviewer"));
        assert!(!hits("code-reviewer", SubagentStop, "senior-code-reviewer"));
        assert!(!hits("Explore", SubagentStop, ""), "internal agents have an empty type");
    }

    #[test]
    fn narrow_events_send_hyphens_to_the_regex_path() {
        assert_eq!(
            classify(Some(".env|package.json"), Some(FileChanged)),
            MatcherKind::Regex(".env|package.json".into())
        );
        assert_eq!(
            classify(Some("rate_limit|overloaded"), Some(StopFailure)),
            MatcherKind::Exact(vec!["rate_limit".into(), "overloaded".into()])
        );
        assert!(matches!(classify(Some("a-b"), Some(StopFailure)), MatcherKind::Regex(_)));
        assert!(matches!(classify(Some("a,b"), Some(FileChanged)), MatcherKind::Regex(_)));
    }

    #[test]
    fn matcherless_events_ignore_the_matcher() {
        assert!(hits("Bash", Stop, "anything"));
        assert!(compile(Some("(?=x)"), Some(UserPromptSubmit)).is_ok());
    }

    #[test]
    fn engine_rejections_name_the_pattern() {
        let err = compile(Some("(?!Bash)"), Some(PreToolUse)).unwrap_err();
        assert_eq!(err.pattern, "(?!Bash)");
        assert!(compile(Some(r"(a)\1"), Some(PreToolUse)).is_err());
    }

    #[test]
    fn mcp_server_without_tool_is_flagged() {
        assert!(mcp_server_warning("mcp__memory", Some(PreToolUse)).is_some());
        assert!(mcp_server_warning("mcp__memory__get", Some(PreToolUse)).is_none());
        assert!(mcp_server_warning("mcp__memory__.*", Some(PreToolUse)).is_none());
    }

    #[test]
    fn model_and_file_subjects() {
        assert_eq!(canonical_model("claude-opus-5[1m]").as_deref(), Some("claude-opus-5"));
        assert_eq!(canonical_model(""), None);
        assert_eq!(file_basename("/a/b/.env"), ".env");
    }
}
