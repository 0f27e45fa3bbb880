//! Codex hooks through the core's one door ([`hook_protocol::Dialect`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use async_trait::async_trait;
use hook_kit::{CommandEngine, HookFile, Hooks, hook_files};
use hook_protocol::{
    Claim, DecisionWord, Diagnostic, Dialect, DialectError, EventRun, LateLine, Listed,
    LoadRequest, Loaded, ModelText, Placement, Position, SessionStep, Settled, Shown,
};
use serde_json::{Map, Value};

use crate::{AsyncOutput, Engine, EventName, Loader, Reviews, Scope, discover};

/// The Codex dialect, for a program that drives dialects through [`hook_protocol::Dialect`]
/// (the `hooks` command does).
pub fn dialect() -> &'static dyn Dialect {
    &Codex
}

/// Codex's hooks.
#[derive(Debug, Clone, Copy)]
struct Codex;

/// The user's Codex folder: `$CODEX_HOME`, else `~/.codex`.
pub fn codex_home(home: Option<&Path>) -> Option<PathBuf> {
    hook_kit::agent_home("CODEX_HOME", ".codex", home)
}

/// The reviews in the user's `config.toml`, with a warning when it cannot be read.
fn reviews(home: Option<&Path>, diagnostics: &mut Vec<Diagnostic>) -> Reviews {
    let Some(file) = home.map(|h| h.join("config.toml")).filter(|f| f.is_file()) else {
        return Reviews::default();
    };
    let parsed = hook_protocol::text_file::read_text(&file, hook_protocol::text_file::Cap::CONFIG)
        .map_err(|e| e.to_string())
        .and_then(|text| text.parse::<toml::Table>().map_err(|e| e.message().to_owned()));
    match parsed {
        Ok(table) => Reviews::from_config(&table),
        Err(e) => {
            diagnostics.push(Diagnostic::warning(
                &file,
                Position::default(),
                format!("cannot read the hook reviews: {e}; no hook that is not managed runs"),
            ));
            Reviews::default()
        }
    }
}

fn is_toml(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "toml")
}

impl Dialect for Codex {
    hook_kit::dialect_words!("codex", "Codex");

    fn claims(&self, path: &Path, text: &str) -> Claim {
        let in_codex = path.parent().and_then(Path::file_name).is_some_and(|n| n == ".codex");
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if in_codex && matches!(name, "hooks.json" | "config.toml") {
            return Claim::Place;
        }
        if is_toml(path) {
            let hooks = text.parse::<toml::Table>().ok().and_then(|t| t.get("hooks").cloned());
            return if hooks.is_some() { Claim::Shape } else { Claim::No };
        }
        Claim::No
    }

    fn project_of(&self, path: &Path) -> Option<PathBuf> {
        let absolute = std::path::absolute(path).ok()?;
        absolute
            .ancestors()
            .skip(1)
            .find(|dir| dir.file_name().is_some_and(|n| n == ".codex"))
            .and_then(Path::parent)
            .map(Path::to_path_buf)
    }

    fn check(&self, path: &Path, text: &str, _project_dir: &Path) -> Vec<Diagnostic> {
        let mut loader = Loader::new().trust_all(true);
        loader.text(path, text, Scope::User);
        loader.finish().diagnostics
    }

