//! Cursor's hook configuration: where Cursor reads it, in its priority order, and what it
//! holds ([Configuration files](crate::compatibility#configuration-files)).
//!
//! A `hooks.json` is `{"version": 1, "hooks": {event: [entry]}}`: flat lists of entries
//! (`command`, `type`, `matcher`, `timeout`, `failClosed`, `loop_limit`). In come files, each
//! with its place; out comes a [`Config`]: one [`Entry`] per hook, in priority order, and every
//! problem as a [`Diagnostic`] at its line and column.

mod read;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use hook_protocol::{Matcher, Position};
use serde::Serialize;

use crate::EventName;

/// Where a `hooks.json` sits among Cursor's places, highest priority first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Scope {
    /// The administrator's (`/etc/cursor/hooks.json`).
    Enterprise,
    /// The project's (`.cursor/hooks.json`): its hooks run in the project's root.
    Project,
    /// The user's (`~/.cursor/hooks.json`): its hooks run in `~/.cursor`.
    User,
    /// A plugin's (`<plugin>/hooks/hooks.json`), after the user's: its hooks run in the
    /// plugin's folder.
    Plugin,
}

impl Scope {
    /// `enterprise`, `project` or `user`.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Enterprise => "enterprise",
            Scope::Project => "project",
            Scope::User => "user",
            Scope::Plugin => "plugin",
        }
    }
}

/// A `hooks.json` that was read, with its scope.
pub type SourceFile = hook_kit::SourceFile<Scope>;

/// What kind of hook an entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum HookType {
    /// `command`: a process.
    Command,
    /// `prompt`: a model evaluates `prompt` (not run here).
    Prompt,
}

/// One configured hook, registered for one event.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct Entry {
    /// The event.
    pub event: EventName,
    /// `command`: run as `/bin/sh -c COMMAND`.
    pub command: String,
    /// `type`.
    pub kind: HookType,
    /// How long it may run (`timeout`, seconds; 60 when absent).
    pub timeout: Duration,
    /// `failClosed`: a failure (a crash, a timeout, output that is not a JSON object, no output
    /// at all) blocks, on the events that can block.
    pub fail_closed: bool,
    /// `loop_limit` on `stop` and `subagentStop`: how many follow-ups this hook may cause in a
    /// conversation (5 when absent; `None` for `null`, no limit).
    pub loop_limit: Option<u32>,
    /// `matcher`, as written.
    pub matcher_raw: Option<String>,
    /// The compiled matcher: a regular expression searched in the event's target.
    #[serde(skip)]
    pub matcher: Matcher,
    /// Where it comes from.
    pub source: Arc<SourceFile>,
    /// The position of the entry in its file.
    pub position: Position,
}

/// Everything loaded: one entry per hook in priority order (the files' order, see [`discover`]
/// for Cursor's, and within a file array order), and every problem found.
pub type Config = hook_kit::Config<Entry, SourceFile>;

/// The timeout of a hook that sets none.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The `loop_limit` of a `stop` or `subagentStop` hook that sets none.
pub const DEFAULT_MAX_FOLLOW_UPS: u32 = 5;

/// Reads `hooks.json` files into a [`Config`]: a file of a scope, or a plugin's
/// `hooks/hooks.json`.
pub type Loader = hook_kit::Loader<Entry>;

impl hook_kit::ReadFile for Entry {
    type Scope = Scope;
    const PLUGIN_FILES: &'static [&'static str] = &["hooks/hooks.json"];
    const PLUGIN_SCOPE: Scope = Scope::Plugin;

    fn read(config: &mut Config, source: &Arc<SourceFile>, text: &str) {
        let entries = read::hooks_file(source, text, &mut config.diagnostics);
        config.add(source, entries);
    }
}

/// The `hooks.json` files Cursor reads for a project, highest priority first: the
/// enterprise's (`/etc/cursor/hooks.json`), the project's (`.cursor/hooks.json`), the user's
/// (`cursor_home/hooks.json`, `~/.cursor` by default). Only files that exist. Every hook of
/// every file runs.
pub fn discover(cursor_home: Option<&Path>, project_dir: &Path) -> Vec<(PathBuf, Scope)> {
    let mut found = vec![
        (PathBuf::from("/etc/cursor/hooks.json"), Scope::Enterprise),
        (project_dir.join(".cursor/hooks.json"), Scope::Project),
    ];
    if let Some(home) = cursor_home {
        found.push((home.join("hooks.json"), Scope::User));
    }
    found.retain(|(path, _)| path.is_file());
    found
}
