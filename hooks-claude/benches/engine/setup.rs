//! What the cells run: the no-op hook program, the settings that register it, the engine and
//! the event.

use std::path::{Path, PathBuf};
use std::process::Command;

use hooks_claude::input::{Base, PreToolUse, payload, stdin_bytes};
use hooks_claude::{Engine, HostEnv, Loader, Scope};
use serde_json::{Value, json};

use crate::fail;

/// The no-op hook: reads stdin to its end and prints an allow, as a real PreToolUse hook that
/// approves does. Built statically, so that what it costs is the process alone.
const NOOP_C: &str = r#"#include <unistd.h>
int main(void) {
    static const char allow[] =
        "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}\n";
    char buf[4096];
    while (read(0, buf, sizeof buf) > 0) {}
    return write(1, allow, sizeof allow - 1) == (ssize_t)(sizeof allow - 1) ? 0 : 1;
}
"#;

/// Builds the no-op in `dir` with `gcc -static -O2`.
pub(crate) fn build_noop(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir)
        .unwrap_or_else(|e| fail(&format!("cannot create `{}`: {e}", dir.display())));
    let source = dir.join("noop.c");
    let binary = dir.join("noop");
    std::fs::write(&source, NOOP_C)
        .unwrap_or_else(|e| fail(&format!("cannot write `{}`: {e}", source.display())));
    #[expect(clippy::disallowed_methods, reason = "building the bench's hook program with gcc")]
    let status = Command::new("gcc")
        .args(["-static", "-O2", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .unwrap_or_else(|e| {
            fail(&format!("bench engine needs `gcc` (with static libc) to build its no-op: {e}"))
        });
    if !status.success() {
        fail(&format!("`gcc -static -O2` failed ({status}); is the static libc installed?"));
    }
    binary
}

/// How the engine runs the hook's command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// Shell form through `/bin/sh -c` (the fast path off).
    Shell,
    /// Exec form (`args`): the program directly.
    Direct,
    /// Shell form with the fast path on: plain words run without a shell.
    Plain,
}

impl Form {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Form::Shell => "sh -c no-op",
            Form::Direct => "direct no-op",
            Form::Plain => "plain words, no shell",
        }
    }
}

/// The command line of hook `i` (distinct, so that identical handlers are not merged): the
/// no-op with `i` as its argument.
pub(crate) fn line(noop: &Path, i: usize) -> String {
    format!("{} {i}", noop.display())
}

/// A handler running hook `i` in `form`.
pub(crate) fn handler(noop: &Path, form: Form, i: usize) -> Value {
    match form {
        Form::Shell | Form::Plain => json!({"type": "command", "command": line(noop, i)}),
        Form::Direct => json!({
            "type": "command",
            "command": noop.display().to_string(),
            "args": [i.to_string()],
        }),
    }
}

/// A settings file's text with `hooks` on PreToolUse under one matcher group each.
pub(crate) fn settings(groups: &[(String, Vec<Value>)]) -> String {
    let groups: Vec<Value> =
        groups.iter().map(|(m, hooks)| json!({"matcher": m, "hooks": hooks})).collect();
    serde_json::to_string_pretty(&json!({"hooks": {"PreToolUse": groups}}))
        .unwrap_or_else(|e| fail(&format!("cannot print the settings: {e}")))
}

/// An engine over a settings text, with `dir` as the project directory.
pub(crate) fn engine(dir: &Path, text: &str, form: Form) -> Engine {
    let config = Loader::new()
        .settings_text(dir.join(".claude/settings.json"), text, Scope::Project)
        .finish()
        .unwrap_or_else(|e| fail(&format!("the bench's settings do not load: {e}")));
    if let Some(d) = config.diagnostics.first() {
        fail(&format!("the bench's settings do not load: {d}"));
    }
    let mut host = HostEnv::new(dir);
    host.shell_fast_path = form == Form::Plain;
    Engine::builder(config)
        .host(host)
        .build()
        .unwrap_or_else(|e| fail(&format!("cannot build the engine: {e}")))
}

/// An engine with `n` matching hooks in `form`.
pub(crate) fn engine_of(dir: &Path, noop: &Path, form: Form, n: usize) -> Engine {
    let hooks = (0..n).map(|i| handler(noop, form, i)).collect();
    engine(dir, &settings(&[("Bash".to_owned(), hooks)]), form)
}

/// The event: a Bash call whose input makes a payload of about 2 KB.
pub(crate) fn event(dir: &Path) -> PreToolUse {
    PreToolUse {
        base: Base::new("bench-session", "/tmp/bench.jsonl", dir.display().to_string()),
        tool_name: "Bash".into(),
        tool_input: json!({"command": "x".repeat(1900), "description": "a bench call"}),
        tool_use_id: "toolu_bench".into(),
        mcp_server: None,
    }
}

/// The exact bytes the engine writes to each hook's stdin, for the raw floor's stdin file.
pub(crate) fn stdin_of(input: &PreToolUse) -> Vec<u8> {
    stdin_bytes(&payload(input))
}
