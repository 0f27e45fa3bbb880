//! Stage 2, Claude Code's formats: typed inputs and neutral events come in and leave as stdin
//! payloads; a hook's exit, stdout and stderr come in and leave as verdicts with their Claude
//! record; the core's fold comes in and leaves as the event's typed decision. It reads the
//! configuration only; it never starts a run and never renders.

pub(crate) mod decision;
pub(crate) mod decode;
pub mod input;
pub mod output;
pub mod samples;
pub(crate) mod seams;
