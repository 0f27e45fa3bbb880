//! Loading configuration files with positions: `jsonc-parser` gives every value's byte range,
//! so each problem is reported at the offending value; a file that cannot be read or parsed
//! registers nothing and everything else keeps working.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use jsonc_parser::ast::{Object, ObjectProp, Value as Ast};
use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, ParseOptions, parse_to_ast};
use serde_json::{Map, Number, Value};

use crate::diagnostic::{LineIndex, Pos, Sink};
use crate::matcher::{compile, mcp_server_warning};
use crate::settings::{HandlerPositions, OnFailure, Origin, Plugin, Scope, SourceFile};
use crate::{Config, Diagnostic, Entry, EventName, Handler, HandlerType, PermissionRule};

/// Timeouts at or above this many seconds look like milliseconds.
const MILLISECONDS_HINT: f64 = 1000.0;

/// Reads configuration files into a [`Config`], in the order given.
#[derive(Debug, Default)]
pub struct Loader {
    config: Config,
    disable: Vec<(bool, Scope)>,
    env: Vec<(Scope, String, String)>,
}

struct Walk<'a> {
    idx: LineIndex<'a>,
    sink: Sink<'a>,
}

impl Walk<'_> {
    fn pos(&self, node: &impl Ranged) -> Pos {
        self.idx.pos(node.range().start)
    }
}

impl Loader {
    /// A loader with nothing loaded.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads a settings file (its `hooks` key) or a bare hooks file at a settings level.
    pub fn settings(&mut self, path: impl Into<PathBuf>, scope: Scope) -> &mut Self {
        let path = path.into();
        match std::fs::read_to_string(&path) {
            Ok(text) => self.settings_text(path, &text, scope),
            Err(e) => self.unreadable(&path, &e),
        }
    }

    /// Reads settings from text, as if from `path`.
    pub fn settings_text(
        &mut self,
        path: impl Into<PathBuf>,
        text: &str,
        scope: Scope,
    ) -> &mut Self {
        let source = SourceFile { path: path.into(), origin: Origin::Settings { scope } };
        self.load_text(source, text);
        self
    }

