//! The environment and command line of a hook process
//! ([Process execution](crate::compatibility#process-execution),
//! [Hook environment](crate::compatibility#hook-environment)).

use std::path::{Path, PathBuf};

use crate::wire::conversion::InputObject;
use hook_exec::{CommandSpec, Env};
use hook_protocol::Scrub;

use crate::run::direct::Direct;
use crate::run::plain;
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
    /// `CLAUDE_CODE_REMOTE=true` when set.
    pub remote: bool,
    /// More variables for every hook (after the settings `env` blocks).
    pub extra: Vec<(String, String)>,
    /// `CLAUDE_CODE_SHELL_PREFIX`: a command that wraps every shell-form hook, run as
    /// `PREFIX '<command>'` (the command single-quoted for `sh`); exec-form and PowerShell hooks
    /// are not wrapped ([Process execution](crate::compatibility#process-execution)). Claude Code
    /// reads it from its environment; the harness passes it here.
    pub shell_prefix: Option<String>,
    /// When set, the credentials of the harness's environment (`*_API_KEY`, `*_TOKEN`,
    /// `*_SECRET`, `*_PASSWORD` and the scrub's extra names) are not passed to hooks; the
    /// settings `env` blocks and [`HostEnv::extra`] still reach them. Off by default, as in
    /// Claude Code, where hooks inherit everything.
    pub scrub: Option<Scrub>,
    /// Whether a shell-form command made only of plain words (a program and its arguments,
    /// quotes, `$CLAUDE_PROJECT_DIR` and a plugin's `$CLAUDE_PLUGIN_ROOT` and
    /// `$CLAUDE_PLUGIN_DATA` as the only expansions) runs without `/bin/sh`, by `exec` of its
    /// program, with the result `sh -c` would give: arguments, `PATH` search, environment,
    /// working directory, exit statuses and signals, the errors of a program that cannot
    /// start. Taken only where `/bin/sh` is dash, which the first engine holding such a
    /// command checks once per process, on a thread of its own (two shells, a few
    /// milliseconds); the program's parent is then the harness, not a shell. On by default;
    /// `false` runs every shell-form command through `sh -c`.
    pub shell_fast_path: bool,
}

impl HostEnv {
    /// The variables for a project, with this process's id and nothing else.
    pub fn new(project_dir: impl Into<PathBuf>) -> Self {
        Self {
            project_dir: project_dir.into(),
            home: None,
            pid: std::process::id(),
            remote: false,
            extra: Vec::new(),
            shell_prefix: None,
            scrub: None,
            shell_fast_path: true,
        }
    }
}

