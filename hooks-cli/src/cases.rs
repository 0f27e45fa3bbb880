//! The case file of `hooks test`: YAML or JSON, read with the line and column of every problem,
//! and rewritten in place by `--update`.
//!
//! ```yaml
//! cases:
//!   - name: a recursive delete of the root is refused
//!     event: PreToolUse
//!     input: {tool_name: Bash, tool_use_id: t1, tool_input: {command: "rm -rf /"}}
//!     expect:
//!       decision: deny
//!       reason: recursive delete
//! ```
//!
//! `--update` replaces each case's `expect` block (or adds one) and leaves every other line as
//! it was, comments included; a JSON file is written back whole, pretty-printed.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{Map, Value};
use serde_saphyr::{DefaultMessageFormatter, MessageFormatter, Spanned};

use crate::error::{CliError, cli_error};
use hook_protocol::DecisionWord;

/// The decision words an expectation may name.
const DECISIONS: &[&str] = &["allow", "ask", "defer", "deny", "block", "none"];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    cases: Vec<Spanned<RawCase>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    name: Option<String>,
    event: Spanned<String>,
    input: Option<Spanned<Value>>,
    expect: Option<Spanned<RawExpect>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExpect {
    decision: Option<Spanned<String>>,
    reason: Option<String>,
    context: Option<Vec<String>>,
    #[serde(rename = "continue")]
    continue_: Option<bool>,
    updated_input: Option<Value>,
    shown: Option<Value>,
}

/// What a case expects; a field left out is not checked.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Expect {
    /// The merged decision word (`allow`, `ask`, `defer`, `deny`, `block`, `none`).
    pub(crate) decision: Option<DecisionWord>,
    /// A text the reason contains.
    pub(crate) reason: Option<String>,
    /// One text per context, in order, each contained in the context at its place.
    pub(crate) context: Option<Vec<String>>,
    /// Whether processing goes on (`false`: a hook halted it).
    pub(crate) continue_: Option<bool>,
    /// The rewritten tool input, exactly (`null`: none).
    pub(crate) updated_input: Option<Value>,
    /// What Claude Code shows the model and the user, exactly (`{model: [...], user: [...]}`).
    pub(crate) shown: Option<Value>,
}

/// One case: an event, its input, what it should give.
#[derive(Debug, Clone)]
pub(crate) struct Case {
    pub(crate) name: String,
    pub(crate) event: String,
    pub(crate) input: Map<String, Value>,
    pub(crate) expect: Expect,
    /// The line of the case's first key, from 1.
    pub(crate) line: usize,
    /// The line of its `expect:` key, from 1, when it has one.
    expect_line: Option<usize>,
}

/// A case file, read.
#[derive(Debug)]
pub(crate) struct CaseFile {
    pub(crate) path: PathBuf,
    text: String,
    json: bool,
    pub(crate) cases: Vec<Case>,
}

fn at(path: &Path, line: usize, column: usize, message: impl std::fmt::Display) -> CliError {
    cli_error!("{}:{line}:{column}: error: {message}", path.display())
}

fn position<T>(s: &Spanned<T>) -> (usize, usize) {
    let line = usize::try_from(s.referenced.line()).unwrap_or(0).max(1);
    let column = usize::try_from(s.referenced.column()).unwrap_or(0).max(1);
    (line, column)
}

