//! Runs unmodified Claude Code hooks on the harness's seams.
#![allow(missing_docs)]

mod check;
mod command;
mod decision;
mod decode;
mod diagnostic;
mod engine;
mod env;
mod event_name;
pub mod input;
mod load;
pub mod matcher;
pub mod output;
mod permission_rule;
pub mod samples;
mod seams;
mod settings;
mod stop_guard;

pub use check::check;
pub use command::{AsyncResult, ClaudeHook, NotRun};
pub use decision::*;
pub use decode::{ClaudeMeta, ClaudeStatus};
pub use diagnostic::{Diagnostic, Pos, Severity};
pub use engine::{ClaudeRecord, Engine, EngineBuilder, Fired, Listed, RawRun};
pub use env::HostEnv;
pub use event_name::{EventName, Exit2, HandlerType, Keeps, UnknownEvent};
pub use load::Loader;
pub use permission_rule::{PermissionRule, RuleContext, RuleError};
pub use seams::{ClaudePayload, event_from_payload, payload_for, payload_from_event, subject_of};
pub use settings::{
    Config, Entry, Handler, HandlerPositions, OnFailure, Origin, Plugin, Scope, SourceFile,
    discover, discover_in,
};
pub use stop_guard::{GuardOverride, StopGuard};
