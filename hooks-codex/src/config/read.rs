//! Reading a configuration tree into entries, checking every key and value on the way.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use hook_kit::json::Sink;
use hook_protocol::Skipped;
use hook_protocol::text_file::{Cap, read_text};
use hook_protocol::{Diagnostic, Matcher, Position};

use super::node::{Node, Shape};
use super::{DEFAULT_TIMEOUT, Entry, SourceFile};
use crate::EventName;
use crate::trust::{self, Identity, Trust};

/// The text of a file, or why it cannot be read.
pub(super) fn file_text(path: &Path) -> Result<String, String> {
    read_text(path, Cap::CONFIG).map_err(|e| e.to_string())
}

/// The hooks of a file: a `hooks.json` (`{"description"?, "hooks": {...}}`; Codex refuses a
/// file with any other key), or a `config.toml`'s `[hooks]` table, less the hook states and
/// managed-folder settings that live there too.
pub(super) fn file_hooks(
    source: &Arc<SourceFile>,
    root: &Node,
    toml: bool,
    out: &mut Vec<Diagnostic>,
) -> Vec<Entry> {
    let mut sink = Sink::without_text(&source.path, out);
    let Shape::Table(keys) = &root.value else {
        if !toml {
            let found = root.kind();
            sink.error(root.at, format!("expected an object at the top level, found {found}"));
        }
        return Vec::new();
    };
    if toml {
        let skip = ["state", "managed_dir", "windows_managed_dir"];
        let hooks = keys.iter().find(|(key, _, _)| key == "hooks");
        return hooks.map(|(_, _, h)| events(&mut sink, source, h, &skip)).unwrap_or_default();
    }
    let mut hooks = None;
    for (key, at, value) in keys {
        match key.as_str() {
            "hooks" => hooks = Some(value),
            "description" => {}
            other => {
                sink.error(
                    *at,
                    format!(
                        "unknown key `{other}`: Codex refuses the whole file (only `hooks` and \
                         `description` may be at the top); no hook from this file runs"
                    ),
                );
                return Vec::new();
            }
        }
    }
    hooks.map(|h| events(&mut sink, source, h, &[])).unwrap_or_default()
}

/// The event table: each event's groups. `skip`: keys that are not events.
fn events(
    sink: &mut Sink<'_>,
    source: &Arc<SourceFile>,
    hooks: &Node,
    skip: &[&str],
) -> Vec<Entry> {
    let Shape::Table(keys) = &hooks.value else {
        sink.error(hooks.at, format!("`hooks` must be a table of events, found {}", hooks.kind()));
        return Vec::new();
    };
    let mut entries = Vec::new();
    for (name, at, groups) in keys {
        if skip.contains(&name.as_str()) {
            continue;
        }
        let Some(event) = EventName::parse(name) else {
            let hint = EventName::ALL
                .iter()
                .find(|e| e.as_str().eq_ignore_ascii_case(name))
                .map(|e| format!(" (did you mean `{e}`? event names are case-sensitive)"))
                .unwrap_or_default();
            let message = format!("unknown Codex event `{name}`{hint}");
            sink.skip(*at, message, Skipped::Event, "its hooks are skipped");
            continue;
        };
        let Shape::List(list) = &groups.value else {
            sink.error(
                groups.at,
                format!("`{name}` must be a list of matcher groups, found {}", groups.kind()),
            );
            continue;
        };
        for (group_index, group) in list.iter().enumerate() {
            group_entries(sink, source, event, group, group_index, &mut entries);
        }
    }
    entries
}

