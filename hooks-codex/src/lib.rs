//! Runs users' unmodified Codex hooks on the harness's seams, with the behaviour Codex
//! (0.171.0) gives them.
//!
//! Codex reads hooks from `hooks.json` files and `[hooks]` tables of `config.toml` files, in
//! layers (managed, the user's `~/.codex`, each trusted project's `.codex/`, then plugins), and
//! runs only the hooks the user reviewed, unless they are managed. [`Loader`] reads the files into a
//! [`Config`] (every problem a [`hook_protocol::Diagnostic`] at its line and column, each entry
//! with its [`Trust`]); [`Engine`] puts the hooks that may run on a dispatcher, as
//! [`hook_protocol::Hook`]s a harness can mix with any other kind; [`dialect()`] is the same
//! through the core's one door, for a program that drives dialects (the `hooks` command).
//!
//! A hook runs as Codex runs it: `$SHELL -lc COMMAND` in the session's directory, its input on
//! stdin as one compact JSON object without a trailing newline, nothing added to its
//! environment. Its answer is read by Codex's rules ([`RunRecord`] keeps what its texts
//! need): exit 2 blocks with stderr, `permissionDecision: "deny"` needs a reason, `allow` means
//! something only with `updatedInput`, `ask` is ignored, every failure and timeout fails open.
//! An `async` hook starts with the others and is never waited for; what it says is queued and
//! delivered with the next user turn ([`Engine::take_async_output`]).
//! What Codex shows the model is in [`present`]: a denied call's output
//! `Command blocked by PreToolUse hook: {reason}. Command: {command}`, a `PostToolUse` block
//! replacing the tool's output, a `Stop` block as a `<hook_prompt>` user message.
//!
//! What the crate does for each event, field and rule, and where it deliberately differs from
//! Codex, is in the [`compatibility`] module (`docs/codex.md`).
//!
//! ```no_run
//! use hooks_codex::{Engine, EventName, Scope, Loader};
//! use serde_json::json;
//!
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! let mut loader = Loader::new().trust_all(true);
//! loader.hooks_json("project/.codex/hooks.json", Scope::Project);
//! let config = loader.finish();
//! for problem in &config.diagnostics {
//!     eprintln!("{problem}");
//! }
//! let engine = Engine::new(config, "project", None)?;
//! let input = json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}});
//! let run = engine.run_json(EventName::PreToolUse, input.as_object().cloned().unwrap_or_default()).await;
//! println!("{:?}", run.report.merged.decision);
//! # Ok(()) }
//! ```

#[doc = include_str!("../docs/codex.md")]
pub mod compatibility {}

mod background;
mod config;
mod decode;
mod dialect;
mod engine;
mod event;
mod hook;
mod payload;
pub mod present;
mod trust;

pub use background::{AsyncOutput, MAX_QUEUED, MAX_RUNNING};
pub use config::{Config, DEFAULT_TIMEOUT, Entry, Loader, Plugin, Scope, SourceFile, discover};
pub use decode::{RunRecord, decode_outcome};
pub use dialect::{codex_home, dialect};
pub use engine::{Engine, Run, aliases};
pub use event::{EventName, TOOL_ALIASES};
pub use hook::{CommandHook, DIALECT};
/// Resource limits for a [`RunGroup`]'s hooks.
pub use hook_exec::ResourceLimits;
/// The hooks of one engine, with their containment choices ([`Engine::new_in`]).
pub use hook_exec::RunGroup;
pub use payload::{InputObject, Turn};
pub use trust::{Reviews, Trust};
