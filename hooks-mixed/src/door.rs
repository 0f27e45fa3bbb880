//! Every agent's hooks through the core's one door ([`hook_protocol::Dialect`]), as the
//! `hooks` command's `--dialect all`: an event named as Claude Code names it, its input in
//! Claude Code's form, is the neutral event every dialect writes as its agent does.

use std::path::{Path, PathBuf};
use std::time::Duration;

use async_trait::async_trait;
use hook_protocol::{
    Claim, Diagnostic, Dialect, DialectError, Event, EventRun, FileKind, Listed, LoadRequest,
    Loaded, Session, SessionStep, Settled,
};
use serde_json::{Map, Value};

use crate::{Mixed, MixedSession, Project};

/// Every agent's hooks for a project, for a program that drives dialects through
/// [`hook_protocol::Dialect`] (the `hooks` command's `--dialect all`).
pub fn dialect() -> &'static dyn Dialect {
    &All
}

/// Every dialect whose files a project holds.
#[derive(Debug, Clone, Copy)]
struct All;

/// The session id an input without one runs with.
const SESSION_ID: &str = "hooks-cli";

/// The neutral event of an event named as Claude Code names it, its input in Claude Code's
/// form (`session_id`, `transcript_path` and `cwd` filled when absent).
///
/// # Errors
///
/// [`DialectError::UnknownEvent`] for a name Claude Code does not have.
pub fn neutral_event(
    event: &str,
    mut input: Map<String, Value>,
    project_dir: &Path,
) -> Result<Event, DialectError> {
    if hooks_claude::EventName::parse(event).is_none() {
        return Err(DialectError::UnknownEvent {
            what: "event".to_owned(),
            event: event.to_owned(),
            hint: " (--dialect all takes the event as Claude Code names it: PreToolUse, Stop, ...)"
                .to_owned(),
        });
    }
    let defaults = [
        ("session_id", SESSION_ID.to_owned()),
        ("transcript_path", String::new()),
        ("cwd", project_dir.display().to_string()),
    ];
    for (key, value) in defaults {
        input.entry(key).or_insert(Value::String(value));
    }
    Ok(hooks_claude::event_from_payload(event, input))
}

impl Dialect for All {
    fn name(&self) -> &'static str {
        "all"
    }

    fn title(&self) -> &'static str {
        "every agent"
    }

    fn reads(&self, kind: FileKind) -> bool {
        // Each file goes to its dialect: skills and sub-agents to Claude Code's.
        matches!(kind, FileKind::Config | FileKind::Plugin | FileKind::Skill | FileKind::Agent)
    }

    fn claims(&self, _path: &Path, _text: &str) -> Claim {
        Claim::No
    }

    fn check(&self, path: &Path, text: &str, project_dir: &Path) -> Vec<Diagnostic> {
        let dialects = crate::file_dialects().into_iter().chain([hooks_tnsai::dialect()]);
        let best = dialects.max_by_key(|d| d.claims(path, text));
        match best.filter(|d| d.claims(path, text) > Claim::No) {
            Some(d) => d
                .check(path, text, project_dir)
                .into_iter()
                .map(|mut diagnostic| {
                    diagnostic.message = format!("{}: {}", d.title(), diagnostic.message);
                    diagnostic
                })
                .collect(),
            None => vec![Diagnostic::error(
                path,
                hook_protocol::Position::default(),
                "no agent's hook file: not Claude Code's, Codex's, Copilot's, Cursor's, Gemini CLI's or \
                 a TNSAI hook list",
            )],
        }
    }

    fn load(&self, request: &LoadRequest) -> Result<Box<dyn Loaded>, DialectError> {
        let mut request = request.clone();
        let lists: Vec<PathBuf> = request
            .files_of(FileKind::Config)
            .filter(|p| crate::project::owner(p) == Some("tnsai"))
            .map(Path::to_path_buf)
            .collect();
        request.files.retain(|(_, p)| !lists.contains(p));
        let mut project = Project::with_request(request.clone());
        if let [list] = lists.as_slice() {
            project = project.tnsai_list(list);
        } else if lists.len() > 1 {
            return Err(DialectError::load("a TNSAI hook list is one file; name one"));
        }
        let mixed = project.load();
        if mixed.dialects().is_empty() {
            return Err(DialectError::not_found(format!(
                "no agent's hook files found for {} (.claude/settings.json, .codex/hooks.json, \
                 .github/hooks/*.json, .cursor/hooks.json, .gemini/settings.json, and the same in the home \
                 folder)",
                request.project_dir.display()
            )));
        }
        Ok(Box::new(Door { mixed, project_dir: request.project_dir }))
    }
}