impl CaseFile {
    /// Reads and checks a case file: YAML, or JSON (by its `.json` extension; JSON is read as
    /// the YAML it also is, so that both report positions the same way).
    pub(crate) fn read(path: &Path) -> Result<Self, CliError> {
        let text = crate::input::read_file(path, hook_protocol::text_file::Cap::RECORDING)?;
        let json = path.extension().is_some_and(|e| e == "json");
        let raw: RawFile = serde_saphyr::from_str(&text).map_err(|e| {
            let (line, column) = e
                .location()
                .filter(|l| l.line() > 0)
                .map_or((1, 1), |l| (l.line() as usize, (l.column() as usize).max(1)));
            let message = DefaultMessageFormatter.format_message(&e);
            let message: String =
                message.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
            at(path, line, column, message)
        })?;
        if raw.cases.is_empty() {
            return Err(at(path, 1, 1, "`cases` is empty: there is nothing to test"));
        }
        let mut cases = Vec::with_capacity(raw.cases.len());
        for (i, spanned) in raw.cases.into_iter().enumerate() {
            let (line, _) = position(&spanned);
            let raw = spanned.value;
            let input = match raw.input {
                None => Map::new(),
                Some(v) => {
                    let (l, c) = position(&v);
                    match v.value {
                        Value::Object(m) => m,
                        Value::Null => Map::new(),
                        other => {
                            return Err(at(
                                path,
                                l,
                                c,
                                format!(
                                    "`input` must be a mapping (the event's payload), found {}",
                                    hook_protocol::codec::kind_of(&other)
                                ),
                            ));
                        }
                    }
                }
            };
            let (expect, expect_line) = match raw.expect {
                None => (Expect::default(), None),
                Some(e) => {
                    let (value_line, _) = position(&e);
                    let key_line = key_line(&text, value_line, "expect");
                    (expect_of(path, e.value)?, Some(key_line))
                }
            };
            let (l, c) = position(&raw.event);
            let event = raw.event.value;
            if event.trim().is_empty() {
                return Err(at(path, l, c, "`event` is empty"));
            }
            let name = raw.name.unwrap_or_else(|| format!("#{} {event}", i + 1));
            cases.push(Case { name, event, input, expect, line, expect_line });
        }
        Ok(Self { path: path.to_owned(), text, json, cases })
    }

    /// The file with every case's expectations replaced by `actual` (one per case, in order).
    pub(crate) fn updated(&self, actual: &[Expect]) -> String {
        if self.json {
            return self.updated_json(actual);
        }
        let mut lines: Vec<String> = self.text.lines().map(str::to_owned).collect();
        // From the last case up, so that earlier line numbers stay right.
        for (case, expect) in self.cases.iter().zip(actual).rev() {
            match case.expect_line {
                Some(key) => {
                    let i = key - 1;
                    let key_col = key_column(&lines[i]);
                    let end = block_end(&lines, i, key_col);
                    let prefix = &lines[i][..key_col];
                    let block = yaml_block(prefix, &" ".repeat(key_col), expect);
                    lines.splice(i..end, block);
                }
                None => {
                    let first = case.line - 1;
                    let key_col = key_column(&lines[first]);
                    let end = block_end(&lines, first, key_col.saturating_sub(1));
                    let pad = " ".repeat(key_col);
                    let block = yaml_block(&pad, &pad, expect);
                    lines.splice(end..end, block);
                }
            }
        }
        let mut out = lines.join("\n");
        out.push('\n');
        out
    }

    fn updated_json(&self, actual: &[Expect]) -> String {
        let mut doc: Value = serde_json::from_str(&self.text).unwrap_or(Value::Null);
        if let Some(cases) = doc.get_mut("cases").and_then(Value::as_array_mut) {
            for (case, expect) in cases.iter_mut().zip(actual) {
                if let Value::Object(map) = case {
                    map.insert("expect".to_owned(), expect_value(expect));
                }
            }
        }
        let mut out = serde_json::to_string_pretty(&doc).unwrap_or_default();
        out.push('\n');
        out
    }
}

fn expect_of(path: &Path, raw: RawExpect) -> Result<Expect, CliError> {
    let decision = match raw.decision {
        None => None,
        Some(d) => {
            let word = d.value.as_str();
            let Some(found) = decision_word(word) else {
                let (l, c) = position(&d);
                return Err(at(
                    path,
                    l,
                    c,
                    format!("`decision` must be one of {}, got `{word}`", DECISIONS.join(", ")),
                ));
            };
            Some(found)
        }
    };
    Ok(Expect {
        decision,
        reason: raw.reason,
        context: raw.context,
        continue_: raw.continue_,
        updated_input: raw.updated_input,
        shown: raw.shown,
    })
}

/// The decision word named `word`.
fn decision_word(word: &str) -> Option<DecisionWord> {
    DecisionWord::parse(word)
}

