//! The Claude Code backend: settings files and plugins, run as Claude Code would run them.

use std::path::{Path, PathBuf};

use hook_protocol::Decision;
use hooks_claude::{
    ClaudeRecord, Config, Diagnostic, DiagnosticSeverity, Engine, EventName, HostEnv, LoadErrors,
    Loader, Origin, RawRun, Scope, WorkspaceTrust, discover,
};
use serde_json::{Map, Value};

use crate::backend::Listed;
use crate::check::Problem;
use crate::cli::Sources;
use crate::document::{DecisionWord, HookLine, HookStatusWord, RunDocument};
use crate::error::{CliError, cli_error};

/// The session id of events that do not carry one.
const SESSION_ID: &str = "hooks-cli";

/// A loaded Claude Code configuration.
#[derive(Debug)]
pub(crate) struct Claude {
    engine: Engine,
    /// Whether inputs that lack a required field run anyway (`--lenient`).
    lenient: bool,
}

impl Claude {
    /// Loads `--settings` and `--plugin` sources, or discovers the settings files Claude Code
    /// would read when neither is given.
    pub(crate) fn load(
        sources: &Sources,
        project_dir: PathBuf,
        verbose: bool,
    ) -> Result<Self, CliError> {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let mut loader = Loader::new();
        if sources.settings.is_empty() && sources.plugins.is_empty() {
            let found = discover(home.as_deref(), &project_dir);
            if verbose {
                let names: Vec<String> = found
                    .iter()
                    .map(|(p, s)| format!("{} ({})", p.display(), s.as_str()))
                    .collect();
                eprintln!(
                    "hooks: settings files: {}",
                    if names.is_empty() { "none found".to_owned() } else { names.join(", ") }
                );
            }
            if found.is_empty() && sources.skills.is_empty() && sources.agents.is_empty() {
                return Err(no_settings(&project_dir, home.as_deref()));
            }
            for (path, scope) in found {
                loader.settings(path, scope);
            }
        } else {
            for path in &sources.settings {
                if path.is_dir() {
                    return Err(cli_error!(
                        "settings file `{}` is a directory; pass a settings.json (or a project \
                         with --project-dir)",
                        path.display()
                    ));
                }
                if !path.is_file() {
                    return Err(cli_error!("settings file `{}` does not exist", path.display()));
                }
                loader.settings(path.clone(), Scope::Explicit);
            }
            for dir in &sources.plugins {
                let hooks = dir.join("hooks/hooks.json");
                if !hooks.is_file() && !dir.join(".claude-plugin/plugin.json").is_file() {
                    return Err(cli_error!(
                        "plugin `{}` has neither hooks/hooks.json nor .claude-plugin/plugin.json",
                        dir.display()
                    ));
                }
                loader.plugin_dir(dir.clone());
            }
        }
        let exists = |path: &Path, kind: &str| {
            if path.is_file() {
                Ok(())
            } else if path.is_dir() {
                Err(cli_error!("{kind} file `{}` is a directory, not a file", path.display()))
            } else {
                Err(cli_error!("{kind} file `{}` does not exist", path.display()))
            }
        };
        for path in &sources.skills {
            exists(path, "skill")?;
            loader.skill(path.clone());
        }
        for path in &sources.agents {
            exists(path, "sub-agent")?;
            loader.agent(path.clone());
        }
        // Errors stop the command (after the warnings are shown); a harness would go on with
        // the rest.
        let config = loader.finish().unwrap_or_else(LoadErrors::into_config);
        report_load(&config)?;
        let mut host = HostEnv::new(project_dir);
        host.home = home;
        host.scrub = sources.scrub();
        host.shell_fast_path = !sources.always_shell();
        // As in Claude Code, the prefix comes from the environment of the process running hooks.
        host.shell_prefix = std::env::var("CLAUDE_CODE_SHELL_PREFIX").ok();
        // Asking for hooks by name is trusting the folder they come from: project sub-agents'
        // hooks run too.
        let mut builder =
            Engine::builder(config).host(host).workspace_trust(WorkspaceTrust::Trusted);
        if let Some(dir) = &sources.claude_home {
            builder = builder.claude_home(dir);
        }
        let engine = builder.build().map_err(|e| cli_error!("cannot compile the matchers: {e}"))?;
        // A skill given on the command line counts as invoked.
        let skills: Vec<String> = engine
            .config()
            .sources
            .iter()
            .filter_map(|s| match &s.origin {
                Origin::Skill { name } => Some(name.clone()),
                _ => None,
            })
            .collect();
        for name in skills {
            engine.activate_skill(&name);
        }
        Ok(Self { engine, lenient: sources.lenient })
    }

    pub(crate) async fn run(
        &self,
        event: &str,
        input: Map<String, Value>,
    ) -> Result<RunDocument, CliError> {
        let name = self.check_input(event, &input, &[])?;
        let run = self.engine.run_json(event, input, SESSION_ID).await;
        let shown = run.shown();
        Ok(document(name, &run, shown))
    }

