//! Copilot hooks end to end with real `sh` scripts: loading as Copilot loads, the process
//! contract, the outputs and Copilot's failure rules.

#![allow(clippy::unwrap_used, reason = "test helpers fail the test by unwrapping")]

mod claude_files;
mod contract;
mod load;
mod run;
mod snapshots;
mod support;
