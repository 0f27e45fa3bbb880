//! TNSAI hook lists through the core's one door ([`hook_protocol::Dialect`]): a list loaded
//! from the file named, an event from its JSON input run and reported as an [`EventRun`], a
//! file checked. TNSAI keeps nothing between events, so a recording runs event by event.

use std::path::{Path, PathBuf};

use async_trait::async_trait;
use hook_protocol::{
    Claim, DecisionWord, Diagnostic, Dialect, DialectError, Event, EventRun, FileKind, HookLine,
    Listed, LoadRequest, Loaded, Report, Seam, Session,
};
use serde_json::{Map, Value};

use crate::{ChainDecision, EventType, HookList, LoadOptions, Summary, event_from_input};

/// The TNSAI dialect, for a program that drives dialects through [`hook_protocol::Dialect`]
/// (the `hooks` command does).
pub fn dialect() -> &'static dyn Dialect {
    &Tnsai
}

/// TNSAI `hook_protocol_version 1` hook lists.
#[derive(Debug, Clone, Copy)]
struct Tnsai;

impl Dialect for Tnsai {
    fn name(&self) -> &'static str {
        "tnsai"
    }

    fn title(&self) -> &'static str {
        "TNSAI"
    }

    fn needs_file(&self) -> Option<&'static str> {
        Some("a TNSAI hook list")
    }

    fn reads(&self, kind: FileKind) -> bool {
        kind == FileKind::Config
    }

    /// A YAML file, or a JSON object with `trusted_roots` or a `hooks` list, is a hook list.
    fn claims(&self, path: &Path, text: &str) -> Claim {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if matches!(ext, "yaml" | "yml") {
            return Claim::Shape;
        }
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(map))
                if map.contains_key("trusted_roots")
                    || map.get("hooks").is_some_and(Value::is_array) =>
            {
                Claim::Shape
            }
            _ => Claim::No,
        }
    }

    fn check(&self, path: &Path, _text: &str, _project_dir: &Path) -> Vec<Diagnostic> {
        match HookList::load(path) {
            Ok(_) => Vec::new(),
            Err(errors) => errors.diagnostics(),
        }
    }

    fn load(&self, request: &LoadRequest) -> Result<Box<dyn Loaded>, DialectError> {
        let mut files = request.files_of(FileKind::Config);
        let (Some(config), None) = (files.next(), files.next()) else {
            return Err(DialectError::load("a TNSAI hook list is one file; name one"));
        };
        let mut options = LoadOptions::default();
        if let Some(scrub) = &request.scrub {
            options = options.scrub_credentials(scrub.clone());
        }
        let list =
            HookList::load_with(config, &options).map_err(|e| DialectError::load(e.to_string()))?;
        Ok(Box::new(Lists { list, project_dir: request.project_dir.clone() }))
    }
}

/// A loaded hook list.
#[derive(Debug)]
struct Lists {
    list: HookList,
    project_dir: PathBuf,
}

/// The event type named `event`. A name that is not one of the twelve seam types is a custom
/// event, as TNSAI hook lists use them, unless it differs from one only in case: that is a
/// typo, and an error says which was meant.
fn event_type(event: &str) -> Result<EventType, DialectError> {
    let event_type = EventType::from_name(event);
    if let EventType::Custom(_) = event_type
        && let Some(known) =
            EventType::SEAMS.iter().find(|t| t.as_str().eq_ignore_ascii_case(event))
    {
        return Err(DialectError::UnknownEvent {
            what: "TNSAI event type".to_owned(),
            event: event.to_owned(),
            hint: format!(
                " (event types are case-sensitive: did you mean `{}`? other names are custom \
                 events)",
                known.as_str()
            ),
        });
    }
    Ok(event_type)
}

#[async_trait]
impl Loaded for Lists {
    fn diagnostics(&self) -> &[Diagnostic] {
        &[]
    }

    fn list(&self, event: &str, subject: Option<&str>) -> Result<Vec<Listed>, DialectError> {
        let event_type = event_type(event)?;
        let file = self.list.file().display().to_string();
        let seam = event_type.seam();
        let custom = (seam == Seam::Custom).then(|| event_type.as_str());
        Ok(self
            .list
            .dispatcher()
            .hooks()
            .iter()
            .map(|hook| hook.info())
            .filter(|info| info.on.applies(seam, custom))
            .filter(|info| subject.is_none_or(|s| info.matcher.is_match(s)))
            .map(|info| Listed::new(info.label.clone(), file.clone()))
            .collect())
    }

    fn check_input(
        &self,
        event: &str,
        input: &Map<String, Value>,
        _filled: &[&str],
    ) -> Result<(), DialectError> {
        let event_type = event_type(event)?;
        event_from_input(&event_type, input.clone(), &self.project_dir)
            .map(|_| ())
            .map_err(|e| invalid(event, &e))
    }

    async fn run(&self, event: &str, input: Map<String, Value>) -> Result<EventRun, DialectError> {
        let event_type = event_type(event)?;
        let built = event_from_input(&event_type, input, &self.project_dir)
            .map_err(|e| invalid(event, &e))?;
        let subject = built.subject().map(str::to_owned);
        let report = self.list.run(&built).await;
        Ok(event_run(event, subject, &report))
    }

    fn list_event(&self, event: &Event) -> Result<Vec<Listed>, DialectError> {
        match type_of(event) {
            Some(name) => self.list(&name, event.subject()),
            None => Ok(Vec::new()),
        }
    }

    async fn run_event(
        &self,
        event: &Event,
        _lenient: bool,
    ) -> Result<Vec<EventRun>, DialectError> {
        // A TNSAI hook list takes the neutral event itself: its envelope is written from it.
        let Some(name) = type_of(event) else {
            return Ok(Vec::new());
        };
        let report = self.list.run(event).await;
        Ok(vec![event_run(&name, event.subject().map(str::to_owned), &report)])
    }

    fn into_session(self: Box<Self>) -> Box<dyn Session> {
        hook_protocol::dialect::alone(self)
    }
}

/// The event type of a neutral event, by its seam or its custom name.
fn type_of(event: &Event) -> Option<String> {
    match event.custom_name() {
        Some(custom) => Some(custom.to_owned()),
        None => EventType::from_seam(event.seam()).map(|t| t.as_str().to_owned()),
    }
}

fn invalid(event: &str, e: &impl ToString) -> DialectError {
    DialectError::InvalidInput {
        event: event.to_owned(),
        message: e.to_string(),
        lenient_would_run: false,
    }
}

/// The run of a hook list: `allow` or `block` (a TNSAI chain has no other answer), with the
/// block's severity.
fn event_run(event: &str, subject: Option<String>, report: &Report) -> EventRun {
    let summary = Summary::from_report(report);
    let mut run = EventRun::new(event);
    run.subject = subject;
    run.decision = match summary.decision {
        ChainDecision::Allow => DecisionWord::Allow,
        ChainDecision::Block => DecisionWord::Block,
    };
    run.reason = summary.reason.clone();
    run.context = report.merged.context.iter().map(|c| c.value.clone()).collect();
    run.updated_input = summary.updated_input.clone();
    run.messages = report.merged.messages.iter().map(|m| m.value.clone()).collect();
    run.hooks = report.records.iter().map(HookLine::of).collect();
    run.decided_by = report.decided_by().map(HookLine::of);
    run.severity = summary.severity.map(Into::into);
    run
}
