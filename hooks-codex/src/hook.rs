//! One Codex hook on the core's seams: its command run as Codex runs it
//! ([Process execution](crate::compatibility#process-execution)), `$SHELL -lc COMMAND` in the
//! session's directory, the input on stdin without a trailing newline, no variable added to the
//! environment, fail-open on every failure.

use std::path::PathBuf;

use async_trait::async_trait;
use hook_exec::{CommandSpec, ExecError, Invocation, RunGroup};
use hook_protocol::{Event, Hook, HookInfo, HookOutcome, HookStatus, Scrub};

use crate::Entry;
use crate::decode::{RunRecord, decode};
use crate::payload::stdin_object;

/// The dialect's name in records and sources.
pub const DIALECT: &str = "codex";

/// A Codex hook.
#[derive(Debug)]
pub struct CommandHook {
    info: HookInfo,
    entry: Entry,
    index: usize,
    shell: String,
    scrub: Option<Scrub>,
    /// The engine's group: its containment choices, and the means to end its hooks.
    group: RunGroup,
}

/// The shell Codex runs commands with: `$SHELL`, else `/bin/sh`.
fn login_shell() -> String {
    std::env::var("SHELL").ok().filter(|s| !s.is_empty()).unwrap_or_else(|| "/bin/sh".to_owned())
}

impl CommandHook {
    /// The hook of `entry`, the `index`-th loaded (its `hook_run_id`'s index).
    pub fn new(entry: Entry, index: usize, scrub: Option<Scrub>) -> Self {
        let label = entry.command.clone();
        let mut info = hook_kit::hook_info(DIALECT, entry.event, index, &entry.source.path, label);
        info.matcher = entry.matcher.clone();
        Self { info, entry, index, shell: login_shell(), scrub, group: RunGroup::new() }
    }

    /// The hook, run in `group` (its containment choices; [`Engine::kill_running`] ends the
    /// group's hooks).
    ///
    /// [`Engine::kill_running`]: crate::Engine::kill_running
    pub(crate) fn in_group(mut self, group: RunGroup) -> Self {
        self.group = group;
        self
    }

    /// Runs the hook's process on `event`, as Codex starts it, and returns how it ended.
    pub(crate) async fn run_raw(
        &self,
        event: &Event,
    ) -> Result<hook_protocol::RawOutcome, ExecError> {
        let name = self.entry.event;
        let stdin = serde_json::to_vec(&*stdin_object(name, event)).unwrap_or_default();
        let command =
            CommandSpec::exec(self.shell.clone(), ["-lc".to_owned(), self.entry.command.clone()]);
        let cwd: PathBuf = event.common.cwd.clone();
        let mut inv = Invocation::new(command, cwd, self.entry.timeout);
        self.group.apply(&mut inv);
        let mut env = hook_kit::inherited_env(self.scrub.as_ref());
        // A plugin's hooks are told where it is and where its data goes, under Codex's names
        // and Claude Code's.
        if let Some(plugin) = &self.entry.source.plugin {
            for name in ["PLUGIN_ROOT", "CLAUDE_PLUGIN_ROOT"] {
                env.set(name, &plugin.root);
            }
            for name in ["PLUGIN_DATA", "CLAUDE_PLUGIN_DATA"] {
                env.set(name, &plugin.data);
            }
        }
        inv.env = env;
        inv.stdin = stdin.into();
        hook_exec::run(&inv).await
    }

    /// The configuration entry.
    pub fn entry(&self) -> &Entry {
        &self.entry
    }
}

#[async_trait]
impl Hook for CommandHook {
    fn info(&self) -> &HookInfo {
        &self.info
    }

    async fn run(&self, event: &Event) -> HookOutcome {
        let name = self.entry.event;
        let record = RunRecord {
            index: self.index,
            source: self.entry.source.path.display().to_string(),
            command: self.entry.command.clone(),
            exit_code: None,
            error: None,
        };
        match self.run_raw(event).await {
            Ok(raw) => decode(name, &raw, self.entry.timeout, record),
            Err(e) => {
                let mut outcome = HookOutcome::failure(HookStatus::SpawnFailed, e.to_string());
                let mut record = record;
                record.error = Some(e.to_string());
                outcome.metadata = Some(hook_protocol::Metadata::typed(record));
                outcome
            }
        }
    }
}
