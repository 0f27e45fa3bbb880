//! Codex's hook configuration: where Codex reads it, in its layers, and what it holds
//! ([Configuration files](crate::compatibility#configuration-files)).
//!
//! Each layer has a `hooks.json` (`{"hooks": {Event: [{"matcher", "hooks": [handler]}]}}`) and
//! a `config.toml` whose `[hooks]` tables have the same shape. In come files, each with its
//! layer; out comes a [`Config`]: one [`Entry`] per handler, in configuration order, with its
//! trust, and every problem as a [`Diagnostic`] at its line and column. Loading never fails:
//! what cannot be read is a diagnostic, and the rest loads.

mod node;
mod plugin;
mod read;

pub use plugin::Plugin;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use hook_protocol::{Diagnostic, LineIndex, Matcher, Position};
use serde::Serialize;

use crate::EventName;
use crate::trust::{Reviews, Trust};

/// Where a configuration file sits among Codex's layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Scope {
    /// Managed by an administrator (`/etc/codex/requirements.toml`, `/etc/codex/config.toml`
    /// and `hooks.json`): its hooks always run.
    Managed,
    /// The user's (`$CODEX_HOME`, `~/.codex` by default).
    User,
    /// A project's `.codex/` folder: read only when the user trusts the project.
    Project,
    /// A plugin's hooks ([`Loader::plugin`]): after the other layers, reviewed as the user's.
    Plugin,
}

impl Scope {
    /// `managed`, `user` or `project`.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Managed => "managed",
            Scope::User => "user",
            Scope::Project => "project",
            Scope::Plugin => "plugin",
        }
    }
}

/// A configuration file that was read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct SourceFile {
    /// The file.
    pub path: PathBuf,
    /// Its scope (Codex's layer).
    pub scope: Scope,
    /// The plugin whose hooks these are ([`Scope::Plugin`]).
    pub plugin: Option<Plugin>,
}

impl SourceFile {
    /// How Codex starts its hooks' review keys: the file's path, or for a plugin
    /// `<id>:<where in the plugin>`.
    pub fn key_source(&self) -> String {
        match &self.plugin {
            Some(plugin) => format!("{}:{}", plugin.id, plugin.relative),
            None => self.path.display().to_string(),
        }
    }
}

/// One configured command handler, registered for one event.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct Entry {
    /// The event.
    pub event: EventName,
    /// The group's `matcher`, as written; `None` when absent or ignored by the event.
    pub matcher_raw: Option<String>,
    /// The compiled matcher.
    #[serde(skip)]
    pub matcher: Matcher,
    /// The command, run as `$SHELL -lc COMMAND`.
    pub command: String,
    /// How long it may run (`timeout`, seconds; 600 when absent).
    pub timeout: Duration,
    /// `async`: Codex runs it in the background.
    pub is_async: bool,
    /// `statusMessage`.
    pub status_message: Option<String>,
    /// Where it comes from.
    pub source: Arc<SourceFile>,
    /// The position of the handler in its file.
    pub position: Position,
    /// Its group's index among its event's groups in the file, and its own in the group.
    pub indices: (usize, usize),
    /// Its key in the user's hook states (`<file>:<event label>:<group>:<handler>`).
    pub key: String,
    /// The hash its trust is recorded against.
    pub hash: String,
    /// Whether it may run by Codex's trust rule.
    pub trust: Trust,
}

/// Everything loaded: one entry per handler in configuration order (layer by layer, lowest
/// precedence first; in a layer, `hooks.json` before `config.toml`), and every problem found.
pub type Config = hook_kit::Config<Entry, SourceFile>;

/// Reads configuration files into a [`Config`].
#[derive(Debug, Default)]
pub struct Loader {
    config: Config,
    reviews: Reviews,
    trust_all: bool,
}

/// The default timeout of a handler that sets none.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

impl Loader {
    /// A loader with nothing loaded, which applies the trust rule with no review recorded
    /// (every hook that is not managed is untrusted) until [`Loader::reviews`] says otherwise.
    pub fn new() -> Self {
        Self::default()
    }

    /// The user's reviews, from the `[hooks.state]` and `[projects]` tables of their
    /// `config.toml`.
    #[must_use]
    pub fn reviews(mut self, reviews: Reviews) -> Self {
        self.reviews = reviews;
        self
    }

    /// Every hook runs, whatever its review (Codex's `--dangerously-bypass-hook-trust`); a
    /// disabled one (`enabled = false`) still does not.
    #[must_use]
    pub fn trust_all(mut self, on: bool) -> Self {
        self.trust_all = on;
        self
    }

    /// Reads a hook file of a layer: a `config.toml`'s `[hooks]` tables when its name ends in
    /// `.toml`, else a `hooks.json`. A file that cannot be read is an error of the
    /// configuration, naming it.
    pub fn file(&mut self, path: impl Into<PathBuf>, scope: Scope) {
        self.read(path.into(), scope, Self::text);
    }

    /// Reads the text of a hook file of a layer: a `config.toml` when its name ends in
    /// `.toml`, else a `hooks.json`.
    pub fn text(&mut self, path: impl Into<PathBuf>, text: &str, scope: Scope) {
        let path = path.into();
        if path.extension().is_some_and(|e| e == "toml") {
            self.config_toml_text(path, text, scope);
        } else {
            self.hooks_json_text(path, text, scope);
        }
    }

