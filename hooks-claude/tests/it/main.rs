//! Integration tests of `hooks-claude`: real `sh` hooks run through settings files.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests")]

/// Loading configuration: containment, diagnostics with positions, `disableAllHooks`.
mod config;
/// Hooks run end to end: stdin, environment, decisions, dedup, parallelism, the Stop guard.
mod e2e;
/// Fail-closed on every failure path, the event off argv, credentials scrubbed.
mod reliability;
/// Shared helpers: temporary directories, fixture paths, settings files.
mod support;
