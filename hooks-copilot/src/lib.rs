//! Runs users' unmodified GitHub Copilot hooks (its own `version: 1` files) on the harness's
//! seams, with the behaviour Copilot CLI (1.0.102) gives them.
//!
//! Copilot reads every `*.json` of the repository's `.github/hooks/` and the user's
//! `~/.copilot/hooks/`, and the `hooks` of its settings files: `{"version": 1, "hooks":
//! {event: [entry]}}`, camelCase events, flat lists of entries (`bash` or `command`, `exec` and
//! `args`, `cwd`, `env`, `timeoutSec`, `matcher`). [`Loader`] reads the files into a
//! [`Config`] (every problem a [`hook_protocol::Diagnostic`] at its line and column, each entry
//! Copilot would skip a warning); [`Engine`] puts the hooks on a dispatcher that runs them one
//! after another, as [`hook_protocol::Hook`]s a harness can mix with any other kind;
//! [`dialect()`] is the same through the core's one door, for a program that drives dialects
//! (the `hooks` command).
//!
//! A hook runs as Copilot runs it: `/bin/bash --norc --noprofile -c LINE` (or its `exec`
//! program, without a shell) in the project's root, its input on stdin as one compact
//! camelCase JSON object without a trailing newline, with `COPILOT_PROJECT_DIR`,
//! `CLAUDE_PROJECT_DIR` and `COPILOT_HOOK_DIR` set. Its answer is read by Copilot's rules
//! ([`RunRecord`] keeps what its texts need): fields at the top level (`permissionDecision`,
//! `modifiedArgs`, `additionalContext`, `decision`, `behavior`, `modifiedResult`); exit 2
//! denies on `preToolUse` and `permissionRequest` only; on `preToolUse` a crash denies and a
//! timeout does not; the first deny stops the event's later hooks. What Copilot shows the model
//! is in [`present`].
//!
//! Claude Code's files, which Copilot runs too (the project's `.claude/settings.json`, and a
//! `.github/hooks` file in Claude Code's shape), are read as Copilot reads them: their hooks
//! are Copilot's, of [`Form::Claude`], with Claude Code's payload shape and answers, and
//! Copilot's order, process, environment and texts. What the crate does for each event,
//! field and rule, and where it deliberately differs from Copilot, is in the [`compatibility`]
//! module (`docs/copilot.md`).
//!
//! ```no_run
//! use hooks_copilot::{Engine, EventName, Loader, Scope};
//! use serde_json::json;
//!
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! let mut loader = Loader::new();
//! loader.file("project/.github/hooks/policy.json", Scope::Repo);
//! let config = loader.finish();
//! for problem in &config.diagnostics {
//!     eprintln!("{problem}");
//! }
//! let engine = Engine::new(config, "project", None)?;
//! let input = json!({"toolName": "bash", "toolArgs": {"command": "rm -rf /"}});
//! let run = engine.run_json(EventName::PreToolUse, input.as_object().cloned().unwrap_or_default()).await;
//! println!("{:?}", run.report.merged.decision);
//! # Ok(()) }
//! ```

#[doc = include_str!("../docs/copilot.md")]
pub mod compatibility {}

mod config;
mod decode;
mod dialect;
mod engine;
mod event;
mod hook;
mod payload;
pub mod present;
mod session;

pub use config::{
    Command, Config, DEFAULT_TIMEOUT, Entry, Form, Loader, Scope, SourceFile, cloud_entries,
    discover,
};
pub use decode::{RunRecord, decode_outcome};
pub use dialect::{copilot_home, dialect};
pub use engine::{Engine, Run, aliases, dispatcher_settings};
pub use event::{EventName, TOOL_ALIASES, claude_tool};
pub use hook::{CommandHook, DIALECT};
/// Resource limits for a [`RunGroup`]'s hooks.
pub use hook_exec::ResourceLimits;
/// The hooks of one engine, with their containment choices ([`Engine::new_in`]).
pub use hook_exec::RunGroup;
/// The `agentStop` loop guard ([Stop loop](crate::compatibility#stop-loop)).
pub use hook_protocol::StopGuard;
pub use payload::InputObject;
pub use session::guard_notice;