/// The loaded hooks behind the door.
#[derive(Debug)]
struct Door {
    mixed: Mixed,
    project_dir: PathBuf,
}

/// The input a listing's event stands for: its subject as the tool (or the source).
fn listing_input(event: &str, subject: Option<&str>) -> Map<String, Value> {
    let mut input = Map::new();
    let key = match event {
        "SessionStart" => "source",
        "PreCompact" | "PostCompact" => "trigger",
        "SessionEnd" => "reason",
        "Notification" => "notification_type",
        _ => "tool_name",
    };
    input.insert(key.to_owned(), Value::from(subject.unwrap_or_default()));
    input.insert("tool_input".to_owned(), Value::Object(Map::new()));
    input
}

#[async_trait]
impl Loaded for Door {
    fn diagnostics(&self) -> &[Diagnostic] {
        self.mixed.diagnostics()
    }

    fn notes(&self) -> Vec<String> {
        self.mixed.notes().to_vec()
    }

    fn list(&self, event: &str, subject: Option<&str>) -> Result<Vec<Listed>, DialectError> {
        let neutral = neutral_event(event, listing_input(event, subject), &self.project_dir)?;
        let listed = self.mixed.list(&neutral)?;
        Ok(listed
            .into_iter()
            .map(|(dialect, mut l)| {
                l.source = format!("{dialect}: {}", l.source);
                l
            })
            .collect())
    }

    fn check_input(
        &self,
        event: &str,
        input: &Map<String, Value>,
        _filled: &[&str],
    ) -> Result<(), DialectError> {
        self.mixed.check(&neutral_event(event, input.clone(), &self.project_dir)?)
    }

    async fn run(&self, event: &str, input: Map<String, Value>) -> Result<EventRun, DialectError> {
        let neutral = neutral_event(event, input, &self.project_dir)?;
        let mut run = self.mixed.run(&neutral).await?.run;
        event.clone_into(&mut run.event);
        Ok(run)
    }

    async fn settle(&self, wait: Duration) -> Settled {
        self.mixed.settle(wait).await
    }

    fn into_session(self: Box<Self>) -> Box<dyn Session> {
        Box::new(DoorSession { session: self.mixed.into_session(), project_dir: self.project_dir })
    }
}

/// A recording through every dialect's session.
#[derive(Debug)]
struct DoorSession {
    session: MixedSession,
    project_dir: PathBuf,
}

#[async_trait]
impl Session for DoorSession {
    fn check(&self, events: &[(&str, &Map<String, Value>)]) -> Result<(), (usize, DialectError)> {
        for (i, (event, input)) in events.iter().enumerate() {
            let neutral = neutral_event(event, (*input).clone(), &self.project_dir);
            neutral.and_then(|n| self.session.check(&n)).map_err(|e| (i, e))?;
        }
        Ok(())
    }

    async fn step(
        &mut self,
        event: &str,
        input: Map<String, Value>,
    ) -> Result<SessionStep, DialectError> {
        let neutral = neutral_event(event, input, &self.project_dir)?;
        let mut step = self.session.step(&neutral).await?.step;
        event.clone_into(&mut step.run.event);
        Ok(step)
    }

    async fn settle(&mut self, wait: Duration) {
        self.session.settle(wait).await;
    }
}
