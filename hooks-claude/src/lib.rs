//! Runs users' unmodified Claude Code hooks on the harness's seams, with the behaviour Claude
//! Code gives them, event by event.
//!
//! A harness loads the user's settings files and plugins ([`Loader`], [`discover`]), builds an
//! [`Engine`], and at each of its interception points makes one typed call per event
//! ([`Engine::pre_tool_use`], [`Engine::stop`], ... or the generic [`Engine::fire`]) that
//! returns the event's typed decision. Every configured handler (of any of the five types)
//! becomes a [`hook_protocol::Hook`] ([`HandlerHook`]) on the core's seams, so Claude Code hooks
//! mix with native hooks and other dialects in one most-restrictive fold.
//!
//! A harness that runs sessions makes the engine a [`Session`]: one method per lifecycle step
//! (start, prompt, tool calls, permission prompt, batch end, turn end, sub-agents, compaction,
//! notification, end), each returning the decision and what Claude Code shows
//! ([`Step`]), and between the steps what Claude Code does: the Stop loop guard, skills whose
//! hooks start with their Skill call, `once`, background results on the next step,
//! `CLAUDE_ENV_FILE`s and their exports, the current directory, `PostToolBatch`'s calls, Ctrl-C
//! through one [`Interrupter`] for the session (or a [`CancellationToken`] per step). A
//! [`conversation::Conversation`] turns the steps, the model's replies and the tools' results
//! into each model request, laid out as Claude Code lays them out. The workspace's
//! `examples/harness-loop` crate is the guide: a scripted model and fake tools driving a
//! session through a whole turn.
//!
//! What the crate does for each event, field and rule, where it deliberately differs from
//! Claude Code and why, and the Claude Code release it follows (2.1.332) is written down in
//! [`compatibility`], which the API docs below link to section by section.
//!
//! # Brief overview
//!
//! - Configuration: [`Loader`] reads settings files (their `hooks` key, or a bare hooks file)
//!   and plugin `hooks/hooks.json`, in the order given, keeping the line and column of every
//!   value; a file that cannot be read or parsed is reported as a [`Diagnostic`](hook_protocol::Diagnostic) and registers
//!   nothing. [`check`] adds the checks a `hooks check` command prints.
//! - Events: [`EventName`] (the 34 events and what each does with an answer), [`input`] (one
//!   typed stdin input per event), [`output`] (the strict output schema).
//! - Matching: [`matcher`] (Claude Code's match-all / exact list / regex rule) and
//!   [`PermissionRule`] (the `if` filter of tool events).
//! - Outcome rules: exit 0 / 2 / other per event, JSON detection, `onFailure`, timeouts, in
//!   Claude terms (a [`HookStatus`](hook_protocol::HookStatus) each) and as neutral verdicts.
//! - Decisions: one type per group of events ([`ToolCallDecision`], [`StopDecision`], ...),
//!   read off the core's fold ([`hook_protocol::FromReport`]); [`StopGuard`] is the Stop loop guard.
//! - Seams: [`event_from_payload`] and [`payload_from_event`] translate between the neutral
//!   events of `hook-protocol` and Claude payloads.
//! - Presentation: [`present`], Claude Code's texts around the decisions ([`Fired::shown`]).
//!
//! # Handler types
//!
//! - `command`: a process, through `hook_exec::run` (the only place that starts
//!   one): shell form `/bin/sh -c`, exec form with `args`.
//! - `http`: a POST of the event's JSON ([HTTP hooks](crate::compatibility#http-hooks) says what
//!   the answer means; a status alone never blocks). [`HttpPolicy`] holds `allowedHttpHookUrls` (an
//!   empty list blocks every URL) and `httpHookAllowedEnvVars`; header values interpolate only the
//!   variables both the handler's `allowedEnvVars` and the policy allow, never the agent's own
//!   model credentials ([`HttpPolicy::withhold`]), and are never logged.
//!   Redirects are not followed, so that a redirect cannot lead past the allowlist. TLS is rustls
//!   with the platform's verifier. The client is the crate's `http` feature, on by default; a
//!   harness with no use for `http` hooks turns it off (`default-features = false`) and builds
//!   without reqwest, rustls and hyper: an `http` hook is then a load warning at its handler
//!   and is skipped ([`NotRun::HttpNotBuilt`]).
//! - `prompt`, `agent`, `mcp_tool`: through traits the harness implements ([`delegate`]:
//!   [`ModelEvaluator`](delegate::ModelEvaluator), [`AgentRunner`](delegate::AgentRunner),
//!   [`McpToolCaller`](delegate::McpToolCaller)), registered on the [`EngineBuilder`]. This
//!   crate builds the request (`$ARGUMENTS`, `${path}`), bounds it by the hook's timeout, and
//!   maps the `{ok, reason}` answer per event; without an implementation such a hook is
//!   skipped with a warning naming it. An event that does not accept a type
//!   ([Handler types](crate::compatibility#handler-types)) rejects it at load, with the file,
//!   line and column.
//!
//! # What the harness calls besides the events
//!
//! A [`Session`] does all of this itself; a harness that fires events on the engine alone calls:
//!
//! - [`Engine::drain_async`] on each turn: what background (`async`) hooks said since, for
//!   the model's next request ([`Presenter::late`] gives the messages). A bounded number run at once ([`BackgroundLimits`]); the next
//!   ones wait in a bounded queue; past it a hook is refused with a warning.
//! - [`Engine::take_wake_receiver`] once: `asyncRewake` hooks that exit 2 arrive there at
//!   once, to wake the model.
//! - [`Engine::shutdown`] when the session ends: every background hook is ended (its whole
//!   process tree killed) and awaited.
//!
//! `SessionEnd` hooks share one budget ([`EngineBuilder::session_end_budget`]).
//!
//! # What the engine leaves on the user's machine
//!
//! - **Files**, all under one Claude home ([`EngineBuilder::claude_home`]; by default `.claude`
//!   in [`HostEnv::home`], else in `$HOME`): hook texts too long for the conversation, saved
//!   where Claude Code saves them (`projects/<cwd slug>/<session id>/tool-results/`, kept: the
//!   model is told their path), and a session's `CLAUDE_ENV_FILE`s
//!   (`session-env/<session id>/`, removed by the [`Session`] at `SessionEnd`). Nothing else
//!   is written.
//! - **Processes**: each hook runs in a process group of its own, and its whole tree is
//!   killed when it times out, is cancelled or when the engine shuts down. The process engine
//!   (`hook_exec`) chooses once per process how it finds a hook's tree: on Linux with a
//!   writable cgroup v2 hierarchy, a cgroup per hook under `hooks-<pid>-<start>` in the
//!   harness's own cgroup, and a small supervisor process (a fork of the harness, doing
//!   nothing else) that kills the running hooks if the harness dies without doing so; the
//!   tree walk elsewhere. A harness changes that before its first hook runs with
//!   `hook_exec::contain`: `Containment::off()` (no cgroups: the tree walk), `.supervisor(false)`
//!   (no supervisor process), `Containment::under(dir)` (cgroups under a directory it owns),
//!   `.limits(...)` (pids, memory and CPU weight per hook); `hook_exec::containment()` says what
//!   is in force and why. The parent cgroup and the supervisor are the process's; each engine
//!   may turn cgroups off for its own hooks ([`EngineBuilder::cgroups`]) and give them resource
//!   limits of their own ([`EngineBuilder::resource_limits`], [`ResourceLimits`]), and
//!   [`Engine::kill_running`] ends one engine's running hooks without touching another's.
//!
//! # Decisions and what the model sees
//!
//! A decision carries what the hooks said in their own words: a JSON reason verbatim, an
//! exit-2 hook's stderr verbatim (`No stderr output` when empty), whole contexts. What Claude
//! Code shows the model and the user is different text: its framing
//! (`PreToolUse:Bash hook error: [cmd]: ...`), the `<system-reminder>` preamble of Stop
//! feedback, `<persisted-output>` previews of contexts over 10,000 characters (the whole text
//! saved under the Claude home, [`EngineBuilder::claude_home`]), the cut of very long deny
//! reasons. [`Fired::shown`] renders it, word for word, for the Claude Code release of
//! [`present::templates::CLAUDE_CODE_VERSION`]: each model text with its [`Placement`], and
//! the user's texts. [`Engine::presenter`] renders a background hook's late result
//! ([`Presenter::late`]) and reports of a harness's own dispatcher ([`Presenter::shown`]).
//!
//! ```
//! use hooks_claude::input::{Base, PreToolUse};
//! use hooks_claude::{Engine, HostEnv, Loader, Placement, Scope};
//! use serde_json::{Value, json};
//!
//! let settings = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{
//!     "type": "command",
//!     "command": "echo 'use trash instead' >&2; exit 2"
//! }]}]}}"#;
//! let config = Loader::new().settings_text("settings.json", settings, Scope::Project).finish()?;
//! let home = std::env::temp_dir().join("hooks-claude-doc-home");
//! let engine = Engine::builder(config)
//!     .host(HostEnv::new(std::env::temp_dir()))
//!     .claude_home(&home)
//!     .build()?;
//! let input = PreToolUse {
//!     base: Base::new("session-1", "/tmp/t.jsonl", std::env::temp_dir().display().to_string()),
//!     tool_name: "Bash".into(),
//!     tool_input: json!({"command": "rm -rf build"}),
//!     tool_use_id: "toolu_1".into(),
//!     mcp_server: None,
//! };
//! let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
//! let fired = runtime.block_on(engine.pre_tool_use(&input));
//!
//! // The model request continues the conversation as Claude Code would.
//! let mut messages: Vec<Value> = vec![json!({"role": "assistant", "content": [
//!     {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": input.tool_input}
//! ]})];
//! let shown = fired.shown();
//! let mut user_blocks = Vec::new();
//! for text in &shown.model {
//!     match text.placement {
//!         // The hooks refused the call: this is its result.
//!         Placement::ToolResult => user_blocks.push(json!({"type": "tool_result",
//!             "tool_use_id": "toolu_1", "content": text.text, "is_error": text.is_error})),
//!         Placement::User => user_blocks.push(json!({"type": "text", "text": text.text})),
//!         Placement::System => {
//!             if !user_blocks.is_empty() {
//!                 messages.push(json!({"role": "user", "content": std::mem::take(&mut user_blocks)}));
//!             }
//!             messages.push(json!({"role": "system", "content": text.text}));
//!         }
//!         // Paragraphs of the environment message (SessionStart, UserPromptSubmit,
//!         // UserPromptExpansion).
//!         _ => {}
//!     }
//! }
//! if !user_blocks.is_empty() {
//!     messages.push(json!({"role": "user", "content": user_blocks}));
//! }
//! assert_eq!(
//!     messages[1]["content"][0]["content"],
//!     "PreToolUse:Bash hook error: [echo 'use trash instead' >&2; exit 2]: use trash instead\n"
//! );
//! for notice in &shown.user {
//!     eprintln!("{notice}"); // for the person, never the model
//! }
//! Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Decisions where Claude Code is ambiguous
//!
//! Hooks run in parallel and their answers fold in configuration order, not completion order:
//! between several rewrites of a tool input, the hook last in configuration order wins (the
//! conflict is reported, and no rewrite applies with a deny); reasons and contexts keep
//! configuration order. Identical handlers (command and args; URL for `http`) run once per
//! event across settings files; each plugin's copy stays separate. Injected context is labelled with this dialect and its
//! plugin or settings file, never as the user's.
//!
//! # Example
//!
//! ```
//! use hook_protocol::ToolPermission;
//! use hooks_claude::input::{Base, PreToolUse};
//! use hooks_claude::{Engine, HostEnv, Loader, Scope};
//!
//! let settings = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{
//!     "type": "command",
//!     "command": "echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"permissionDecision\": \"deny\", \"permissionDecisionReason\": \"no rm\"}}'",
//!     "if": "Bash(rm *)"
//! }]}]}}"#;
//! // Problems in the files are an error that still holds what loaded (`into_config`).
//! let config = Loader::new().settings_text(".claude/settings.json", settings, Scope::Project).finish()?;
//! assert!(config.diagnostics.is_empty());
//! let engine = Engine::builder(config).host(HostEnv::new(std::env::temp_dir())).build()?;
//!
//! let input = PreToolUse {
//!     base: Base::new("session-1", "/tmp/transcript.jsonl", std::env::temp_dir().display().to_string()),
//!     tool_name: "Bash".into(),
//!     tool_input: serde_json::json!({"command": "rm -rf build"}),
//!     tool_use_id: "toolu_1".into(),
//!     mcp_server: None,
//! };
//! let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
//! let fired = runtime.block_on(engine.pre_tool_use(&input));
//! assert_eq!(fired.decision.permission, ToolPermission::Deny { reason: Some("no rm".into()) });
//! Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[doc = include_str!("../docs/claude-code.md")]
pub mod compatibility {}

