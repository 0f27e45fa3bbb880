//! The dialect-agnostic core of the hooks workspace.
//!
//! A harness has interception points ([`Seam`]s): a session starts, a prompt is submitted, a
//! tool is about to run, the turn wants to end. At each one it raises a neutral [`Event`] and
//! gets back one typed decision, folded most-restrictively from every hook that matched,
//! whatever kind of hook it is: a Claude Code command, a TNSAI script, a native Rust function.
//!
//! # Brief overview
//!
//! - [`Event`], [`Common`], [`Payload`]: what the harness knows at a seam.
//! - [`Verdict`] and [`Decision`]: what one hook said; [`merge`] / [`Merger`] fold many into a
//!   [`Merged`] (deny > defer > ask > allow > no opinion, in configuration order, independent
//!   of completion order); [`FromReport`] types read the seam's decision off it.
//! - [`Matcher`] and [`MatcherSet`]: which subjects a hook cares about, compiled once.
//! - [`codec`]: exit classification and stdout sniffing, shared by the dialects.
//! - [`RawOutcome`], [`Exit`], [`Mechanism`], [`ResourceLimit`]: what one hook process
//!   produced, as the codec and the records read it. Starting processes is not this crate's business: the
//!   process engine, `hook-exec`, is the only place in the workspace that does, and only the
//!   dialects that run commands depend on it.
//! - [`Hook`]: the one trait every kind of hook implements; [`Dispatcher`] runs the hooks that
//!   match an event and returns a [`Report`].
//! - [`Dialect`]: the one door every dialect goes through (load its files, list, run an event
//!   from JSON, run a recording as a [`Session`], check a file), with the shared
//!   [`Diagnostic`], [`Position`], [`EventRun`] and [`Shown`] a program reads without knowing
//!   which dialect it drives.
//!
//! This crate never names a dialect's event, never parses a dialect's configuration and never
//! starts a process: that is the dialect crates' business (`hooks-claude`, `hooks-tnsai`,
//! `hooks-native`) and the process engine's (`hook-exec`).
//!
//! # Examples
//!
//! A harness raises an [`Event`]: the facts it knows at a seam ([`Common`]) and the seam's
//! payload, here a tool call about to run.
//!
//! ```
//! use hook_protocol::{Common, Event, Payload, Seam, ToolCall};
//! use serde_json::json;
//!
//! let mut common = Common::new("session-1", "/work/project");
//! common.permission_mode = Some("default".into());
//! let call = ToolCall::new("Bash", json!({"command": "rm -rf build"}));
//! let event = Event::new(common, Payload::PreTool(call));
//! assert_eq!(event.seam(), Seam::PreTool);
//! assert_eq!(event.subject(), Some("Bash"), "what matchers are tested against");
//! ```
//!
//! Every kind of hook implements [`Hook`]: an identity ([`HookInfo`]: id, source, seams,
//! priority, failure policy) and a `run` that returns a [`HookOutcome`] holding a [`Verdict`].
//! A [`Dispatcher`] runs the hooks that match an event and folds their verdicts; a
//! [`FromReport`] type ([`PreToolDecision`] for the pre-tool seam) reads the seam's decision
//! off the [`Report`].
//!
//! ```
//! use async_trait::async_trait;
//! use hook_protocol::{
//!     Common, Dispatcher, Event, Hook, HookInfo, HookOutcome, On, Payload, PreToolDecision, Seam,
//!     Source, ToolCall, ToolPermission, Verdict,
//! };
//! use serde_json::json;
//!
//! /// Refuses recursive deletes; has no opinion on anything else.
//! #[derive(Debug)]
//! struct NoRecursiveDelete(HookInfo);
//!
//! #[async_trait]
//! impl Hook for NoRecursiveDelete {
//!     fn info(&self) -> &HookInfo {
//!         &self.0
//!     }
//!
//!     async fn run(&self, event: &Event) -> HookOutcome {
//!         let command = event.payload.tool_call().and_then(|c| c.tool_input["command"].as_str());
//!         match command {
//!             Some(c) if c.contains("rm -rf") => {
//!                 HookOutcome::success(Verdict::deny("recursive deletes are refused"))
//!             }
//!             _ => HookOutcome::success(Verdict::no_opinion()),
//!         }
//!     }
//! }
//!
//! let mut info = HookInfo::new("no-rm", Source::new("example", None));
//! info.on = On::seam(Seam::PreTool);
//! let dispatcher = Dispatcher::builder().hook(NoRecursiveDelete(info)).build()?;
//!
//! let event = Event::new(
//!     Common::new("session-1", "/work/project"),
//!     Payload::PreTool(ToolCall::new("Bash", json!({"command": "rm -rf build"}))),
//! );
//! let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
//! let report = runtime.block_on(dispatcher.dispatch(&event));
//! let decision: PreToolDecision = report.decision();
//! assert_eq!(
//!     decision.permission,
//!     ToolPermission::Deny { reason: Some("recursive deletes are refused".into()) }
//! );
//! assert_eq!(report.records.len(), 1, "one record per hook that ran");
//! Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A whole dialect in one file, an external-process protocol with its wire payload, its run
//! through the process engine and its output rules, is `hook-exec`'s example
//! [`examples/rubyn_dialect.rs`](https://docs.rs/crate/hook-exec/latest/source/examples/rubyn_dialect.rs)
//! (`cargo run -p hook-exec --example rubyn_dialect`).
//!
//! Folding verdicts needs no dispatcher: [`merge`] takes them in configuration order.
//!
//! ```
//! use hook_protocol::{Attribution, Decision, Source, Verdict, merge};
//!
//! let from = |i| Attribution::new(i, format!("hook-{i}"), Source::new("example", None));
//! let merged = merge([
//!     (from(0), Verdict::allow()),
//!     (from(1), Verdict::deny("rm -rf is not allowed")),
//!     (from(2), Verdict::context("the repository uses cargo")),
//! ]);
//! assert_eq!(merged.decision, Some(Decision::Deny));
//! assert_eq!(merged.reason().as_deref(), Some("rm -rf is not allowed"));
//! assert_eq!(merged.context.len(), 1);
//! Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod codec;
mod diagnostic;
pub mod dialect;
mod dispatch;
mod event;
mod hook;
mod matcher;
mod merge;
mod metadata;
mod os_error;
mod outcome;
mod scrub;
mod seam;
mod seam_decision;
mod shown;
mod stop_guard;
pub mod text_file;
mod tool;
mod verdict;

