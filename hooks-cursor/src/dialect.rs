//! Cursor hooks through the core's one door ([`hook_protocol::Dialect`]).

use std::path::{Path, PathBuf};

use async_trait::async_trait;
use hook_kit::{CommandEngine, HookFile, Hooks, hook_files, named_file};
use hook_protocol::{
    Claim, DecisionWord, Diagnostic, Dialect, DialectError, EventRun, Listed, LoadRequest, Loaded,
    SessionStep,
};
use serde_json::{Map, Value};

use crate::payload::target;
use crate::{Engine, EventName, Loader, Scope, discover};

/// The Cursor dialect, for a program that drives dialects through [`hook_protocol::Dialect`]
/// (the `hooks` command does).
pub fn dialect() -> &'static dyn Dialect {
    &Cursor
}

/// Cursor's hooks.
#[derive(Debug, Clone, Copy)]
struct Cursor;

/// The user's Cursor folder: `~/.cursor`.
pub fn cursor_home(home: Option<&Path>) -> Option<PathBuf> {
    home.map(|h| h.join(".cursor"))
}

/// The place a file has by its path.
fn place_of(path: &Path) -> Scope {
    if path.starts_with("/etc/cursor") { Scope::Enterprise } else { Scope::Project }
}

/// Whether a path is a `.cursor/hooks.json`.
fn in_place(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "hooks.json")
        && path.parent().and_then(Path::file_name).is_some_and(|n| n == ".cursor")
}

impl Dialect for Cursor {
    hook_kit::dialect_words!("cursor", "Cursor");

    fn claims(&self, path: &Path, text: &str) -> Claim {
        if in_place(path) {
            return Claim::Place;
        }
        let parsed = serde_json::from_str::<Value>(text).ok();
        let root = parsed.as_ref().and_then(Value::as_object);
        let versioned = root.and_then(|r| r.get("version")).is_some();
        let events = root.and_then(|r| r.get("hooks")).and_then(Value::as_object);
        // Events only Cursor has (Copilot's share some names).
        let own = events.is_some_and(|e| {
            e.keys().any(|k| {
                EventName::parse(k).is_some_and(|e| {
                    e.action().is_some()
                        || matches!(e, EventName::Stop | EventName::BeforeSubmitPrompt)
                        || e.seam().is_none()
                })
            })
        });
        if versioned && own { Claim::Shape } else { Claim::No }
    }

    fn project_of(&self, path: &Path) -> Option<PathBuf> {
        let absolute = std::path::absolute(path).ok()?;
        in_place(&absolute).then(|| absolute.parent()?.parent().map(Path::to_path_buf)).flatten()
    }

    fn check(&self, path: &Path, text: &str, _project_dir: &Path) -> Vec<Diagnostic> {
        Loader::check(path, text, place_of(path))
    }

    fn load(&self, request: &LoadRequest) -> Result<Box<dyn Loaded>, DialectError> {
        let home = request.agent_home.clone().or_else(|| cursor_home(request.home.as_deref()));
        let mut loader = Loader::new();
        let mut notes = Vec::new();
        let discover = || discover(home.as_deref(), &request.project_dir);
        let files = hook_files(request, "Cursor", discover, Scope::as_str, &mut notes)?;
        if files.is_empty() {
            return Err(DialectError::not_found(format!(
                "no Cursor hooks.json found for {} (.cursor/hooks.json, ~/.cursor/hooks.json, \
                 /etc/cursor/hooks.json); pass --settings or --project-dir",
                request.project_dir.display()
            )));
        }
        // A plugin named without its `hooks/hooks.json` is an error that names the file.
        for file in &files {
            if let HookFile::Plugin(dir) = file {
                named_file(&dir.join("hooks/hooks.json"), "Cursor plugin hook file")?;
            }
        }
        loader.files(files, place_of);
        Hooks::boxed(
            Engine::new(loader.finish(), &request.project_dir, home, request.scrub.clone()),
            notes,
        )
    }
}

#[async_trait]
impl CommandEngine for Engine {
    type Event = EventName;
    /// `loop_count`: the follow-ups the conversation's `stop` hooks caused so far.
    type State = u32;

    fn diagnostics(&self) -> &[Diagnostic] {
        &self.config().diagnostics
    }

    fn list(&self, name: EventName, subject: Option<&str>) -> Vec<Listed> {
        self.config()
            .entries
            .iter()
            .filter(|e| e.event == name)
            .filter(|e| subject.is_none_or(|s| e.matcher.is_any() || e.matcher.is_match(s)))
            .map(|e| {
                let mut listed =
                    hook_kit::listed(e.command.clone(), &e.source.path, e.matcher_raw.as_deref());
                if e.event.seam().is_none() {
                    listed.not_run =
                        Some(format!("`{}` is an editor event a harness does not fire", e.event));
                }
                listed
            })
            .collect()
    }

    fn kill_running(&self, grace: std::time::Duration) -> usize {
        Engine::kill_running(self, grace)
    }

    fn write(
        &self,
        event: &hook_protocol::Event,
        _lenient: bool,
    ) -> Result<hook_kit::Written<EventName>, DialectError> {
        Ok(crate::payload::write(event, self.project_dir()))
    }

    async fn run(&self, name: EventName, input: Map<String, Value>) -> EventRun {
        event_run(&self.run_json(name, input).await)
    }

    fn before_step(&self, loop_count: &mut u32, name: EventName, input: &mut Map<String, Value>) {
        if name == EventName::Stop && !input.contains_key("loop_count") {
            input.insert("loop_count".into(), Value::from(*loop_count));
        }
    }

    fn after_step(&self, loop_count: &mut u32, name: EventName, step: &mut SessionStep) {
        // A `stop` goes on only with a follow-up: that is its `block`.
        if name == EventName::Stop && step.run.decision == DecisionWord::Block {
            *loop_count += 1;
        }
    }
}

/// A run in the core's words: a `stop` or `subagentStop` that goes on with a follow-up is a
/// `block` whose reason is the follow-up.
fn event_run(run: &crate::Run) -> EventRun {
    let mut out = hook_kit::event_run(run, run.event.seam() == Some(hook_protocol::Seam::PreTool));
    let subject = target(run.event, &run.input);
    out.subject = (!subject.is_empty()).then_some(subject);
    if let Some(message) = crate::present::agent_message(&run.report) {
        out.dialect_fields.insert("agent_message".into(), message.into());
    }
    if let (Some(prompt), DecisionWord::NoOpinion) = (&run.report.merged.follow_up, out.decision) {
        out.decision = DecisionWord::Block;
        out.reason = Some(prompt.value.clone());
    }
    out
}
