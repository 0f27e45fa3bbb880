//! End-to-end tests of the `hooks` binary, one module per subcommand, plus the mixed-dialect
//! fold through the libraries.

#![allow(clippy::unwrap_used, reason = "test helpers fail the test by unwrapping")]

mod bad_files;
mod check;
mod closed_output;
mod codex;
mod contain;
mod copilot;
mod cursor;
mod errors;
mod every_agent;
mod first_hour;
mod gemini;
mod hostile;
mod list;
mod mixed;
mod reliability;
mod replay;
mod run;
mod support;
mod test_cmd;
mod tnsai;
mod trust;
