//! Reading a hook file into entries, checking every key and value on the way, as Copilot
//! does: an entry Copilot skips (a bad `timeoutSec`, an empty or invalid `matcher`) is a
//! warning and is skipped, and the file's other entries load.

use std::path::PathBuf;
use std::sync::Arc;

use hook_kit::json::{Sink, kind};
use hook_protocol::{Diagnostic, Matcher, Position, Skipped, skipping};
use jsonc_parser::ast::{Object, Value as Ast};

use super::{Command, DEFAULT_TIMEOUT, Entry, Form, Scope, SourceFile};
use crate::EventName;

/// What a file gave.
pub(super) struct Read {
    pub(super) entries: Vec<Entry>,
    pub(super) disable_all: bool,
}

/// Reads one file's text.
pub(super) fn hook_file(source: &Arc<SourceFile>, text: &str, out: &mut Vec<Diagnostic>) -> Read {
    let mut read = Read { entries: Vec::new(), disable_all: false };
    let mut sink = Sink::new(&source.path, text, out);
    // Copilot parses its files as strict JSON: the strict parser says where one is not.
    let Some(parsed) = hook_kit::json::parse(text, &mut sink) else { return read };
    let Some(root) = hook_kit::json::root(&parsed, &mut sink) else { return read };
    // Settings files hold more than hooks; Claude Code's settings are settings too.
    let settings = matches!(source.scope, Scope::Settings | Scope::Claude);
    let mut hooks = None;
    let mut version = None;
    for prop in &root.properties {
        match (prop.name.as_str(), &prop.value) {
            ("hooks", value) => hooks = Some(value),
            ("version", value) => version = Some(value),
            ("disableAllHooks", Ast::BooleanLit(b)) => read.disable_all = b.value,
            ("disableAllHooks", v) => {
                let at = sink.at(v);
                sink.warning(
                    at,
                    hook_protocol::skipping(
                        format!("`disableAllHooks` must be a boolean, found {}", kind(v)),
                        hook_protocol::Skipped::Value,
                        "it is ignored",
                    ),
                );
            }
            (other, _) if !settings => {
                let at = sink.at(&prop.name);
                sink.warning(at, format!("unknown key `{other}`"));
            }
            _ => {}
        }
    }
    let Some(hooks) = hooks else { return read };
    let Ast::Object(events) = hooks else {
        let at = sink.at(hooks);
        sink.error(at, format!("`hooks` must be an object of events, found {}", kind(hooks)));
        return read;
    };
    // Claude Code's settings, and a file of Claude Code's shape in Copilot's places: Copilot
    // runs their hooks as its own.
    if source.scope == Scope::Claude || (looks_like_claude_code(events) && version.is_none()) {
        read.entries = super::claude_form::entries(&mut sink, source, events);
        return read;
    }
    match version {
        Some(Ast::NumberLit(n)) if n.value == "1" => {}
        // A bad `version` rejects the whole file, as Copilot's documented contract says.
        Some(v) => {
            let at = sink.at(v);
            let problem = format!("`version` must be 1, found `{}`", text_of(v));
            sink.error(at, skipping(problem, Skipped::File, "no hook from this file runs"));
            return read;
        }
        None if !settings => sink.warning(
            Position::new(1, 1),
            "a Copilot hook file starts with `\"version\": 1`; the file is read as version 1",
        ),
        None => {}
    }
    // A structural error, an event whose hooks are not a list, rejects the whole file, as
    // Copilot's documentation says.
    if let Some(prop) = events.properties.iter().find(|p| !matches!(p.value, Ast::Array(_))) {
        let at = sink.at(&prop.value);
        let (name, found) = (prop.name.as_str(), kind(&prop.value));
        let problem = format!("`{name}` must be a list of hooks, found {found}");
        sink.error(at, skipping(problem, Skipped::File, "no hook from this file runs"));
        return read;
    }
    let mut refused = false;
    hook_kit::json::each_hook::<EventName>(&mut sink, events, |sink, event, index, node| {
        let one = entry(sink, source, event, index, node);
        refused |= one.is_none();
        read.entries.extend(one);
    });
    // The inline hooks of a settings file are strict: one entry Copilot refuses rejects them
    // all.
    if refused && source.scope == Scope::Settings {
        read.entries.clear();
        let at = sink.at(hooks);
        let problem = "an entry of a settings file's `hooks` is refused, and Copilot then \
                       refuses them all";
        sink.error(at, skipping(problem, Skipped::File, "no hook from this file runs"));
    }
    read
}

