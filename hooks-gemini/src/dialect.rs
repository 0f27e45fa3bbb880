//! Gemini CLI hooks through the core's one door ([`hook_protocol::Dialect`]).

use std::path::{Path, PathBuf};

use async_trait::async_trait;
use hook_kit::{CommandEngine, HookFile, Hooks, hook_files};
use hook_protocol::text_file::{Cap, read_text};
use hook_protocol::{
    Claim, DecisionWord, Diagnostic, Dialect, DialectError, EventRun, GuardState, Listed,
    LoadRequest, Loaded, SessionStep,
};
use serde_json::{Map, Value};

use crate::{Engine, EventName, Loader, Scope, discover, hooks_config};

/// The Gemini CLI dialect, for a program that drives dialects through
/// [`hook_protocol::Dialect`] (the `hooks` command does).
pub fn dialect() -> &'static dyn Dialect {
    &Gemini
}

/// Gemini CLI's hooks.
#[derive(Debug, Clone, Copy)]
struct Gemini;

/// The user's Gemini folder: `~/.gemini`.
pub fn gemini_home(home: Option<&Path>) -> Option<PathBuf> {
    home.map(|h| h.join(".gemini"))
}

/// Whether a path is a `.gemini/settings.json`.
fn in_place(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "settings.json")
        && path.parent().and_then(Path::file_name).is_some_and(|n| n == ".gemini")
}

/// The place a file has by its path: the project's when it is in a project's `.gemini/`.
fn place_of(path: &Path) -> Scope {
    if in_place(path) { Scope::Project } else { Scope::User }
}

impl Dialect for Gemini {
    hook_kit::dialect_words!("gemini", "Gemini CLI");

    fn claims(&self, path: &Path, text: &str) -> Claim {
        if in_place(path) {
            return Claim::Place;
        }
        let parsed = serde_json::from_str::<Value>(text).ok();
        let events = parsed.as_ref().and_then(|r| r.get("hooks")).and_then(Value::as_object);
        let own = events.is_some_and(|e| e.keys().any(|k| EventName::parse(k).is_some()));
        if own { Claim::Shape } else { Claim::No }
    }

    fn project_of(&self, path: &Path) -> Option<PathBuf> {
        let absolute = std::path::absolute(path).ok()?;
        in_place(&absolute).then(|| absolute.parent()?.parent().map(Path::to_path_buf)).flatten()
    }

    fn check(&self, path: &Path, text: &str, _project_dir: &Path) -> Vec<Diagnostic> {
        Loader::check(path, text, place_of(path))
    }

    fn load(&self, request: &LoadRequest) -> Result<Box<dyn Loaded>, DialectError> {
        let home = request.agent_home.clone().or_else(|| gemini_home(request.home.as_deref()));
        let mut notes = Vec::new();
        // With `--skip-trust` in an untrusted folder, Gemini runs the user's hooks only.
        let discover = || {
            let mut found = discover(home.as_deref(), &request.project_dir);
            found.retain(|(_, scope)| !(request.untrusted && *scope == Scope::Project));
            found
        };
        let files = hook_files(request, "Gemini CLI", discover, Scope::as_str, &mut notes)?;
        if files.is_empty() {
            return Err(DialectError::not_found(format!(
                "no Gemini CLI settings found for {} (.gemini/settings.json, \
                 ~/.gemini/settings.json); pass --settings or --project-dir",
                request.project_dir.display()
            )));
        }
        let mut texts = Vec::new();
        for file in &files {
            let path = match file {
                HookFile::Named(path) | HookFile::Found(path, _) => path.clone(),
                HookFile::Plugin(dir) => dir.join("hooks/hooks.json"),
            };
            if let Ok(text) = read_text(&path, Cap::CONFIG) {
                texts.push((path, text));
            }
        }
        let settings = hooks_config(&texts);
        let mut loader = Loader::new();
        loader.files(files, place_of);
        let mut config = loader.finish();
        if let Some(warning) = detected(&config, home.as_deref()) {
            config.diagnostics.push(warning);
        }
        let user_home = request.home.clone();
        Hooks::boxed(
            Engine::new(config, &request.project_dir, user_home, request.scrub.clone(), settings),
            notes,
        )
    }
}

