//! The parts every command dialect of the hooks workspace shares, written once: a command
//! dialect (Codex, Copilot, Cursor, the next agent) runs its agent's hooks as processes, and
//! supplies only what is its own (its event table, where its files are and how they read, its
//! stdin, its command line, how it reads a hook's output, what its agent shows, its specials).
//!
//! - [`Core`]: the engine's hooks on a dispatcher, in one [`hook_exec::RunGroup`]; an event run
//!   from the agent's input object ([`Run`], [`InputObject`]); [`engine_methods!`] gives an
//!   engine its `running`, `kill_running`, `config`, `dispatcher` and `hooks`.
//! - [`CommandEngine`] and [`Hooks`]: the loaded hooks behind the core's door
//!   ([`hook_protocol::Loaded`]), with the recording session over them (its per-dialect state
//!   in [`CommandEngine::State`]; the loop guard is [`hook_protocol::StopGuard`]).
//!   The door is built on the typed path a harness uses: a run through it turns the agent's
//!   event name and input object into the neutral [`hook_protocol::Event`] (carrying the object
//!   as an [`InputObject`]) and dispatches it on the same dispatcher whose hooks the engine
//!   gives a harness.
//! - [`EventTable`]: the agent's event names, their seams and the errors of an unknown name.
//! - [`Config`]: what a dialect's loader read, in its agent's order, with every problem;
//!   [`Loader`] reads files into it through the dialect's [`ReadFile`]; [`hook_files`] gives
//!   the files a request names, else those the agent would find.
//! - [`Reading`]: what a dialect read from one run, made the hook's outcome.
//! - [`json`]: the positioned JSON reader, every problem at its line and column.
//! - [`input`]: the readings of an agent's input object each dialect makes.
//!
//! ```
//! use hook_kit::{EventTable, json};
//! use hook_protocol::Seam;
//!
//! #[derive(Debug, Clone, Copy, PartialEq, Eq)]
//! enum Event { BeforeTool }
//!
//! impl std::fmt::Display for Event {
//!     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
//!         f.write_str(self.as_str())
//!     }
//! }
//!
//! impl EventTable for Event {
//!     const WHAT: &'static str = "Example event";
//!     fn all() -> &'static [Self] { &[Event::BeforeTool] }
//!     fn as_str(self) -> &'static str { "beforeTool" }
//!     fn seam(self) -> Option<Seam> { Some(Seam::PreTool) }
//! }
//!
//! assert_eq!(Event::known("beforeTool").ok(), Some(Event::BeforeTool));
//! let unknown = Event::known("BeforeTool").err().map(|e| e.to_string()).unwrap_or_default();
//! assert!(unknown.contains("did you mean `beforeTool`?"), "{unknown}");
//!
//! let mut problems = Vec::new();
//! let path = std::path::Path::new("hooks.json");
//! let text = "{\"hooks\": {},}";
//! let mut sink = json::Sink::new(path, text, &mut problems);
//! assert!(json::parse(text, &mut sink).is_none());
//! assert_eq!(problems[0].position().line, 1);
//! ```

mod config;
mod door;
mod engine;
mod event;
mod files;
pub mod input;
pub mod json;
mod reading;

pub use config::{Config, Loader, ReadFile, SourceFile, absolute};
pub use door::{CommandEngine, Hooks, Written, event_run, listed, string_field, write_one};
pub use engine::{Core, Run, aliases, hook_info, inherited_env};
pub use event::EventTable;
pub use files::{HookFile, agent_home, found_note, hook_files, named_file, plugin_dir};
pub use input::InputObject;
pub use reading::Reading;
