//! Validation for `hooks check`: every problem found while loading, plus commands that cannot
//! be found or executed, each at the value's line and column.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::run::env::{HostEnv, command_spec, substitute};
use hook_protocol::{Diagnostic, Level};

use crate::{Config, HandlerSpec, HandlerType, HttpPolicy};

/// Interpreters whose first argument is the script to check.
const INTERPRETERS: &[&str] =
    &["sh", "bash", "zsh", "dash", "python", "python3", "node", "ruby", "perl", "bun", "deno"];

/// Where [`check`] looks for a hook's programs, as the shell that will run the hook does: the
/// project directory (for `$CLAUDE_PROJECT_DIR` and relative paths), the home directory (for
/// `~/` and `$HOME`) and the program search path (`PATH`).
#[derive(Debug, Clone)]
pub struct CommandLookup {
    project_dir: PathBuf,
    home: Option<PathBuf>,
    search_path: String,
}

impl CommandLookup {
    /// The lookup of a shell started now for `project_dir`: `HOME` and `PATH` from this
    /// process's environment.
    pub fn new(project_dir: impl Into<PathBuf>) -> Self {
        Self {
            project_dir: project_dir.into(),
            home: std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from),
            search_path: std::env::var("PATH").unwrap_or_default(),
        }
    }

    /// The home directory `~/` and `$HOME` stand for (`None`: commands that use it are not
    /// looked up).
    #[must_use]
    pub fn home(mut self, home: Option<PathBuf>) -> Self {
        self.home = home;
        self
    }

    /// The program search path, `:`-separated as `PATH` is.
    #[must_use]
    pub fn search_path(mut self, search_path: impl Into<String>) -> Self {
        self.search_path = search_path.into();
        self
    }

    /// A word with a leading `~/`, `~`, `$HOME` or `${HOME}` as the shell expands it; `None`
    /// when it needs a home and there is none.
    fn expand_home(&self, word: &str) -> Option<String> {
        let rest = ["${HOME}", "$HOME", "~"].iter().find_map(|lead| {
            word.strip_prefix(lead).filter(|rest| rest.is_empty() || rest.starts_with('/'))
        });
        match rest {
            None => Some(word.to_owned()),
            Some(rest) => self.home.as_ref().map(|home| format!("{}{rest}", home.display())),
        }
    }
}

