//! Copilot hooks through the core's one door ([`hook_protocol::Dialect`]).

use std::path::{Path, PathBuf};

use async_trait::async_trait;
use hook_kit::{CommandEngine, Hooks, hook_files};
use hook_protocol::{
    Claim, Diagnostic, Dialect, DialectError, EventRun, Listed, LoadRequest, Loaded, SessionStep,
    StopGuard, Surface,
};
use serde_json::{Map, Value};

use crate::{Engine, EventName, Loader, Scope, discover};

/// The Copilot dialect, for a program that drives dialects through [`hook_protocol::Dialect`]
/// (the `hooks` command does).
pub fn dialect() -> &'static dyn Dialect {
    &Copilot
}

/// Copilot's hooks.
#[derive(Debug, Clone, Copy)]
struct Copilot;

/// The user's Copilot folder: `$COPILOT_HOME`, else `~/.copilot`.
pub fn copilot_home(home: Option<&Path>) -> Option<PathBuf> {
    hook_kit::agent_home("COPILOT_HOME", ".copilot", home)
}

/// The place a file has by its path: Claude Code's settings, another settings file, else a
/// hook folder's file.
fn place_of(path: &Path) -> Scope {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let in_claude = path.parent().and_then(Path::file_name).is_some_and(|d| d == ".claude");
    match name {
        "settings.json" | "settings.local.json" if in_claude => Scope::Claude,
        "settings.json" | "settings.local.json" => Scope::Settings,
        _ => Scope::Repo,
    }
}

/// The project a file's place names: `P/.github/hooks/F` and `P/.github/copilot/F` are `P`'s.
fn project_by_place(path: &Path) -> Option<PathBuf> {
    let dir = path.parent()?;
    let github = dir.parent()?;
    let in_place = matches!(dir.file_name().and_then(|n| n.to_str()), Some("hooks" | "copilot"));
    (in_place && github.file_name().is_some_and(|n| n == ".github"))
        .then(|| github.parent().map(Path::to_path_buf))
        .flatten()
}

impl Dialect for Copilot {
    hook_kit::dialect_words!("copilot", "GitHub Copilot");

    fn claims(&self, path: &Path, text: &str) -> Claim {
        if path.extension().is_none_or(|e| e != "json") {
            return Claim::No;
        }
        // In Copilot's place, a file in Claude Code's shape is Copilot's too: it runs its hooks
        // as its own.
        if project_by_place(path).is_some() {
            return Claim::Place;
        }
        let parsed = serde_json::from_str::<Value>(text).ok();
        let root = parsed.as_ref().and_then(Value::as_object);
        let events = root.and_then(|r| r.get("hooks")).and_then(Value::as_object);
        let camel = events.is_some_and(|e| e.keys().any(|k| EventName::parse(k).is_some()));
        let versioned = root.and_then(|r| r.get("version")).is_some();
        if versioned && camel { Claim::Shape } else { Claim::No }
    }