/// The line (from 1) of the `key:` whose value starts at `value_line`: that line itself for a
/// flow value (`expect: {decision: deny}`), else the nearest line above naming the key.
fn key_line(text: &str, value_line: usize, key: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let names_key = |l: &str| {
        let t = l.trim_start();
        let t = t.strip_prefix("- ").map_or(t, str::trim_start);
        t.strip_prefix(key).is_some_and(|rest| rest.trim_start().starts_with(':'))
    };
    let mut i = value_line.min(lines.len());
    while i > 0 {
        if names_key(lines[i - 1]) {
            return i;
        }
        i -= 1;
    }
    value_line
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// The column (from 0) where a line's key starts, after a list item's `- `.
fn key_column(line: &str) -> usize {
    let indent = indent_of(line);
    let rest = &line[indent..];
    match rest.strip_prefix("- ") {
        Some(after) => indent + 2 + (after.len() - after.trim_start().len()),
        None => indent,
    }
}

/// The end (exclusive, from 0) of the block that starts at `start` and holds the lines indented
/// deeper than `column`; blank lines after its last line are not part of it.
fn block_end(lines: &[String], start: usize, column: usize) -> usize {
    let mut end = start + 1;
    while end < lines.len() {
        let l = &lines[end];
        if !l.trim().is_empty() && indent_of(l) <= column {
            break;
        }
        end += 1;
    }
    while end > start + 1 && lines[end - 1].trim().is_empty() {
        end -= 1;
    }
    end
}

/// One YAML scalar: a JSON string literal, which YAML reads as the same string.
fn scalar(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned())
}

/// The `expect:` block for `expect`, its first line starting with `first` (the key's indentation,
/// or the list item's `- `) and the rest indented under `pad`.
fn yaml_block(first: &str, pad: &str, e: &Expect) -> Vec<String> {
    let mut out = vec![format!("{first}expect:")];
    let inner = format!("{pad}  ");
    if let Some(d) = e.decision {
        out.push(format!("{inner}decision: {}", d.as_str()));
    }
    if let Some(r) = &e.reason {
        out.push(format!("{inner}reason: {}", scalar(r)));
    }
    if let Some(context) = &e.context {
        if context.is_empty() {
            out.push(format!("{inner}context: []"));
        } else {
            out.push(format!("{inner}context:"));
            for c in context {
                out.push(format!("{inner}  - {}", scalar(c)));
            }
        }
    }
    if let Some(c) = e.continue_ {
        out.push(format!("{inner}continue: {c}"));
    }
    if let Some(u) = &e.updated_input {
        out.push(format!("{inner}updated_input: {}", serde_json::to_string(u).unwrap_or_default()));
    }
    if let Some(shown) = &e.shown {
        out.push(format!("{inner}shown:"));
        let empty = Vec::new();
        let model = shown.get("model").and_then(Value::as_array).unwrap_or(&empty);
        if model.is_empty() {
            out.push(format!("{inner}  model: []"));
        } else {
            out.push(format!("{inner}  model:"));
            for m in model {
                let placement = m.get("placement").and_then(Value::as_str).unwrap_or_default();
                let text = m.get("text").and_then(Value::as_str).unwrap_or_default();
                let is_error = m.get("is_error").and_then(Value::as_bool).unwrap_or(false);
                out.push(format!("{inner}    - placement: {placement}"));
                out.push(format!("{inner}      is_error: {is_error}"));
                out.push(format!("{inner}      text: {}", scalar(text)));
            }
        }
        let user = shown.get("user").and_then(Value::as_array).unwrap_or(&empty);
        if user.is_empty() {
            out.push(format!("{inner}  user: []"));
        } else {
            out.push(format!("{inner}  user:"));
            for u in user {
                out.push(format!("{inner}    - {}", scalar(u.as_str().unwrap_or_default())));
            }
        }
    }
    out
}

