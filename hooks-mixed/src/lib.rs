//! Every agent's hooks for a project, on the same seams.
//!
//! A harness is none of the agents its users came from, and their projects hold
//! `.claude/settings.json`, `.codex/hooks.json`, `.github/hooks/*.json` and
//! `.cursor/hooks.json` side by side. One call loads them all ([`Project::load`]); one neutral
//! event ([`hook_protocol::Event`], its tools named as in the
//! [neutral vocabulary](hook_protocol::NeutralTool)) then runs through every dialect at once,
//! each writing it as its own agent does (its events, tool names and input shapes), each
//! keeping its own agent's rules (Copilot's first deny ends Copilot's hooks, Cursor's
//! `failClosed`, Claude Code's `onFailure`), and their runs fold into one ([`MixedRun`]).
//!
//! ```no_run
//! # async fn demo() -> Result<(), hook_protocol::DialectError> {
//! use hook_protocol::{Common, Decision, Event, Payload, ToolCall};
//! use serde_json::json;
//!
//! let hooks = hooks_mixed::Project::new("/work/app").home("/home/me").load();
//! let call = ToolCall::new("Edit", json!({"file_path": "src/main.rs", "old_string": "a", "new_string": "b"}));
//! let event = Event::new(Common::new("session-1", "/work/app"), Payload::PreTool(call));
//! let run = hooks.run(&event).await?.run;
//! match run.decision.decision() {
//!     Some(Decision::Deny) => {
//!         // The call does not run; the model gets each refusing agent's words (`run.shown`).
//!         let by = run.decided_by.as_ref().and_then(|h| h.source.as_ref());
//!         println!("refused by {by:?}: {:?}", run.reason);
//!     }
//!     Some(Decision::Ask | Decision::Defer) => { /* the harness's own permission prompt */ }
//!     Some(Decision::Allow) | None => { /* run it, with `run.updated_input` if a hook rewrote it */ }
//! }
//! # Ok(()) }
//! ```
//!
//! # The fold
//!
//! The dialects' runs are gathered in one order, [`ORDER`] (Claude Code, Codex, Copilot,
//! Cursor, TNSAI, native), whatever order they were loaded or finished in:
//!
//! - the decision is the most restrictive (no opinion, allow, ask, defer, deny or block); its
//!   reason, severity and deciding hook ([`EventRun::decided_by`](hook_protocol::EventRun)) are
//!   those of the first run in that order that gave it;
//! - contexts, messages for the user, hook lines (each naming its dialect and file) and each
//!   dialect's texts for the model and the user ([`hook_protocol::Shown`], in its own agent's
//!   words) follow one another in that order;
//! - a rewritten input is the first run's that rewrote it, unless the decision refuses; it is
//!   in the shape of the dialect that rewrote it, named in the run's `input_rewritten_by`;
//! - the first halt stops everything.
//!
//! A session ([`Mixed::into_session`]) steps every dialect's own session, so each keeps what
//! its agent keeps between events; a turn's end blocked by one dialect is blocked
//! (most restrictive), whatever another's hooks said, and each dialect's loop guard counts its
//! own blocks. The [`guide`] says what runs, in what order, and what each agent alone would
//! have done.

mod door;
mod fold;
mod mixed;
mod native;
mod project;
mod session;
mod words;

pub use door::{dialect, neutral_event};
pub use fold::{ORDER, PartRun, PartStep};
pub use mixed::{Mixed, MixedRun};
pub use project::{ClaudeFiles, Project, file_dialects, project_files};
pub use session::{MixedSession, MixedStep};

#[doc = include_str!("../docs/mixed.md")]
pub mod guide {}

/// The README's Rust snippets, compiled as doctests so that they keep up with the API (here,
/// where every crate they name is a dependency).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeSnippets;
