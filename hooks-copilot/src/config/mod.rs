//! Copilot's hook configuration: where Copilot reads it, in its order, and what it holds
//! ([Configuration files](crate::compatibility#configuration-files)).
//!
//! A hook file is `{"version": 1, "hooks": {event: [entry]}}`: flat lists of entries, no
//! matcher groups. In come files, each with its place; out comes a [`Config`]: one [`Entry`]
//! per hook in the order Copilot runs them, and every problem as a [`Diagnostic`] at its line
//! and column. Loading never fails: an entry Copilot would skip is a warning, what cannot be
//! read is an error, and the rest loads.

mod claude_form;
mod read;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use hook_protocol::{Matcher, Position};
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
    /// The repository's Claude Code settings (`.claude/settings.json`,
    /// `.claude/settings.local.json`), which Copilot reads too: hooks of Claude Code's form,
    /// no `COPILOT_HOOK_DIR` for them.
    Claude,
}

impl Scope {
    /// `policy`, `user`, `repo`, `settings`, `plugin` or `claude`.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Policy => "policy",
            Scope::User => "user",
            Scope::Repo => "repo",
            Scope::Settings => "settings",
            Scope::Plugin => "plugin",
            Scope::Claude => "claude",
        }
    }
}

/// A hook file that was read, with its scope.
pub type SourceFile = hook_kit::SourceFile<Scope>;

impl Scope {
    /// The folder a hook of `file`, a file of this scope, gets as `COPILOT_HOOK_DIR`: the
    /// file's own, except for settings files, whose hooks get none.
    pub fn hook_dir(self, file: &Path) -> Option<&Path> {
        match self {
            Scope::Settings | Scope::Claude => None,
            _ => file.parent(),
        }
    }

    /// The folder of the plugin whose hooks `file`'s are (`PLUGIN_ROOT`): the file's folder,
    /// or the one above it for a `hooks/hooks.json`; `None` out of a plugin.
    pub fn plugin_root(self, file: &Path) -> Option<&Path> {
        if self != Scope::Plugin {
            return None;
        }
        let folder = file.parent()?;
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
    /// `powershell` alone (no `bash`, `command` or `exec`): Copilot starts PowerShell for it
    /// even off Windows, as `pwsh -NoProfile -Command LINE`; where `pwsh` is missing that is a
    /// hook error (on `preToolUse`, a deny).
    PowerShell(String),
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
            Command::Bash(line) | Command::PowerShell(line) => line.clone(),
            Command::Exec { program, args } => {
                std::iter::once(program).chain(args).cloned().collect::<Vec<_>>().join(" ")
            }
        }
    }
}

/// The form a hook file is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Form {
    /// Copilot's own: `{"version": 1, "hooks": {camelCaseEvent: [entry]}}`.
    #[default]
    Copilot,
    /// Claude Code's (PascalCase events, matcher groups), which Copilot runs too: its hooks
    /// get Claude Code's payload shape, as Copilot writes it, and may answer in Claude Code's
    /// `hookSpecificOutput` ([Claude Code's files](crate::compatibility#claude-codes-files)).
    Claude,
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
    /// The form of its file.
    pub form: Form,
}

/// Everything loaded: one entry per hook in the order Copilot runs them (the files' order, see
/// [`discover`] for Copilot's, and within a file array order), every problem found, and
/// whether a settings file set `disableAllHooks` (which turns off every hook but the policy's;
/// a hook file that sets it loads no hook).
pub type Config = hook_kit::Config<Entry, SourceFile>;

/// The default timeout of a hook that sets none.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Reads hook files into a [`Config`]: a hook file, or a settings file's `hooks`, of a
/// scope; a plugin's `hooks.json`, else its `hooks/hooks.json`.
pub type Loader = hook_kit::Loader<Entry>;

impl hook_kit::ReadFile for Entry {
    type Scope = Scope;
    const PLUGIN_FILES: &'static [&'static str] = &["hooks.json", "hooks/hooks.json"];
    const PLUGIN_SCOPE: Scope = Scope::Plugin;

    fn read(config: &mut Config, source: &Arc<SourceFile>, text: &str) {
        let read = read::hook_file(source, text, &mut config.diagnostics);
        match (read.disable_all, source.scope) {
            (false, _) => config.add(source, read.entries),
            // In a settings file it turns off every hook of every file but the policy's; in a
            // hook file, that file's hooks only; a policy file's hooks cannot be turned off.
            (true, Scope::Settings) => {
                config.disabled = true;
                config.add(source, read.entries);
            }
            (true, Scope::Policy) => config.add(source, read.entries),
            (true, _) => {}
        }
    }
}

/// What Copilot's cloud agent runs of a configuration: only `bash` (or `command`) entries
/// (`exec` and `powershell` ones are ignored there), and no `permissionRequest` or
/// `notification` hook (tool calls are approved beforehand and no one is notified). Each entry
/// dropped is a warning at its place.
pub fn cloud_entries(config: &mut Config) {
    let mut dropped = Vec::new();
    config.entries.retain(|e| {
        let why = match (&e.command, e.event) {
            (_, EventName::PermissionRequest | EventName::Notification) => {
                format!("Copilot's cloud agent does not fire `{}`", e.event)
            }
            (Command::Bash(_), _) => return true,
            (Command::Exec { .. }, _) => "Copilot's cloud agent runs `bash` and `command` \
                                          entries only, not `exec`"
                .to_owned(),
            (Command::PowerShell(_), _) => "Copilot's cloud agent runs `bash` and `command` \
                                            entries only, not `powershell`"
                .to_owned(),
        };
        dropped.push(hook_protocol::Diagnostic::warning(
            &e.source.path,
            e.position,
            format!("{why}; the hook is skipped"),
        ));
        false
    });
    config.diagnostics.extend(dropped);
}

/// The hook files Copilot reads for a project, in the order their hooks run: the policy
/// folder's, the user's hook folder's, the repository's `.github/hooks/` (each folder's
/// `*.json` in descending file-name order, as Copilot runs them), then the settings files'
/// inline hooks (`.github/copilot/settings.json`, `.github/copilot/settings.local.json`), the
/// repository's Claude Code settings (`.claude/settings.json`, `.claude/settings.local.json`,
/// hooks of Claude Code's form), and `~/.copilot/settings.json`. Only files that exist.
/// `copilot_home` is `~/.copilot`.
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
        (project_dir.join(".github/copilot/settings.json"), Scope::Settings),
        (project_dir.join(".github/copilot/settings.local.json"), Scope::Settings),
        // Claude Code's settings of the repository, after `.github/hooks`, as recorded.
        (project_dir.join(".claude/settings.json"), Scope::Claude),
        (project_dir.join(".claude/settings.local.json"), Scope::Claude),
    ];
    if let Some(home) = copilot_home {
        settings.push((home.join("settings.json"), Scope::Settings));
    }
    out.extend(settings.into_iter().filter(|(f, _)| f.is_file()));
    out
}
