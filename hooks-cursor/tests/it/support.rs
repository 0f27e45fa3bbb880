//! A project with a `.cursor/hooks.json` and scripts, in a temporary directory.

use std::path::PathBuf;

use hook_protocol::{Common, Event, Payload, Report, ToolCall, ToolResult};
use hooks_cursor::{Engine, Loader, Scope};
use serde_json::{Value, json};

/// A project directory of its own.
pub(crate) struct Project {
    _dir: tempfile::TempDir,
    pub(crate) root: PathBuf,
}

impl Project {
    pub(crate) fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir_all(root.join(".cursor")).unwrap();
        Self { _dir: dir, root }
    }

    /// Writes `.cursor/hooks.json` holding `hooks`.
    pub(crate) fn hooks(&self, hooks: &Value) {
        let text = json!({"version": 1, "hooks": hooks});
        std::fs::write(self.root.join(".cursor/hooks.json"), text.to_string()).unwrap();
    }

    /// Writes an executable `sh` script and returns its path.
    pub(crate) fn script(&self, name: &str, body: &str) -> String {
        test_support::script(self.root.join(name), body).display().to_string()
    }

    pub(crate) fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.root.join(name)).unwrap_or_default()
    }

    pub(crate) fn engine(&self) -> Engine {
        let mut loader = Loader::new();
        loader.file(self.root.join(".cursor/hooks.json"), Scope::Project);
        let config = loader.finish();
        assert!(config.diagnostics.iter().all(|d| !d.is_error()), "{:?}", config.diagnostics);
        Engine::new(config, &self.root, None, None).unwrap()
    }

    /// A harness's neutral event through the engine's dispatcher.
    pub(crate) async fn dispatch(&self, engine: &Engine, payload: Payload) -> Report {
        let event = Event::new(Common::new("conv-1", &self.root), payload);
        engine.dispatcher().dispatch(&event).await
    }
}

/// A harness's pre-tool payload, its tool named as Claude Code names it.
pub(crate) fn pre(tool: &str, input: Value) -> Payload {
    Payload::PreTool(ToolCall::new(tool, input))
}

/// A harness's post-tool payload.
pub(crate) fn post(tool: &str, input: Value, response: Value) -> Payload {
    ToolResult::new(ToolCall::new(tool, input), response).into()
}
