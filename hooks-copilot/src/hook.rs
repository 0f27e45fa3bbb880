//! One Copilot hook on the core's seams: its command run as Copilot runs it
//! ([Process execution](crate::compatibility#process-execution)): `bash` and `command` through
//! `/bin/bash --norc --noprofile -c`, `exec` and `args` without a shell, in the project's root
//! (or the hook's `cwd`), with `env` over the inherited environment and Copilot's variables, the
//! input on stdin without a trailing newline.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use async_trait::async_trait;
use hook_exec::{CommandSpec, Env, Invocation, RunGroup};
use hook_protocol::{Event, FailMode, FailurePolicy, Hook, HookInfo, HookOutcome, Scrub};

use crate::decode::{RunRecord, decode, spawn_failed};
use crate::payload::{claude_object, stdin_object};
use crate::{Command, Entry, Form};

/// The dialect's name in records and sources.
pub const DIALECT: &str = "copilot";

/// The shell `bash` and `command` run in.
const BASH: &str = "/bin/bash";

/// The shell a `powershell`-only hook runs in, found on `PATH`.
const POWERSHELL: &str = "pwsh";

/// A Copilot hook.
#[derive(Debug)]
pub struct CommandHook {
    info: HookInfo,
    entry: Entry,
    project_dir: PathBuf,
    /// The file's name as Copilot's texts give it: relative to the project when inside it.
    shown_source: String,
    scrub: Option<Scrub>,
    /// The engine's group: its containment choices, and the means to end its hooks.
    group: RunGroup,
}

impl CommandHook {
    /// The hook of `entry`, the `index`-th loaded, for a project.
    pub fn new(entry: Entry, index: usize, project_dir: &Path, scrub: Option<Scrub>) -> Self {
        let label = entry.command.label();
        let mut info = hook_kit::hook_info(DIALECT, entry.event, index, &entry.source.path, label);
        // A crash denies where Copilot fails closed; a timeout never does.
        if entry.event.crash_denies() {
            info.failure_policy = FailurePolicy::new(FailMode::Closed, FailMode::Open);
        }
        info.matcher = entry.matcher.clone();
        let shown_source = entry
            .source
            .path
            .strip_prefix(project_dir)
            .unwrap_or(&entry.source.path)
            .display()
            .to_string();
        Self {
            info,
            entry,
            project_dir: project_dir.to_path_buf(),
            shown_source,
            scrub,
            group: RunGroup::new(),
        }
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

    fn env(&self) -> Env {
        let mut env = hook_kit::inherited_env(self.scrub.as_ref());
        let root = self.project_dir.display().to_string();
        env.set("COPILOT_PROJECT_DIR", &root);
        env.set("CLAUDE_PROJECT_DIR", &root);
        if let Some(dir) = self.entry.source.scope.hook_dir(&self.entry.source.path) {
            env.set("COPILOT_HOOK_DIR", dir.display().to_string());
        }
        if let Some(root) = self.entry.source.scope.plugin_root(&self.entry.source.path) {
            env.set("PLUGIN_ROOT", root.display().to_string());
            env.set("CLAUDE_PLUGIN_ROOT", root.display().to_string());
        }
        env.set("COPILOT_CLI", "1");
        // The version a harness's own environment gives, else the one these rules follow.
        if std::env::var_os("COPILOT_CLI_BINARY_VERSION").is_none() {
            env.set("COPILOT_CLI_BINARY_VERSION", crate::present::COPILOT_VERSION);
        }
        // Copilot makes git refuse bare repositories it was not pointed at, for its hooks too.
        env.set("GIT_CONFIG_COUNT", "1");
        env.set("GIT_CONFIG_KEY_0", "safe.bareRepository");
        env.set("GIT_CONFIG_VALUE_0", "explicit");
        // `env` values are expanded (`$HOME`, `${VAR}`) from the harness's environment; a
        // variable that is not set stays as written.
        for (key, value) in &self.entry.env {
            let expanded =
                shellexpand::env_with_context_no_errors(value, |name| std::env::var(name).ok());
            env.set(key, expanded.as_ref());
        }
        env
    }
}

#[async_trait]
impl Hook for CommandHook {
    fn info(&self) -> &HookInfo {
        &self.info
    }

    async fn run(&self, event: &Event) -> HookOutcome {
        let name = self.entry.event;
        let object = stdin_object(name, event);
        let stdin = match self.entry.form {
            Form::Copilot => serde_json::to_vec(&*object),
            Form::Claude => serde_json::to_vec(&claude_object(name, &object)),
        }
        .unwrap_or_default();
        let command = match &self.entry.command {
            Command::Bash(line) => CommandSpec::exec(
                BASH,
                ["--norc".to_owned(), "--noprofile".to_owned(), "-c".to_owned(), line.clone()],
            ),
            Command::PowerShell(line) => CommandSpec::exec(
                POWERSHELL,
                ["-NoProfile".to_owned(), "-Command".to_owned(), line.clone()],
            ),
            Command::Exec { program, args } => CommandSpec::exec(program.clone(), args.clone()),
        };
        let cwd = match &self.entry.cwd {
            Some(dir) => self.project_dir.join(dir),
            None => self.project_dir.clone(),
        };
        let mut inv = Invocation::new(command, cwd, self.entry.timeout);
        self.group.apply(&mut inv);
        inv.env = self.env();
        inv.stdin = Arc::from(stdin);
        let record = RunRecord {
            source: self.shown_source.clone(),
            command: self.entry.command.label(),
            ..RunRecord::default()
        };
        match hook_exec::run(&inv).await {
            Ok(raw) => decode(name, &raw, self.entry.timeout, self.entry.form, record),
            Err(e) => spawn_failed(name, &e.to_string(), record),
        }
    }
}