    /// Reads a plugin directory: `DIR/hooks/hooks.json`, with the plugin root `DIR` and the
    /// name from `DIR/.claude-plugin/plugin.json` (else the directory's name).
    pub fn plugin_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        let dir: PathBuf = dir.into();
        let name = plugin_name(&dir);
        self.plugin(Plugin::new(name, dir))
    }

    /// Reads a plugin's `hooks/hooks.json`.
    pub fn plugin(&mut self, plugin: Plugin) -> &mut Self {
        let path = plugin.root.join("hooks/hooks.json");
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                self.load_text(SourceFile { path, origin: Origin::Plugin(plugin) }, &text);
            }
            Err(e) => {
                self.unreadable(&path, &e);
            }
        }
        self
    }

    /// Reads a plugin's hooks from text, as if from `path`.
    pub fn plugin_text(
        &mut self,
        path: impl Into<PathBuf>,
        text: &str,
        plugin: Plugin,
    ) -> &mut Self {
        self.load_text(SourceFile { path: path.into(), origin: Origin::Plugin(plugin) }, text);
        self
    }

    fn unreadable(&mut self, path: &Path, e: &std::io::Error) -> &mut Self {
        self.config.diagnostics.push(Diagnostic::new(
            path,
            Pos::default(),
            crate::Severity::Error,
            format!("cannot read `{}`: {e}; no hook from it registers", path.display()),
        ));
        self
    }

    /// The loaded configuration, with `disableAllHooks` and the `env` blocks applied. Every
    /// diagnostic is also logged through `tracing` (target `hooks`) as a warning.
    pub fn finish(&mut self) -> Config {
        let mut config = std::mem::take(&mut self.config);
        for d in &config.diagnostics {
            tracing::warn!(target: "hooks", file = %d.file.display(), line = d.line, column = d.column, "{d}");
        }
        // Highest precedence wins; among equals, the file given last.
        let effective = self.disable.iter().copied().max_by_key(|(_, scope)| *scope);
        if let Some((true, scope)) = effective {
            for entry in &mut config.entries {
                let managed = entry.source.scope() == Some(Scope::Managed);
                entry.disabled = scope == Scope::Managed || !managed;
            }
        }
        config.disable_all = effective;
        let mut env = std::mem::take(&mut self.env);
        env.sort_by_key(|(scope, _, _)| *scope);
        for (_, key, value) in env {
            config.env.retain(|(k, _)| *k != key);
            config.env.push((key, value));
        }
        self.disable.clear();
        config
    }

    fn load_text(&mut self, source: SourceFile, text: &str) {
        let options = ParseOptions {
            allow_comments: false,
            allow_loose_object_property_names: false,
            allow_trailing_commas: false,
            allow_missing_commas: false,
            allow_single_quoted_strings: false,
            allow_hexadecimal_numbers: false,
            allow_unary_plus_numbers: false,
            allow_bare_decimal_point_numbers: false,
            allow_non_finite_numbers: false,
            allow_extended_string_escapes: false,
        };
        let path = source.path.clone();
        let mut diagnostics = Vec::new();
        let mut entries = Vec::new();
        {
            let mut w = Walk {
                idx: LineIndex::new(text),
                sink: Sink { file: &path, out: &mut diagnostics },
            };
            let parsed = match parse_to_ast(text, &CollectOptions::default(), &options) {
                Ok(parsed) => parsed,
                Err(e) => {
                    let at = w.idx.pos(e.range().start);
                    w.sink.error(
                        at,
                        format!("invalid JSON: {}; no hook from this file registers", e.kind()),
                    );
                    self.config.diagnostics.append(&mut diagnostics);
                    return;
                }
            };
            let Some(Ast::Object(root)) = parsed.value else {
                w.sink.error(
                    Pos::new(1, 1),
                    "expected a JSON object at the top level; no hook from this file registers",
                );
                self.config.diagnostics.append(&mut diagnostics);
                return;
            };
            let source = Arc::new(source);
            self.top_level(&mut w, &root, &source, &mut entries);
            self.config.sources.push(source);
        }
        self.config.entries.append(&mut entries);
        self.config.diagnostics.append(&mut diagnostics);
    }

    fn top_level(
        &mut self,
        w: &mut Walk<'_>,
        root: &Object<'_>,
        source: &Arc<SourceFile>,
        out: &mut Vec<Entry>,
    ) {
        let scope = source.scope();
        if let Some(prop) = root.get("disableAllHooks") {
            match (&prop.value, scope) {
                (Ast::BooleanLit(b), Some(scope)) => self.disable.push((b.value, scope)),
                (Ast::BooleanLit(_), None) => {}
                (v, _) => w.sink.error(w.pos(v), "`disableAllHooks` must be a boolean"),
            }
        }
        if let (Some(prop), Some(scope)) = (root.get("env"), scope) {
            match &prop.value {
                Ast::Object(env) => {
                    for p in &env.properties {
                        match &p.value {
                            Ast::StringLit(s) => {
                                self.env.push((
                                    scope,
                                    p.name.as_str().to_owned(),
                                    s.value.to_string(),
                                ));
                            }
                            v => w.sink.warning(
                                w.pos(v),
                                format!(
                                    "`env.{}` must be a string; it is not exported",
                                    p.name.as_str()
                                ),
                            ),
                        }
                    }
                }
                v => w.sink.warning(w.pos(v), "`env` must be an object; it is ignored"),
            }
        }
        let Some(hooks) = root.get("hooks") else { return };
        let Ast::Object(hooks) = &hooks.value else {
            w.sink.error(
                w.pos(&hooks.value),
                "`hooks` must be an object mapping event names to matcher groups",
            );
            return;
        };
        for event_prop in &hooks.properties {
            let name = event_prop.name.as_str();
            let at = w.pos(&event_prop.name);
            let Some(event) = EventName::parse(name) else {
                let hint = EventName::ALL
                    .iter()
                    .find(|e| e.as_str().eq_ignore_ascii_case(name))
                    .map(|e| format!(" (did you mean `{e}`? event names are case-sensitive)"))
                    .unwrap_or_default();
                w.sink.warning(
                    at,
                    format!("unknown hook event `{name}`{hint}; its hooks are skipped"),
                );
                continue;
            };
            let Ast::Array(groups) = &event_prop.value else {
                w.sink.error(
                    w.pos(&event_prop.value),
                    format!("`{event}` must be an array of matcher groups"),
                );
                continue;
            };
            for group in &groups.elements {
                self.group(w, event, group, source, out);
            }
        }
    }

    fn group(
        &self,
        w: &mut Walk<'_>,
        event: EventName,
        group: &Ast<'_>,
        source: &Arc<SourceFile>,
        out: &mut Vec<Entry>,
    ) {
        let Ast::Object(group) = group else {
            w.sink.error(
                w.pos(group),
                format!("a `{event}` matcher group must be an object with `matcher` and `hooks`"),
            );
            return;
        };
        let mut matcher_pos = w.pos(group);
        let matcher_raw = match group.get("matcher").map(|p| &p.value) {
            None => None,
            Some(Ast::StringLit(s)) => {
                matcher_pos = w.pos(s);
                Some(s.value.to_string())
            }
            Some(v) => {
                w.sink.error(w.pos(v), "`matcher` must be a string; the group is skipped");
                return;
            }
        };
        if let Some(raw) = &matcher_raw {
            if !event.has_matcher() && !raw.is_empty() && raw != "*" {
                w.sink.warning(
                    matcher_pos,
                    format!("`{event}` ignores matchers; matcher `{raw}` has no effect"),
                );
            }
            if let Some(msg) = mcp_server_warning(raw, Some(event)) {
                w.sink.warning(matcher_pos, msg);
            }
        }
        let matcher = match compile(matcher_raw.as_deref(), Some(event)) {
            Ok(m) => m,
            Err(e) => {
                w.sink.error(matcher_pos, format!("{e}; the group is skipped"));
                return;
            }
        };
        let handlers = match group.get("hooks").map(|p| &p.value) {
            Some(Ast::Array(a)) => &a.elements,
            Some(v) => {
                w.sink.error(w.pos(v), "`hooks` must be an array of handlers");
                return;
            }
            None => {
                w.sink.error(
                    w.pos(group),
                    format!("a `{event}` matcher group needs a `hooks` array"),
                );
                return;
            }
        };
        for h in handlers {
            if let Some(handler) = handler(w, event, h, matcher_pos) {
                out.push(Entry {
                    event,
                    matcher_raw: matcher_raw.clone(),
                    matcher: matcher.clone(),
                    handler,
                    source: Arc::clone(source),
                    disabled: false,
                });
            }
        }
    }
}