/// The JSON text of a small value, for messages: a string quoted.
fn text_of(value: &Ast<'_>) -> String {
    match value {
        Ast::StringLit(s) => format!("\"{}\"", s.value),
        Ast::NumberLit(n) => n.value.to_owned(),
        Ast::BooleanLit(b) => b.value.to_string(),
        other => kind(other).to_owned(),
    }
}

/// Whether a `hooks` object is Claude Code's: PascalCase event names whose values are lists of
/// `{"matcher"?, "hooks": [...]}` groups.
fn looks_like_claude_code(events: &Object<'_>) -> bool {
    events.properties.iter().any(|p| {
        p.name.as_str().starts_with(|c: char| c.is_ascii_uppercase())
            && matches!(&p.value, Ast::Array(a) if a.elements.iter().any(|g| matches!(g, Ast::Object(o) if o.get("hooks").is_some())))
    })
}

/// One entry, or `None` (with a diagnostic) when Copilot would skip it.
fn entry(
    sink: &mut Sink<'_>,
    source: &Arc<SourceFile>,
    event: EventName,
    index: usize,
    node: &Ast<'_>,
) -> Option<Entry> {
    let at = sink.at(node);
    let where_ = format!("{event}[{index}]");
    let Ast::Object(fields) = node else {
        sink.warning(
            at,
            format!("{where_} must be an object, found {}; it is skipped", kind(node)),
        );
        return None;
    };
    let mut bash = None;
    let mut command = None;
    let mut powershell = None;
    let mut exec = None;
    let mut args = Vec::new();
    let mut cwd = None;
    let mut env = Vec::new();
    // `timeoutSec`, else its alias `timeout`.
    let mut timeout_sec = None;
    let mut timeout_alias = None;
    let mut matcher_raw = None;
    let skip = |sink: &mut Sink<'_>, at: Position, why: String| {
        sink.warning(at, format!("{where_}: {why}; the hook is skipped, as Copilot skips it"));
    };
    for prop in &fields.properties {
        let key = prop.name.as_str();
        let value = &prop.value;
        let vat = sink.at(value);
        match (key, value) {
            ("type", Ast::StringLit(t)) if t.value == "command" => {}
            ("type", Ast::StringLit(t)) if t.value == "http" || t.value == "prompt" => {
                sink.warning(
                    vat,
                    format!(
                        "{where_}: `{}` hooks are not run by this runner; the hook is skipped",
                        t.value
                    ),
                );
                return None;
            }
            ("type", v) => {
                skip(
                    sink,
                    vat,
                    format!("`type` must be `command`, `http` or `prompt`, found `{}`", text_of(v)),
                );
                return None;
            }
            ("bash", Ast::StringLit(s)) => bash = Some(s.value.to_string()),
            ("command", Ast::StringLit(s)) => command = Some(s.value.to_string()),
            ("powershell", Ast::StringLit(s)) => powershell = Some(s.value.to_string()),
            ("exec", Ast::StringLit(s)) => exec = Some(s.value.to_string()),
            ("args", Ast::Array(a)) => {
                let items = a.elements.iter().map(|v| ("every element of `args`".to_owned(), v));
                args = strings(sink, items).map_err(|(at, why)| skip(sink, at, why)).ok()?;
            }
            ("cwd", Ast::StringLit(s)) => cwd = Some(PathBuf::from(s.value.as_ref())),
            ("env", Ast::Object(vars)) => {
                let items = vars
                    .properties
                    .iter()
                    .map(|v| (format!("`env.{}`", v.name.as_str()), &v.value));
                let values = strings(sink, items).map_err(|(at, why)| skip(sink, at, why)).ok()?;
                let names = vars.properties.iter().map(|v| v.name.as_str().to_owned());
                env = names.zip(values).collect();
            }
            ("timeoutSec" | "timeout", Ast::NumberLit(n)) => {
                // A number of seconds a duration holds (a timeout too large for one is refused,
                // as a negative one is).
                let secs = n.value.parse::<f64>().ok();
                match secs.and_then(|s| hook_exec::timeout_from_secs(s).ok()) {
                    Some(timeout) if key == "timeoutSec" => timeout_sec = Some(timeout),
                    Some(timeout) => timeout_alias = Some(timeout),
                    None => {
                        skip(
                            sink,
                            vat,
                            format!(
                                "`{key}` must be a positive number of seconds, found {}",
                                n.value
                            ),
                        );
                        return None;
                    }
                }
            }
            ("timeoutSec" | "timeout", v) => {
                skip(sink, vat, format!("`{key}` must be a number, found {}", kind(v)));
                return None;
            }
            ("matcher", Ast::StringLit(m)) => matcher_raw = Some((m.value.to_string(), vat)),
            ("bash" | "command" | "powershell" | "exec" | "cwd" | "matcher", v) => {
                skip(sink, vat, format!("`{key}` must be a string, found {}", kind(v)));
                return None;
            }
            ("args" | "env", v) => {
                let what = if key == "args" { "a list of strings" } else { "an object of strings" };
                skip(sink, vat, format!("`{key}` must be {what}, found {}", kind(v)));
                return None;
            }
            (other, _) => {
                let at = sink.at(&prop.name);
                sink.warning(at, format!("{where_}: unknown key `{other}`"));
            }
        }
    }
    let command = match (bash.or(command), exec, powershell) {
        (Some(line), _, _) => Command::Bash(line),
        (None, Some(program), _) => Command::Exec { program, args },
        // Copilot starts PowerShell for it on any system (a hook error where it is missing).
        (None, None, Some(line)) => Command::PowerShell(line),
        (None, None, None) => {
            skip(sink, at, "a hook needs `bash`, `command` or `exec`".to_owned());
            return None;
        }
    };
    let matcher = match &matcher_raw {
        None => Matcher::any(),
        Some((m, at)) if m.is_empty() => {
            skip(sink, *at, "`matcher` cannot be empty".to_owned());
            return None;
        }
        Some((m, at)) => match Matcher::pattern(&format!("^(?:{m})$")) {
            Ok(compiled) => compiled,
            Err(e) => {
                skip(sink, *at, format!("invalid matcher regex `{m}`: {}", e.message));
                return None;
            }
        },
    };
    let matcher = match (&matcher_raw, event.subject_field()) {
        (Some((_, at)), None) => {
            sink.warning(
                *at,
                format!("{where_}: `{event}` has no tool to match; the matcher has no effect"),
            );
            Matcher::any()
        }
        _ => matcher,
    };
    Some(Entry {
        event,
        command,
        cwd,
        env,
        timeout: timeout_sec.or(timeout_alias).unwrap_or(DEFAULT_TIMEOUT),
        matcher_raw: matcher_raw.map(|(m, _)| m),
        matcher,
        source: Arc::clone(source),
        position: at,
        form: Form::Copilot,
    })
}

/// The strings of a list or an object's values, or where the first value that is not one is
/// and what it is.
fn strings<'a, 't: 'a>(
    sink: &Sink<'_>,
    items: impl Iterator<Item = (String, &'a Ast<'t>)>,
) -> Result<Vec<String>, (Position, String)> {
    items
        .map(|(what, value)| match value {
            Ast::StringLit(s) => Ok(s.value.to_string()),
            other => {
                Err((sink.at(other), format!("{what} must be a string, found {}", kind(other))))
            }
        })
        .collect()
}
