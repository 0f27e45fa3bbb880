//! Reading a `settings.json`'s `hooks` and `hooksConfig` into entries, checking every key and
//! value on the way; every other setting is Gemini's own and left alone.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use hook_kit::json::{Sink, kind, text_of};
use hook_protocol::{Diagnostic, Matcher, Skipped, skipping};
use jsonc_parser::ast::{Object, Value as Ast};

use super::{DEFAULT_TIMEOUT, Entry, HooksConfig, SourceFile};
use crate::EventName;

/// The longest `timeout` taken: a day, in milliseconds.
const MAX_TIMEOUT_MS: f64 = 86_400_000.0;

/// Below this many milliseconds, a `timeout` looks like seconds written for Claude Code.
const SECONDS_LIKE_MS: f64 = 100.0;

/// Reads one file's text: its entries, and what it says of hooks as a whole.
pub(super) fn settings_file(
    source: &Arc<SourceFile>,
    text: &str,
    out: &mut Vec<Diagnostic>,
) -> (Vec<Entry>, HooksConfig) {
    let mut entries = Vec::new();
    let mut config = HooksConfig::default();
    let mut sink = Sink::new(&source.path, text, out);
    // Gemini reads its settings as JSON with comments.
    let Some(parsed) = hook_kit::json::parse(text, &mut sink) else { return (entries, config) };
    let Some(root) = hook_kit::json::root(&parsed, &mut sink) else { return (entries, config) };
    if let Some(Ast::Object(hooks_config)) = root.get("hooksConfig").map(|p| &p.value) {
        read_hooks_config(&mut sink, hooks_config, &mut config);
    }
    let redaction = root
        .get("security")
        .and_then(|p| p.value.as_object())
        .and_then(|s| s.get("environmentVariableRedaction"))
        .and_then(|p| p.value.as_object())
        .and_then(|r| r.get("enabled"));
    if let Some(prop) = redaction {
        config.redact_env = matches!(prop.value, Ast::BooleanLit(ref b) if b.value);
    }
    let Some(hooks) = root.get("hooks").map(|p| &p.value) else { return (entries, config) };
    let Ast::Object(events) = hooks else {
        let at = sink.at(hooks);
        sink.error(at, format!("`hooks` must be an object of events, found {}", kind(hooks)));
        return (entries, config);
    };
    let from = source.scope.as_str();
    hook_kit::json::each_hook::<EventName>(&mut sink, events, |sink, event, index, node| {
        entries.extend(group(sink, source, from, event, index, node));
    });
    (entries, config)
}

/// `hooksConfig`: `enabled` and `disabled`.
fn read_hooks_config(sink: &mut Sink<'_>, object: &Object<'_>, config: &mut HooksConfig) {
    for prop in &object.properties {
        let at = sink.at(&prop.value);
        match (prop.name.as_str(), &prop.value) {
            ("enabled", Ast::BooleanLit(b)) => config.disabled_all = !b.value,
            ("disabled", Ast::Array(list)) => {
                for item in &list.elements {
                    match item {
                        Ast::StringLit(s) => config.disabled.push(s.value.to_string()),
                        other => {
                            let at = sink.at(other);
                            sink.warning(
                                at,
                                format!(
                                    "`hooksConfig.disabled` holds names, found {}",
                                    kind(other)
                                ),
                            );
                        }
                    }
                }
            }
            ("enabled" | "disabled", v) => sink.warning(
                at,
                format!(
                    "`hooksConfig.{}` has the wrong type ({}); it is ignored",
                    prop.name.as_str(),
                    kind(v)
                ),
            ),
            _ => {}
        }
    }
}

