//! A project with hook files and scripts, in a temporary directory.

use std::path::{Path, PathBuf};

use hooks_copilot::{Engine, EventName, Loader, Run, Scope};
use serde_json::{Map, Value};

/// A project directory of its own.
pub(crate) struct Project {
    _dir: tempfile::TempDir,
    pub(crate) root: PathBuf,
}

impl Project {
    pub(crate) fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir_all(root.join(".github/hooks")).unwrap();
        Self { _dir: dir, root }
    }

    /// Writes `.github/hooks/NAME` holding `hooks` (the `hooks` object of a version 1 file).
    pub(crate) fn hook_file(&self, name: &str, hooks: &Value) -> PathBuf {
        let path = self.root.join(".github/hooks").join(name);
        let text = serde_json::json!({"version": 1, "hooks": hooks});
        std::fs::write(&path, serde_json::to_string_pretty(&text).unwrap()).unwrap();
        path
    }

    /// Writes an executable `sh` script and returns its path.
    pub(crate) fn script(&self, name: &str, body: &str) -> String {
        test_support::script(self.root.join(name), body).display().to_string()
    }

    pub(crate) fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.root.join(name)).unwrap_or_default()
    }

    /// An engine over the project's `.github/hooks/` files, as Copilot finds them.
    pub(crate) fn engine(&self) -> Engine {
        let mut loader = Loader::new();
        for (path, place) in hooks_copilot::discover(None, &self.root) {
            loader.file(path, place);
        }
        let config = loader.finish();
        assert!(config.diagnostics.iter().all(|d| !d.is_error()), "{:?}", config.diagnostics);
        Engine::new(config, &self.root, None).unwrap()
    }

    pub(crate) async fn run(&self, event: EventName, input: Value) -> Run {
        let input: Map<String, Value> = test_support::object(input);
        self.engine().run_json(event, input).await
    }
}

/// Loads one file's text as a repo hook file and returns its diagnostics as
/// `LINE:COL: level: message`.
pub(crate) fn problems(path: &Path, text: &str) -> Vec<String> {
    let mut loader = Loader::new();
    loader.text(path, text, Scope::Repo);
    loader
        .finish()
        .diagnostics
        .iter()
        .map(|d| {
            let level = if d.is_error() { "error" } else { "warning" };
            format!("{}:{}: {level}: {}", d.line, d.column, d.message)
        })
        .collect()
}
