//! The Claude Code dialect through the core's one door ([`hook_protocol::Dialect`]): settings
//! files, plugins, skills and sub-agents loaded as Claude Code reads them, an event from its
//! JSON input run and reported as an [`EventRun`], a recording run as one [`Session`], a file
//! checked. In come a [`LoadRequest`] and events; out go the core's types. It is the top stage:
//! it may use every other, and none uses it.

mod claims;
mod event_run;

use std::path::{Path, PathBuf};
use std::time::Duration;

use async_trait::async_trait;
use hook_protocol::{
    Claim, Diagnostic, Dialect, DialectError, EventRun, FileKind, Listed, LoadRequest, Loaded,
    SessionStep, Settled,
};
use serde_json::{Map, Value};

use crate::{
    Engine, EventName, HostEnv, LoadErrors, Loader, Origin, Phase, Scope, Session, StopGuard,
    WorkspaceTrust, check_order_from, discover,
};

/// The Claude Code dialect, for a program that drives dialects through
/// [`hook_protocol::Dialect`] (the `hooks` command does).
pub fn dialect() -> &'static dyn Dialect {
    &ClaudeCode
}

/// The session id of events that do not carry one.
const SESSION_ID: &str = "hooks-cli";

/// Claude Code's hooks: its settings files, plugins, skills and sub-agents.
#[derive(Debug, Clone, Copy)]
struct ClaudeCode;

impl Dialect for ClaudeCode {
    fn name(&self) -> &'static str {
        "claude"
    }

    fn title(&self) -> &'static str {
        "Claude Code"
    }

    fn reads(&self, kind: FileKind) -> bool {
        matches!(kind, FileKind::Config | FileKind::Plugin | FileKind::Skill | FileKind::Agent)
    }

    fn claims(&self, path: &Path, text: &str) -> Claim {
        claims::claims(path, text)
    }

    fn project_of(&self, path: &Path) -> Option<PathBuf> {
        claims::project_of(path)
    }

    fn check(&self, path: &Path, text: &str, project_dir: &Path) -> Vec<Diagnostic> {
        let mut loader = Loader::new();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if let Some(root) = claims::plugin_root(path) {
            loader.plugin_dir(root.to_path_buf());
        } else if name == "SKILL.md" {
            loader.skill_text(path.to_path_buf(), text);
        } else if path.extension().is_some_and(|e| e == "md") {
            loader.agent_text(path.to_path_buf(), text);
        } else {
            loader.settings_text(path.to_path_buf(), text, Scope::Explicit);
        }
        // Every problem is reported, so what loaded is read either way.
        let config = loader.finish().unwrap_or_else(LoadErrors::into_config);
        crate::check(&config, &crate::CommandLookup::new(project_dir))
    }

    fn load(&self, request: &LoadRequest) -> Result<Box<dyn Loaded>, DialectError> {
        load(request).map(|hooks| Box::new(hooks) as Box<dyn Loaded>)
    }
}

/// A Claude Code configuration, loaded into an engine.
#[derive(Debug)]
struct Hooks {
    engine: Engine,
    /// Inputs that lack a required field run anyway.
    lenient: bool,
    /// What was read, for a person who asks.
    notes: Vec<String>,
    /// The folder is not trusted: no hook runs.
    untrusted: bool,
}

/// Why no hook runs in a folder that is not trusted.
const UNTRUSTED: &str = "the folder is not trusted: no hook runs, as in an interactive Claude \
                         Code session before the folder is trusted";

/// A file named in a request that must be a file.
fn must_be_file(path: &Path, kind: &str) -> Result<(), DialectError> {
    match hook_protocol::text_file::regular_file(path) {
        Ok(_) => Ok(()),
        Err(e) => Err(DialectError::load(format!("{kind} file {e}"))),
    }
}

