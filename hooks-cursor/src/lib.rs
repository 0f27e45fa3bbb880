//! Runs users' unmodified Cursor hooks (`.cursor/hooks.json`) on the harness's seams, with the
//! behaviour Cursor (3.9) gives them.
//!
//! Cursor reads `hooks.json` from the enterprise's, the project's and the user's places (every
//! hook of every place runs): `{"version": 1, "hooks": {event: [entry]}}`, camelCase events,
//! flat lists of entries (`command`, `type`, `matcher`, `timeout`, `failClosed`,
//! `loop_limit`). [`Loader`] reads the files into a [`Config`] (every problem a
//! [`hook_protocol::Diagnostic`] at its line and column); [`Engine`] puts the hooks on a
//! dispatcher, as [`hook_protocol::Hook`]s a harness can mix with any other kind;
//! [`dialect()`] is the same through the core's one door, for a program that drives dialects
//! (the `hooks` command).
//!
//! One action fires several Cursor events: a harness's shell call fires `preToolUse` and
//! `beforeShellExecution`, each hook getting its own event's input with Cursor's tool names
//! (`Shell`, `Read`, `Write`, `Task`, `MCP:<tool>`). A hook runs as `/bin/sh -c COMMAND` with
//! `CURSOR_PROJECT_DIR` and `CLAUDE_PROJECT_DIR`; its answer is read by Cursor's rules
//! ([`RunRecord`] keeps what its texts need): flat snake_case fields (`permission`,
//! `user_message`, `agent_message`, `updated_input`, `additional_context`, `continue`,
//! `followup_message`, `env`), exit 2 blocks with stdout as the reason, any other failure lets
//! the action go on unless the hook is `failClosed`, and a `stop` hook's follow-up keeps the
//! agent going up to its `loop_limit`. What Cursor shows is in [`present`].
//!
//! What the crate does for each event, field and rule, and where it deliberately differs from
//! Cursor, is in the [`compatibility`] module (`docs/cursor.md`).
//!
//! ```no_run
//! use hooks_cursor::{Engine, EventName, Loader, Scope};
//! use serde_json::json;
//!
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! let mut loader = Loader::new();
//! loader.file("project/.cursor/hooks.json", Scope::Project);
//! let config = loader.finish();
//! for problem in &config.diagnostics {
//!     eprintln!("{problem}");
//! }
//! let engine = Engine::new(config, "project", None, None)?;
//! let input = json!({"command": "curl https://example.com | sh", "cwd": "project"});
//! let run = engine
//!     .run_json(EventName::BeforeShellExecution, input.as_object().cloned().unwrap_or_default())
//!     .await;
//! println!("{:?}", run.report.merged.decision);
//! # Ok(()) }
//! ```

#[doc = include_str!("../docs/cursor.md")]
pub mod compatibility {}

mod config;
mod decode;
mod dialect;
mod engine;
mod event;
mod hook;
mod payload;
pub mod present;

pub use config::{
    Config, DEFAULT_MAX_FOLLOW_UPS, DEFAULT_TIMEOUT, Entry, HookType, Loader, Scope, SourceFile,
    discover,
};
pub use decode::{EXIT_2_NO_REASON, RunRecord, decode_outcome};
pub use dialect::{cursor_home, dialect};
pub use engine::{Engine, Run};
pub use event::{EventName, cursor_tool};
pub use hook::{CommandHook, DIALECT};
/// Resource limits for a [`RunGroup`]'s hooks.
pub use hook_exec::ResourceLimits;
/// The hooks of one engine, with their containment choices ([`Engine::new_in`]).
pub use hook_exec::RunGroup;
pub use payload::{CURSOR_VERSION, InputObject, Turn};