/// One group: its handlers, or none (with a diagnostic) when Gemini discards it.
fn group(
    sink: &mut Sink<'_>,
    source: &Arc<SourceFile>,
    from: &str,
    event: EventName,
    index: usize,
    node: &Ast<'_>,
) -> Vec<Entry> {
    let at = sink.at(node);
    let Ast::Object(fields) = node else {
        let problem = format!("{event}[{index}] must be an object, found {}", kind(node));
        sink.warning(at, skipping(problem, Skipped::Group, "Gemini discards it"));
        return Vec::new();
    };
    let Some(Ast::Array(handlers)) = fields.get("hooks").map(|p| &p.value) else {
        let problem = format!(
            "Discarding invalid hook definition for {event} from {from}: a group needs a `hooks` list"
        );
        sink.warning(at, skipping(problem, Skipped::Group, "its hooks do not run"));
        return Vec::new();
    };
    let mut sequential = false;
    let mut matcher_raw = None;
    for prop in &fields.properties {
        let vat = sink.at(&prop.value);
        match (prop.name.as_str(), &prop.value) {
            ("hooks", _) => {}
            ("sequential", Ast::BooleanLit(b)) => sequential = b.value,
            ("matcher", Ast::StringLit(m)) => matcher_raw = Some(m.value.trim().to_owned()),
            ("sequential" | "matcher", v) => sink.warning(
                vat,
                format!(
                    "{event}[{index}]: `{}` has the wrong type ({}); it is ignored",
                    prop.name.as_str(),
                    kind(v)
                ),
            ),
            (other, _) => {
                let at = sink.at(&prop.name);
                sink.warning(at, format!("{event}[{index}]: unknown key `{other}`"));
            }
        }
    }
    let matcher = matcher_of(event, matcher_raw.as_deref());
    let mut out = Vec::new();
    for (h, node) in handlers.elements.iter().enumerate() {
        let place = format!("{event}[{index}].hooks[{h}]");
        if let Some(mut entry) = handler(sink, source, from, event, &place, node) {
            entry.sequential = sequential;
            entry.matcher_raw.clone_from(&matcher_raw);
            entry.matcher = matcher.clone();
            out.push(entry);
        }
    }
    out
}

/// The matcher of a group: every subject when absent, empty or `*`; on the tool events a
/// regular expression searched in the tool's name, or, when it is not one, the name itself;
/// elsewhere the exact string.
pub(crate) fn matcher_of(event: EventName, raw: Option<&str>) -> Matcher {
    match raw {
        None | Some("" | "*") => Matcher::any(),
        Some(m) if event.matches_by_pattern() => {
            Matcher::pattern(m).unwrap_or_else(|_| Matcher::exact([m]))
        }
        Some(m) if event.subject_field().is_some() => Matcher::exact([m]),
        // Other events ignore their matcher.
        Some(_) => Matcher::any(),
    }
}

