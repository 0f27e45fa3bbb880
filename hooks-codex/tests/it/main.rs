//! Integration tests of `hooks-codex`: Codex hooks run as real `sh` scripts.

#![expect(clippy::unwrap_used, reason = "test helpers fail their test by panicking")]

/// `async` hooks: never waited for; their outputs delivered with the next accepted turn.
mod background;
/// Codex's files and layers, TOML tables, problems at their positions, the trust rule.
mod config;
/// What each answer of a hook does, event by event, and what Codex shows for it.
mod outputs;
/// A plugin's hooks: the manifest's forms, the id, the data folder, the review keys.
mod plugins;
/// How a hook is started and what it gets; which hooks a tool call matches.
mod process;
/// Every event's decision and shown texts, as reviewed snapshots.
mod snapshots;
/// A project in a temporary folder, its hooks as real `sh` scripts.
mod support;
