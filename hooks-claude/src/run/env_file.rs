//! `CLAUDE_ENV_FILE` ([Hook environment](crate::compatibility#hook-environment)): one file per
//! hook where Claude Code makes one, and what the files export.
//!
//! A `SessionStart` hook gets `<claude home>/session-env/<session id>/sessionstart-hook-<N>.sh`,
//! a `CwdChanged` hook `.../cwdchanged-hook-<N>.sh`, `N` counting from 0 the command hooks
//! that run on the firing, in configuration order. The folder is the session's: a `resume` or
//! a `compact` finds the files of earlier firings and the hooks append to them, a `startup` or
//! a `clear` (a new session) starts them empty, and every `CwdChanged` empties its own (Claude
//! Code clears what the previous one exported). The hooks write `export` lines; the shell tool
//! sources every file before each command, so the exports reach it, and nothing else: later
//! hooks do not see them.
//!
//! A file that cannot be created is a warning on the hook's record, and the hook still runs
//! with `CLAUDE_ENV_FILE` naming it.
//!
//! [`exports`] evaluates the files as the shell tool does: it sources them, in order, in one
//! `/bin/sh` (through `hook_exec`) and returns the variables whose values changed.

use std::collections::{BTreeMap, HashMap};
use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use hook_exec::{CommandSpec, Env, Invocation};
use hook_protocol::text_file::{ENV_FILE_CAP, regular_file};

use crate::EventName;

/// The env files of one firing, carried in the event's extensions: each hook's file, and why
/// a file could not be created.
#[derive(Debug, Clone, Default)]
pub(crate) struct EnvFiles {
    /// Hook id → its file.
    pub(crate) by_hook: HashMap<String, PathBuf>,
    /// Hook id → the warning its record gets.
    pub(crate) warnings: HashMap<String, String>,
    /// Every file, in `N` order.
    pub(crate) files: Vec<PathBuf>,
}

impl EnvFiles {
    /// The file of hook `id`, if it gets one.
    pub(crate) fn of(&self, id: &str) -> Option<&Path> {
        self.by_hook.get(id).map(PathBuf::as_path)
    }
}

/// The session's folder of env files: `<claude home>/session-env/<session id>`, the id with
/// anything but ASCII letters, digits, `-` and `_` replaced by `-` (so that an id cannot name
/// another folder).
pub fn session_env_dir(claude_home: &Path, session_id: &str) -> PathBuf {
    let safe: String = session_id
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' })
        .collect();
    claude_home.join("session-env").join(safe)
}

/// The file name of the `n`-th hook of `event`, for the events that get one.
pub(crate) fn file_name(event: EventName, n: usize) -> Option<String> {
    let prefix = match event {
        EventName::SessionStart => "sessionstart",
        EventName::CwdChanged => "cwdchanged",
        _ => return None,
    };
    Some(format!("{prefix}-hook-{n}.sh"))
}

/// Whether a firing starts its files empty: a new session (`startup`, `clear`) and every
/// `CwdChanged`; a `resume` or `compact` keeps what earlier firings wrote.
pub(crate) fn starts_empty(event: EventName, source: Option<&str>) -> bool {
    match event {
        EventName::CwdChanged => true,
        _ => !matches!(source, Some("resume" | "compact")),
    }
}

/// Creates the files of `hooks` (ids, in `N` order) for a firing of `event`.
pub(crate) fn create(dir: &Path, event: EventName, empty: bool, hooks: &[String]) -> EnvFiles {
    let mut out = EnvFiles::default();
    let made = std::fs::create_dir_all(dir);
    for (n, id) in hooks.iter().enumerate() {
        let Some(name) = file_name(event, n) else { continue };
        let path = dir.join(name);
        let opened = match &made {
            Ok(()) => {
                let mut options = OpenOptions::new();
                options.create(true);
                if empty {
                    options.write(true).truncate(true);
                } else {
                    options.append(true);
                }
                options.open(&path).map(drop)
            }
            Err(e) => Err(std::io::Error::new(e.kind(), e.to_string())),
        };
        if let Err(e) = opened {
            let text = hook_protocol::os_error_text(&e);
            out.warnings.insert(
                id.clone(),
                format!(
                    "cannot create `CLAUDE_ENV_FILE` `{}`: {text}; the hook runs with it all the same",
                    path.display()
                ),
            );
        }
        out.by_hook.insert(id.clone(), path.clone());
        out.files.push(path);
    }
    out
}

/// The `sessionstart-hook-<N>.sh` files of the session's folder, in `N` order (a resumed
/// session's earlier ones included).
pub(crate) fn session_start_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut found: Vec<(usize, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let n = name.strip_prefix("sessionstart-hook-")?.strip_suffix(".sh")?.parse().ok()?;
            Some((n, e.path()))
        })
        .collect();
    found.sort();
    found.into_iter().map(|(_, p)| p).collect()
}

/// Why the exports of the env files could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExportsError {
    /// The shell could not be started.
    #[error("cannot run `/bin/sh` to read the env files: {0}")]
    Spawn(String),
    /// Sourcing the files failed (a syntax error, an `exit`, a timeout).
    #[error("sourcing the env files failed ({status}): {stderr}")]
    Failed {
        /// How the shell ended.
        status: String,
        /// The end of its stderr.
        stderr: String,
    },
}

