//! Stage 5, hooks on the core's seams: a configuration comes in; `ClaudeHook`s registered on
//! a dispatcher (dedup, `if`, workspace trust, skills) and the [`Engine`](crate::Engine) that
//! fires typed events go out, with each firing's decision and report. It may use every stage
//! below it; it never names the session.

pub(crate) mod check;
pub(crate) mod engine;
pub(crate) mod hook;
