//! Reading a `hooks.json` into entries, checking every key and value on the way.

use std::sync::Arc;
use std::time::Duration;

use hook_kit::json::{Sink, kind, text_of};
use hook_protocol::{Diagnostic, Matcher, Position};
use jsonc_parser::ast::Value as Ast;

use super::{DEFAULT_MAX_FOLLOW_UPS, DEFAULT_TIMEOUT, Entry, HookType, SourceFile};
use crate::EventName;

/// The longest `timeout` taken: a day.
const MAX_TIMEOUT_SECS: f64 = 86_400.0;

/// Reads one file's text.
pub(super) fn hooks_file(
    source: &Arc<SourceFile>,
    text: &str,
    out: &mut Vec<Diagnostic>,
) -> Vec<Entry> {
    let mut entries = Vec::new();
    let mut sink = Sink::new(&source.path, text, out);
    // JSON as Cursor parses it, strictly: the strict parser says where a file is not.
    let Some(parsed) = hook_kit::json::parse(text, &mut sink) else { return entries };
    let Some(root) = hook_kit::json::root(&parsed, &mut sink) else { return entries };
    let mut hooks = None;
    let mut version = None;
    for prop in &root.properties {
        match prop.name.as_str() {
            "hooks" => hooks = Some(&prop.value),
            "version" => version = Some(&prop.value),
            other => {
                let at = sink.at(&prop.name);
                sink.warning(at, format!("unknown key `{other}`"));
            }
        }
    }
    match version {
        Some(Ast::NumberLit(n)) if n.value == "1" => {}
        Some(v) => {
            let at = sink.at(v);
            sink.error(at, "`version` must be 1; no hook from this file runs");
            return entries;
        }
        None => {
            sink.error(
                Position::new(1, 1),
                "a Cursor hooks.json needs `\"version\": 1`; no hook from this file runs",
            );
            return entries;
        }
    }
    let Some(hooks) = hooks else { return entries };
    let Ast::Object(events) = hooks else {
        let at = sink.at(hooks);
        sink.error(at, format!("`hooks` must be an object of events, found {}", kind(hooks)));
        return entries;
    };
    hook_kit::json::each_hook::<EventName>(&mut sink, events, |sink, event, index, node| {
        entries.extend(entry(sink, source, event, index, node));
    });
    entries
}

/// One entry, or `None` (with a diagnostic) when it cannot run.
fn entry(
    sink: &mut Sink<'_>,
    source: &Arc<SourceFile>,
    event: EventName,
    index: usize,
    node: &Ast<'_>,
) -> Option<Entry> {
    let at = sink.at(node);
    let place = format!("{event}[{index}]");
    let Ast::Object(fields) = node else {
        sink.error(at, format!("{place} must be an object, found {}; it is skipped", kind(node)));
        return None;
    };
    let mut command = None;
    let mut hook_type = HookType::Command;
    let mut timeout = DEFAULT_TIMEOUT;
    let mut fail_closed = false;
    let mut loop_limit = Some(DEFAULT_MAX_FOLLOW_UPS);
    let mut matcher_raw = None;
    for prop in &fields.properties {
        let key = prop.name.as_str();
        let value = &prop.value;
        let vat = sink.at(value);
        match (key, value) {
            ("command", Ast::StringLit(s)) => command = Some(s.value.to_string()),
            ("type", Ast::StringLit(t)) if t.value == "command" => {}
            ("type", Ast::StringLit(t)) if t.value == "prompt" => hook_type = HookType::Prompt,
            ("prompt", Ast::StringLit(_)) => {}
            ("timeout", Ast::NumberLit(n)) => {
                match n.value.parse::<f64>().ok().filter(|s| *s > 0.0 && *s <= MAX_TIMEOUT_SECS) {
                    Some(secs) => timeout = Duration::from_secs_f64(secs),
                    None => {
                        sink.error(vat, format!("{place}: `timeout` must be a number of seconds above 0 and at most 86400, got {}; the hook is skipped", n.value));
                        return None;
                    }
                }
            }
            ("failClosed", Ast::BooleanLit(b)) => fail_closed = b.value,
            ("loop_limit", Ast::NullKeyword(_)) => loop_limit = None,
            ("loop_limit", Ast::NumberLit(n)) => match n.value.parse::<u32>() {
                Ok(limit) => loop_limit = Some(limit),
                Err(_) => {
                    sink.error(vat, format!("{place}: `loop_limit` must be a whole number of follow-ups (0 or more) or null, got {}; the hook is skipped", n.value));
                    return None;
                }
            },
            ("matcher", Ast::StringLit(m)) => matcher_raw = Some((m.value.to_string(), vat)),
            ("type", v) => {
                sink.error(vat, format!("{place}: `type` must be `command` or `prompt`, found `{}`; the hook is skipped", text_of(v)));
                return None;
            }
            ("command" | "matcher" | "prompt" | "timeout" | "failClosed" | "loop_limit", v) => {
                let wanted = match key {
                    "timeout" => "a number of seconds",
                    "failClosed" => "a boolean",
                    "loop_limit" => "a number or null",
                    _ => "a string",
                };
                let found = kind(v);
                sink.error(
                    vat,
                    format!(
                        "{place}: `{key}` must be {wanted}, found {found}; the hook is skipped"
                    ),
                );
                return None;
            }
            (other, _) => {
                let at = sink.at(&prop.name);
                sink.warning(at, format!("{place}: unknown key `{other}`"));
            }
        }
    }
    if hook_type == HookType::Prompt {
        sink.warning(at, format!("{place}: `prompt` hooks are evaluated by Cursor's model and do not run here; the hook is skipped"));
        return None;
    }
    let Some(command) = command.filter(|c| !c.trim().is_empty()) else {
        sink.error(at, format!("{place}: a hook needs a `command`; the hook is skipped"));
        return None;
    };
    if !event.continues() && fields.get("loop_limit").is_some() {
        sink.warning(at, format!("{place}: `loop_limit` applies to `stop` and `subagentStop` only; it has no effect here"));
    }
    let matcher = match &matcher_raw {
        None => Matcher::any(),
        Some((_, at)) if !event.has_matcher() => {
            sink.warning(
                *at,
                format!("{place}: `{event}` has nothing to match; the matcher has no effect"),
            );
            Matcher::any()
        }
        Some((m, at)) => match Matcher::pattern(m) {
            Ok(compiled) => compiled,
            Err(e) => {
                sink.error(
                    *at,
                    format!(
                        "{place}: invalid matcher regex `{m}`: {}; the hook is skipped",
                        e.message
                    ),
                );
                return None;
            }
        },
    };
    if event.seam().is_none() {
        sink.warning(at, format!("{place}: `{event}` is an editor event a harness does not fire; the hook loads and never runs"));
    }
    Some(Entry {
        event,
        command,
        kind: hook_type,
        timeout,
        fail_closed,
        loop_limit: if event.continues() { loop_limit } else { None },
        matcher_raw: matcher_raw.map(|(m, _)| m),
        matcher,
        source: Arc::clone(source),
        position: at,
    })
}
