//! Runs users' unmodified Gemini CLI hooks (`.gemini/settings.json`) on the harness's seams,
//! with the behaviour Gemini CLI (0.61) gives them.
//!
//! Gemini reads hooks from the user's and the project's `settings.json`, under `hooks`, in
//! Claude Code's shape with its own event names (`BeforeTool`, `AfterTool`, `BeforeAgent`,
//! `AfterAgent`, …), tool names (`run_shell_command`, `write_file`, `replace`), timeouts in
//! milliseconds, and `sequential` groups. [`Loader`] reads the files into a [`Config`] (every
//! problem a [`hook_protocol::Diagnostic`] at its line and column); [`Engine`] puts the hooks
//! on a dispatcher; [`dialect()`] is the same through the core's one door. A hook runs as
//! `bash -c COMMAND`, Gemini's `$VARIABLES` substituted first; its answer is read by Gemini's
//! rules (stdout, else stderr; JSON on any exit; plain text by exit code, any code but 0 and 1
//! denying); what Gemini shows is in [`present`].
//!
//! What the crate does for each event, field and rule, and where it deliberately differs from
//! Gemini CLI, is in the [`compatibility`] module (`docs/gemini.md`).
//!
//! ```no_run
//! use hooks_gemini::{Engine, EventName, HooksConfig, Loader, Scope, present};
//! use serde_json::json;
//!
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! let mut loader = Loader::new();
//! loader.file("project/.gemini/settings.json", Scope::Project);
//! let config = loader.finish();
//! for problem in &config.diagnostics {
//!     eprintln!("{problem}");
//! }
//! // `hooksConfig` and redaction, as the settings files say (none here).
//! let engine = Engine::new(config, "project", None, None, HooksConfig::default())?
//!     .with_retry_cap(8); // Gemini has no cap on AfterAgent retries; a harness may set one.
//! let input = json!({"tool_name": "run_shell_command", "tool_input": {"command": "rm -rf build"}});
//! let run = engine
//!     .run_json(EventName::BeforeTool, input.as_object().cloned().unwrap_or_default())
//!     .await;
//! // A refusal's text for the model: `Tool execution blocked: …`.
//! for text in &run.shown.model {
//!     println!("{:?}: {}", text.placement, text.text);
//! }
//! println!("{}", present::joined_reason(&run.report));
//! # Ok(()) }
//! ```

#[doc = include_str!("../docs/gemini.md")]
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
    Config, DEFAULT_TIMEOUT, Entry, HooksConfig, Loader, Scope, SourceFile, discover, hooks_config,
};
pub use decode::{NO_REASON, RunRecord, answer_of, decode_outcome};
pub use dialect::{dialect, gemini_home};
pub use engine::{Engine, Run};
pub use event::{EventName, GEMINI_TOOLS, gemini_tool};
pub use hook::{CommandHook, DIALECT, VARIABLES, expand};
pub use payload::InputObject;