/// One handler, or `None` (with a diagnostic) when Gemini drops it.
fn handler(
    sink: &mut Sink<'_>,
    source: &Arc<SourceFile>,
    from: &str,
    event: EventName,
    place: &str,
    node: &Ast<'_>,
) -> Option<Entry> {
    let at = sink.at(node);
    let Ast::Object(fields) = node else {
        let problem = format!("{place} must be an object, found {}", kind(node));
        sink.warning(at, skipping(problem, Skipped::Hook, "Gemini drops it"));
        return None;
    };
    let mut command = None;
    let mut name = None;
    let mut description = None;
    let mut timeout = DEFAULT_TIMEOUT;
    let mut env = BTreeMap::new();
    for prop in &fields.properties {
        let key = prop.name.as_str();
        let value = &prop.value;
        let vat = sink.at(value);
        match (key, value) {
            ("type", Ast::StringLit(t)) if t.value == "command" => {}
            ("type", Ast::StringLit(t)) if matches!(t.value.as_ref(), "plugin" | "runtime") => {
                let problem = format!(
                    "{place}: `{}` hooks are Gemini's own extensions' and do not run here",
                    t.value
                );
                sink.warning(vat, skipping(problem, Skipped::Hook, "the hook is skipped"));
                return None;
            }
            ("type", v) => {
                let problem = format!("Invalid hook {event} from {from} type: {}", text_of(v));
                sink.warning(vat, skipping(problem, Skipped::Hook, "Gemini drops it"));
                return None;
            }
            ("command", Ast::StringLit(s)) => command = Some(s.value.to_string()),
            ("name", Ast::StringLit(s)) => name = Some(s.value.to_string()),
            ("description", Ast::StringLit(s)) => description = Some(s.value.to_string()),
            ("timeout", Ast::NumberLit(n)) => {
                match n.value.parse::<f64>().ok().filter(|t| *t > 0.0 && *t <= MAX_TIMEOUT_MS) {
                    Some(ms) => {
                        if ms < SECONDS_LIKE_MS {
                            sink.warning(vat, format!("{place}: `timeout` is {ms} milliseconds: Gemini CLI reads it in milliseconds, not seconds (a Claude Code timeout of {ms} is {ms}000)"));
                        }
                        timeout = Duration::from_secs_f64(ms / 1000.0);
                    }
                    None => {
                        let problem = format!(
                            "{place}: `timeout` must be a number of milliseconds above 0 and at most 86400000, got {}",
                            n.value
                        );
                        sink.warning(vat, skipping(problem, Skipped::Hook, "the hook is skipped"));
                        return None;
                    }
                }
            }
            ("env", Ast::Object(vars)) => {
                for var in &vars.properties {
                    match &var.value {
                        Ast::StringLit(s) => {
                            env.insert(var.name.as_str().to_owned(), s.value.to_string());
                        }
                        other => {
                            let at = sink.at(other);
                            sink.warning(
                                at,
                                format!(
                                    "{place}: `env.{}` must be a string, found {}; it is not set",
                                    var.name.as_str(),
                                    kind(other)
                                ),
                            );
                        }
                    }
                }
            }
            ("command" | "name" | "description" | "timeout" | "env", v) => {
                let wanted = match key {
                    "timeout" => "a number of milliseconds",
                    "env" => "an object of strings",
                    _ => "a string",
                };
                let problem = format!("{place}: `{key}` must be {wanted}, found {}", kind(v));
                sink.warning(vat, skipping(problem, Skipped::Hook, "the hook is skipped"));
                return None;
            }
            (other, _) => {
                let at = sink.at(&prop.name);
                sink.warning(at, format!("{place}: unknown key `{other}`"));
            }
        }
    }
    let Some(command) = command.filter(|c| !c.trim().is_empty()) else {
        let problem = format!("Command hook {event} from {from} missing command field");
        sink.warning(at, skipping(problem, Skipped::Hook, "Gemini drops it"));
        return None;
    };
    Some(Entry {
        event,
        command,
        name,
        description,
        timeout,
        env,
        sequential: false,
        matcher_raw: None,
        matcher: Matcher::any(),
        source: Arc::clone(source),
        position: at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (Vec<Entry>, HooksConfig, Vec<String>) {
        let source =
            Arc::new(SourceFile::new("/p/.gemini/settings.json", super::super::Scope::Project));
        let mut out = Vec::new();
        let (entries, config) = settings_file(&source, text, &mut out);
        (entries, config, out.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn handlers_groups_and_the_discard_rules() {
        let text = r#"{
          "general": {"vimMode": true},
          "hooksConfig": {"enabled": true, "disabled": ["quiet"]},
          "hooks": {
            "BeforeTool": [
              {"matcher": "  write_file  ", "sequential": true, "hooks": [
                {"type": "command", "command": "a.sh", "name": "guard", "timeout": 1500, "env": {"X": "1"}},
                {"type": "prompt", "command": "b.sh"},
                {"type": "command"}
              ]},
              {"matcher": "run_shell_command"}
            ],
            "PreToolUse": [{"hooks": [{"type": "command", "command": "c.sh", "timeout": 5}]}],
            "SessionStart": [{"hooks": [{"type": "command", "command": "d.sh", "timeout": 5}]}]
          }
        }"#;
        let (entries, config, problems) = read(text);
        assert_eq!(entries.len(), 2, "{problems:?}");
        let guard = &entries[0];
        assert_eq!(
            (guard.label(), guard.timeout, guard.sequential),
            ("guard", Duration::from_millis(1500), true)
        );
        assert_eq!(guard.env.get("X").map(String::as_str), Some("1"));
        assert!(
            guard.matcher.is_match("write_file") && !guard.matcher.is_match("run_shell_command")
        );
        assert_eq!(config.disabled, ["quiet"]);
        let all = problems.join("\n");
        assert!(all.contains("Invalid hook BeforeTool from project type: prompt"), "{all}");
        assert!(
            all.contains("Command hook BeforeTool from project missing command field"),
            "{all}"
        );
        assert!(
            all.contains("Discarding invalid hook definition for BeforeTool from project"),
            "{all}"
        );
        assert!(
            all.contains("unknown Gemini CLI event `PreToolUse` (did you mean `BeforeTool`?"),
            "{all}"
        );
        assert!(all.contains("Gemini CLI reads it in milliseconds"), "{all}");
        assert!(!all.contains("general"), "Gemini's other settings are its own: {all}");
    }

    #[test]
    fn matchers_are_patterns_on_tools_and_exact_strings_elsewhere() {
        let shell = matcher_of(EventName::BeforeTool, Some("shell"));
        assert!(shell.is_match("run_shell_command"), "unanchored");
        assert!(!matcher_of(EventName::BeforeTool, Some("Bash")).is_match("run_shell_command"));
        assert!(!matcher_of(EventName::BeforeTool, Some("WRITE_FILE")).is_match("write_file"));
        let invalid = matcher_of(EventName::BeforeTool, Some("[unclosed"));
        assert!(invalid.is_match("[unclosed") && !invalid.is_match("write_file"));
        let start = matcher_of(EventName::SessionStart, Some("st.*"));
        assert!(
            !start.is_match("startup")
                && matcher_of(EventName::SessionStart, Some("startup")).is_match("startup")
        );
        assert!(matcher_of(EventName::BeforeAgent, Some("anything")).is_any());
    }
}