/// Gemini's notice of project hooks it has not seen before: the project's hooks whose
/// `<name>:<command>` the user's `trusted_hooks.json` (where Gemini records the hooks it warned
/// about) does not hold, as a warning at the project's file; they run all the same.
fn detected(config: &crate::Config, home: Option<&Path>) -> Option<Diagnostic> {
    let known = home
        .map(|h| h.join("trusted_hooks.json"))
        .and_then(|f| read_text(&f, Cap::CONFIG).ok())
        .unwrap_or_default();
    let project: Vec<&crate::Entry> =
        config.entries.iter().filter(|e| e.source.scope == Scope::Project).collect();
    let new: Vec<&crate::Entry> = project
        .iter()
        .copied()
        .filter(|e| {
            let key = format!("{}:{}", e.name.as_deref().unwrap_or_default(), e.command);
            !known.contains(&serde_json::to_string(&key).unwrap_or_default())
        })
        .collect();
    let first = new.first()?;
    let mut list: Vec<&str> = new.iter().map(|e| e.label()).collect();
    list.dedup();
    let lines: String = list.iter().map(|l| format!("\n  - {l}")).collect();
    Some(Diagnostic::warning(
        &first.source.path,
        hook_protocol::Position::default(),
        format!(
            "The following project-level hooks have been detected in this workspace:{lines}\n\
             These hooks will be executed. If you did not configure these hooks or do not trust \
             this project,\nplease review the project settings (.gemini/settings.json) and \
             remove them."
        ),
    ))
}

#[async_trait]
impl CommandEngine for Engine {
    type Event = EventName;
    const TOOL_FIELD: Option<&'static str> = Some("tool_name");
    /// How many times in a row the `AfterAgent` hooks blocked the turn's end.
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
            .map(|e| hook_kit::listed(e.command.clone(), &e.source.path, e.matcher_raw.as_deref()))
            .collect()
    }

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
        event_run(&self.run_json(name, input).await)
    }

    fn before_step(&self, blocks: &mut u32, name: EventName, input: &mut Map<String, Value>) {
        if name == EventName::AfterAgent && !input.contains_key("stop_hook_active") {
            input.insert("stop_hook_active".into(), Value::Bool(*blocks > 0));
        }
    }

    fn after_step(&self, blocks: &mut u32, name: EventName, step: &mut SessionStep) {
        if name != EventName::AfterAgent {
            return;
        }
        if step.run.decision != DecisionWord::Block {
            *blocks = 0;
            step.guard = Some(GuardState::new(0, false));
            return;
        }
        *blocks += 1;
        let over = self.retry_cap().is_some_and(|cap| *blocks > cap);
        if over {
            step.run.warnings.push(format!(
                "the AfterAgent hooks blocked the turn's end {blocks} times in a row; the \
                 harness's cap ends the turn (Gemini CLI has none)"
            ));
            step.run.decision = DecisionWord::NoOpinion;
            step.run.shown = Some(hook_protocol::Shown::default());
        }
        step.guard = Some(GuardState::new(*blocks, over));
        if over {
            *blocks = 0;
        }
    }
}

/// A run in the core's words: every hook's reason joined, as Gemini merges them.
fn event_run(run: &crate::Run) -> EventRun {
    let denies = run.event == EventName::BeforeTool;
    let mut out = hook_kit::event_run(run, denies);
    // Gemini joins every hook's reason, the allowing hooks' too.
    if out.decision != DecisionWord::NoOpinion
        && let Some(reasons) = crate::present::reasons(&run.report)
    {
        out.reason = Some(reasons);
    }
    // A rewritten input the tool would refuse: the tool does not run.
    let tool = run.input.get("tool_name").and_then(Value::as_str).unwrap_or_default();
    if let Some(why) = crate::present::refused_input(run.event, &run.report, tool) {
        out.decision = DecisionWord::Deny;
        out.reason = Some(why);
        out.updated_input = None;
    }
    out.dialect_fields.extend(crate::present::own_fields(run.event, &run.report));
    out
}