fn load(request: &LoadRequest) -> Result<Hooks, DialectError> {
    let home = request.home.clone();
    let project_dir = request.project_dir.clone();
    let mut loader = Loader::new();
    let mut notes = Vec::new();
    if request.names_files() {
        for path in request.files_of(FileKind::Config) {
            if path.is_dir() {
                return Err(DialectError::load(format!(
                    "settings file `{}` is a directory; pass a settings.json (or a project with \
                     --project-dir)",
                    path.display()
                )));
            }
            must_be_file(path, "settings")?;
            loader.settings(path.to_path_buf(), Scope::Explicit);
        }
        for dir in request.files_of(FileKind::Plugin) {
            if !dir.join("hooks/hooks.json").is_file()
                && !dir.join(".claude-plugin/plugin.json").is_file()
            {
                return Err(DialectError::load(format!(
                    "plugin `{}` has neither hooks/hooks.json nor .claude-plugin/plugin.json",
                    dir.display()
                )));
            }
            loader.plugin_dir(dir.to_path_buf());
        }
    } else {
        let mut found = discover(home.as_deref(), &project_dir);
        found.retain(|(path, _)| !request.read_elsewhere.contains(path));
        let names: Vec<String> =
            found.iter().map(|(p, s)| format!("{} ({})", p.display(), s.as_str())).collect();
        notes.push(format!(
            "settings files: {}",
            if names.is_empty() { "none found".to_owned() } else { names.join(", ") }
        ));
        let others = request.files_of(FileKind::Skill).next().is_some()
            || request.files_of(FileKind::Agent).next().is_some();
        if found.is_empty() && !others {
            return Err(no_settings(&project_dir, home.as_deref()));
        }
        for (path, scope) in found {
            loader.settings(path, scope);
        }
    }
    for path in request.files_of(FileKind::Skill) {
        must_be_file(path, "skill")?;
        loader.skill(path.to_path_buf());
    }
    for path in request.files_of(FileKind::Agent) {
        must_be_file(path, "sub-agent")?;
        loader.agent(path.to_path_buf());
    }
    // What did not load is in the diagnostics; the program decides whether to go on.
    let config = loader.finish().unwrap_or_else(LoadErrors::into_config);
    let mut host = HostEnv::new(project_dir);
    host.home = home;
    host.scrub = request.scrub.clone();
    host.shell_fast_path = !request.always_shell;
    // As in Claude Code, the prefix comes from the environment of the process running hooks.
    host.shell_prefix = std::env::var("CLAUDE_CODE_SHELL_PREFIX").ok();
    // Naming hooks is trusting the folder they come from: project sub-agents' hooks run too;
    // an untrusted folder holds back every hook, as an interactive session does.
    let trust = if request.untrusted { WorkspaceTrust::Untrusted } else { WorkspaceTrust::Trusted };
    let mut builder = Engine::builder(config).host(host).workspace_trust(trust);
    if let Some(dir) = &request.agent_home {
        builder = builder.claude_home(dir);
    }
    let engine = builder
        .build()
        .map_err(|e| DialectError::load(format!("cannot compile the matchers: {e}")))?;
    // A skill named in the request counts as invoked.
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
    Ok(Hooks { engine, lenient: request.lenient, notes, untrusted: request.untrusted })
}

/// The error for a project without settings files: where it looked, and the nearest ancestor
/// that has a `.claude/` folder with settings (Claude Code does not read a parent's).
fn no_settings(project_dir: &Path, home: Option<&Path>) -> DialectError {
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
    DialectError::not_found(format!(
        "no Claude Code settings found in {}; pass --settings or --project-dir{hint}",
        project_dir.display()
    ))
}

/// The event's name as Claude Code spells it, or an error suggesting the closest one.
fn known_event(event: &str) -> Result<EventName, DialectError> {
    if let Some(name) = EventName::parse(event) {
        return Ok(name);
    }
    let hint = EventName::ALL
        .iter()
        .find(|n| n.as_str().eq_ignore_ascii_case(event))
        .map(|n| format!(" (event names are case-sensitive: did you mean `{}`?)", n.as_str()))
        .unwrap_or_default();
    Err(DialectError::UnknownEvent {
        what: "Claude Code event".to_owned(),
        event: event.to_owned(),
        hint,
    })
}

