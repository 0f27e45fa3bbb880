//! Claude Code's formats, above the configuration: a typed input or a neutral event comes in
//! and leaves as the stdin payload; a hook's exit, stdout and stderr come in and leave as a
//! verdict with its Claude record; the core's fold comes in and leaves as the event's typed
//! decision. It reads only the configuration: it never starts a run, fires an event or
//! renders a text.

pub(crate) mod decision;
pub(crate) mod decode;
pub mod input;
pub mod output;
pub mod samples;
pub(crate) mod seams;
