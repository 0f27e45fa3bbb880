//! What a command dialect loads: its entries in the order its agent runs them, the files they
//! came from, and every problem found on the way.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use hook_protocol::{Diagnostic, Position};
use serde::Serialize;

/// Everything a dialect's loader read: one entry (`E`) per hook in the agent's order, the files
/// (`S`) that gave some, and every problem, errors and warnings.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Config<E, S> {
    /// One entry per hook, in the order the agent runs them.
    pub entries: Vec<E>,
    /// The files read that gave entries.
    pub sources: Vec<Arc<S>>,
    /// Every problem, errors and warnings.
    pub diagnostics: Vec<Diagnostic>,
    /// A file read turns every hook off (`disableAllHooks: true`): none runs.
    pub disabled: bool,
}

impl<E, S> Default for Config<E, S> {
    fn default() -> Self {
        Self { entries: Vec::new(), sources: Vec::new(), diagnostics: Vec::new(), disabled: false }
    }
}

impl<E, S> Config<E, S> {
    /// Adds a file's entries; the file is listed among the sources when it gave some.
    pub fn add(&mut self, source: &Arc<S>, entries: impl IntoIterator<Item = E>) {
        let before = self.entries.len();
        self.entries.extend(entries);
        if self.entries.len() > before {
            self.sources.push(Arc::clone(source));
        }
    }

    /// The text of a file to read, within the cap; else `None` and an error of the
    /// configuration naming the file (`no hook from it runs`).
    pub fn read(&mut self, path: &Path) -> Option<String> {
        use hook_protocol::text_file::{Cap, read_text};
        match read_text(path, Cap::CONFIG) {
            Ok(text) => Some(text),
            Err(e) => {
                self.diagnostics.push(e.diagnostic("no hook from it runs"));
                None
            }
        }
    }
}

/// A hook file that was read: its path and its scope (`S`, where the agent found it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct SourceFile<S> {
    /// The file, absolute.
    pub path: PathBuf,
    /// Its scope.
    pub scope: S,
}

impl<S> SourceFile<S> {
    /// The file at `path` (made absolute) of `scope`.
    pub fn new(path: impl Into<PathBuf>, scope: S) -> Self {
        Self { path: absolute(path), scope }
    }
}

/// How a dialect's entries are read from one hook file: implemented by the dialect's entry
/// type, it makes [`Loader`] that dialect's loader.
pub trait ReadFile: Sized {
    /// Where the agent finds a file (the dialect's `Scope`).
    type Scope: Copy;

    /// The files a plugin folder may hold its hooks in, first found read.
    const PLUGIN_FILES: &'static [&'static str];

    /// The scope of a plugin's hooks.
    const PLUGIN_SCOPE: Self::Scope;

    /// Reads `text`, the text of `source`, into `config`: its entries, its problems, and what
    /// else the file turns on or off.
    fn read(
        config: &mut Config<Self, SourceFile<Self::Scope>>,
        source: &Arc<SourceFile<Self::Scope>>,
        text: &str,
    );
}

/// Reads hook files into a [`Config`], in the order given, which is the order their hooks run.
#[derive(Debug)]
pub struct Loader<E: ReadFile> {
    config: Config<E, SourceFile<E::Scope>>,
}

impl<E: ReadFile> Default for Loader<E> {
    fn default() -> Self {
        Self { config: Config::default() }
    }
}

impl<E: ReadFile> Loader<E> {
    /// A loader with nothing loaded.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads a hook file of a scope. A file that cannot be read is an error of the
    /// configuration, naming it.
    pub fn file(&mut self, path: impl Into<PathBuf>, scope: E::Scope) -> &mut Self {
        let path = path.into();
        if let Some(text) = self.config.read(&path) {
            self.text(path, &text, scope);
        }
        self
    }

    /// Reads the text of a hook file of a scope.
    pub fn text(&mut self, path: impl Into<PathBuf>, text: &str, scope: E::Scope) -> &mut Self {
        let source = Arc::new(SourceFile::new(path, scope));
        E::read(&mut self.config, &source, text);
        self
    }

    /// Reads the hooks of the plugin in `dir`, as the agent does for an installed plugin: the
    /// first of its [`ReadFile::PLUGIN_FILES`] there is; a plugin with none is a warning.
    pub fn plugin(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        let dir: PathBuf = dir.into();
        match E::PLUGIN_FILES.iter().map(|f| dir.join(f)).find(|f| f.is_file()) {
            Some(file) => self.file(file, E::PLUGIN_SCOPE),
            None => {
                let names = E::PLUGIN_FILES.join(", no ");
                self.config.diagnostics.push(Diagnostic::warning(
                    &dir,
                    Position::default(),
                    format!("this plugin has no hooks (no {names})"),
                ));
                self
            }
        }
    }

    /// Reads `files` in order ([`crate::hook_files`]): a named file of the scope `scope_of` its
    /// path, a found file of its own, a plugin's hooks.
    pub fn files(
        &mut self,
        files: Vec<crate::HookFile<E::Scope>>,
        scope_of: fn(&Path) -> E::Scope,
    ) -> &mut Self {
        for file in files {
            match file {
                crate::HookFile::Named(path) => self.file(&path, scope_of(&path)),
                crate::HookFile::Found(path, scope) => self.file(path, scope),
                crate::HookFile::Plugin(dir) => self.plugin(dir),
            };
        }
        self
    }

    /// Every problem of one file's text, read as a file of `scope` (a check of the file alone).
    pub fn check(path: &Path, text: &str, scope: E::Scope) -> Vec<Diagnostic> {
        let mut loader = Self::new();
        loader.text(path, text, scope);
        loader.config.diagnostics
    }

    /// What was loaded.
    pub fn finish(self) -> Config<E, SourceFile<E::Scope>> {
        self.config
    }
}

/// A file's path, absolute (as the agents name their files), or as given when it has none.
pub fn absolute(path: impl Into<PathBuf>) -> PathBuf {
    let path = path.into();
    std::path::absolute(&path).unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_a_source_only_when_it_gave_entries() {
        let mut config: Config<u32, &str> = Config::default();
        config.add(&Arc::new("empty"), []);
        config.add(&Arc::new("two"), [1, 2]);
        assert_eq!(config.entries, [1, 2]);
        assert_eq!(config.sources.iter().map(|s| **s).collect::<Vec<_>>(), ["two"]);
        assert!(config.read(Path::new("/nonexistent/hooks.json")).is_none());
        assert_eq!(config.diagnostics.len(), 1);
        assert!(config.diagnostics[0].message.contains("no hook from it runs"));
    }
}
