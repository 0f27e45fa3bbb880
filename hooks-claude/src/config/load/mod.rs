//! Loading configuration files with positions: `jsonc-parser` gives every value's byte range,
//! so each problem is reported at the offending value; a file that cannot be read or parsed
//! registers nothing and everything else keeps working.

use std::path::PathBuf;
use std::sync::Arc;

use jsonc_parser::ast::{Object, Value as Ast};
use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, parse_to_ast};

use hook_protocol::text_file::{Cap, ReadError, read_text};
use hook_protocol::{Diagnostic, LineIndex, Position};

use crate::config::settings::{Origin, Plugin, Scope, SourceFile};
use crate::matcher::{compile, mcp_server_warning};
use crate::{Config, Entry, EventName};
use hook_kit::json::Sink;

mod frontmatter;
mod handler;
mod modules;
mod plugin;

use handler::handler;

/// What did not load, and everything that did.
///
/// Displayed, it lists each error as `FILE:LINE:COL: error: message`, one a line.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}", render_errors(.config))]
pub struct LoadErrors {
    config: Box<Config>,
}

fn render_errors(config: &Config) -> String {
    let errors: Vec<String> =
        config.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.to_string()).collect();
    let what = match errors.len() {
        1 => "a configuration problem".to_owned(),
        n => format!("{n} configuration problems"),
    };
    format!("{what}; the rest of the configuration loaded:\n{}", errors.join("\n"))
}

impl LoadErrors {
    /// The errors: what did not register.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.config.diagnostics.iter().filter(|d| d.is_error())
    }

    /// Every problem, warnings included, in the order found.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.config.diagnostics
    }

    /// The configuration of everything that loaded (its diagnostics included), to run.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The configuration of everything that loaded, to run: the rest works.
    pub fn into_config(self) -> Config {
        *self.config
    }
}

/// Reads configuration files into a [`Config`], in the order given.
#[derive(Debug, Default)]
pub struct Loader {
    config: Config,
    disable: Vec<(bool, Scope)>,
    policy: crate::ManagedPolicy,
    env: Vec<(Scope, String, String)>,
}

struct Walk<'a> {
    idx: LineIndex<'a>,
    sink: Sink<'a>,
}