/// Every problem in a loaded configuration, errors and warnings, each once: the loader's
/// diagnostics (a misspelt event name, a field of the wrong type: what would silently skip a
/// hook), then commands that are not found or not executable, and `http` hooks whose URL
/// `allowedHttpHookUrls` blocks. Commands are looked up as the shell that runs them will
/// ([`CommandLookup`]): `${CLAUDE_PROJECT_DIR}`, `${CLAUDE_PLUGIN_ROOT}`, `~/` and `$HOME`
/// expanded, bare names on the search path.
pub fn check(config: &Config, lookup: &CommandLookup) -> Vec<Diagnostic> {
    let mut out = config.diagnostics.clone();
    let policy = HttpPolicy::from_config(config);
    let project_dir = lookup.project_dir.as_path();
    let host = HostEnv::new(project_dir);
    for entry in &config.entries {
        let h = &entry.handler;
        if let HandlerSpec::Http(spec) = &h.spec
            && !policy.url_allowed(&spec.url)
        {
            out.push(Diagnostic::new(
                &entry.source.path,
                h.positions.command,
                Level::Warning,
                format!(
                    "URL `{}` is not allowed by `allowedHttpHookUrls`; this hook never runs",
                    crate::config::url::shown_url(&spec.url)
                ),
            ));
        }
        if h.kind != HandlerType::Command {
            continue;
        }
        let Some(command) = &h.command else { continue };
        if let Err(why) = command_spec(entry, &host) {
            out.push(Diagnostic::new(
                &entry.source.path,
                h.positions.command,
                Level::Error,
                format!("{why}; this hook fails whenever it runs"),
            ));
            continue;
        }
        let plugin = entry.source.plugin();
        let mut expanded = substitute(command, project_dir, plugin);
        expanded = expanded.replace("$CLAUDE_PROJECT_DIR", &project_dir.display().to_string());
        if let Some(p) = plugin {
            expanded = expanded.replace("$CLAUDE_PLUGIN_ROOT", &p.root.display().to_string());
        }
        let (program, script) = if h.args.is_some() {
            // The exec form runs no shell: nothing expands `~`.
            (
                expanded.clone(),
                h.args.as_ref().and_then(|a| a.first()).map(|a| substitute(a, project_dir, plugin)),
            )
        } else {
            let words = shell_words(&expanded);
            let Some(program) = words.first().and_then(|w| lookup.expand_home(w)) else {
                continue;
            };
            if program.contains('$') || program.contains('=') {
                continue;
            }
            (program, words.get(1).and_then(|w| lookup.expand_home(w)))
        };
        let at = h.positions.command;
        let problem = |msg: String| Diagnostic::new(&entry.source.path, at, Level::Error, msg);
        let program = if program.contains('/') && !program.starts_with('/') {
            project_dir.join(program.trim_start_matches("./")).display().to_string()
        } else {
            program
        };
        match find_program(&program, &lookup.search_path) {
            Found::Yes(resolved) => {
                let name = resolved
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                if let Some(script) = script.filter(|s| {
                    INTERPRETERS.contains(&name.as_str()) && s.contains('/') && !s.contains('$')
                }) && !Path::new(&script).exists()
                {
                    out.push(problem(format!(
                        "script `{script}` of command `{command}` does not exist"
                    )));
                }
            }
            Found::NotExecutable(p) => {
                out.push(problem(format!(
                    "`{}` (from command `{command}`) is not executable",
                    p.display()
                )));
            }
            Found::Missing => out.push(problem(format!(
                "command not found: `{program}` (from command `{command}`)"
            ))),
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|d| seen.insert((d.file.clone(), d.line, d.column, d.level, d.message.clone())));
    out
}

/// What looking a program up found.
enum Found {
    Yes(PathBuf),
    NotExecutable(PathBuf),
    Missing,
}

fn executable(p: &Path) -> bool {
    p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

fn find_program(program: &str, search_path: &str) -> Found {
    if program.contains('/') {
        let p = PathBuf::from(program);
        return if executable(&p) {
            Found::Yes(p)
        } else if p.exists() {
            Found::NotExecutable(p)
        } else {
            Found::Missing
        };
    }
    if matches!(
        program,
        "cd" | "exec"
            | "test"
            | "["
            | "echo"
            | "true"
            | "false"
            | "exit"
            | "export"
            | "if"
            | "for"
            | "while"
            | "set"
            | "."
            | "source"
            | "{"
            | "("
    ) {
        return Found::Yes(PathBuf::from(program));
    }
    for dir in search_path.split(':').filter(|d| !d.is_empty()) {
        let candidate = Path::new(dir).join(program);
        if executable(&candidate) {
            return Found::Yes(candidate);
        }
    }
    Found::Missing
}

/// Splits a shell line into words, honouring quotes (enough to find the program and script).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    let mut started = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => current.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                started = true;
            }
            (None, c) if c.is_whitespace() => {
                if started || !current.is_empty() {
                    words.push(std::mem::take(&mut current));
                    started = false;
                }
            }
            (None, ';' | '|' | '&' | '<' | '>') => break,
            (None, c) => current.push(c),
        }
    }
    if started || !current.is_empty() {
        words.push(current);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_quotes() {
        assert_eq!(shell_words(r#""$X/a b.sh" --flag | jq"#), vec!["$X/a b.sh", "--flag"]);
        assert_eq!(shell_words("python3 /x/y.py"), vec!["python3", "/x/y.py"]);
    }

    #[test]
    fn a_plugin_command_that_cannot_be_built_is_reported_at_its_line() {
        let text = r#"{"hooks": {"Stop": [{"hooks": [
  {"type": "command", "command": "echo ${user_config.level}"},
  {"type": "command", "command": "/bin/echo", "args": ["${user_config.nope}"]}
]}]}}"#;
        let config = crate::Loader::new()
            .plugin_text("/plug/hooks/hooks.json", text, crate::Plugin::new("p", "/plug"))
            .finish()
            .unwrap_or_else(crate::LoadErrors::into_config);
        let found = check(&config, &CommandLookup::new("/proj").search_path("/bin:/usr/bin"));
        let lines: Vec<(usize, &str)> =
            found.iter().map(|d| (d.line, d.message.as_str())).collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert_eq!(lines[0].0, 2);
        assert!(lines[0].1.contains("works only in exec form"), "{lines:?}");
        assert_eq!(lines[1].0, 3);
        assert!(lines[1].1.starts_with("`${user_config.nope}` names no option of plugin `p`"));
    }
}
