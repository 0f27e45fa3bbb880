//! Claude Code's formats, above the configuration: a typed input or a neutral event comes in
//! and leaves as the stdin payload; a hook's exit, stdout and stderr come in and leave as a
//! verdict with its Claude record; the core's fold comes in and leaves as the event's typed
//! decision. It also holds Claude Code's wording (`templates`), which the records' notices
//! here and the presentation above both use. It reads only the configuration: it never starts
//! a run, fires an event or decides where a text goes.

#[cfg(test)]
pub(crate) mod canned;
pub(crate) mod conversion;
pub(crate) mod decision;
pub(crate) mod decode;
pub mod input;
pub(crate) mod lookup;
pub(crate) mod neutral;
pub mod output;
pub(crate) mod payload;
pub mod samples;
pub mod templates;
