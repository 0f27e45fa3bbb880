//! The `if` filter: one permission rule a tool call must match for the handler to run
//! ([The if filter](crate::compatibility#the-if-filter)).
//!
//! A rule is `Tool` or `Tool(content)`. For `Bash` / `PowerShell` the content is a command
//! pattern (`*` matches anything; the legacy `git commit:*` form is a prefix), checked against
//! each subcommand of `&&`, `||`, `;`, `|` chains and of `$(...)` / backtick substitutions,
//! with leading `VAR=value` assignments stripped. For file tools it is a path glob (`*.ts`
//! matches a base name anywhere; `src/**` is anchored at the working directory; `//abs` is
//! absolute; `~/x` is under the home directory). `WebFetch(domain:host)` tests the URL's host;
//! `Agent(type)` the sub-agent type. Where the rule cannot be decided (a command that cannot be
//! split, a pattern with arguments on a command holding `$(...)`, backticks or `$VAR`, a tool
//! whose content this crate cannot read), the handler runs: Claude Code fails open here too.

use std::path::Path;

use globset::GlobBuilder;
use serde_json::Value;
use thiserror::Error;

/// A parsed `if` rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PermissionRule {
    tool: String,
    content: Option<String>,
}

/// An `if` value that is not a permission rule.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid permission rule `{rule}`: {reason}")]
#[non_exhaustive]
pub struct RuleError {
    /// The rule as written.
    pub rule: String,
    /// What is wrong.
    pub reason: &'static str,
}

/// Where a tool call happens, for the rules that need it.
#[derive(Debug, Clone, Copy, Default)]
pub struct RuleContext<'a> {
    /// The session's working directory.
    pub cwd: Option<&'a Path>,
    /// The project directory (rules starting with one `/`).
    pub project_dir: Option<&'a Path>,
    /// The home directory (rules starting with `~/`).
    pub home: Option<&'a Path>,
}

impl PermissionRule {
    /// Parses a rule.
    ///
    /// # Errors
    ///
    /// [`RuleError`] for an empty rule, a missing tool name, unbalanced parentheses, or the
    /// `&&` / `||` / list forms Claude Code does not accept in `if`.
    pub fn parse(rule: &str) -> Result<Self, RuleError> {
        let err = |reason| RuleError { rule: rule.to_owned(), reason };
        let trimmed = rule.trim();
        if trimmed.is_empty() {
            return Err(err("the rule is empty"));
        }
        let (tool, content) = match trimmed.find('(') {
            None => (trimmed, None),
            Some(open) => {
                if !trimmed.ends_with(')') {
                    return Err(err("a `(` without a closing `)` at the end"));
                }
                (&trimmed[..open], Some(&trimmed[open + 1..trimmed.len() - 1]))
            }
        };
        let tool = tool.trim();
        if tool.is_empty() {
            return Err(err("no tool name before `(`"));
        }
        if !tool.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '*' | ':')) {
            return Err(err("one rule only: no `&&`, `||`, lists or spaces in the tool name"));
        }
        Ok(Self { tool: tool.to_owned(), content: content.map(str::to_owned) })
    }

    /// The tool the rule names.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// The rule's content (between the parentheses), if any.
    pub fn content(&self) -> Option<&str> {
        self.content.as_deref()
    }

    /// Whether a call of `tool_name` with `input` matches: the handler runs when it does.
    pub fn matches(&self, tool_name: &str, input: &Value, ctx: RuleContext<'_>) -> bool {
        if !self.tool_matches(tool_name) {
            return false;
        }
        let content = match self.content.as_deref().map(str::trim) {
            None | Some("" | "*") => return true,
            Some(c) => c,
        };
        match canonical_tool(tool_name) {
            "Bash" | "PowerShell" => match input.get("command").and_then(Value::as_str) {
                Some(command) => command_matches(content, command),
                None => true,
            },
            "Read" | "Write" | "Edit" | "MultiEdit" | "NotebookEdit" | "Glob" | "Grep" => {
                let path = ["file_path", "notebook_path", "path"]
                    .iter()
                    .find_map(|k| input.get(*k).and_then(Value::as_str));
                match path {
                    Some(path) => path_matches(content, path, ctx).unwrap_or(true),
                    None => true,
                }
            }
            "WebFetch" => {
                let url = input.get("url").and_then(Value::as_str);
                match (content.strip_prefix("domain:"), url.and_then(host_of)) {
                    (Some(domain), Some(host)) => wildcard(domain, &host),
                    _ => true,
                }
            }
            "Agent" => match input.get("subagent_type").and_then(Value::as_str) {
                Some(kind) => wildcard(content, kind),
                None => true,
            },
            _ => true,
        }
    }

    fn tool_matches(&self, tool_name: &str) -> bool {
        if canonical_tool(&self.tool) == canonical_tool(tool_name) {
            return true;
        }
        // `mcp__server` and `mcp__server__*` cover every tool of the server.
        if let Some(rest) = self.tool.strip_prefix("mcp__") {
            let server = rest.strip_suffix("__*").unwrap_or(rest);
            if !server.contains("__") {
                return tool_name.starts_with(&format!("mcp__{server}__"));
            }
        }
        false
    }
}