/// `expect` as the JSON object a JSON case file holds.
fn expect_value(e: &Expect) -> Value {
    let mut map = Map::new();
    if let Some(d) = e.decision {
        map.insert("decision".into(), Value::String(d.as_str().to_owned()));
    }
    if let Some(r) = &e.reason {
        map.insert("reason".into(), Value::String(r.clone()));
    }
    if let Some(c) = &e.context {
        map.insert("context".into(), c.iter().cloned().map(Value::String).collect());
    }
    if let Some(c) = e.continue_ {
        map.insert("continue".into(), Value::Bool(c));
    }
    if let Some(u) = &e.updated_input {
        map.insert("updated_input".into(), u.clone());
    }
    if let Some(s) = &e.shown {
        map.insert("shown".into(), s.clone());
    }
    Value::Object(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    const YAML: &str = "# the guard's cases
cases:
  - name: first
    event: PreToolUse
    input: {tool_name: Bash}
    expect:
      decision: allow   # was allow
      reason: old

  # a comment between cases
  - event: Stop
    input:
      stop_hook_active: false
  - name: third
    expect: {decision: none}
    event: Stop
";

    #[test]
    fn cases_are_read_with_their_lines() {
        let (_d, path) = write("t.yaml", YAML);
        let file = CaseFile::read(&path).unwrap();
        let names: Vec<&str> = file.cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["first", "#2 Stop", "third"]);
        assert_eq!(file.cases[0].line, 3);
        assert_eq!(file.cases[0].expect_line, Some(6));
        assert_eq!(file.cases[2].expect_line, Some(15));
        assert_eq!(file.cases[0].expect.decision, Some(DecisionWord::Allow));
        assert_eq!(file.cases[1].input["stop_hook_active"], false);
    }

    #[test]
    fn update_replaces_expect_blocks_and_keeps_the_rest() {
        let (_d, path) = write("t.yaml", YAML);
        let file = CaseFile::read(&path).unwrap();
        let deny = Expect {
            decision: Some(DecisionWord::Deny),
            reason: Some("no \"rm\"\nplease".into()),
            context: Some(vec![]),
            ..Expect::default()
        };
        let none = Expect { decision: Some(DecisionWord::NoOpinion), ..Expect::default() };
        let updated = file.updated(&[deny.clone(), none.clone(), deny.clone()]);
        assert_eq!(
            updated,
            "# the guard's cases
cases:
  - name: first
    event: PreToolUse
    input: {tool_name: Bash}
    expect:
      decision: deny
      reason: \"no \\\"rm\\\"\\nplease\"
      context: []

  # a comment between cases
  - event: Stop
    input:
      stop_hook_active: false
    expect:
      decision: none
  - name: third
    expect:
      decision: deny
      reason: \"no \\\"rm\\\"\\nplease\"
      context: []
    event: Stop
"
        );
        // What --update writes reads back as what it wrote.
        let (_d2, again) = write("u.yaml", &updated);
        let back = CaseFile::read(&again).unwrap();
        assert_eq!(back.cases[0].expect, deny);
        assert_eq!(back.cases[1].expect, none);
        assert_eq!(back.cases[2].expect, deny);
    }

    #[test]
    fn problems_name_the_file_line_and_column() {
        let err = |text: &str| {
            let (_d, path) = write("bad.yaml", text);
            CaseFile::read(&path).unwrap_err().0.replace(&path.display().to_string(), "bad.yaml")
        };
        assert_eq!(
            err("cases:\n  - event: Stop\n    expect:\n      decision: maybe\n"),
            "bad.yaml:4:17: error: `decision` must be one of allow, ask, defer, deny, block, none, got `maybe`"
        );
        assert_eq!(
            err("cases:\n  - event: Stop\n    input: [1]\n"),
            "bad.yaml:3:12: error: `input` must be a mapping (the event's payload), found array"
        );
        assert!(err("cases:\n  - event: Stop\n    expct: {}\n").starts_with("bad.yaml:3:"));
        assert!(err("cases:\n  - name: x\n").contains("event"));
        assert!(err("cases: [\n").starts_with("bad.yaml:"));
        assert_eq!(
            err("cases: []\n"),
            "bad.yaml:1:1: error: `cases` is empty: there is nothing to test"
        );
    }
}