impl Walk<'_> {
    fn pos(&self, node: &impl Ranged) -> Position {
        self.idx.position(node.range().start)
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
        match read_text(&path, Cap::CONFIG) {
            Ok(text) => self.settings_text(path, &text, scope),
            Err(e) => self.unreadable(&e),
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

    fn unreadable(&mut self, e: &ReadError) -> &mut Self {
        self.config.diagnostics.push(e.skipping_file("no hook from it registers"));
        self
    }

    /// The loaded configuration, with `disableAllHooks` and the `env` blocks applied; every
    /// diagnostic is in [`Config::diagnostics`] and is also logged through `tracing` (target
    /// `hooks`) as a warning.
    ///
    /// # Errors
    ///
    /// [`LoadErrors`] when something did not register (a file that cannot be read or parsed, a
    /// bad event, group or handler): it names each problem and still holds the configuration
    /// of everything else, so that a harness shows the problems and goes on with the rest, as
    /// Claude Code does (`.unwrap_or_else(|e| { show(&e); e.into_config() })`).
    pub fn finish(&mut self) -> Result<Config, LoadErrors> {
        let config = self.finish_all();
        if config.has_errors() { Err(LoadErrors { config: Box::new(config) }) } else { Ok(config) }
    }

    fn finish_all(&mut self) -> Config {
        let mut config = std::mem::take(&mut self.config);
        for d in &config.diagnostics {
            tracing::warn!(target: "hooks", file = %d.file.display(), line = d.line, column = d.column, "{d}");
        }
        // Highest precedence wins; among equals, the file given last.
        let effective = self.disable.iter().copied().max_by_key(|(_, scope)| *scope);
        let disable_all = effective.and_then(|(on, scope)| on.then_some(scope));
        let policy = std::mem::take(&mut self.policy);
        for entry in &mut config.entries {
            entry.disabled = !policy.allows(&entry.source, disable_all);
        }
        config.disable_all = effective;
        config.policy = policy;
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
        let options = hook_kit::json::strict();
        let path = source.path.clone();
        let mut diagnostics = Vec::new();
        let mut entries = Vec::new();
        {
            let mut w = Walk {
                idx: LineIndex::new(text),
                sink: Sink::without_text(&path, &mut diagnostics),
            };
            let parsed = match parse_to_ast(text, &CollectOptions::default(), &options) {
                Ok(parsed) => parsed,
                Err(e) => {
                    let at = w.idx.position(e.range().start);
                    w.sink.error(
                        at,
                        hook_protocol::skipping(
                            format!("invalid JSON: {}", e.kind()),
                            hook_protocol::Skipped::File,
                            "no hook from this file registers",
                        ),
                    );
                    self.config.diagnostics.append(&mut diagnostics);
                    return;
                }
            };
            let Some(Ast::Object(root)) = parsed.value else {
                w.sink.error(
                    Position::new(1, 1),
                    hook_protocol::skipping(
                        "expected a JSON object at the top level",
                        hook_protocol::Skipped::File,
                        "no hook from this file registers",
                    ),
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
        self.managed_policy(w, root, scope);
        if let (Origin::Plugin(plugin), Some(prop)) = (&source.origin, root.get("modules")) {
            modules::function_modules(w, &prop.value, plugin);
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
                v => w.sink.warning(
                    w.pos(v),
                    hook_protocol::skipping(
                        "`env` must be an object",
                        hook_protocol::Skipped::Value,
                        "it is ignored",
                    ),
                ),
            }
        }
        if scope.is_some() {
            for (key, slot) in [
                ("allowedHttpHookUrls", &mut self.config.allowed_http_hook_urls),
                ("httpHookAllowedEnvVars", &mut self.config.http_hook_allowed_env_vars),
            ] {
                let Some(prop) = root.get(key) else { continue };
                match &prop.value {
                    Ast::Array(a) => {
                        let list = slot.get_or_insert_with(Vec::new);
                        for e in &a.elements {
                            match e {
                                Ast::StringLit(s) => list.push(s.value.to_string()),
                                v => w.sink.error(
                                    w.pos(v),
                                    hook_protocol::skipping(
                                        format!("every element of `{key}` must be a string"),
                                        hook_protocol::Skipped::Value,
                                        "it is ignored",
                                    ),
                                ),
                            }
                        }
                    }
                    v => {
                        // Fail closed: a list that cannot be read allows nothing.
                        slot.get_or_insert_with(Vec::new);
                        w.sink.error(
                            w.pos(v),
                            format!("`{key}` must be an array of strings; it is read as an empty list, which allows nothing"),
                        );
                    }
                }
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
                    hook_protocol::skipping(
                        format!("unknown hook event `{name}`{hint}"),
                        hook_protocol::Skipped::Event,
                        "its hooks are skipped",
                    ),
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

    /// `allowManagedHooksOnly`, `strictPluginOnlyCustomization` and `enabledPlugins`, which
    /// restrict hooks from managed settings only. A value that cannot be read restricts (fail
    /// closed); elsewhere the first two are ignored with a warning.
    fn managed_policy(&mut self, w: &mut Walk<'_>, root: &Object<'_>, scope: Option<Scope>) {
        let managed = scope == Some(Scope::Managed);
        let policy = &mut self.policy;
        for (key, slot, bad_value) in [
            (
                "allowManagedHooksOnly",
                &mut policy.managed_hooks_only,
                "`allowManagedHooksOnly` must be a boolean; it is read as true",
            ),
            (
                "strictPluginOnlyCustomization",
                &mut policy.plugin_only_hooks,
                "`strictPluginOnlyCustomization` must be a boolean or an array of surface names; \
                 it is read as covering hooks",
            ),
        ] {
            let Some(prop) = root.get(key) else { continue };
            let at = w.pos(&prop.value);
            if !managed {
                w.sink.warning(
                    at,
                    format!("`{key}` is honoured in managed settings only; it is ignored here"),
                );
                continue;
            }
            *slot |= match &prop.value {
                Ast::BooleanLit(b) => b.value,
                // A list names the surfaces it covers; only `strictPluginOnlyCustomization` has one.
                Ast::Array(a) if key == "strictPluginOnlyCustomization" => {
                    a.elements.iter().any(|e| matches!(e, Ast::StringLit(s) if s.value == "hooks"))
                }
                _ => {
                    w.sink.error(at, bad_value);
                    true
                }
            };
        }
        if let (true, Some(prop)) = (managed, root.get("enabledPlugins")) {
            match &prop.value {
                Ast::Object(plugins) => {
                    for p in &plugins.properties {
                        if matches!(&p.value, Ast::BooleanLit(b) if b.value) {
                            self.policy.forced_plugins.push(p.name.as_str().to_owned());
                        }
                    }
                }
                v => w.sink.warning(
                    w.pos(v),
                    hook_protocol::skipping(
                        "`enabledPlugins` must be an object of `plugin@marketplace` to booleans",
                        hook_protocol::Skipped::Value,
                        "it is ignored",
                    ),
                ),
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
                w.sink.error(
                    w.pos(v),
                    hook_protocol::skipping(
                        "`matcher` must be a string",
                        hook_protocol::Skipped::Group,
                        "the group is skipped",
                    ),
                );
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
                w.sink.error(
                    matcher_pos,
                    hook_protocol::skipping(
                        format!("{e}"),
                        hook_protocol::Skipped::Group,
                        "the group is skipped",
                    ),
                );
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
