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
//!   of completion order); [`SeamDecision`] types read the seam's decision off it.
//! - [`Matcher`] and [`MatcherSet`]: which subjects a hook cares about, compiled once.
//! - [`codec`]: exit classification and stdout sniffing, shared by the dialects.
//! - [`exec`]: the only place in the workspace that starts a process.
//! - [`Hook`]: the one trait every kind of hook implements; [`Dispatcher`] runs the hooks that
//!   match an event and returns a [`Report`].
//!
//! This crate never names a dialect's event and never parses a dialect's configuration: that is
//! the dialect crates' business (`hooks-claude`, `hooks-tnsai`, `hooks-native`).
//!
//! # Example
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
mod decide;
mod dispatch;
mod event;
pub mod exec;
mod hook;
mod matcher;
mod merge;
mod os_error;
mod outcome;
mod seam;
mod verdict;

pub use decide::{
    BlockDecision, ContextDecision, Continuation, Control, Injected, PermissionAnswer,
    PermissionDecision, PostToolDecision, PreToolDecision, PromptSubmitDecision, PromptVerdict,
    SeamDecision, ToolPermission, TurnEndDecision,
};
pub use dispatch::{Dispatcher, DispatcherBuilder, HookEvent, Mode, Observer, Report};
pub use event::{
    Common, Custom, Event, Extensions, InputRewritten, Notification, Payload, PreCompact,
    PromptSubmit, SessionEnd, SessionStart, SubagentEnd, SubagentStart, ToolCall, ToolFailure,
    ToolResult, TurnEnd,
};
pub use hook::{
    FailurePolicy, Hook, HookInfo, HookOutcome, HookRecord, HookStatus, On, ProcessFacts,
};
pub use matcher::{Matcher, MatcherError, MatcherSet};
pub use merge::{Attributed, Attribution, Merged, Merger, merge};
pub use os_error::os_error_text;
pub use outcome::{Exit, RawOutcome, StdinOutcome, signal_name};
pub use seam::Seam;
pub use verdict::{Decision, Halt, Source, Verdict};
