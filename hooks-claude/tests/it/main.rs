//! Integration tests of `hooks-claude`: real `sh` hooks run through settings files.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests")]

/// Background hooks: `async`, `asyncRewake`, the runtime marker, limits, shutdown.
mod background;
/// The command line: `CLAUDE_CODE_SHELL_PREFIX`, plugin `${user_config.*}`.
mod command_line;
/// Loading configuration: containment, diagnostics with positions, `disableAllHooks`.
mod config;
/// Containment set per engine.
mod containment;
/// A model request built from a session's steps, in Claude Code's layout.
mod conversation;
/// `prompt`, `agent` and `mcp_tool` hooks through test doubles of the harness's traits.
mod delegates;
/// Hooks run end to end: stdin, environment, decisions, dedup, parallelism, the Stop guard.
mod e2e;
/// The no-shell fast path against `sh -c`, case by case, with real processes.
mod fast_path;
/// Hooks in skill and sub-agent frontmatter.
mod frontmatter;
/// `http` hooks against a real server on loopback: every response rule, limits, timeouts.
#[cfg(feature = "http")]
mod http;
/// Whole texts in decisions, and the `SessionEnd` budget.
mod limits;
/// One reason among several blocking hooks, whatever their forms.
mod precedence;
/// Every public path a harness could name before the regrouping by stage.
mod public_paths;
/// The events first recorded from Claude Code 2.1.332: what each does with an answer.
mod recorded_events;
/// Fail-closed on every failure path, the event off argv, credentials scrubbed.
mod reliability;
/// The loopback HTTP server.
#[cfg(feature = "http")]
mod server;
/// A `Session` end to end: the Stop guard, skills, async results, env files, `cd`, Ctrl-C.
mod session;
/// What a harness's loop gets from a session: its interrupt handle, `PostToolBatch`'s calls,
/// the transcript it must name.
mod session_loop;
/// What Claude Code shows, from real hooks: long texts saved under a Claude home, cut deny
/// reasons, an unwritable home, invalid UTF-8, Stop feedback under the loop guard.
mod shown;
/// Hook statuses as Claude Code reports them.
mod status;
/// Shared helpers: temporary directories, fixture paths, settings files.
mod support;
