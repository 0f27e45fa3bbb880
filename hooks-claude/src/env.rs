//! The environment and command line of a hook process (§6.2, §6.4, §11).

use std::path::{Path, PathBuf};

use hook_protocol::exec::{CommandSpec, Env, Scrub};
use serde_json::{Map, Value};

use crate::{Entry, Plugin};

/// What the harness tells the hooks about itself, exported as environment variables.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct HostEnv {
    /// `CLAUDE_PROJECT_DIR`: the project root where the session started.
    pub project_dir: PathBuf,
    /// The home directory, for `~/` in `if` rules.
    pub home: Option<PathBuf>,
    /// `CLAUDE_PID`: the harness's process id.
    pub pid: u32,
    /// `CLAUDE_ENV_FILE` for SessionStart, Setup, CwdChanged and FileChanged hooks.
    pub env_file: Option<PathBuf>,
    /// `CLAUDE_CODE_REMOTE=true` when set.
    pub remote: bool,
    /// More variables for every hook (after the settings `env` blocks).
    pub extra: Vec<(String, String)>,
    /// When set, the credentials of the harness's environment (`*_API_KEY`, `*_TOKEN`,
    /// `*_SECRET`, `*_PASSWORD` and the scrub's extra names) are not passed to hooks; the
    /// settings `env` blocks and [`HostEnv::extra`] still reach them. Off by default, as in
    /// Claude Code, where hooks inherit everything.
    pub scrub: Option<Scrub>,
}

impl HostEnv {
    /// The variables for a project, with this process's id and nothing else.
    pub fn new(project_dir: impl Into<PathBuf>) -> Self {
        Self {
            project_dir: project_dir.into(),
            home: None,
            pid: std::process::id(),
            env_file: None,
            remote: false,
            extra: Vec::new(),
            scrub: None,
        }
    }
}

/// The environment of one hook run: the harness's, plus the settings `env` blocks, plus Claude
/// Code's variables.
pub(crate) fn hook_env(
    entry: &Entry,
    host: &HostEnv,
    settings_env: &[(String, String)],
    payload: &Map<String, Value>,
) -> Env {
    let mut env = Env::inherit();
    if let Some(scrub) = &host.scrub {
        env.scrub_credentials(scrub.clone());
    }
    for (k, v) in settings_env.iter().chain(&host.extra) {
        env.set(k, v);
    }
    env.set("CLAUDE_PROJECT_DIR", &host.project_dir);
    env.set("CLAUDECODE", "1");
    env.set("CLAUDE_CODE_CHILD_SESSION", "1");
    env.set("CLAUDE_PID", host.pid.to_string());
    if let Some(id) = payload.get("session_id").and_then(Value::as_str) {
        env.set("CLAUDE_CODE_SESSION_ID", id);
    }
    if let Some(level) = payload.get("effort").and_then(|e| e.get("level")).and_then(Value::as_str)
    {
        env.set("CLAUDE_EFFORT", level);
    }
    if host.remote {
        env.set("CLAUDE_CODE_REMOTE", "true");
    }
    if let Some(file) = &host.env_file
        && entry.event.gets_env_file()
    {
        env.set("CLAUDE_ENV_FILE", file);
    }
    if let Some(plugin) = entry.source.plugin() {
        env.set("CLAUDE_PLUGIN_ROOT", &plugin.root);
        if let Some(data) = &plugin.data {
            env.set("CLAUDE_PLUGIN_DATA", data);
        }
        for (key, value) in &plugin.options {
            env.set(format!("CLAUDE_PLUGIN_OPTION_{}", key.to_ascii_uppercase()), value);
        }
    }
    env
}

/// Replaces the three placeholders of exec form as plain strings (§6.2).
pub(crate) fn substitute(text: &str, project_dir: &Path, plugin: Option<&Plugin>) -> String {
    let mut out = text.replace("${CLAUDE_PROJECT_DIR}", &project_dir.display().to_string());
    if let Some(p) = plugin {
        out = out.replace("${CLAUDE_PLUGIN_ROOT}", &p.root.display().to_string());
        if let Some(data) = &p.data {
            out = out.replace("${CLAUDE_PLUGIN_DATA}", &data.display().to_string());
        }
    }
    out
}

/// The command to run: `/bin/sh -c` for shell form (the shell expands variables), the program
/// and its arguments with placeholders substituted for exec form, `pwsh -Command` for
/// `shell: "powershell"` (with `${VAR}` rewritten to `${env:VAR}`).
pub(crate) fn command_spec(entry: &Entry, project_dir: &Path) -> Option<CommandSpec> {
    let h = &entry.handler;
    let command = h.command.as_deref()?;
    let plugin = entry.source.plugin();
    if let Some(args) = &h.args {
        return Some(CommandSpec::exec(
            substitute(command, project_dir, plugin),
            args.iter().map(|a| substitute(a, project_dir, plugin)),
        ));
    }
    if h.shell.as_deref() == Some("powershell") {
        let mut line = command.to_owned();
        for var in ["CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"] {
            line = line.replace(&format!("${{{var}}}"), &format!("${{env:{var}}}"));
        }
        return Some(CommandSpec::exec(
            "pwsh",
            ["-NoProfile", "-ExecutionPolicy", "Bypass", "-Command", line.as_str()],
        ));
    }
    Some(CommandSpec::shell(command))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exec_form_substitutes_the_three_placeholders_only() {
        let mut plugin = Plugin::new("p", "/plug");
        plugin.data = Some("/data".into());
        let out = substitute(
            "${CLAUDE_PLUGIN_ROOT}/x ${CLAUDE_PROJECT_DIR} ${CLAUDE_PLUGIN_DATA} $HOME ${HOME}",
            Path::new("/proj"),
            Some(&plugin),
        );
        assert_eq!(out, "/plug/x /proj /data $HOME ${HOME}");
        assert_eq!(
            substitute("${CLAUDE_PLUGIN_ROOT}", Path::new("/p"), None),
            "${CLAUDE_PLUGIN_ROOT}"
        );
    }
}