mod config;
pub mod conversation;
mod dialect;
mod hooks;
pub mod present;
mod run;
mod session;
mod wire;

pub use config::event_name::{EventName, Exit2, HandlerType, Keeps, UnknownEvent};
pub use config::load::{LoadErrors, Loader};
pub use config::matcher;
pub use config::permission_rule::{PermissionRule, RuleContext, RuleError};
pub use config::settings::{
    Config, Entry, Handler, HandlerPositions, HandlerSpec, HttpSpec, ManagedPolicy, McpToolSpec,
    OnFailure, Origin, Plugin, PromptSpec, Scope, SourceFile, discover, discover_in,
};
pub use dialect::dialect;
pub use hook_exec::ResourceLimits;
pub use hooks::active::WorkspaceTrust;
pub use hooks::builder::EngineBuilder;
pub use hooks::check::{CommandLookup, check};
pub use hooks::engine::Engine;
pub use hooks::fired::{Candidate, Fired, RawRun, Record};
pub use hooks::hook::{HandlerHook, NotRun};
pub use present::stop_guard::StopGuard;
pub use present::{ModelText, Placement, Presenter, Shown};
pub use run::background::{AsyncResult, BackgroundLimits, Refused};
pub use run::delegate;
pub use run::env::HostEnv;
pub use run::env_file::{
    EnvFileExports, ExportsError, exports as env_file_exports, session_env_dir,
};
pub use run::http::HttpPolicy;
#[doc(hidden)]
pub use run::http::keep_chunk;
pub use session::{
    CancellationToken, GuardState, Interrupter, Late, Phase, PromptAnswer, Session, SessionError,
    Step, check_order, check_order_from,
};
pub use wire::conversion::{
    InputObject, event_from_payload, payload_for, payload_from_event, subject_of,
};
pub use wire::decision::*;
pub use wire::decode::{RunRecord, decode_http_outcome, decode_outcome};
pub use wire::input;
pub use wire::output;
pub use wire::samples;
