//! Gemini CLI's hook configuration: where Gemini reads it and what it holds
//! ([Configuration files](crate::compatibility#configuration-files)).
//!
//! Hooks live in Gemini's `settings.json` (the user's `~/.gemini/settings.json` and the
//! project's `.gemini/settings.json`) under `hooks`, in Claude Code's shape with Gemini's
//! additions: `{"hooks": {Event: [{"matcher"?, "sequential"?, "hooks": [{"type": "command",
//! "command", "name"?, "timeout"? (milliseconds), "env"?, "description"?}]}]}}`, and
//! `hooksConfig` (`enabled`, `disabled`). In come files, each with its place; out comes a
//! [`Config`]: one [`Entry`] per handler, in order, and every problem as a [`Diagnostic`] at
//! its line and column.

mod read;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use hook_protocol::{Matcher, Position};
use serde::Serialize;

use crate::EventName;

/// Where a `settings.json` sits among Gemini's places.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Scope {
    /// The user's (`~/.gemini/settings.json`).
    User,
    /// The project's (`<project>/.gemini/settings.json`).
    Project,
}

impl Scope {
    /// `user` or `project`.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::User => "user",
            Scope::Project => "project",
        }
    }
}

/// A `settings.json` that was read, with its scope.
pub type SourceFile = hook_kit::SourceFile<Scope>;

/// One configured handler, registered for one event.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct Entry {
    /// The event.
    pub event: EventName,
    /// `command`: run as `bash -c COMMAND`, Gemini's variables substituted first.
    pub command: String,
    /// `name`: how Gemini names the hook (else by its command).
    pub name: Option<String>,
    /// `description`.
    pub description: Option<String>,
    /// How long it may run (`timeout`, milliseconds; 60,000 when absent).
    pub timeout: Duration,
    /// `env`: variables added to the hook's environment.
    pub env: BTreeMap<String, String>,
    /// `sequential` on its group: when any group matching an event has it, the event's hooks
    /// run one after another, each seeing what the one before changed.
    pub sequential: bool,
    /// The group's `matcher`, as written (trimmed).
    pub matcher_raw: Option<String>,
    /// The compiled matcher: a regular expression searched in the tool's name on the tool
    /// events (an invalid one compares the name exactly), an exact string elsewhere.
    #[serde(skip)]
    pub matcher: Matcher,
    /// Where it comes from.
    pub source: Arc<SourceFile>,
    /// The position of the handler in its file.
    pub position: Position,
}

impl Entry {
    /// What Gemini names the hook by: its `name`, else its command.
    pub fn label(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.command)
    }
}

/// Everything loaded: one entry per handler, the user's file first, then the project's, and
/// within a file in order; and every problem found.
pub type Config = hook_kit::Config<Entry, SourceFile>;

/// The timeout of a hook that sets none: 60,000 ms.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// What one `settings.json` says of hooks as a whole (`hooksConfig`), and of its hooks'
/// environment (`security.environmentVariableRedaction`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct HooksConfig {
    /// `hooksConfig.enabled: false`: no hook runs.
    pub disabled_all: bool,
    /// `hooksConfig.disabled`: handlers turned off by name (else by command).
    pub disabled: Vec<String>,
    /// `security.environmentVariableRedaction.enabled`: secret-looking variables are kept from
    /// the hooks' environment.
    pub redact_env: bool,
}

/// Reads `settings.json` files into a [`Config`].
pub type Loader = hook_kit::Loader<Entry>;

impl hook_kit::ReadFile for Entry {
    type Scope = Scope;
    const PLUGIN_FILES: &'static [&'static str] = &["hooks/hooks.json"];
    const PLUGIN_SCOPE: Scope = Scope::User;

    fn read(config: &mut Config, source: &Arc<SourceFile>, text: &str) {
        let (entries, _) = read::settings_file(source, text, &mut config.diagnostics);
        config.add(source, entries);
    }
}

/// What the files say of hooks as a whole, the user's first: a file that turns hooks off
/// turns them all off; the names turned off add up.
pub fn hooks_config(files: &[(PathBuf, String)]) -> HooksConfig {
    let mut out = HooksConfig::default();
    for (path, text) in files {
        let source = Arc::new(SourceFile::new(path.clone(), Scope::User));
        let mut ignored = Vec::new();
        let (_, config) = read::settings_file(&source, text, &mut ignored);
        out.disabled_all |= config.disabled_all;
        out.disabled.extend(config.disabled);
        out.redact_env |= config.redact_env;
    }
    out
}

/// The `settings.json` files Gemini reads for a project: the user's
/// (`gemini_home/settings.json`, `~/.gemini` by default), then the project's
/// (`.gemini/settings.json`). Only files that exist.
pub fn discover(gemini_home: Option<&Path>, project_dir: &Path) -> Vec<(PathBuf, Scope)> {
    let mut found = Vec::new();
    if let Some(home) = gemini_home {
        found.push((home.join("settings.json"), Scope::User));
    }
    found.push((project_dir.join(".gemini/settings.json"), Scope::Project));
    found.retain(|(path, _)| path.is_file());
    found
}