    /// The event of an input that may run: a known event, and (unless `--lenient`) every field
    /// its event requires, of the right type. The fields `run_json` fills in when absent count
    /// as present, and so do `filled` (what a session fills).
    pub(crate) fn check_input(
        &self,
        event: &str,
        input: &Map<String, Value>,
        filled: &[(&str, Value)],
    ) -> Result<EventName, CliError> {
        let name = known_event(event)?;
        if !self.lenient {
            let mut probe = input.clone();
            for key in ["session_id", "transcript_path", "cwd"] {
                probe.entry(key).or_insert_with(|| Value::String(String::new()));
            }
            for (key, value) in filled {
                probe.entry(*key).or_insert_with(|| value.clone());
            }
            hooks_claude::input::validate(name, &probe).map_err(|e| {
                cli_error!("{e} (--lenient runs an input with missing or mistyped fields anyway)")
            })?;
        }
        Ok(name)
    }

    /// The engine, for a session over it.
    pub(crate) fn into_engine(self) -> Engine {
        self.engine
    }

    pub(crate) fn list(
        &self,
        event: &str,
        subject: Option<&str>,
        verbose: bool,
    ) -> Result<Vec<Listed>, CliError> {
        let name = known_event(event)?;
        let mut input = Map::new();
        if let (Some(subject), Some(field)) = (subject, name.subject_field()) {
            input.insert(field.to_owned(), Value::String(subject.to_owned()));
        }
        if subject.is_none() && name.has_matcher() {
            // No subject to match: every hook of the event, with its matcher.
            return Ok(self
                .engine
                .config()
                .active()
                .filter(|e| e.event == name)
                .map(|e| Listed {
                    command: e
                        .handler
                        .command
                        .clone()
                        .unwrap_or_else(|| format!("({} handler)", e.handler.kind.as_str())),
                    source: format!(
                        "{}; matcher `{}`",
                        e.source.label(),
                        e.matcher_raw.as_deref().unwrap_or("*")
                    ),
                })
                .collect());
        }
        let probe = self.engine.raw_event(event, input, SESSION_ID);
        let mut listed = Vec::new();
        for l in self.engine.list(&probe) {
            let source = match &l.plugin {
                Some(p) => format!("{} (plugin {p})", l.file.display()),
                None => l.file.display().to_string(),
            };
            match &l.not_run {
                Some(why) => {
                    if verbose {
                        eprintln!("hooks: not run: {} ({source}): {why}", l.command);
                    }
                }
                None => listed.push(Listed { command: l.command.clone(), source }),
            }
        }
        Ok(listed)
    }
}

/// The event's name as Claude Code spells it, or an error suggesting the closest one.
fn known_event(event: &str) -> Result<EventName, CliError> {
    if let Some(name) = EventName::parse(event) {
        return Ok(name);
    }
    let hint = EventName::ALL
        .iter()
        .find(|n| n.as_str().eq_ignore_ascii_case(event))
        .map(|n| format!(" (event names are case-sensitive: did you mean `{}`?)", n.as_str()))
        .unwrap_or_default();
    Err(cli_error!("unknown Claude Code event `{event}`{hint}"))
}

/// The error for a project without settings files: where it looked, and the nearest ancestor
/// that has a `.claude/` folder with settings (Claude Code does not read a parent's).
fn no_settings(project_dir: &Path, home: Option<&Path>) -> CliError {
    let ancestor = project_dir.ancestors().skip(1).find(|dir| {
        Some(*dir) != home
            && ["settings.json", "settings.local.json"]
                .iter()
                .any(|f| dir.join(".claude").join(f).is_file())
    });
    let hint = match ancestor {
        Some(dir) => format!(" (an ancestor, {}, has .claude/)", dir.display()),
        None => String::new(),
    };
    cli_error!(
        "no Claude Code settings found in {}; pass --settings or --project-dir{hint}",
        project_dir.display()
    )
}

/// Errors in a configuration stop the command; warnings go to stderr. Each error is printed as
/// `hooks check` prints it, except that what the loader would skip is not said: here nothing
/// runs.
fn report_load(config: &Config) -> Result<(), CliError> {
    let errors: Vec<&Diagnostic> = config.diagnostics.iter().filter(|d| d.is_error()).collect();
    for d in config.diagnostics.iter().filter(|d| !d.is_error()) {
        eprintln!("hooks: {}", render(d));
    }
    match errors.as_slice() {
        [] => Ok(()),
        [only] => Err(cli_error!("{}; no hook was run", stopping(&render(only)))),
        many => {
            for d in many {
                eprintln!("hooks: {}", stopping(&render(d)));
            }
            Err(cli_error!("{} errors in the configuration; no hook was run", many.len()))
        }
    }
}

