//! Copilot's hook configuration: where Copilot reads it, in its order, and what it holds
//! ([Configuration files](crate::compatibility#configuration-files)).
//!
//! A hook file is `{"version": 1, "hooks": {event: [entry]}}`: flat lists of entries, no
//! matcher groups. In come files, each with its place; out comes a [`Config`]: one [`Entry`]
//! per hook in the order Copilot runs them, and every problem as a [`Diagnostic`] at its line
//! and column. Loading never fails: an entry Copilot would skip is a warning, what cannot be
//! read is an error, and the rest loads.

mod read;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use hook_protocol::{Diagnostic, Matcher, Position};
use serde::Serialize;

use crate::EventName;

/// Where a hook file sits among the places Copilot reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Scope {
    /// The administrator's policy folder (`/etc/github-copilot/policy.d/*.json`).
    Policy,
    /// The user's hook folder (`~/.copilot/hooks/*.json`).
    User,
    /// The repository's hook folder (`.github/hooks/*.json`).
    Repo,
    /// The `hooks` of a settings file (`.github/copilot/settings.json`,
    /// `.github/copilot/settings.local.json`, `~/.copilot/settings.json`): no
    /// `COPILOT_HOOK_DIR` for them.
    Settings,
    /// A plugin's `hooks.json` (or `hooks/hooks.json`), after the other places.
    Plugin,
}

impl Scope {
    /// `policy`, `user`, `repo`, `settings` or `plugin`.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Policy => "policy",
            Scope::User => "user",
            Scope::Repo => "repo",
            Scope::Settings => "settings",
            Scope::Plugin => "plugin",
        }
    }
}

/// A hook file that was read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct SourceFile {
    /// The file.
    pub path: PathBuf,
    /// Its scope.
    pub scope: Scope,
}

impl SourceFile {
    /// The folder a hook of this file gets as `COPILOT_HOOK_DIR`: the file's own, except for
    /// settings files, whose hooks get none.
    pub fn hook_dir(&self) -> Option<&Path> {
        match self.scope {
            Scope::Settings => None,
            _ => self.path.parent(),
        }
    }

    /// The folder of the plugin whose hooks these are (`PLUGIN_ROOT`): the file's folder, or
    /// the one above it for a `hooks/hooks.json`.
    pub fn plugin_root(&self) -> Option<&Path> {
        if self.scope != Scope::Plugin {
            return None;
        }
        let folder = self.path.parent()?;
        match folder.file_name() {
            Some(name) if name == "hooks" => folder.parent(),
            _ => Some(folder),
        }
    }
}

/// What a hook runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Command {
    /// `bash` (or `command`): a command line, run as `/bin/bash --norc --noprofile -c LINE`.
    Bash(String),
    /// `exec` and `args`: a program started directly, its arguments as written.
    Exec {
        /// The program.
        program: String,
        /// Its arguments.
        args: Vec<String>,
    },
}

impl Command {
    /// The command as a person reads it: the line, or the program and its arguments.
    pub fn label(&self) -> String {
        match self {
            Command::Bash(line) => line.clone(),
            Command::Exec { program, args } => {
                std::iter::once(program).chain(args).cloned().collect::<Vec<_>>().join(" ")
            }
        }
    }
}

/// One configured hook, registered for one event.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct Entry {
    /// The event.
    pub event: EventName,
    /// What it runs.
    pub command: Command,
    /// `cwd`, as written: relative to the project's root when relative.
    pub cwd: Option<PathBuf>,
    /// `env`: variables set over the inherited environment.
    pub env: Vec<(String, String)>,
    /// How long it may run (`timeoutSec` or `timeout`, seconds; 30 when absent).
    pub timeout: Duration,
    /// `matcher`, as written.
    pub matcher_raw: Option<String>,
    /// The compiled matcher: the regular expression anchored at both ends.
    #[serde(skip)]
    pub matcher: Matcher,
    /// Where it comes from.
    pub source: Arc<SourceFile>,
    /// The position of the entry in its file.
    pub position: Position,
}

