//! Hooks on the core's seams, above the rendering: a configuration comes in; its handlers go
//! out as `HandlerHook`s on a dispatcher (which run on an event: dedup, `if`, workspace trust,
//! skills), with the [`Engine`](crate::Engine) that fires typed events and returns each
//! decision, its report and what is shown. It may use every stage below; it never names the
//! session.

pub(crate) mod active;
pub(crate) mod builder;
pub(crate) mod check;
pub(crate) mod engine;
pub(crate) mod fired;
pub(crate) mod hook;
pub(crate) mod registry;
pub(crate) mod timeout;
