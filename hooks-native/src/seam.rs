//! The seams as types: which event a native hook reads at each, and what it may answer.
//!
//! Each marker (e.g. [`PreTool`]) names one [`hook_protocol::Seam`] at compile time. Its
//! [`SeamKind::Event`] is the typed payload a hook receives there, and the capability traits it
//! implements decide which constructors and builders [`crate::Answer`] offers there:
//!
//! | seam | event | may answer |
//! |---|---|---|
//! | [`SessionStart`] | [`hook_protocol::SessionStart`] | context |
//! | [`PromptSubmit`] | [`hook_protocol::PromptSubmit`] | block, context |
//! | [`PreTool`] | [`ToolCall`] | allow, ask, defer, deny, rewritten input, context |
//! | [`PermissionRequest`] | [`ToolCall`] | allow, deny, rewritten input |
//! | [`PostTool`] | [`hook_protocol::ToolResult`] | block (feedback), context |
//! | [`PostToolFailure`] | [`hook_protocol::ToolFailure`] | context |
//! | [`TurnEnd`] | [`hook_protocol::TurnEnd`] | continue, context |
//! | [`SubagentStart`] | [`hook_protocol::SubagentStart`] | context |
//! | [`SubagentEnd`] | [`hook_protocol::SubagentEnd`] | continue, context |
//! | [`PreCompact`] | [`hook_protocol::PreCompact`] | block |
//! | [`Notification`] | [`hook_protocol::Notification`] | nothing of its own |
//! | [`SessionEnd`] | [`hook_protocol::SessionEnd`] | nothing of its own |
//! | [`Custom`] | [`hook_protocol::Custom`] | everything |
//!
//! At every seam a hook may also halt the harness, leave a message for the user, give a reason
//! and end the chain.

use hook_protocol::{Payload, Seam, ToolCall};

mod sealed {
    pub trait Sealed {}
}

/// A seam named at compile time: its [`Seam`] and the event a native hook reads there.
///
/// Sealed: the implementations are the markers of this module.
pub trait SeamKind: sealed::Sealed + Send + Sync + 'static {
    /// The typed event a hook at this seam receives.
    type Event;
    /// The seam.
    const SEAM: Seam;

    /// The seam's event in `payload`, when the payload is this seam's.
    fn select(payload: &Payload) -> Option<&Self::Event>;
}

/// Seams where a hook may allow the action.
pub trait Allows: SeamKind {}
/// Seams where a hook may ask the user or defer to whoever drives the harness.
pub trait Asks: SeamKind {}
/// Seams where a hook may deny the action.
pub trait Denies: SeamKind {}
/// Seams where a hook may block what happens (the prompt, the compaction; after a tool: give
/// the model blocking feedback).
pub trait Blocks: SeamKind {}
/// Seams where a hook may keep the agent going, with the next instruction as the reason.
pub trait Continues: SeamKind {}
/// Seams where a hook may replace the tool input.
pub trait Rewrites: SeamKind {}
/// Seams where a hook may add context for the model.
pub trait Informs: SeamKind {}

macro_rules! seams {
    ($($(#[$doc:meta])* $marker:ident: $event:ty = $variant:ident => [$($cap:ident),*];)*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub struct $marker;

        impl sealed::Sealed for $marker {}

        impl SeamKind for $marker {
            type Event = $event;
            const SEAM: Seam = Seam::$variant;

            fn select(payload: &Payload) -> Option<&Self::Event> {
                match payload {
                    Payload::$variant(event) => Some(event),
                    _ => None,
                }
            }
        }

        $(impl $cap for $marker {})*
    )*};
}

seams! {
    /// [`Seam::SessionStart`].
    SessionStart: hook_protocol::SessionStart = SessionStart => [Informs];
    /// [`Seam::PromptSubmit`].
    PromptSubmit: hook_protocol::PromptSubmit = PromptSubmit => [Blocks, Informs];
    /// [`Seam::PreTool`].
    PreTool: ToolCall = PreTool => [Allows, Asks, Denies, Rewrites, Informs];
    /// [`Seam::PermissionRequest`].
    PermissionRequest: ToolCall = PermissionRequest => [Allows, Denies, Rewrites];
    /// [`Seam::PostTool`].
    PostTool: hook_protocol::ToolResult = PostTool => [Blocks, Informs];
    /// [`Seam::PostToolFailure`].
    PostToolFailure: hook_protocol::ToolFailure = PostToolFailure => [Informs];
    /// [`Seam::TurnEnd`].
    TurnEnd: hook_protocol::TurnEnd = TurnEnd => [Continues, Informs];
    /// [`Seam::SubagentStart`].
    SubagentStart: hook_protocol::SubagentStart = SubagentStart => [Informs];
    /// [`Seam::SubagentEnd`].
    SubagentEnd: hook_protocol::SubagentEnd = SubagentEnd => [Continues, Informs];
    /// [`Seam::PreCompact`].
    PreCompact: hook_protocol::PreCompact = PreCompact => [Blocks];
    /// [`Seam::Notification`].
    Notification: hook_protocol::Notification = Notification => [];
    /// [`Seam::SessionEnd`].
    SessionEnd: hook_protocol::SessionEnd = SessionEnd => [];
    /// [`Seam::Custom`]: a dialect's own event, routed by name; the core does not interpret
    /// the answer, so every answer is possible.
    Custom: hook_protocol::Custom = Custom => [Allows, Asks, Denies, Blocks, Continues, Rewrites, Informs];
}
