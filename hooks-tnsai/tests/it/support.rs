//! Temporary hook directories with real `sh` scripts.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hook_protocol::{Common, Event, FailurePolicy, Hook, HookOutcome, Payload, ToolCall};
use hooks_tnsai::{EventType, ScriptHook, Stamp};
use serde_json::json;
use tempfile::TempDir;

/// A temporary directory holding a `hooks/` trusted root.
pub(crate) struct Sandbox {
    pub(crate) dir: TempDir,
}

impl Sandbox {
    pub(crate) fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("hooks")).unwrap();
        Self { dir }
    }

    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    pub(crate) fn root(&self) -> PathBuf {
        self.path().join("hooks")
    }

    /// Writes `hooks/NAME` as a `sh` script with `body`, mode 0755.
    pub(crate) fn script(&self, name: &str, body: &str) -> PathBuf {
        test_support::script(self.root().join(name), body)
    }

    /// A hook running `hooks/NAME` (written with `body`) on `PreToolUse`.
    pub(crate) fn hook(&self, name: &str, body: &str, policy: FailurePolicy) -> ScriptHook {
        let exe = self.script(name, body);
        ScriptHook::builder(name)
            .event_type(EventType::PreToolUse)
            .executable(exe)
            .trusted_root(self.root())
            .timeout(Duration::from_secs(10))
            .on_failure(policy)
            .working_dir(self.path())
            .build()
            .unwrap()
    }
}

/// A `PreToolUse` event for `Bash` with a command, stamped.
pub(crate) fn bash(command: &str) -> Event {
    let mut e = Event::new(
        Common::new("sess-1", "/"),
        Payload::PreTool(ToolCall::new("Bash", json!({"command": command}))),
    );
    e.extensions.insert(Stamp::with("evt-1", "2026-01-01T00:00:00.000Z"));
    e
}

/// Runs a hook on an event.
pub(crate) async fn run(hook: &ScriptHook, event: &Event) -> HookOutcome {
    hook.run(event).await
}