pub use diagnostic::{Diagnostic, Level, LineIndex, Position, Problem, Skip, Skipped, skipping};
pub use dialect::{
    Claim, DecisionWord, Dialect, DialectError, EventRun, FileKind, GuardState, HookLine, LateLine,
    Listed, LoadRequest, Loaded, Session, SessionStep, Settled, Surface,
};
pub use dispatch::{Dispatcher, DispatcherBuilder, FromReport, HookEvent, Mode, Observer, Report};
pub use event::{
    Common, Custom, Event, Extensions, InputRewritten, ModelMessage, ModelRequest, ModelResponse,
    Notification, Payload, PreCompact, PromptSubmit, SessionEnd, SessionStart, SubagentEnd,
    SubagentStart, ToolCall, ToolFailure, ToolResult, ToolSelection, TurnEnd,
};
pub use hook::{
    FailMode, FailurePolicy, Hook, HookInfo, HookOutcome, HookRecord, HookStatus, On, ProcessFacts,
};
pub use matcher::{Aliases, Matcher, MatcherError, MatcherSet};
pub use merge::{Attributed, Attribution, Fold, Merged, Merger, ReasonRule, merge, merge_by};
pub use metadata::{Metadata, RecordData};
pub use os_error::os_error_text;
pub use outcome::{Exit, Mechanism, RawOutcome, ResourceLimit, StdinOutcome, signal_name};
pub use scrub::Scrub;
pub use seam::Seam;
pub use seam_decision::{
    BlockDecision, ContextDecision, Continuation, Control, Injected, PermissionDecision,
    PostToolDecision, PreToolDecision, PromptPermission, PromptSubmitDecision, RequestPermission,
    ToolPermission, TurnEndDecision,
};
pub use shown::{ModelText, Placement, Shown};
pub use stop_guard::StopGuard;
pub use tool::{NeutralTool, ToolInput};
pub use verdict::{Decision, Halt, Severity, Source, Verdict};