/// Everything loaded: one entry per hook in the order Copilot runs them (the files' order, see
/// [`discover`] for Copilot's, and within a file array order), every problem found, and
/// whether a settings file set `disableAllHooks` (which turns off every hook but the policy's;
/// a hook file that sets it loads no hook).
pub type Config = hook_kit::Config<Entry, SourceFile>;

/// The default timeout of a hook that sets none.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Reads hook files into a [`Config`].
#[derive(Debug, Default)]
pub struct Loader {
    config: Config,
}

impl Loader {
    /// A loader with nothing loaded.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads a hook file (or a settings file's `hooks`) of a place. A file that cannot be read
    /// is an error of the configuration, naming it.
    pub fn file(&mut self, path: impl Into<PathBuf>, scope: Scope) -> &mut Self {
        let path = path.into();
        if let Some(text) = self.config.read(&path) {
            self.text(path, &text, scope);
        }
        self
    }

    /// Reads the text of a hook file (or a settings file) of a place.
    pub fn text(&mut self, path: impl Into<PathBuf>, text: &str, scope: Scope) -> &mut Self {
        let source = Arc::new(SourceFile { path: hook_kit::absolute(path), scope });
        let read = read::hook_file(&source, text, &mut self.config.diagnostics);
        match (read.disable_all, scope) {
            (false, _) => self.config.add(&source, read.entries),
            // In a settings file it turns off every hook of every file but the policy's; in a
            // hook file, that file's hooks only; a policy file's hooks cannot be turned off.
            (true, Scope::Settings) => {
                self.config.disabled = true;
                self.config.add(&source, read.entries);
            }
            (true, Scope::Policy) => self.config.add(&source, read.entries),
            (true, _) => {}
        }
        self
    }

    /// Reads the hooks of the plugin in `dir`, as Copilot does for an installed plugin: its
    /// `hooks.json`, else its `hooks/hooks.json`; a plugin with neither is a warning.
    pub fn plugin(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        let dir: PathBuf = dir.into();
        let file =
            ["hooks.json", "hooks/hooks.json"].iter().map(|f| dir.join(f)).find(|f| f.is_file());
        match file {
            Some(file) => self.file(file, Scope::Plugin),
            None => {
                self.config.diagnostics.push(Diagnostic::warning(
                    &dir,
                    Position::default(),
                    "this plugin has no hooks (no hooks.json, no hooks/hooks.json)",
                ));
                self
            }
        }
    }

    /// What was loaded.
    pub fn finish(self) -> Config {
        self.config
    }
}

/// The hook files Copilot reads for a project, in the order their hooks run: the policy
/// folder's, the user's hook folder's, the repository's `.github/hooks/` (each folder's
/// `*.json` in descending file-name order, as Copilot runs them), then the settings files'
/// inline hooks (`.github/copilot/settings.json`, `.github/copilot/settings.local.json`,
/// `~/.copilot/settings.json`). Only files that exist. `copilot_home` is `~/.copilot`.
pub fn discover(copilot_home: Option<&Path>, project_dir: &Path) -> Vec<(PathBuf, Scope)> {
    let mut out = Vec::new();
    let folder = |dir: &Path, scope: Scope, out: &mut Vec<(PathBuf, Scope)>| {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        let mut files: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "json") && p.is_file())
            .collect();
        files.sort_by(|a, b| b.file_name().cmp(&a.file_name()));
        out.extend(files.into_iter().map(|f| (f, scope)));
    };
    folder(Path::new("/etc/github-copilot/policy.d"), Scope::Policy, &mut out);
    if let Some(home) = copilot_home {
        folder(&home.join("hooks"), Scope::User, &mut out);
    }
    folder(&project_dir.join(".github/hooks"), Scope::Repo, &mut out);
    let mut settings = vec![
        project_dir.join(".github/copilot/settings.json"),
        project_dir.join(".github/copilot/settings.local.json"),
    ];
    if let Some(home) = copilot_home {
        settings.push(home.join("settings.json"));
    }
    out.extend(settings.into_iter().filter(|f| f.is_file()).map(|f| (f, Scope::Settings)));
    out
}
