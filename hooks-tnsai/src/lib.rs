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
//! - [`TnsaiHook`], built with [`TnsaiHook::builder`]: one script (id, name, event type,
//!   matcher, priority, executable, timeout, failure policy, env). It implements the core's
//!   [`Hook`](hook_protocol::Hook), so it sits on a [`Dispatcher`](hook_protocol::Dispatcher)
//!   next to Claude Code and native hooks.
//! - [`EventType`] and [`EventSelector`]: TNSAI's event names and their seams (`PreToolUse` is
//!   [`Seam::PreTool`](hook_protocol::Seam::PreTool), `Stop` is
//!   [`Seam::TurnEnd`](hook_protocol::Seam::TurnEnd), other names are custom events).
//! - [`Request`]: the envelope on stdin; [`Stamp`] gives an event its `event_id` and
//!   `timestamp`. [`Response`]: the decision on stdout, read strictly ([`ProtocolError`]).
//! - Exit codes (0 = JSON expected, 2 = block, anything else, a timeout or a spawn failure =
//!   the hook's failure policy) and the mapping of decisions onto the core's verdict: see the
//!   `decode` rules on [`RecordMeta`]'s module, summarised below.
//! - [`event_from_parts`]: a neutral event from `(event_type, payload, context)` objects,
//!   validated against the event's shape ([`ShapeError`] names the field).
//! - [`HookList`]: the declarative hook list (YAML or JSON), read with every problem reported
//!   ([`ConfigErrors`]); it runs its hooks as a pipeline. [`Summary`]: the `allow` / `block`
//!   answer with reason, severity and rewritten input, as the `hooks` command prints it.
//!
//! # Decisions
//!
//! | response | core verdict |
//! |---|---|
//! | `allow`, `skip` | no opinion (TNSAI's allow lets the chain go on; it grants nothing) |
//! | `block` | deny with the reason; the severity is kept in the record |
//! | `modify` | no opinion with the validated rewrite as `updated_input` |
//! | `continue_chain: false` | end of chain: no later hook of this event runs |
//! | exit 2 | deny (status `blocked`) |
//! | other exit, timeout, spawn failure, protocol error | failure; fail open (default) or closed |
//!
//! # Environment
//!
//! A hook runs with the harness's environment, its configured variables, and
//! `TNSAI_HOOK_EVENT_TYPE`, `TNSAI_HOOK_EVENT_ID` and `TNSAI_HOOK_PROTOCOL_VERSION=1`. It is
//! executed directly with no arguments (no shell); the event travels on stdin only.
//!
//! # Example
//!
//! ```no_run
//! use hooks_tnsai::{EventType, HookList, Summary, event_from_parts};
//! use serde_json::json;
//!
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let list = HookList::load("hooks.yaml")?;
//! let payload = json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}});
//! let event = event_from_parts(
//!     &EventType::PreToolUse,
//!     payload.as_object().cloned().unwrap_or_default(),
//!     None,
//!     std::path::Path::new("."),
//! )?;
//! let summary = Summary::from_report(&list.run(&event).await);
//! assert_eq!(summary.exit_code(), if summary.reason.is_some() { 2 } else { 0 });
//! # Ok(())
//! # }
//! ```
//!
//! Building one hook in code:
//!
//! ```
//! use std::time::Duration;
//! use hook_protocol::{FailurePolicy, Hook};
//! use hooks_tnsai::{BuildError, EventType, TnsaiHook, TrustError};
//!
//! let refused = TnsaiHook::builder("guard")
//!     .event_type(EventType::PreToolUse)
//!     .matcher("Bash|Write")
//!     .priority(-10)
//!     .executable("/bin/sh")
//!     .timeout(Duration::from_secs(5))
//!     .on_failure(FailurePolicy::FailClosed)
//!     .trusted_root("/opt/company-hooks-that-do-not-exist")
//!     .build();
//! assert!(matches!(refused, Err(BuildError::Trust { error: TrustError::Root { .. }, .. })));
//!
//! let hook = TnsaiHook::builder("guard")
//!     .event_type(EventType::PreToolUse)
//!     .executable("/bin/sh")
//!     .trusted_root("/bin")
//!     .build();
//! // `/bin/sh` resolves under `/bin` on most systems (or `/usr/bin` where `/bin` is a link).
//! if let Ok(hook) = hook {
//!     assert_eq!(hook.info().priority, 0);
//! }
//! Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod config;
mod decode;
mod envelope;
mod event_type;
mod hook;
mod response;
mod shape;
mod summary;
mod trust;

pub use config::{ConfigError, ConfigErrorKind, ConfigErrors, HookList, HookRef, Position};
pub use decode::{BLOCK_EXIT_CODE, RecordMeta};
pub use envelope::{
    DEFAULT_TNSAI_VERSION, EnvelopeContext, EnvelopePayload, PROTOCOL_VERSION, Request, Stamp,
};
pub use event_type::{EventSelector, EventType};
pub use hook::{
    BuildError, DEFAULT_TIMEOUT, DIALECT, FRAMEWORK_ENV, TnsaiHook, TnsaiHookBuilder,
    compile_matcher,
};
pub use response::{DecisionKind, ProtocolError, Response, Severity};
pub use shape::{
    ShapeError, ShapeProblem, common_from_context, event_from_parts, known_fields,
    payload_from_object, validate_modified,
};
pub use summary::{ChainDecision, Summary};
pub use trust::{TrustError, TrustRoots};