/// A loader error without its note on what the loader skips (`; this handler is skipped`):
/// true for a harness, which runs everything else, but not for a command that stops.
fn stopping(message: &str) -> String {
    const SKIPS: &[&str] = &[
        "; this handler is skipped",
        "; the group is skipped",
        "; its hooks are skipped",
        "; no hook from this file registers",
        "; no hook from it registers",
        "; it is not loaded",
        "; the manifest is ignored",
        "; this one is ignored",
        "; it is ignored",
    ];
    SKIPS.iter().find_map(|s| message.strip_suffix(s)).unwrap_or(message).to_owned()
}

fn render(d: &Diagnostic) -> String {
    let severity = match d.severity {
        DiagnosticSeverity::Error => "error",
        _ => "warning",
    };
    if d.line == 0 {
        format!("{}: {severity}: {}", d.file.display(), d.message)
    } else {
        format!("{}:{}:{}: {severity}: {}", d.file.display(), d.line, d.column, d.message)
    }
}

/// Whether a deny on this event is a permission decision (`deny`) or a block (`block`).
fn deny_word(name: EventName) -> DecisionWord {
    match name {
        EventName::PreToolUse | EventName::PermissionRequest | EventName::PreModelSwitch => {
            DecisionWord::Deny
        }
        _ => DecisionWord::Block,
    }
}

/// The document of a run, with what Claude Code showed after it (a session's `shown` carries
/// the Stop loop guard's notice too).
pub(crate) fn document(name: EventName, run: &RawRun, shown: hooks_claude::Shown) -> RunDocument {
    let merged = &run.report.merged;
    for warning in &shown.warnings {
        eprintln!("hooks: warning: {warning}");
    }
    let decision = match merged.decision {
        None => DecisionWord::None,
        Some(Decision::Allow) => DecisionWord::Allow,
        Some(Decision::Ask) => DecisionWord::Ask,
        Some(Decision::Defer) => DecisionWord::Defer,
        Some(Decision::Deny) => deny_word(name),
    };
    let subject = name
        .subject_field()
        .and_then(|f| run.input.get(f))
        .and_then(Value::as_str)
        .map(str::to_owned);
    RunDocument {
        event: run.event.clone(),
        decision,
        reason: run.reason(),
        additional_context: merged.context.iter().map(|c| c.value.clone()).collect(),
        updated_input: merged.updated_input.as_ref().map(|u| u.value.clone()),
        continue_: merged.halt.is_none(),
        stop_reason: merged.halt.as_ref().and_then(|h| h.value.reason.clone()),
        system_messages: merged.messages.iter().map(|m| m.value.clone()).collect(),
        shown: Some(shown),
        hooks: run.records.iter().map(hook_line).collect(),
        subject,
        elapsed_ms: 0,
        severity: None,
    }
}

fn hook_line(r: &ClaudeRecord) -> HookLine {
    HookLine {
        command: r.command.clone(),
        status: HookStatusWord::from(r.status.core()),
        exit_code: r.exit_code,
        duration_ms: u64::try_from(r.duration.as_millis()).unwrap_or(u64::MAX),
        note: r.message.clone().or_else(|| r.warnings.first().cloned()),
    }
}

/// Checks a Claude Code configuration file whose text has been read: a settings or bare hooks
/// file; a plugin's `hooks/hooks.json` or `.claude-plugin/plugin.json` (the whole plugin is
/// read); a skill's `SKILL.md` or a sub-agent definition (any other `.md`).
pub(crate) fn check(path: &Path, text: &str, project_dir: &Path) -> Vec<Problem> {
    let mut loader = Loader::new();
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let parent = path.parent().and_then(Path::file_name).and_then(|n| n.to_str());
    let plugin_root = match (name, parent) {
        ("hooks.json", Some("hooks")) | ("plugin.json", Some(".claude-plugin")) => {
            path.parent().and_then(Path::parent)
        }
        _ => None,
    };
    if let Some(root) = plugin_root {
        loader.plugin_dir(root.to_path_buf());
    } else if name == "SKILL.md" {
        loader.skill_text(path.to_path_buf(), text);
    } else if path.extension().is_some_and(|e| e == "md") {
        loader.agent_text(path.to_path_buf(), text);
    } else {
        loader.settings_text(path.to_path_buf(), text, Scope::Explicit);
    }
    // `hooks check` reports every problem, so it reads what loaded either way.
    let config = loader.finish().unwrap_or_else(LoadErrors::into_config);
    let search_path = std::env::var("PATH").unwrap_or_default();
    hooks_claude::check(&config, project_dir, &search_path)
        .into_iter()
        .map(|d| Problem {
            file: d.file.display().to_string(),
            line: (d.line > 0).then_some(d.line as u64),
            column: (d.column > 0).then_some(d.column as u64),
            error: d.is_error(),
            message: d.message,
        })
        .collect()
}