    fn surfaces(&self) -> &'static [Surface] {
        &[Surface::Local, Surface::Cloud]
    }

    fn project_of(&self, path: &Path) -> Option<PathBuf> {
        project_by_place(&std::path::absolute(path).ok()?)
    }

    fn check(&self, path: &Path, text: &str, _project_dir: &Path) -> Vec<Diagnostic> {
        Loader::check(path, text, place_of(path))
    }

    fn load(&self, request: &LoadRequest) -> Result<Box<dyn Loaded>, DialectError> {
        let home = request.agent_home.clone().or_else(|| copilot_home(request.home.as_deref()));
        let mut notes = Vec::new();
        let cloud = request.surface == Surface::Cloud;
        // In an untrusted folder (no `--trust-folder`), the repository's hooks are absent; the
        // cloud agent reads the repository's hook folder only.
        let discover = || {
            let mut found = discover(home.as_deref(), &request.project_dir);
            found.retain(|(path, scope)| {
                let repo = matches!(scope, Scope::Repo | Scope::Claude)
                    || (*scope == Scope::Settings && path.starts_with(&request.project_dir));
                let left_out = request.untrusted && repo || cloud && *scope != Scope::Repo;
                !left_out && !request.read_elsewhere.contains(path)
            });
            found
        };
        let files = hook_files(request, "Copilot", discover, Scope::as_str, &mut notes)?;
        if files.is_empty() {
            let why = match (cloud, request.untrusted) {
                (true, _) => " (the cloud agent reads .github/hooks/*.json only)",
                (_, true) => " (the folder is not trusted: no repository hooks)",
                _ => "",
            };
            return Err(DialectError::not_found(format!(
                "no Copilot hook files found for {} (.github/hooks/*.json, \
                 .github/copilot/settings.json, ~/.copilot/hooks/*.json){why}; pass --settings \
                 or --project-dir",
                request.project_dir.display()
            )));
        }
        let mut loader = Loader::new();
        loader.files(files, place_of);
        let mut config = loader.finish();
        if config.disabled {
            notes.push("`disableAllHooks` is set: no hook runs".to_owned());
        }
        if cloud {
            crate::cloud_entries(&mut config);
        }
        let engine = Engine::new(config, &request.project_dir, request.scrub.clone())
            .map(|e| e.on_surface(request.surface));
        Hooks::boxed(engine, notes)
    }
}

#[async_trait]
impl CommandEngine for Engine {
    type Event = EventName;
    const TOOL_FIELD: Option<&'static str> = Some("toolName");
    const OTHER_TOOL_FIELD: Option<&'static str> = Some("tool_name");
    /// The `agentStop` loop guard.
    type State = StopGuard;

    fn diagnostics(&self) -> &[Diagnostic] {
        &self.config().diagnostics
    }

    fn list(&self, name: EventName, subject: Option<&str>) -> Vec<Listed> {
        let aliases = crate::engine::aliases();
        let disabled = self.config().disabled;
        self.config()
            .entries
            .iter()
            .filter(|e| e.event == name)
            .filter(|e| {
                let subject = name.subject_field().and(subject);
                subject.is_none_or(|s| e.matcher.is_match_aliased(s, &aliases))
            })
            .map(|e| {
                let mut listed =
                    hook_kit::listed(e.command.label(), &e.source.path, e.matcher_raw.as_deref());
                if disabled {
                    listed.not_run = Some("`disableAllHooks` is set".to_owned());
                }
                listed
            })
            .collect()
    }

    /// An event of Claude Code's form (`PreToolUse`), whose hooks Copilot runs too: Copilot's
    /// event, its object from the Claude Code-form one.
    fn other_form(
        &self,
        event: &str,
        input: &Map<String, Value>,
    ) -> Option<(EventName, Map<String, Value>)> {
        let name = EventName::from_claude(event)?;
        Some((name, crate::payload::native_object(name, input)))
    }

    /// A run in the core's words: the first deny's reason (Copilot stops at it).
    fn kill_running(&self, grace: std::time::Duration) -> usize {
        Engine::kill_running(self, grace)
    }

    fn write(
        &self,
        event: &hook_protocol::Event,
        lenient: bool,
    ) -> Result<hook_kit::Written<EventName>, DialectError> {
        crate::payload::write(event, lenient)
    }

    async fn run(&self, name: EventName, input: Map<String, Value>) -> EventRun {
        let run = self.run_json(name, input).await;
        let denies = matches!(name, EventName::PreToolUse | EventName::PermissionRequest);
        let mut out = hook_kit::event_run(&run, denies);
        if let Some(response) = crate::present::modified_response(name, &run.report) {
            out.dialect_fields.insert("modified_response".into(), response.into());
        }
        out
    }

    fn before_step(&self, guard: &mut StopGuard, name: EventName, input: &mut Map<String, Value>) {
        crate::session::before(guard, name, input);
    }

    fn after_step(&self, guard: &mut StopGuard, name: EventName, step: &mut SessionStep) {
        crate::session::after(guard, name, step);
    }
}
