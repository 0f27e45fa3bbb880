//! The TNSAI `hook_protocol_version 1` dialect on the harness's seams.
//!
//! TNSAI's external-script hooks are programs in any language that read one JSON envelope on
//! stdin and print one JSON decision on stdout. This crate runs them on the core's seams,
//! faithfully, and builds the two things the seed leaves for later: `modify` (a modified
//! payload is validated against the event's shape and applied) and trust roots (an executable
//! must resolve under a configured root and not be writable by group or others).
//!
//! # Brief overview
//!
//! - [`ScriptHook`], built with [`ScriptHook::builder`]: one script (id, name, event type,
//!   matcher, priority, executable, timeout, failure policy, env). It implements the core's
//!   [`Hook`](hook_protocol::Hook), so it sits on a [`Dispatcher`](hook_protocol::Dispatcher)
//!   next to Claude Code and native hooks, ordered by priority (lower first, negative before
//!   zero).
//! - [`EventType`] and [`EventSelector`]: TNSAI's event names and their seams (`PreToolUse` is
//!   [`Seam::PreTool`](hook_protocol::Seam::PreTool), `Stop` is
//!   [`Seam::TurnEnd`](hook_protocol::Seam::TurnEnd), any other name is a custom event).
//! - [`Request`]: the envelope on stdin; a [`Stamp`] gives an event its `event_id` and
//!   `timestamp`. [`Response`]: the decision on stdout, read strictly ([`ProtocolError`]).
//! - [`TrustRoots`]: where executables may live; checked when a hook is built ([`TrustError`]).
//! - [`event_from_parts`]: a neutral event from `(event_type, payload, context)` objects,
//!   validated against the event's shape ([`ShapeError`] names the field); [`event_from_input`]
//!   does the same from one input object whose `context` key is the context;
//!   [`validate_modified`] applies the same shapes to a `modified_payload`.
//! - [`HookList`]: the declarative hook list (YAML or JSON), read with every problem reported
//!   ([`LoadErrors`]); it runs its hooks as a pipeline ([`HookList::MODE`]), also on a
//!   harness's parallel dispatcher or `Engine` as one [`ListHook`] ([`HookList::as_hook`]).
//! - [`RunRecord`]: what a hook's record keeps (decision, severity, metadata);
//!   [`Summary`]: the `allow` / `block` answer with reason, severity and rewritten input, as the
//!   `hooks` command prints it.
//!
//! # Exit codes and decisions
//!
//! | the hook | the core's verdict |
//! |---|---|
//! | exit 0, `allow` or `skip` | no opinion: a TNSAI allow lets the chain go on and grants nothing, so the harness's own permission rules still decide |
//! | exit 0, `block` | deny with the reason; the severity (default `HIGH`) is kept in the record |
//! | exit 0, `modify` | no opinion with the validated rewrite as `updated_input`: the new tool input for `PreToolUse` / `PermissionRequest` (only `tool_input` may change), the whole validated payload for other events |
//! | `continue_chain: false` | end of chain: in a pipeline no later hook of the event starts; in parallel their verdicts are ignored |
//! | exit 2 | deny, status `blocked`; the reason is stdout's JSON `reason`, else stderr, else stdout's text |
//! | other exit, signal, timeout, spawn failure, protocol error | a failure with a precise message; the hook's failure policy makes it a pass (fail open, the default) or a deny (fail closed) |
//!
//! `metadata` is kept in the record, never acted on. A `modified_payload` is laid over the
//! payload the hook was sent (keys it omits keep their values) and must fit the event's shape;
//! what does not fit is a protocol error naming the field. In a pipeline, the hooks after a
//! `modify` see the rewritten tool input; a rewrite of another event's payload reaches the
//! harness (`updated_input`) but not the later hooks, since the core rewrites tool inputs only.
//!
//! # Environment
//!
//! A hook runs with the harness's environment, its configured variables, and
//! `TNSAI_HOOK_EVENT_TYPE`, `TNSAI_HOOK_EVENT_ID` and `TNSAI_HOOK_PROTOCOL_VERSION=1`. It is
//! executed directly, with no arguments and no shell; the event travels on stdin only, in the
//! event's `cwd` unless the hook sets a working directory. With a credential scrub
//! ([`ScriptHookBuilder::scrub_credentials`], a hook list's `scrub_credentials`, or
//! [`LoadOptions`]) the harness's variables named like credentials (`*_API_KEY`, `*_TOKEN`,
//! `*_SECRET`, `*_PASSWORD`, plus extra names) are not passed on.
//!
//! # Example
//!
//! A hook list with one guard script, run on a tool call:
//!
//! ```
//! use std::os::unix::fs::PermissionsExt;
//! use hooks_tnsai::{ChainDecision, EventType, HookList, Summary, event_from_parts};
//! use serde_json::json;
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir(dir.path().join("hooks"))?;
//! let guard = dir.path().join("hooks/guard.sh");
//! std::fs::write(&guard, r#"#!/bin/sh
//! if grep -q '"rm '; then
//!   echo '{"hook_protocol_version": "1", "decision": "block", "reason": "no rm", "severity": "HIGH"}'
//! else
//!   echo '{"hook_protocol_version": "1", "decision": "allow"}'
//! fi
//! "#)?;
//! std::fs::set_permissions(&guard, std::fs::Permissions::from_mode(0o755))?;
//! std::fs::write(dir.path().join("hooks.yaml"), r#"
//! trusted_roots: [./hooks]
//! hooks:
//!   - id: guard
//!     event_type: PreToolUse
//!     matcher: Bash
//!     executable: ./hooks/guard.sh
//!     on_failure: block
//! "#)?;
//! let list = HookList::load(dir.path().join("hooks.yaml"))?;
//!
//! let payload = json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}});
//! let payload = payload.as_object().cloned().unwrap_or_default();
//! let event = event_from_parts(&EventType::PreToolUse, payload, None, dir.path())?;
//! let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
//! let summary = Summary::from_report(&runtime.block_on(list.run(&event)));
//! assert_eq!(summary.decision, ChainDecision::Block);
//! assert_eq!(summary.reason.as_deref(), Some("no rm"));
//! assert_eq!(summary.exit_code(), 2);
//! Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod config;
mod decode;
mod dialect;
mod envelope;
mod event_type;
mod hook;
mod response;
mod shape;
mod summary;
mod trust;

pub use config::{HookList, HookRef, ListError, ListErrorKind, ListHook, LoadErrors, LoadOptions};
pub use decode::{BLOCK_EXIT_CODE, RunRecord};
pub use dialect::dialect;
pub use envelope::{
    DEFAULT_TNSAI_VERSION, EnvelopeContext, EnvelopePayload, PROTOCOL_VERSION, Request, Stamp,
};
pub use event_type::{EventSelector, EventType};
pub use hook::{
    BuildError, DEFAULT_TIMEOUT, DIALECT, FRAMEWORK_ENV, ScriptHook, ScriptHookBuilder,
    compile_matcher,
};
pub use response::{DecisionKind, ProtocolError, Response, ResponseSeverity};
pub use shape::{
    ShapeError, ShapeProblem, common_from_context, event_from_input, event_from_parts,
    known_fields, payload_from_object, validate_modified,
};
pub use summary::{ChainDecision, Summary};
pub use trust::{TrustError, TrustRoots};