fn canonical_tool(name: &str) -> &str {
    if name == "Task" { "Agent" } else { name }
}

/// Whether a command pattern matches a command line (see the module docs).
fn command_matches(pattern: &str, command: &str) -> bool {
    let (pattern, legacy_prefix) = match pattern.strip_suffix(":*") {
        Some(prefix) => (prefix, true),
        None => (pattern, false),
    };
    let more_than_name = pattern.trim().contains(char::is_whitespace);
    if more_than_name && has_expansion(command) {
        return true;
    }
    let Some(parts) = subcommands(command) else { return true };
    parts.iter().any(|part| {
        let part = strip_assignments(part);
        if legacy_prefix {
            part == pattern || part.starts_with(&format!("{pattern} "))
        } else {
            wildcard(pattern, part)
                || pattern.strip_suffix(" *").is_some_and(|bare| wildcard(bare, part))
        }
    })
}

fn has_expansion(command: &str) -> bool {
    if command.contains("$(") || command.contains('`') {
        return true;
    }
    let bytes = command.as_bytes();
    bytes
        .windows(2)
        .any(|w| w[0] == b'$' && (w[1].is_ascii_alphabetic() || matches!(w[1], b'_' | b'{')))
}

/// Splits a command line into its subcommands; `None` when quotes do not balance.
fn subcommands(command: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = command.chars().peekable();
    let mut quote: Option<char> = None;
    let mut inner: Vec<String> = Vec::new();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => {
                quote = None;
                current.push(c);
            }
            (Some('\''), c) => current.push(c),
            (_, '\\') => {
                current.push(c);
                if let Some(n) = chars.next() {
                    current.push(n);
                }
            }
            (_, '$') if chars.peek() == Some(&'(') => {
                chars.next();
                let mut depth = 1;
                let mut sub = String::new();
                for n in chars.by_ref() {
                    match n {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    sub.push(n);
                }
                if depth != 0 {
                    return None;
                }
                inner.extend(subcommands(&sub)?);
                current.push_str("$()");
            }
            (_, '`') => {
                let mut sub = String::new();
                let mut closed = false;
                for n in chars.by_ref() {
                    if n == '`' {
                        closed = true;
                        break;
                    }
                    sub.push(n);
                }
                if !closed {
                    return None;
                }
                inner.extend(subcommands(&sub)?);
                current.push_str("``");
            }
            (Some(_), c) => current.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                current.push(c);
            }
            (None, ';' | '\n') => out.push(std::mem::take(&mut current)),
            (None, '&' | '|') => {
                if chars.peek() == Some(&c) {
                    chars.next();
                }
                out.push(std::mem::take(&mut current));
            }
            (None, c) => current.push(c),
        }
    }
    if quote.is_some() {
        return None;
    }
    out.push(current);
    out.extend(inner);
    Some(out.into_iter().map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()).collect())
}