    fn load(&self, request: &LoadRequest) -> Result<Box<dyn Loaded>, DialectError> {
        let home = request.agent_home.clone().or_else(|| codex_home(request.home.as_deref()));
        let mut diagnostics = Vec::new();
        let reviews = reviews(home.as_deref(), &mut diagnostics);
        // Naming files is vouching for them, as Codex's `--dangerously-bypass-hook-trust` does.
        let mut loader = Loader::new().reviews(reviews.clone()).trust_all(request.names_files());
        let mut notes = Vec::new();
        // An untrusted project's layer is not read, whatever the reviews say.
        let discover = || {
            let mut found = discover(home.as_deref(), &request.project_dir, &reviews);
            found.retain(|(_, scope)| !(request.untrusted && *scope == Scope::Project));
            found
        };
        let files = hook_files(request, "Codex", discover, Scope::as_str, &mut notes)?;
        if files.is_empty() {
            let untrusted = request.project_dir.join(".codex").is_dir();
            let hint = if untrusted && request.untrusted {
                " (--untrusted: the project's .codex/ is not read)"
            } else if untrusted {
                " (the project's .codex/ is read only once the project is trusted: \
                 `[projects.\"<dir>\"] trust_level = \"trusted\"` in ~/.codex/config.toml)"
            } else {
                ""
            };
            return Err(DialectError::not_found(format!(
                "no Codex hook configuration found for {}; pass --settings or --project-dir{hint}",
                request.project_dir.display()
            )));
        }
        for file in files {
            match file {
                HookFile::Named(path) => loader.file(path, Scope::User),
                HookFile::Found(path, scope) => loader.file(path, scope),
                HookFile::Plugin(dir) => loader.plugin(dir, home.as_deref()),
            }
        }
        let mut config = loader.finish();
        for entry in &config.entries {
            if let Some(why) = entry.trust.why_not() {
                diagnostics.push(Diagnostic::warning(
                    &entry.source.path,
                    entry.position,
                    format!("hook `{}` does not run: {why}", entry.command),
                ));
            }
        }
        config.diagnostics.extend(diagnostics);
        Hooks::boxed(Engine::new(config, &request.project_dir, request.scrub.clone()), notes)
    }
}

#[async_trait]
impl CommandEngine for Engine {
    type Event = EventName;
    const TOOL_FIELD: Option<&'static str> = Some("tool_name");
    /// The `async` outputs waiting when a prompt came, delivered with it only if it is
    /// accepted.
    type State = Option<Vec<AsyncOutput>>;

    fn diagnostics(&self) -> &[Diagnostic] {
        &self.config().diagnostics
    }

    fn list(&self, name: EventName, subject: Option<&str>) -> Vec<Listed> {
        let aliases = crate::engine::aliases();
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
                    hook_kit::listed(e.command.clone(), &e.source.path, e.matcher_raw.as_deref());
                listed.not_run = e.trust.why_not().map(str::to_owned);
                listed
            })
            .collect()
    }

    async fn run(&self, name: EventName, input: Map<String, Value>) -> EventRun {
        event_run(&self.run_json(name, input).await)
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

    async fn settle(&self, wait: Duration) -> Settled {
        let (outputs, ended) = self.settle_async(wait).await;
        Settled::new(outputs.iter().map(late_line).collect(), ended)
    }

    fn before_step(&self, pending: &mut Self::State, name: EventName, _: &mut Map<String, Value>) {
        // The outputs ready when the prompt comes; they go with it only if it is accepted.
        *pending = (name == EventName::UserPromptSubmit)
            .then(|| self.pending_async().map(|(outputs, _)| outputs))
            .flatten();
    }

    fn after_step(&self, pending: &mut Self::State, _: EventName, step: &mut SessionStep) {
        if let Some(outputs) = pending.take()
            && step.run.decision == DecisionWord::NoOpinion
        {
            self.commit_async(outputs.len());
            step.late = outputs.iter().map(late_line).collect();
        }
    }

    async fn wait(&self, wait: Duration) {
        self.wait_async(wait).await;
    }
}

/// What one `async` hook said, as a late result: its output in the developer message Codex
/// delivers it in.
fn late_line(output: &crate::AsyncOutput) -> LateLine {
    let text = crate::present::async_outputs([(output.event, output.text.as_str())]);
    let model = vec![ModelText::new(Placement::System, text, false)];
    LateLine::new(output.command.clone(), Shown::new(model, Vec::new(), Vec::new()))
}

/// A run in the core's words: the first blocking hook's reason, or every `PostToolUse`
/// feedback joined, as Codex gives them.
fn event_run(run: &crate::Run) -> EventRun {
    let denies = matches!(run.event, EventName::PreToolUse | EventName::PermissionRequest);
    let mut out = hook_kit::event_run(run, denies);
    if run.event == EventName::PostToolUse {
        out.reason = run.report.merged.reason();
    }
    out
}