/// The part of a hook's environment that every event shares: the harness's, plus the
/// settings `env` blocks, plus Claude Code's fixed variables and a plugin's. Built once per
/// engine for the hooks that are not a plugin's (they share it), once per hook for a plugin's;
/// [`hook_env`] adds an event's.
pub(crate) fn base_env(entry: &Entry, host: &HostEnv, settings_env: &[(String, String)]) -> Env {
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
    if host.remote {
        env.set("CLAUDE_CODE_REMOTE", "true");
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

/// The environment of one hook run: the hook's [`base_env`] plus the event's session, effort
/// and `CLAUDE_ENV_FILE` (set last, over a settings `env` block's value of the same name; no
/// variable of the base has their names otherwise).
pub(crate) fn hook_env(base: &Env, payload: &InputObject, env_file: Option<&Path>) -> Env {
    let mut env = base.clone();
    if let Some(id) = payload.session_id() {
        env.set("CLAUDE_CODE_SESSION_ID", id);
    }
    if let Some(level) = payload.effort_level() {
        env.set("CLAUDE_EFFORT", level);
    }
    if let Some(file) = env_file {
        env.set("CLAUDE_ENV_FILE", file);
    }
    env
}

/// Replaces the three placeholders of exec form as plain strings
/// ([Process execution](crate::compatibility#process-execution)).
pub(crate) fn substitute(text: &str, project_dir: &Path, plugin: Option<&Plugin>) -> String {
    // Every placeholder starts so: most programs and arguments hold none, and are copied as
    // they are.
    if !text.contains("${CLAUDE_") {
        return text.to_owned();
    }
    let mut out = text.replace("${CLAUDE_PROJECT_DIR}", &project_dir.display().to_string());
    if let Some(p) = plugin {
        out = out.replace("${CLAUDE_PLUGIN_ROOT}", &p.root.display().to_string());
        if let Some(data) = &p.data {
            out = out.replace("${CLAUDE_PLUGIN_DATA}", &data.display().to_string());
        }
    }
    out
}

/// The opening of a plugin option placeholder, `${user_config.KEY}`.
const USER_CONFIG: &str = "${user_config.";

/// Replaces a plugin's `${user_config.KEY}` placeholders with its option values (exec form,
/// [Process execution](crate::compatibility#process-execution)). A key the plugin has no option for
/// is an error naming it.
pub(crate) fn substitute_user_config(text: &str, plugin: &Plugin) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(USER_CONFIG) {
        out.push_str(&rest[..at]);
        let after = &rest[at + USER_CONFIG.len()..];
        let Some(end) = after.find('}') else {
            return Err(format!("`{USER_CONFIG}` in `{text}` is not closed with `}}`"));
        };
        let key = &after[..end];
        let value = plugin.options.iter().find(|(k, _)| k == key).map(|(_, v)| v);
        let Some(value) = value else {
            return Err(format!(
                "`${{user_config.{key}}}` names no option of plugin `{}`",
                plugin.name
            ));
        };
        out.push_str(value);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The words of a shell-form command that runs without the shell ([`crate::run::direct`]), when the
/// fast path is on and the command (and any shell prefix) is plain words; `None` otherwise.
/// The known variables are those the hook's environment gets from the harness whatever the
/// settings say: `CLAUDE_PROJECT_DIR`, and a plugin's `CLAUDE_PLUGIN_ROOT` and
/// `CLAUDE_PLUGIN_DATA`.
pub(crate) fn direct_spec(entry: &Entry, host: &HostEnv) -> Option<Direct> {
    let h = &entry.handler;
    if !host.shell_fast_path || h.args.is_some() || h.shell.as_deref() == Some("powershell") {
        return None;
    }
    let command = h.command.as_deref()?;
    let plugin = entry.source.plugin();
    if plugin.is_some() && command.contains(USER_CONFIG) {
        return None;
    }
    let mut known = Vec::with_capacity(3);
    if let Some(dir) = host.project_dir.to_str() {
        known.push(("CLAUDE_PROJECT_DIR", dir));
    }
    if let Some(p) = plugin {
        if let Some(root) = p.root.to_str() {
            known.push(("CLAUDE_PLUGIN_ROOT", root));
        }
        if let Some(data) = p.data.as_deref().and_then(Path::to_str) {
            known.push(("CLAUDE_PLUGIN_DATA", data));
        }
    }
    let words = match host.shell_prefix.as_deref().filter(|p| !p.trim().is_empty()) {
        // `PREFIX '<command>'`: the prefix's words, then the command as one word.
        Some(prefix) => {
            let mut words = plain::words(prefix, &known)?;
            words.push(command.to_owned());
            words
        }
        None => plain::words(command, &known)?,
    };
    Direct::new(words)
}

/// Quotes `text` as one `sh` word: inside single quotes, each `'` written as `'\''`.
fn sh_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The command to run: `/bin/sh -c` for shell form (the shell expands variables; wrapped in
/// `CLAUDE_CODE_SHELL_PREFIX` when the harness sets one), the program and its arguments with
/// placeholders substituted for exec form, `pwsh -Command` for `shell: "powershell"` (with
/// `${VAR}` rewritten to `${env:VAR}`). An error says why the handler cannot run.
pub(crate) fn command_spec(entry: &Entry, host: &HostEnv) -> Result<CommandSpec, String> {
    let h = &entry.handler;
    let Some(command) = h.command.as_deref() else {
        return Err("the handler has no command".to_owned());
    };
    let project_dir = &host.project_dir;
    let plugin = entry.source.plugin();
    if let Some(args) = &h.args {
        let expand = |text: &str| {
            let text = substitute(text, project_dir, plugin);
            match plugin {
                Some(p) => substitute_user_config(&text, p),
                None => Ok(text),
            }
        };
        let program = expand(command)?;
        let args = args.iter().map(|a| expand(a)).collect::<Result<Vec<_>, _>>()?;
        return Ok(CommandSpec::exec(program, args));
    }
    if plugin.is_some() && command.contains(USER_CONFIG) {
        return Err(format!(
            "`{USER_CONFIG}...}}` works only in exec form (with `args`); a shell-form command \
             reads the option as `$CLAUDE_PLUGIN_OPTION_<KEY>`"
        ));
    }
    if h.shell.as_deref() == Some("powershell") {
        let mut line = command.to_owned();
        for var in ["CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"] {
            line = line.replace(&format!("${{{var}}}"), &format!("${{env:{var}}}"));
        }
        return Ok(CommandSpec::exec(
            "pwsh",
            ["-NoProfile", "-ExecutionPolicy", "Bypass", "-Command", line.as_str()],
        ));
    }
    Ok(match host.shell_prefix.as_deref().filter(|p| !p.trim().is_empty()) {
        Some(prefix) => CommandSpec::shell(format!("{prefix} {}", sh_quote(command))),
        None => CommandSpec::shell(command),
    })
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

    #[test]
    fn user_config_placeholders_take_the_plugin_options() {
        let mut plugin = Plugin::new("p", "/plug");
        plugin.options = vec![("a".into(), "1".into()), ("b".into(), "two".into())];
        let out =
            substitute_user_config("x${user_config.a}-${user_config.b}${user_config.a}", &plugin);
        assert_eq!(out.as_deref(), Ok("x1-two1"));
        assert_eq!(
            substitute_user_config("plain $a ${b}", &plugin).as_deref(),
            Ok("plain $a ${b}")
        );
        let err = substitute_user_config("${user_config.c}", &plugin).unwrap_err();
        assert_eq!(err, "`${user_config.c}` names no option of plugin `p`");
        let err = substitute_user_config("a ${user_config.a", &plugin).unwrap_err();
        assert!(err.contains("is not closed"), "{err}");
    }

    #[test]
    fn sh_quote_makes_one_word_of_anything() {
        assert_eq!(sh_quote("echo hi"), "'echo hi'");
        assert_eq!(sh_quote("it's"), r"'it'\''s'");
        assert_eq!(sh_quote(""), "''");
    }
}