fn group_entries(
    sink: &mut Sink<'_>,
    source: &Arc<SourceFile>,
    event: EventName,
    group: &Node,
    group_index: usize,
    out: &mut Vec<Entry>,
) {
    let Shape::Table(keys) = &group.value else {
        sink.error(group.at, format!("a matcher group must be a table, found {}", group.kind()));
        return;
    };
    let mut matcher: Option<(String, Position)> = None;
    let mut handlers = None;
    for (key, at, value) in keys {
        match (key.as_str(), &value.value) {
            ("matcher", Shape::Text(m)) => matcher = Some((m.clone(), value.at)),
            ("matcher", _) => {
                sink.error(value.at, format!("`matcher` must be a string, found {}", value.kind()));
                return;
            }
            ("hooks", Shape::List(list)) => handlers = Some(list),
            ("hooks", _) => {
                sink.error(value.at, format!("`hooks` must be a list, found {}", value.kind()));
                return;
            }
            (other, _) => sink.warning(*at, format!("unknown key `{other}` in a matcher group")),
        }
    }
    // Codex reads a matcher only where the event has a subject.
    let matcher = match (matcher, event.subject_field()) {
        (Some((_, at)), None) => {
            sink.warning(at, format!("`{event}` ignores matchers; this one has no effect"));
            None
        }
        (m, _) => m,
    };
    let compiled = match &matcher {
        None => Matcher::any(),
        Some((m, at)) => match Matcher::names_or_pattern(m) {
            Ok(compiled) => compiled,
            Err(e) => {
                let message = format!("invalid matcher `{m}`: {e}");
                sink.skip(*at, message, Skipped::Group, "the group is skipped");
                return;
            }
        },
    };
    for (handler_index, handler) in handlers.into_iter().flatten().enumerate() {
        let Some(h) = read_handler(sink, event, handler) else { continue };
        let matcher_raw = matcher.as_ref().map(|(m, _)| m.clone());
        let identity = Identity {
            event,
            matcher: matcher_raw.as_deref(),
            command: &h.command,
            timeout_secs: h.timeout_secs,
            is_async: h.is_async,
            status_message: h.status_message.as_deref(),
        };
        out.push(Entry {
            event,
            hash: trust::hash(&identity),
            key: trust::key(&source.key_source(), event, group_index, handler_index),
            matcher_raw,
            matcher: compiled.clone(),
            command: h.command,
            timeout: Duration::from_secs(h.timeout_secs.max(1)),
            is_async: h.is_async,
            status_message: h.status_message,
            source: Arc::clone(source),
            position: handler.at,
            indices: (group_index, handler_index),
            trust: Trust::Untrusted,
        });
    }
}

/// A command handler's fields.
struct Handler {
    command: String,
    timeout_secs: u64,
    is_async: bool,
    status_message: Option<String>,
}

fn read_handler(sink: &mut Sink<'_>, event: EventName, node: &Node) -> Option<Handler> {
    let Shape::Table(keys) = &node.value else {
        sink.error(node.at, format!("a hook must be a table, found {}", node.kind()));
        return None;
    };
    let field = |name: &str| keys.iter().find(|(k, _, _)| k == name).map(|(_, _, v)| v);
    match field("type").map(|t| &t.value) {
        Some(Shape::Text(t)) if t == "command" => {}
        Some(Shape::Text(t)) if t == "prompt" || t == "agent" => {
            sink.warning(node.at, format!("`{t}` hooks are not supported by Codex yet; skipped"));
            return None;
        }
        Some(Shape::Text(t)) => {
            sink.warning(
                node.at,
                format!("hook type `{t}` is not one Codex runs on `{event}` (`command`); skipped"),
            );
            return None;
        }
        _ => {
            sink.error(node.at, "a hook needs `\"type\": \"command\"`; this hook is skipped");
            return None;
        }
    }
    let mut h = Handler {
        command: String::new(),
        timeout_secs: DEFAULT_TIMEOUT.as_secs(),
        is_async: false,
        status_message: None,
    };
    let mut command_windows = None;
    for (key, at, value) in keys {
        match (key.as_str(), &value.value) {
            ("type", _) => {}
            ("command", Shape::Text(c)) => h.command.clone_from(c),
            ("commandWindows", Shape::Text(c)) => command_windows = Some(c.clone()),
            ("timeout" | "timeoutSec" | "timeout_sec", Shape::Number(n)) => match n.as_u64() {
                Some(secs) => h.timeout_secs = secs,
                None => {
                    sink.error(
                        value.at,
                        format!("`{key}` must be a whole number of seconds, got {n}; this hook is skipped"),
                    );
                    return None;
                }
            },
            ("async", Shape::Bool(b)) => h.is_async = *b,
            ("statusMessage", Shape::Text(m)) => h.status_message = Some(m.clone()),
            ("command" | "commandWindows" | "statusMessage", _) => {
                sink.error(
                    value.at,
                    format!(
                        "`{key}` must be a string, found {}; this hook is skipped",
                        value.kind()
                    ),
                );
                return None;
            }
            ("timeout" | "timeoutSec" | "timeout_sec" | "async", _) => {
                sink.error(
                    value.at,
                    format!("`{key}` has the wrong type ({}); this hook is skipped", value.kind()),
                );
                return None;
            }
            (other, _) => sink.warning(*at, format!("unknown key `{other}` in a hook")),
        }
    }
    let _ = command_windows;
    if h.command.trim().is_empty() {
        sink.warning(node.at, "a hook with an empty `command` is skipped, as Codex skips it");
        return None;
    }
    Some(h)
}
