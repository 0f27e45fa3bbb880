//! One Cursor hook on the core's seams: registered for the seam whose actions fire its event
//! ([Projection](crate::compatibility#projection)), its matcher searched in that event's target,
//! its command run as `/bin/sh -c COMMAND` in the project's root (a user hook: in `~/.cursor`)
//! with Cursor's variables ([Process execution](crate::compatibility#process-execution)).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use hook_exec::{CommandSpec, Env, Invocation, RunGroup};
use hook_protocol::{Event, FailurePolicy, Hook, HookInfo, HookOutcome, Payload, Scrub};
use serde_json::{Map, Value};

use crate::config::Scope;
use crate::decode::{Context, RunRecord, decode, spawn_failed};
use crate::payload::{CURSOR_VERSION, stdin_object, target};
use crate::{Entry, EventName};

/// The dialect's name in records and sources.
pub const DIALECT: &str = "cursor";

/// The variables `sessionStart` hooks gave (`env`): every later hook of the session gets them.
pub(crate) type SessionEnv = Arc<Mutex<Vec<(String, String)>>>;

/// A Cursor hook.
#[derive(Debug)]
pub struct CommandHook {
    info: HookInfo,
    entry: Entry,
    project_dir: PathBuf,
    cursor_home: Option<PathBuf>,
    session_env: SessionEnv,
    scrub: Option<Scrub>,
    /// The engine's group: its containment choices, and the means to end its hooks.
    group: RunGroup,
}

impl CommandHook {
    /// The hook of `entry`, the `index`-th loaded, for a project.
    pub(crate) fn new(
        entry: Entry,
        index: usize,
        project_dir: PathBuf,
        cursor_home: Option<PathBuf>,
        session_env: SessionEnv,
        scrub: Option<Scrub>,
    ) -> Self {
        let label = entry.command.clone();
        let mut info = hook_kit::hook_info(DIALECT, entry.event, index, &entry.source.path, label);
        // `failClosed` blocks where the event can block; elsewhere a failure changes nothing.
        if entry.fail_closed && entry.event.gating() {
            info.failure_policy = FailurePolicy::CLOSED;
        }
        info.continuation_limit = entry.loop_limit;
        Self { info, entry, project_dir, cursor_home, session_env, scrub, group: RunGroup::new() }
    }

    /// The hook, run in `group` (its containment choices; [`Engine::kill_running`] ends the
    /// group's hooks).
    ///
    /// [`Engine::kill_running`]: crate::Engine::kill_running
    pub(crate) fn in_group(mut self, group: RunGroup) -> Self {
        self.group = group;
        self
    }

    /// The configuration entry.
    pub fn entry(&self) -> &Entry {
        &self.entry
    }

    /// The input this hook gets for `event`, when its event fires for it and its matcher
    /// accepts it.
    fn input_for(&self, event: &Event) -> Option<Arc<Map<String, Value>>> {
        let object = stdin_object(self.entry.event, event, &self.project_dir)?;
        let accepted = self.entry.matcher.is_any()
            || self.entry.matcher.is_match(&target(self.entry.event, &object));
        accepted.then_some(object)
    }

    fn env(&self, input: &Map<String, Value>) -> Env {
        let mut env = hook_kit::inherited_env(self.scrub.as_ref());
        if let Ok(vars) = self.session_env.lock() {
            for (key, value) in vars.iter() {
                env.set(key, value);
            }
        }
        let root = self.project_dir.display().to_string();
        env.set("CURSOR_PROJECT_DIR", &root);
        env.set("CLAUDE_PROJECT_DIR", &root);
        env.set("CURSOR_VERSION", CURSOR_VERSION);
        if let Some(transcript) = input.get("transcript_path").and_then(Value::as_str) {
            env.set("CURSOR_TRANSCRIPT_PATH", transcript);
        }
        env
    }

    /// Where the hook runs: the project's root, `~/.cursor` for a user hook, the plugin's
    /// folder (above its `hooks/hooks.json`) for a plugin's.
    fn cwd(&self) -> PathBuf {
        match (self.entry.source.scope, &self.cursor_home) {
            (Scope::User, Some(home)) if home.is_dir() => home.clone(),
            (Scope::Plugin, _) => {
                let file = &self.entry.source.path;
                let root = file.parent().filter(|d| d.ends_with("hooks")).and_then(Path::parent);
                root.or_else(|| file.parent())
                    .map_or_else(|| self.project_dir.clone(), Path::to_path_buf)
            }
            _ => self.project_dir.clone(),
        }
    }
}

#[async_trait]
impl Hook for CommandHook {
    fn info(&self) -> &HookInfo {
        &self.info
    }

    fn active(&self, event: &Event) -> bool {
        self.input_for(event).is_some()
    }

    async fn run(&self, event: &Event) -> HookOutcome {
        let name: EventName = self.entry.event;
        let record = RunRecord { command: self.entry.command.clone(), ..RunRecord::default() };
        let Some(input) = self.input_for(event) else {
            return HookOutcome::skipped(format!("`{name}` does not fire for this event"));
        };
        let stdin = serde_json::to_vec(&*input).unwrap_or_default();
        let command = CommandSpec::exec("/bin/sh", ["-c".to_owned(), self.entry.command.clone()]);
        let mut inv = Invocation::new(command, self.cwd(), self.entry.timeout);
        self.group.apply(&mut inv);
        inv.env = self.env(&input);
        inv.stdin = Arc::from(stdin);
        let completed = match &event.payload {
            Payload::SubagentEnd(_) => {
                input.get("status").and_then(Value::as_str).is_none_or(|s| s == "completed")
            }
            _ => true,
        };
        let mcp_tool = input
            .get("tool_name")
            .and_then(Value::as_str)
            .is_some_and(|t| crate::event::action_of(t) == crate::event::Action::Mcp);
        let ctx = Context {
            event: name,
            timeout: self.entry.timeout,
            fail_closed: self.entry.fail_closed,
            completed,
            mcp_tool,
        };
        match hook_exec::run(&inv).await {
            Ok(raw) => decode(ctx, &raw, record),
            Err(e) => spawn_failed(&e.to_string(), record),
        }
    }
}