fn plugin_name(dir: &Path) -> String {
    let manifest = dir.join(".claude-plugin/plugin.json");
    std::fs::read_to_string(manifest)
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|v| v.get("name").and_then(Value::as_str).map(str::to_owned))
        .unwrap_or_else(|| {
            dir.file_name()
                .map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into_owned())
        })
}

fn prop<'a, 'b>(obj: &'b Object<'a>, name: &str) -> Option<&'b ObjectProp<'a>> {
    obj.get(name)
}

/// Converts a syntax-tree value into a JSON value.
pub(crate) fn to_json(v: &Ast<'_>) -> Value {
    match v {
        Ast::StringLit(s) => Value::String(s.value.to_string()),
        Ast::NumberLit(n) => {
            serde_json::from_str::<Number>(n.value).map_or(Value::Null, Value::Number)
        }
        Ast::BooleanLit(b) => Value::Bool(b.value),
        Ast::NullKeyword(_) => Value::Null,
        Ast::Array(a) => Value::Array(a.elements.iter().map(to_json).collect()),
        Ast::Object(o) => Value::Object(
            o.properties
                .iter()
                .map(|p| (p.name.as_str().to_owned(), to_json(&p.value)))
                .collect::<Map<_, _>>(),
        ),
    }
}

fn handler(w: &mut Walk<'_>, event: EventName, node: &Ast<'_>, matcher: Pos) -> Option<Handler> {
    let Ast::Object(obj) = node else {
        w.sink.error(w.pos(node), "a handler must be an object with a `type`");
        return None;
    };
    let at = w.pos(obj);
    let kind = match prop(obj, "type").map(|p| &p.value) {
        Some(Ast::StringLit(s)) => match HandlerType::parse(&s.value) {
            Some(k) => k,
            None => {
                w.sink.error(w.pos(s), format!("unknown handler type `{}`; expected `command`, `http`, `mcp_tool`, `prompt` or `agent`", s.value));
                return None;
            }
        },
        Some(v) => {
            w.sink.error(w.pos(v), "`type` must be a string");
            return None;
        }
        None => {
            w.sink.error(at, "a handler needs a `type`");
            return None;
        }
    };
    let type_pos = prop(obj, "type").map_or(at, |p| w.pos(&p.value));
    if !event.accepts(kind) {
        w.sink.error(
            type_pos,
            format!("`{event}` does not accept `{kind}` handlers; this handler is skipped"),
        );
        return None;
    }
    let mut ok = true;
    let string = |w: &mut Walk<'_>, name: &str, ok: &mut bool| -> Option<(String, Pos)> {
        match prop(obj, name).map(|p| &p.value) {
            None => None,
            Some(Ast::StringLit(s)) => Some((s.value.to_string(), w.pos(s))),
            Some(v) => {
                w.sink.error(w.pos(v), format!("`{name}` must be a string"));
                *ok = false;
                None
            }
        }
    };
    let boolean = |w: &mut Walk<'_>, name: &str, ok: &mut bool| -> bool {
        match prop(obj, name).map(|p| &p.value) {
            None => false,
            Some(Ast::BooleanLit(b)) => b.value,
            Some(v) => {
                w.sink.error(w.pos(v), format!("`{name}` must be a boolean"));
                *ok = false;
                false
            }
        }
    };
    let command = string(w, "command", &mut ok);
    let mut command_pos = at;
    if let Some((_, p)) = &command {
        command_pos = *p;
    }
    let args = match prop(obj, "args").map(|p| &p.value) {
        None => None,
        Some(Ast::Array(a)) => {
            let mut out = Vec::new();
            for e in &a.elements {
                match e {
                    Ast::StringLit(s) => out.push(s.value.to_string()),
                    other => {
                        w.sink.error(w.pos(other), "every element of `args` must be a string");
                        ok = false;
                    }
                }
            }
            Some(out)
        }
        Some(v) => {
            w.sink.error(w.pos(v), "`args` must be an array of strings");
            ok = false;
            None
        }
    };
    let timeout = match prop(obj, "timeout").map(|p| &p.value) {
        None => None,
        Some(Ast::NumberLit(n)) => {
            let secs: f64 = n.value.parse().unwrap_or(f64::NAN);
            if !(secs.is_finite() && secs > 0.0)
                || hook_protocol::exec::timeout_from_secs(secs).is_err()
            {
                w.sink.error(w.pos(n), format!("`timeout` must be a positive number of seconds, got `{}`; this handler is skipped", n.value));
                ok = false;
            } else if secs >= MILLISECONDS_HINT {
                w.sink.warning(w.pos(n), format!("`timeout` is {} seconds ({:.0} minutes); timeouts are in seconds, not milliseconds", n.value, secs / 60.0));
            }
            Some(secs)
        }
        Some(v) => {
            w.sink.error(w.pos(v), "`timeout` must be a number of seconds");
            ok = false;
            None
        }
    };
    let if_rule = string(w, "if", &mut ok);
    let mut rule = None;
    if let Some((text, p)) = &if_rule {
        match PermissionRule::parse(text) {
            Ok(r) => rule = Some(r),
            Err(e) => {
                w.sink.error(*p, format!("{e}; this handler is skipped"));
                ok = false;
            }
        }
        if !event.is_tool_event() {
            w.sink.warning(*p, format!("`if` is only evaluated on tool events; on `{event}` a handler with `if` never runs"));
        }
    }
    let on_failure = match string(w, "onFailure", &mut ok) {
        None => OnFailure::Continue,
        Some((s, _)) if s == "continue" => OnFailure::Continue,
        Some((s, _)) if s == "block" => OnFailure::Block,
        Some((s, p)) => {
            w.sink.error(
                p,
                format!(
                    "`onFailure` must be `continue` or `block`, got `{s}`; this handler is skipped"
                ),
            );
            ok = false;
            OnFailure::Continue
        }
    };
    let shell = string(w, "shell", &mut ok);
    if let Some((s, p)) = &shell
        && s != "bash"
        && s != "powershell"
    {
        w.sink.error(
            *p,
            format!("`shell` must be `bash` or `powershell`, got `{s}`; this handler is skipped"),
        );
        ok = false;
    }
    let status_message = string(w, "statusMessage", &mut ok).map(|(s, _)| s);
    let once = boolean(w, "once", &mut ok);
    let is_async = boolean(w, "async", &mut ok);
    let async_rewake = boolean(w, "asyncRewake", &mut ok);
    match kind {
        HandlerType::Command => {
            if command.as_ref().is_none_or(|(c, _)| c.trim().is_empty()) {
                if ok {
                    w.sink.error(at, "a `command` handler needs a non-empty `command`");
                }
                ok = false;
            }
        }
        other => {
            w.sink.warning(at, format!("`{other}` handlers are not run yet; this handler is skipped when its event fires"));
        }
    }
    if !ok {
        return None;
    }
    let raw = match to_json(node) {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    Some(Handler {
        kind,
        command: command.map(|(c, _)| c),
        args,
        shell: shell.map(|(s, _)| s),
        timeout,
        if_rule: if_rule.map(|(s, _)| s),
        status_message,
        once,
        is_async,
        async_rewake,
        on_failure,
        raw,
        positions: HandlerPositions { handler: at, command: command_pos, matcher },
        rule,
    })
}
