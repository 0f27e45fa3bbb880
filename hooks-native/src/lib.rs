//! Typed in-process hooks on the harness's seams.
//!
//! A native hook is Rust code in the harness's own process: no process to start, no JSON to
//! write or parse, typed end to end. It can do everything an external hook can, with typed
//! returns and no serialization boundary. This crate offers two kinds, for two jobs:
//!
//! - **Pairs** (the Insika model): hooks that *alter* the input and output of the one stage
//!   they wrap. A harness has four pairs (task, prompt, agent, tool) whose subject and result
//!   types it chooses. Before hooks run in registration order and may return an altered subject;
//!   the stage runs; after hooks run in *reverse* registration order and may return an altered
//!   result. Nothing is caught: the first error reaches the caller unchanged, and mapping it to
//!   a state is the caller's business.
//! - **Seam hooks**: functions that answer a seam's typed event (a tool call, a prompt, a turn
//!   end) with the seam's typed answer (allow, ask, deny, a rewritten input, context, continue,
//!   halt). They implement [`hook_protocol::Hook`], so they sit on the same
//!   [`hook_protocol::Dispatcher`] as Claude Code and TNSAI hooks, with an id, a priority, a
//!   matcher and a failure policy, and their verdicts fold with everyone else's.
//!
//! # Brief overview
//!
//! - [`Stages`]: the harness's subject and result type for each pair, and its hook error type.
//! - [`Task`], [`Prompt`], [`Agent`], [`Tool`]: the pairs, named at compile time ([`Pair`]);
//!   [`PairName`]: named at run time, parsed from a string.
//! - [`Hooks`]: the registry; [`Hooks::around`] wraps a stage, [`Hooks::run_before`] and
//!   [`Hooks::run_after`] are its halves for stages with no block to wrap. [`Chain`] holds one
//!   pair's hooks and states their order.
//! - [`SeamHook`]: a typed function on one seam; [`Answer`] is what it returns, with only the
//!   constructors its seam can act on ([`seam`] lists them).
//!
//! # Example
//!
//! ```
//! use hook_protocol::{Common, Dispatcher, Event, Matcher, Payload, PreToolDecision, ToolCall,
//!                     ToolPermission};
//! use hooks_native::{Answer, Hooks, SeamHook, Stages, Tool};
//!
//! // Pairs: the harness chooses the types.
//! struct Harness;
//! impl Stages for Harness {
//!     type Error = String;
//!     type TaskSubject = ();
//!     type TaskResult = ();
//!     type PromptSubject = String;
//!     type PromptResult = String;
//!     type AgentSubject = ();
//!     type AgentResult = ();
//!     type ToolSubject = Vec<String>;
//!     type ToolResult = String;
//! }
//!
//! let mut hooks = Hooks::<Harness>::new();
//! hooks
//!     .before(Tool, |mut argv: Vec<String>| {
//!         argv.retain(|a| a != "--force");
//!         Ok(argv)
//!     })
//!     .after(Tool, |out: String| Ok(out.trim_end().to_owned()));
//! let out = hooks.around(Tool, vec!["push".into(), "--force".into()], |argv| {
//!     Ok(format!("ran {}\n", argv.join(" ")))
//! })?;
//! assert_eq!(out, "ran push");
//!
//! // Seam hooks: on the core's dispatcher, beside hooks of any dialect.
//! let guard = SeamHook::pre_tool("no-force-push", |call: &ToolCall, _: &Common| {
//!     let cmd = call.tool_input.get("command").and_then(|c| c.as_str()).unwrap_or("");
//!     if cmd.contains("push --force") {
//!         Answer::deny("force pushes are not allowed")
//!     } else {
//!         Answer::allow()
//!     }
//! })
//! .matcher(Matcher::exact(["Bash"]));
//! let dispatcher = Dispatcher::builder().hook(guard).build()?;
//!
//! let call = ToolCall::new("Bash", serde_json::json!({"command": "git push --force"}));
//! let event = Event::new(Common::new("session", "/repo"), Payload::PreTool(call));
//! let runtime = tokio::runtime::Builder::new_current_thread().build()?;
//! let report = runtime.block_on(dispatcher.dispatch(&event));
//! let decision = report.decision::<PreToolDecision>();
//! assert!(matches!(decision.permission, ToolPermission::Deny { .. }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod answer;
mod chain;
mod hooks;
mod pair;
pub mod seam;
mod seam_hook;

pub use answer::{Answer, IntoAnswer};
pub use chain::{AfterFn, BeforeFn, Chain};
pub use hooks::{Hooks, Pair};
pub use pair::{Agent, Half, PairName, Prompt, RegisterError, Stages, Task, Tool, UnknownPair};
pub use seam_hook::{DIALECT, SeamHook};
