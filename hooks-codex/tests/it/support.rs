//! A project in a temporary folder, its hooks as real `sh` scripts.

use std::path::{Path, PathBuf};

use hooks_codex::{Config, Engine, EventName, Loader, Run, Scope};
use serde_json::{Map, Value, json};

/// A temporary project, removed when dropped.
pub(crate) struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    pub(crate) fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".codex")).unwrap();
        Self { dir }
    }

    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes an executable `sh` script and returns the command that runs it.
    pub(crate) fn script(&self, name: &str, body: &str) -> String {
        test_support::script(self.path().join(name), body).display().to_string()
    }

    /// Writes `.codex/hooks.json` with these hooks.
    pub(crate) fn hooks_json(&self, hooks: Value) -> PathBuf {
        let path = self.path().join(".codex/hooks.json");
        std::fs::write(&path, serde_json::to_string_pretty(&json!({"hooks": hooks})).unwrap())
            .unwrap();
        path
    }

    /// The configuration of `.codex/hooks.json`, every hook trusted.
    pub(crate) fn config(&self, hooks: Value) -> Config {
        let path = self.hooks_json(hooks);
        let mut loader = Loader::new().trust_all(true);
        loader.hooks_json(path, Scope::Project);
        loader.finish()
    }

    /// An engine over `.codex/hooks.json`, every hook trusted.
    pub(crate) fn engine(&self, hooks: Value) -> Engine {
        let config = self.config(hooks);
        assert!(config.diagnostics.is_empty(), "{:?}", config.diagnostics);
        Engine::new(config, self.path(), None).unwrap()
    }
}

/// One command hook on `event`, with an optional matcher.
pub(crate) fn on(event: &str, matcher: Option<&str>, command: &str) -> Value {
    let mut group = json!({"hooks": [{"type": "command", "command": command}]});
    if let Some(m) = matcher {
        group["matcher"] = json!(m);
    }
    json!({ event: [group] })
}

pub(crate) use test_support::object;

/// A shell call's input.
pub(crate) fn bash(command: &str) -> Map<String, Value> {
    object(
        json!({"tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "call_1"}),
    )
}

/// Runs `event` with `input`.
pub(crate) async fn run(engine: &Engine, event: EventName, input: Map<String, Value>) -> Run {
    engine.run_json(event, input).await
}
