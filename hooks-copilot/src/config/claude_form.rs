//! Hook files of Claude Code's form, as Copilot reads them: `.claude/settings.json` (and
//! `settings.local.json`) of the repository, and a `.github/hooks/*.json` written in Claude
//! Code's shape ([Claude Code's files](crate::compatibility#claude-codes-files)).
//!
//! PascalCase events whose Copilot counterpart exists, matcher groups, `command` hooks. A
//! group's `matcher` is tested, anchored, against the tool's Claude Code name and its Copilot
//! name alike (`*`, `**` and no matcher take every tool); a group whose `matcher` is empty
//! makes Copilot load nothing from the file, and here it is a warning that says so.

use std::sync::Arc;
use std::time::Duration;

use hook_kit::json::{Sink, kind};
use hook_protocol::{Matcher, Skipped};
use jsonc_parser::ast::{Object, Value as Ast};

use super::{Command, DEFAULT_TIMEOUT, Entry, Form, SourceFile};
use crate::{EventName, TOOL_ALIASES};

/// The entries of a `hooks` object of Claude Code's form.
pub(super) fn entries(
    sink: &mut Sink<'_>,
    source: &Arc<SourceFile>,
    events: &Object<'_>,
) -> Vec<Entry> {
    let mut out = Vec::new();
    for prop in &events.properties {
        let name = prop.name.as_str();
        let at = sink.at(&prop.name);
        let Some(event) = EventName::from_claude(name) else {
            let message = format!("Copilot runs no Claude Code `{name}` hook");
            sink.skip(at, message, Skipped::Event, "its hooks are skipped");
            continue;
        };
        let Ast::Array(groups) = &prop.value else {
            let found = kind(&prop.value);
            sink.warning(at, format!("`{name}` must be a list of matcher groups, found {found}"));
            continue;
        };
        for (index, group) in groups.elements.iter().enumerate() {
            match group_entries(sink, source, event, name, index, group) {
                Ok(entries) => out.extend(entries),
                Err(()) => return Vec::new(),
            }
        }
    }
    out
}

/// The entries of one matcher group; `Err` for a group that makes Copilot load nothing from
/// the file (an empty `matcher`).
fn group_entries(
    sink: &mut Sink<'_>,
    source: &Arc<SourceFile>,
    event: EventName,
    name: &str,
    index: usize,
    group: &Ast<'_>,
) -> Result<Vec<Entry>, ()> {
    let at = sink.at(group);
    let place = format!("{name}[{index}]");
    let Ast::Object(fields) = group else {
        sink.warning(at, format!("{place} must be a matcher group, found {}", kind(group)));
        return Ok(Vec::new());
    };
    let matcher_raw = match fields.get("matcher").map(|p| &p.value) {
        Some(Ast::StringLit(m)) => Some(m.value.to_string()),
        Some(other) => {
            let found = kind(other);
            sink.warning(at, format!("{place}: `matcher` must be a string, found {found}"));
            return Ok(Vec::new());
        }
        None => None,
    };
    if matcher_raw.as_deref() == Some("") {
        sink.warning(
            at,
            hook_protocol::skipping(
                format!("{place}: `matcher` is empty"),
                Skipped::File,
                "Copilot loads no hook from this file",
            ),
        );
        return Err(());
    }
    let matcher = match matcher_raw.as_deref().filter(|_| event.subject_field().is_some()) {
        None | Some("*" | "**") => Matcher::any(),
        Some(m) => match tool_matcher(m) {
            Ok(matcher) => matcher,
            Err(e) => {
                let message = format!("{place}: invalid matcher `{m}`: {e}");
                sink.skip(at, message, Skipped::Group, "the group is skipped");
                return Ok(Vec::new());
            }
        },
    };
    let Some(Ast::Array(hooks)) = fields.get("hooks").map(|p| &p.value) else {
        sink.warning(at, format!("{place}: a matcher group needs a `hooks` list"));
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (i, hook) in hooks.elements.iter().enumerate() {
        let hook_at = sink.at(hook);
        let Some((command, timeout)) = handler(sink, &format!("{place}.hooks[{i}]"), hook) else {
            continue;
        };
        out.push(Entry {
            event,
            command: Command::Bash(command),
            cwd: None,
            env: Vec::new(),
            timeout,
            matcher_raw: matcher_raw.clone(),
            matcher: matcher.clone(),
            source: Arc::clone(source),
            position: hook_at,
            form: Form::Claude,
        });
    }
    Ok(out)
}

/// A `command` hook's line and timeout (`timeout`, seconds; Copilot's default without one);
/// another type, or no `command`, is a warning and is skipped.
fn handler(sink: &mut Sink<'_>, place: &str, hook: &Ast<'_>) -> Option<(String, Duration)> {
    let at = sink.at(hook);
    let Ast::Object(fields) = hook else {
        sink.warning(at, format!("{place} must be an object, found {}", kind(hook)));
        return None;
    };
    match fields.get("type").map(|p| &p.value) {
        None => {}
        Some(Ast::StringLit(t)) if t.value == "command" => {}
        Some(other) => {
            let what = match other {
                Ast::StringLit(t) => format!("`{}` hooks", t.value),
                other => format!("a `type` of {}", kind(other)),
            };
            let message = format!("{place}: Copilot runs `command` hooks of this form, not {what}");
            sink.skip(at, message, Skipped::Hook, "the hook is skipped");
            return None;
        }
    }
    let Some(Ast::StringLit(command)) = fields.get("command").map(|p| &p.value) else {
        let message = format!("{place}: a hook needs a `command` string");
        sink.skip(at, message, Skipped::Hook, "the hook is skipped");
        return None;
    };
    let timeout = match fields.get("timeout").map(|p| &p.value) {
        Some(Ast::NumberLit(n)) => {
            match n.value.parse::<f64>().ok().and_then(|s| hook_exec::timeout_from_secs(s).ok()) {
                Some(timeout) => timeout,
                None => {
                    let message = format!(
                        "{place}: `timeout` must be a positive number of seconds, found {}",
                        n.value
                    );
                    sink.skip(at, message, Skipped::Hook, "the hook is skipped");
                    return None;
                }
            }
        }
        Some(other) => {
            let found = kind(other);
            let message = format!("{place}: `timeout` must be a number of seconds, found {found}");
            sink.skip(at, message, Skipped::Hook, "the hook is skipped");
            return None;
        }
        None => DEFAULT_TIMEOUT,
    };
    Some((command.value.to_string(), timeout))
}

/// A matcher of Claude Code's form: `m`, anchored, tested against the tool's name and the
/// names it goes by in the other agent (`Bash` takes `bash`, `bash` takes `Bash`).
fn tool_matcher(m: &str) -> Result<Matcher, String> {
    let anchored = format!("^(?:{m})$");
    let re = regex::Regex::new(&anchored).map_err(|e| e.to_string())?;
    let mut names: Vec<&str> = Vec::new();
    for (claude, copilot) in TOOL_ALIASES {
        if re.is_match(claude) || copilot.iter().any(|c| re.is_match(c)) {
            names.push(claude);
            names.extend(copilot.iter());
        }
    }
    let pattern = if names.is_empty() {
        anchored
    } else {
        let escaped: Vec<String> = names.iter().map(|n| regex::escape(n)).collect();
        format!("{anchored}|^(?:{})$", escaped.join("|"))
    };
    Matcher::pattern(&pattern).map_err(|e| e.message)
}