/// The event of an input that may run: a known event, and (unless `lenient`) every field its
/// event requires, of the right type. The fields a run fills when absent count as present, and
/// so do `filled` (what a session fills).
fn known_input(
    lenient: bool,
    event: &str,
    input: &Map<String, Value>,
    filled: &[&str],
) -> Result<EventName, DialectError> {
    let name = known_event(event)?;
    if !lenient {
        let mut probe = input.clone();
        for key in ["session_id", "transcript_path", "cwd"].iter().chain(filled) {
            let empty = if *key == "stop_hook_active" {
                Value::Bool(false)
            } else {
                Value::String(String::new())
            };
            probe.entry(*key).or_insert(empty);
        }
        crate::input::validate(name, &probe).map_err(|e| DialectError::InvalidInput {
            event: event.to_owned(),
            message: e.problem,
            lenient_would_run: true,
        })?;
    }
    Ok(name)
}

impl Hooks {
    /// The hooks that would run for `event` (and its subject), or every hook of the event with
    /// its matcher when there is no subject to match.
    fn listed(&self, event: &str, subject: Option<&str>) -> Result<Vec<Listed>, DialectError> {
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
                .map(|e| {
                    let command = e
                        .handler
                        .command
                        .clone()
                        .unwrap_or_else(|| format!("({} handler)", e.handler.kind.as_str()));
                    let matcher = e.matcher_raw.as_deref().unwrap_or("*");
                    Listed::new(command, format!("{}; matcher `{matcher}`", e.source.label()))
                })
                .collect());
        }
        let probe = self.engine.raw_event(event, input, SESSION_ID);
        Ok(self
            .engine
            .list(&probe)
            .into_iter()
            .map(|l| {
                let source = match &l.plugin {
                    Some(p) => format!("{} (plugin {p})", l.file.display()),
                    None => l.file.display().to_string(),
                };
                let mut listed = Listed::new(l.command.clone(), source);
                listed.not_run = l.not_run.as_ref().map(ToString::to_string);
                listed
            })
            .collect())
    }
}

#[async_trait]
impl Loaded for Hooks {
    fn diagnostics(&self) -> &[Diagnostic] {
        &self.engine.config().diagnostics
    }

    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }

    fn list(&self, event: &str, subject: Option<&str>) -> Result<Vec<Listed>, DialectError> {
        let mut listed = self.listed(event, subject)?;
        if self.untrusted {
            for l in &mut listed {
                l.not_run = Some(UNTRUSTED.to_owned());
            }
        }
        Ok(listed)
    }

    fn list_event(&self, event: &hook_protocol::Event) -> Result<Vec<Listed>, DialectError> {
        let Some((name, input)) = written(event) else {
            return Ok(Vec::new());
        };
        let subject = crate::subject_of(crate::EventName::parse(name), &input);
        // An event without a subject lists every hook of its event.
        self.list(name, subject.as_deref().filter(|s| !s.is_empty()))
    }

    fn check_input(
        &self,
        event: &str,
        input: &Map<String, Value>,
        filled: &[&str],
    ) -> Result<(), DialectError> {
        known_input(self.lenient, event, input, filled).map(|_| ())
    }

    async fn run(&self, event: &str, input: Map<String, Value>) -> Result<EventRun, DialectError> {
        let name = known_input(self.lenient, event, &input, &[])?;
        let raw = self.engine.run_json(event, input, SESSION_ID).await;
        let shown = raw.shown();
        let mut run = event_run::event_run(name, &raw, shown);
        if self.untrusted {
            run.warnings.push(UNTRUSTED.to_owned());
        }
        Ok(run)
    }

    fn check_event(&self, event: &hook_protocol::Event, lenient: bool) -> Result<(), DialectError> {
        match written(event) {
            Some((name, input)) => {
                known_input(self.lenient || lenient, name, &input, &[]).map(drop)
            }
            None => Ok(()),
        }
    }

    async fn run_event(
        &self,
        event: &hook_protocol::Event,
        _lenient: bool,
    ) -> Result<Vec<EventRun>, DialectError> {
        let Some((name, input)) = written(event) else {
            return Ok(Vec::new());
        };
        Ok(vec![self.run(name, input).await?])
    }

    async fn settle(&self, wait: Duration) -> Settled {
        let ended = self.engine.settle_background(wait).await;
        let presenter = self.engine.presenter();
        let late = self
            .engine
            .drain_async()
            .iter()
            .map(|r| hook_protocol::LateLine::new(r.command.clone(), presenter.late(r)))
            .collect();
        Settled::new(late, ended)
    }

    fn kill_running(&self, grace: Duration) -> usize {
        self.engine.kill_running(grace)
    }

    fn into_session(self: Box<Self>) -> Box<dyn hook_protocol::Session> {
        let (cap, warning) = stop_hook_block_cap();
        let session = Session::new(self.engine).with_stop_hook_block_cap(cap).non_interactive();
        Box::new(Recording { session, lenient: self.lenient, warning })
    }
}