/// A command without its leading `VAR=value` assignments.
fn strip_assignments(part: &str) -> &str {
    let mut rest = part.trim_start();
    loop {
        let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..word_end];
        let is_assignment = word.find('=').is_some_and(|eq| {
            eq > 0 && word[..eq].chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        if !is_assignment || word_end == rest.len() {
            return rest;
        }
        rest = rest[word_end..].trim_start();
    }
}

/// `*` matches any sequence of characters; everything else is literal.
fn wildcard(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for middle in &parts[1..parts.len() - 1] {
        match rest.find(middle) {
            Some(i) => rest = &rest[i + middle.len()..],
            None => return false,
        }
    }
    true
}

/// Whether a path glob matches a path; `None` when it cannot be decided.
fn path_matches(pattern: &str, path: &str, ctx: RuleContext<'_>) -> Option<bool> {
    let absolute_path = if path.starts_with('/') {
        path.to_owned()
    } else {
        format!("{}/{}", ctx.cwd?.display(), path)
    };
    let full = if let Some(abs) = pattern.strip_prefix("//") {
        format!("/{abs}")
    } else if let Some(rel) = pattern.strip_prefix("~/") {
        format!("{}/{rel}", globset::escape(&ctx.home?.display().to_string()))
    } else if let Some(rel) = pattern.strip_prefix('/') {
        format!("{}/{rel}", globset::escape(&ctx.project_dir.or(ctx.cwd)?.display().to_string()))
    } else if pattern.trim_end_matches('/').contains('/') {
        let rel = pattern.strip_prefix("./").unwrap_or(pattern);
        format!("{}/{rel}", globset::escape(&ctx.cwd?.display().to_string()))
    } else {
        format!("**/{pattern}")
    };
    let glob = GlobBuilder::new(&full).literal_separator(true).build().ok()?;
    Some(glob.compile_matcher().is_match(&absolute_path))
}

fn host_of(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit('@').next()?.split(':').next()?;
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn bash(rule: &str, command: &str) -> bool {
        PermissionRule::parse(rule).unwrap().matches(
            "Bash",
            &json!({ "command": command }),
            RuleContext::default(),
        )
    }

    #[test]
    fn parse_accepts_one_rule() {
        let r = PermissionRule::parse("Bash(git *)").unwrap();
        assert_eq!((r.tool(), r.content()), ("Bash", Some("git *")));
        assert!(PermissionRule::parse("Edit").unwrap().content().is_none());
        assert!(PermissionRule::parse("").is_err());
        assert!(PermissionRule::parse("Bash(git").is_err());
        assert!(PermissionRule::parse("Bash && Edit").is_err());
    }

    #[test]
    fn bash_rules() {
        assert!(bash("Bash(git *)", "git push"));
        assert!(!bash("Bash(git *)", "ls"));
        assert!(bash("Bash(rm *)", "cd /tmp && rm -rf x"), "each subcommand is checked");
        assert!(bash("Bash(rm *)", "FOO=1 BAR=2 rm x"), "assignments are stripped");
        assert!(bash("Bash(rm *)", "echo $(rm x)") || bash("Bash(rm)", "echo $(rm)"));
        assert!(bash("Bash(curl)", "echo `curl`"), "substitutions are checked");
        assert!(bash("Bash(git push *)", "git $CMD"), "pattern with arguments fails open on $VAR");
        assert!(!bash("Bash(git)", "ls $HOME"), "a bare name is still checked");
        assert!(bash("Bash(git commit:*)", "git commit -m x"), "legacy prefix form");
        assert!(!bash("Bash(git commit:*)", "git commitx"));
        assert!(bash("Bash(ls *)", "ls"), "a trailing ` *` also matches the bare command");
        assert!(!bash("Bash(ls *)", "lsof"));
        assert!(bash("Bash(echo *)", "echo 'unbalanced"), "unsplittable commands fail open");
        assert!(!bash("Bash(rm *)", "echo 'rm x'"), "quoted separators do not split");
    }

    #[test]
    fn file_rules() {
        let ctx = RuleContext {
            cwd: Some(Path::new("/proj")),
            project_dir: Some(Path::new("/proj")),
            home: Some(Path::new("/home/u")),
        };
        let edit = |rule: &str, path: &str| {
            PermissionRule::parse(rule).unwrap().matches("Edit", &json!({"file_path": path}), ctx)
        };
        assert!(edit("Edit(*.ts)", "/proj/a/b/c.ts"));
        assert!(!edit("Edit(*.ts)", "/proj/a/b/c.rs"));
        assert!(edit("Edit(src/**)", "/proj/src/a/b.rs"));
        assert!(!edit("Edit(src/**)", "/proj/lib/src/b.rs"), "anchored at the cwd");
        assert!(edit("Edit(**/src/**)", "/proj/lib/src/b.rs"));
        assert!(edit("Edit(//etc/*)", "/etc/passwd"));
        assert!(edit("Edit(~/.ssh/*)", "/home/u/.ssh/id"));
        assert!(!edit("Write(*.ts)", "/proj/a.ts"), "another tool");
    }

    #[test]
    fn other_tools() {
        let ctx = RuleContext::default();
        let r = PermissionRule::parse("WebFetch(domain:example.com)").unwrap();
        assert!(r.matches("WebFetch", &json!({"url": "https://example.com/x"}), ctx));
        assert!(!r.matches("WebFetch", &json!({"url": "https://other.org/"}), ctx));
        let r = PermissionRule::parse("mcp__memory").unwrap();
        assert!(r.matches("mcp__memory__get", &json!({}), ctx));
        assert!(!r.matches("mcp__other__get", &json!({}), ctx));
        let r = PermissionRule::parse("Task(Explore)").unwrap();
        assert!(r.matches("Agent", &json!({"subagent_type": "Explore"}), ctx));
        let r = PermissionRule::parse("WebSearch(rust)").unwrap();
        assert!(r.matches("WebSearch", &json!({"query": "go"}), ctx), "unknown content fails open");
    }
}
