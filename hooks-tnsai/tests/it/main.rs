//! Integration tests of `hooks-tnsai`, one module per area.

#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers fail their test by panicking"
)]

/// The declarative hook list: loading and every kind of error.
mod config;
/// The request envelope of every event type (snapshots).
mod envelope;
/// Events from `(event_type, payload, context)` and the `allow` / `block` summary.
mod parts;
/// Fail-closed on every failure path, the event off argv, credentials scrubbed.
mod reliability;
/// Responses read and checked (snapshots).
mod response;
/// Real scripts: each decision, each exit code, each failure-policy path, `modify`.
mod run;
/// Shared helpers: temporary hook directories and scripts.
mod support;
/// Trust roots accepted and refused.
mod trust;