/// How long sourcing the env files may take.
const SOURCE_TIMEOUT: Duration = Duration::from_secs(10);

/// What separates the environment before and after sourcing in the shell's output.
const SPLIT: &[u8] = b"\0--hooks-claude-env-files--\0";

/// What the env files give the shell tool, and the files left out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct EnvFileExports {
    /// The variables the files set, or set to another value than the harness's environment has.
    pub vars: BTreeMap<String, String>,
    /// One warning per file that was not sourced: larger than its cap
    /// ([`hook_protocol::text_file::ENV_FILE_CAP`]), or not a regular file.
    pub warnings: Vec<String>,
}

/// The variables the shell tool gets from `files` (sourced in order, in `cwd`): those the
/// files set, or set to another value than the harness's environment has. Files that do not
/// exist are skipped; no file, or only empty ones, is no export and starts no process. A file
/// larger than [`hook_protocol::text_file::ENV_FILE_CAP`], or one that is not a regular file,
/// is not sourced, with a warning; the others still are.
///
/// # Errors
///
/// [`ExportsError`] when the shell cannot start, or sourcing fails.
pub async fn exports(files: &[PathBuf], cwd: &Path) -> Result<EnvFileExports, ExportsError> {
    let mut out = EnvFileExports::default();
    let mut sourced = Vec::with_capacity(files.len());
    for file in files {
        match regular_file(file) {
            Ok(0) => {}
            Ok(len) if len > ENV_FILE_CAP => out.warnings.push(format!(
                "`CLAUDE_ENV_FILE` `{}` is larger than {} MiB; it is not sourced",
                file.display(),
                ENV_FILE_CAP / (1024 * 1024)
            )),
            Ok(_) => sourced.push(file),
            Err(e) if e.is_missing() => {}
            Err(e) => out.warnings.push(format!("`CLAUDE_ENV_FILE` {e}; it is not sourced")),
        }
    }
    let files = sourced;
    if files.is_empty() {
        return Ok(out);
    }
    let script =
        "env -0; printf '\\000--hooks-claude-env-files--\\000'; for f; do . \"$f\"; done; env -0";
    let mut args = vec!["-c".to_owned(), script.to_owned(), "sh".to_owned()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    let cwd = if cwd.is_dir() { cwd.to_owned() } else { std::env::temp_dir() };
    let mut inv = Invocation::new(CommandSpec::exec("/bin/sh", args), cwd, SOURCE_TIMEOUT);
    inv.env = Env::inherit();
    inv.stdin = Arc::from(Vec::new());
    let raw = hook_exec::run(&inv).await.map_err(|e| ExportsError::Spawn(e.to_string()))?;
    if raw.exit.code() != Some(0) {
        return Err(ExportsError::Failed {
            status: raw.exit.to_string(),
            stderr: raw.stderr_tail(400),
        });
    }
    let Some(at) = raw.stdout.windows(SPLIT.len()).position(|w| w == SPLIT) else {
        return Err(ExportsError::Failed {
            status: raw.exit.to_string(),
            stderr: "the shell's output has no environment to compare".to_owned(),
        });
    };
    let before = parse_env(&raw.stdout[..at]);
    let after = parse_env(&raw.stdout[at + SPLIT.len()..]);
    out.vars = after.into_iter().filter(|(k, v)| before.get(k) != Some(v)).collect();
    Ok(out)
}

/// `NAME=value` records separated by NUL, as `env -0` prints them.
fn parse_env(bytes: &[u8]) -> HashMap<String, String> {
    bytes
        .split(|&b| b == 0)
        .filter_map(|record| {
            let text = String::from_utf8_lossy(record);
            let (k, v) = text.split_once('=')?;
            (!k.is_empty()).then(|| (k.to_owned(), v.to_owned()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_ids_cannot_leave_the_folder() {
        let dir = session_env_dir(Path::new("/h"), "../../etc");
        assert_eq!(dir, Path::new("/h/session-env/------etc"));
        assert_eq!(
            session_env_dir(Path::new("/h"), "abc-1_2"),
            Path::new("/h/session-env/abc-1_2")
        );
    }

    #[test]
    fn names_and_emptying() {
        assert_eq!(
            file_name(EventName::SessionStart, 0).as_deref(),
            Some("sessionstart-hook-0.sh")
        );
        assert_eq!(file_name(EventName::CwdChanged, 2).as_deref(), Some("cwdchanged-hook-2.sh"));
        assert_eq!(file_name(EventName::Setup, 0), None);
        assert!(starts_empty(EventName::SessionStart, Some("startup")));
        assert!(starts_empty(EventName::SessionStart, Some("clear")));
        assert!(!starts_empty(EventName::SessionStart, Some("resume")));
        assert!(!starts_empty(EventName::SessionStart, Some("compact")));
        assert!(starts_empty(EventName::CwdChanged, None));
    }

    #[test]
    fn env_records_parse() {
        let env = parse_env(b"A=1\0B=x=y\0\0=bad\0C=\0");
        assert_eq!(env.get("A").map(String::as_str), Some("1"));
        assert_eq!(env.get("B").map(String::as_str), Some("x=y"));
        assert_eq!(env.get("C").map(String::as_str), Some(""));
        assert_eq!(env.len(), 3);
    }
}
