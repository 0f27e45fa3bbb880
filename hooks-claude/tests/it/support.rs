//! Temporary directories and fixture paths.

use std::path::Path;

use hooks_claude::{Config, Engine, HostEnv, Loader, Scope};
use serde_json::Value;
pub(crate) use test_support::Scratch;

/// A fresh directory under the system's temporary directory, removed when the test ends.
pub(crate) fn temp_dir(name: &str) -> Scratch {
    Scratch::new(&format!("hooks-claude-it-{name}"))
}

/// The path of a fixture hook script.
pub(crate) fn hook(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hooks")
        .join(name)
        .display()
        .to_string()
}

/// A settings file's text from a `hooks` object.
pub(crate) fn settings(hooks: Value) -> String {
    serde_json::to_string_pretty(&serde_json::json!({ "hooks": hooks })).unwrap()
}

/// Loads one settings text at the project level.
pub(crate) fn load(dir: &Path, text: &str) -> Config {
    Loader::new()
        .settings_text(dir.join(".claude/settings.json"), text, Scope::Project)
        .finish()
        .unwrap()
}

/// An engine over a configuration with `dir` as the project directory.
pub(crate) fn engine(config: Config, dir: &Path) -> Engine {
    Engine::builder(config).host(HostEnv::new(dir)).build().unwrap()
}

/// A handler in exec form.
pub(crate) fn exec(script: &str, args: &[&str]) -> Value {
    serde_json::json!({"type": "command", "command": hook(script), "args": args})
}
