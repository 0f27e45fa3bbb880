//! What a command dialect loads: its entries in the order its agent runs them, the files they
//! came from, and every problem found on the way.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use hook_protocol::Diagnostic;

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