    /// Reads a `hooks.json` of a layer. A file that cannot be read is an error of the
    /// configuration, naming it.
    pub fn hooks_json(&mut self, path: impl Into<PathBuf>, scope: Scope) {
        self.read(path.into(), scope, Self::hooks_json_text);
    }

    /// Reads the text of a `hooks.json`.
    pub fn hooks_json_text(&mut self, path: impl Into<PathBuf>, text: &str, scope: Scope) {
        let path = absolute(path.into());
        let idx = LineIndex::new(text);
        let parsed = jsonc_parser::parse_to_ast(
            text,
            &jsonc_parser::CollectOptions::default(),
            &hook_kit::json::strict(),
        );
        let root = match parsed {
            Ok(parsed) => match parsed.value {
                Some(ast) => node::from_json(&ast, &idx),
                None => return self.error(&path, Position::new(1, 1), "the file is empty"),
            },
            Err(e) => {
                let at = idx.position(e.range().start);
                return self.error(&path, at, &format!("invalid JSON: {}", e.kind()));
            }
        };
        let source = Arc::new(SourceFile { path, scope, plugin: None });
        let hooks = read::file_hooks(&source, &root, false, &mut self.config.diagnostics);
        self.add(&source, hooks);
    }

    /// Reads the `[hooks]` tables of a `config.toml` of a layer.
    pub fn config_toml(&mut self, path: impl Into<PathBuf>, scope: Scope) {
        self.read(path.into(), scope, Self::config_toml_text);
    }

    /// Reads a file's text into `then`; a file that cannot be read is an error of the
    /// configuration, naming it.
    fn read(&mut self, path: PathBuf, scope: Scope, then: fn(&mut Self, PathBuf, &str, Scope)) {
        match read::file_text(&path) {
            Ok(text) => then(self, path, &text, scope),
            Err(message) => self.config.diagnostics.push(Diagnostic::error(
                &path,
                Position::default(),
                format!("{message}; no hook from it runs"),
            )),
        }
    }

    /// Reads the `[hooks]` tables of a `config.toml`'s text.
    pub fn config_toml_text(&mut self, path: impl Into<PathBuf>, text: &str, scope: Scope) {
        let path = absolute(path.into());
        let idx = LineIndex::new(text);
        let document = match toml::de::DeTable::parse(text) {
            Ok(document) => document,
            Err(e) => {
                let at = e.span().map_or(Position::new(1, 1), |s| idx.position(s.start));
                let message = e.message().lines().next().unwrap_or("invalid TOML").to_owned();
                return self.error(&path, at, &format!("invalid TOML: {message}"));
            }
        };
        let root = node::from_toml(
            &toml::de::DeValue::Table(document.get_ref().clone()),
            document.span().start,
            &idx,
        );
        let source = Arc::new(SourceFile { path, scope, plugin: None });
        let hooks = read::file_hooks(&source, &root, true, &mut self.config.diagnostics);
        self.add(&source, hooks);
    }

    fn error(&mut self, path: &Path, at: Position, message: &str) {
        self.config.diagnostics.push(Diagnostic::error(
            path,
            at,
            format!("{message}; no hook from this file runs"),
        ));
    }

    /// Adds a file's entries, with their trust.
    fn add(&mut self, source: &Arc<SourceFile>, entries: Vec<Entry>) {
        let trusted = entries.into_iter().map(|mut entry| {
            entry.trust = match source.scope {
                Scope::Managed => Trust::Managed,
                _ => match self.reviews.trust(&entry.key, &entry.hash) {
                    Trust::Untrusted | Trust::Modified if self.trust_all => Trust::Trusted,
                    trust => trust,
                },
            };
            entry
        });
        let trusted: Vec<Entry> = trusted.collect();
        self.config.add(source, trusted);
    }

    /// What was loaded.
    pub fn finish(self) -> Config {
        self.config
    }
}

/// The path, absolute (as Codex keys hooks and names them to the model).
fn absolute(path: PathBuf) -> PathBuf {
    std::path::absolute(&path).unwrap_or(path)
}

/// The configuration files Codex reads for a project, in its order: the managed ones, the
/// user's (in `codex_home`), then each `.codex/` folder from the repository's root (the
/// nearest folder above `project_dir` holding `.git`, else `project_dir`) down to
/// `project_dir`, when the project is trusted. In each layer, `hooks.json` before
/// `config.toml`; only files that exist.
pub fn discover(
    codex_home: Option<&Path>,
    project_dir: &Path,
    reviews: &Reviews,
) -> Vec<(PathBuf, Scope)> {
    let mut out = Vec::new();
    let layer = |dir: &Path, scope: Scope, out: &mut Vec<(PathBuf, Scope)>| {
        for name in ["hooks.json", "config.toml"] {
            let file = dir.join(name);
            if file.is_file() {
                out.push((file, scope));
            }
        }
    };
    let managed = Path::new("/etc/codex");
    let requirements = managed.join("requirements.toml");
    if requirements.is_file() {
        out.push((requirements, Scope::Managed));
    }
    layer(managed, Scope::Managed, &mut out);
    if let Some(home) = codex_home {
        layer(home, Scope::User, &mut out);
    }
    let root = project_dir.ancestors().find(|dir| dir.join(".git").exists()).unwrap_or(project_dir);
    if reviews.trusts_project(project_dir) || reviews.trusts_project(root) {
        let mut dirs: Vec<&Path> =
            project_dir.ancestors().take_while(|dir| dir.starts_with(root)).collect();
        dirs.reverse();
        for dir in dirs {
            layer(&dir.join(".codex"), Scope::Project, &mut out);
        }
    }
    out
}