/// A neutral event as Claude Code writes it: its event, and its input (the one the event came
/// with, else one written from its fields); `None` where Claude Code has no such event.
fn written(event: &hook_protocol::Event) -> Option<(&'static str, Map<String, Value>)> {
    let name = match event.custom_name() {
        Some(custom) => crate::EventName::parse(custom)?,
        None => crate::EventName::from_seam(event.seam())?,
    };
    Some((name.as_str(), crate::payload_for(event, name.as_str()).object().clone()))
}

/// `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` from the environment, as Claude Code reads it (default 8;
/// 0 disables the guard), and a warning when it is not a number.
fn stop_hook_block_cap() -> (u32, Option<String>) {
    let default = StopGuard::DEFAULT_MAX_BLOCKS;
    match std::env::var("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP") {
        Ok(v) => match v.trim().parse() {
            Ok(cap) => (cap, None),
            Err(_) => (
                default,
                Some(format!(
                    "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=`{v}` is not a number; the cap is {default}"
                )),
            ),
        },
        Err(_) => (default, None),
    }
}

/// A recording through one [`Session`].
#[derive(Debug)]
struct Recording {
    session: Session,
    lenient: bool,
    /// A warning about the session's settings, given with the first step.
    warning: Option<String>,
}

#[async_trait]
impl hook_protocol::Session for Recording {
    fn check(&self, events: &[(&str, &Map<String, Value>)]) -> Result<(), (usize, DialectError)> {
        for (i, (event, input)) in events.iter().enumerate() {
            known_input(self.lenient, event, input, &["stop_hook_active", "old_cwd"])
                .map_err(|e| (i, e))?;
        }
        let start = match events.first() {
            Some((first, _)) if Phase::begins_mid_session(first) => Phase::Running,
            _ => Phase::NotStarted,
        };
        let order = events.iter().map(|(e, i)| (*e, i.get("source").and_then(Value::as_str)));
        check_order_from(start, order)
            .map_err(|(i, e)| (i, DialectError::Session { message: e.to_string() }))
    }

    async fn step(
        &mut self,
        event: &str,
        input: Map<String, Value>,
    ) -> Result<SessionStep, DialectError> {
        let name = known_event(event)?;
        let resumed = self.session.phase() == Phase::NotStarted
            && Phase::begins_mid_session(event)
            && self.session.resume();
        let step = self
            .session
            .fire_json(event, input, None)
            .await
            .map_err(|e| DialectError::Session { message: e.to_string() })?;
        let mut run = event_run::event_run(name, &step.decision, step.shown.clone());
        run.warnings.splice(0..0, self.warning.take());
        run.warnings.extend(step.warnings.iter().cloned());
        let mut out = SessionStep::new(run);
        out.late = step
            .late
            .iter()
            .map(|l| hook_protocol::LateLine::new(l.result.command.clone(), l.shown.clone()))
            .collect();
        out.exports = step.env_file_exports;
        out.guard = step.guard;
        out.resumed = resumed;
        Ok(out)
    }

    fn check_event(&self, event: &hook_protocol::Event, lenient: bool) -> Result<(), DialectError> {
        let filled = ["stop_hook_active", "old_cwd"];
        match written(event) {
            Some((name, input)) => {
                known_input(self.lenient || lenient, name, &input, &filled).map(drop)
            }
            None => Ok(()),
        }
    }

    async fn step_event(
        &mut self,
        event: &hook_protocol::Event,
        _lenient: bool,
    ) -> Result<Vec<SessionStep>, DialectError> {
        let Some((name, input)) = written(event) else {
            return Ok(Vec::new());
        };
        Ok(vec![self.step(name, input).await?])
    }

    fn kill_running(&self, grace: Duration) -> usize {
        self.session.engine().kill_running(grace)
    }

    async fn settle(&mut self, wait: Duration) {
        let started = std::time::Instant::now();
        while self.session.engine().background_pending() > 0 && started.elapsed() < wait {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}
