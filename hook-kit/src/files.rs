//! The hook files a command dialect loads for a request: those the harness names, else those
//! its agent would find, and the words the door says about them.

use std::path::{Path, PathBuf};

use hook_protocol::{DialectError, FileKind, LoadRequest};

/// A hook file a dialect loads for a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookFile<S> {
    /// A configuration file the harness named, checked to be a regular file.
    Named(PathBuf),
    /// A plugin folder the harness named, checked to be a folder.
    Plugin(PathBuf),
    /// A file the agent would find for the project, with its scope.
    Found(PathBuf, S),
}

/// The hook files of `request`, in the order the agent reads them: the configuration files it
/// names, then the plugins it names (the agents load plugins after their other places); else
/// those `discover` finds for its project, which `notes` gets a line about
/// ([`found_note`], each file with its scope's `name`). Empty when nothing is named and
/// nothing found: the dialect says what it looked for.
///
/// # Errors
///
/// [`DialectError::Load`] for a named file that is not a regular file (`{title} hook file …`)
/// or a named plugin that is not a folder.
pub fn hook_files<S: Copy>(
    request: &LoadRequest,
    title: &str,
    discover: impl FnOnce() -> Vec<(PathBuf, S)>,
    name: fn(S) -> &'static str,
    notes: &mut Vec<String>,
) -> Result<Vec<HookFile<S>>, DialectError> {
    if !request.names_files() {
        let found = discover();
        notes.push(found_note(title, found.iter().map(|(p, s)| (p.as_path(), name(*s)))));
        return Ok(found.into_iter().map(|(path, scope)| HookFile::Found(path, scope)).collect());
    }
    let mut files = Vec::new();
    for path in request.files_of(FileKind::Config) {
        named_file(path, &format!("{title} hook file"))?;
        files.push(HookFile::Named(path.to_path_buf()));
    }
    for dir in request.files_of(FileKind::Plugin) {
        files.push(HookFile::Plugin(plugin_dir(dir, title)?));
    }
    Ok(files)
}

/// An agent's own folder: `$var` when it is set and not empty, else `folder` in the user's
/// `home` (`CODEX_HOME`, else `~/.codex`).
pub fn agent_home(var: &str, folder: &str, home: Option<&Path>) -> Option<PathBuf> {
    std::env::var_os(var)
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .or_else(|| home.map(|h| h.join(folder)))
}

/// The `name`, `title` and `reads` of a command dialect's [`hook_protocol::Dialect`] impl: a
/// dialect that reads configuration files and plugins.
#[macro_export]
macro_rules! dialect_words {
    ($name:literal, $title:literal) => {
        fn name(&self) -> &'static str {
            $name
        }

        fn title(&self) -> &'static str {
            $title
        }

        fn reads(&self, kind: ::hook_protocol::FileKind) -> bool {
            matches!(kind, ::hook_protocol::FileKind::Config | ::hook_protocol::FileKind::Plugin)
        }
    };
}

/// The files a dialect found for a project, as the note the door gives: `{title} hook files:
/// a (place), b (place)`, or `none found`.
pub fn found_note<'a>(title: &str, found: impl IntoIterator<Item = (&'a Path, &'a str)>) -> String {
    let names: Vec<String> =
        found.into_iter().map(|(p, place)| format!("{} ({place})", p.display())).collect();
    let names = if names.is_empty() { "none found".to_owned() } else { names.join(", ") };
    format!("{title} hook files: {names}")
}

/// A hook file named to the door, checked to be a regular file.
///
/// # Errors
///
/// [`DialectError::Load`] naming the file (`{what} {why}`: `Codex hook file … is a folder`).
pub fn named_file(path: &Path, what: &str) -> Result<(), DialectError> {
    hook_protocol::text_file::regular_file(path)
        .map(|_| ())
        .map_err(|e| DialectError::load(format!("{what} {e}")))
}

/// A plugin folder named to the door, checked to be a folder.
///
/// # Errors
///
/// [`DialectError::Load`]: `{title} plugin `DIR` is not a folder`.
pub fn plugin_dir(dir: &Path, title: &str) -> Result<PathBuf, DialectError> {
    if dir.is_dir() {
        return Ok(dir.to_path_buf());
    }
    Err(DialectError::load(format!("{title} plugin `{}` is not a folder", dir.display())))
}
