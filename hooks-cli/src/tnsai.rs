//! The TNSAI backend: a hook list run on events given as JSON objects.

use std::path::PathBuf;

use hook_protocol::{HookRecord, Report};
use hooks_tnsai::{ChainDecision, EventType, HookList, LoadOptions, Summary, event_from_input};
use serde_json::{Map, Value};

use crate::backend::Listed;
use crate::cli::Sources;
use crate::document::{DecisionWord, HookLine, HookStatusWord, RunDocument};
use crate::error::{CliError, cli_error};

/// A loaded TNSAI hook list.
#[derive(Debug)]
pub(crate) struct Tnsai {
    list: HookList,
    project_dir: PathBuf,
}

impl Tnsai {
    pub(crate) fn load(sources: &Sources, project_dir: PathBuf) -> Result<Self, CliError> {
        let Some(config) = sources.config.as_deref() else {
            return Err(cli_error!("--dialect tnsai needs --config FILE (a TNSAI hook list)"));
        };
        let mut options = LoadOptions::default();
        if let Some(scrub) = sources.scrub() {
            options = options.scrub_credentials(scrub);
        }
        let list =
            HookList::load_with(config, &options).map_err(|e| CliError::new(e.to_string()))?;
        Ok(Self { list, project_dir })
    }

    pub(crate) async fn run(
        &self,
        event: &str,
        input: Map<String, Value>,
    ) -> Result<RunDocument, CliError> {
        let event_type = event_type(event)?;
        let built = event_from_input(&event_type, input, &self.project_dir)
            .map_err(|e| cli_error!("{event}: invalid input: {e}"))?;
        let subject = built.subject().map(str::to_owned);
        let report = self.list.run(&built).await;
        Ok(document(event, subject, &report))
    }

    pub(crate) fn list(&self, event: &str, subject: Option<&str>) -> Result<Vec<Listed>, CliError> {
        let event_type = event_type(event)?;
        let file = self.list.file().display().to_string();
        let mut out = Vec::new();
        for hook in self.list.dispatcher().hooks() {
            let info = hook.info();
            let seam = event_type.seam();
            let custom = (seam == hook_protocol::Seam::Custom).then(|| event_type.as_str());
            if !info.on.applies(seam, custom) || subject.is_some_and(|s| !info.matcher.is_match(s))
            {
                continue;
            }
            out.push(Listed { command: info.label.clone(), source: file.clone() });
        }
        Ok(out)
    }
}

/// The event type named `event`. A name that is not one of the twelve seam types is a custom
/// event, as TNSAI hook lists use them, unless it differs from one only in case: that is a
/// typo, and an error says which was meant.
fn event_type(event: &str) -> Result<EventType, CliError> {
    let event_type = EventType::from_name(event);
    if let EventType::Custom(_) = event_type
        && let Some(known) =
            EventType::SEAMS.iter().find(|t| t.as_str().eq_ignore_ascii_case(event))
    {
        return Err(cli_error!(
            "unknown TNSAI event type `{event}` (event types are case-sensitive: did you mean `{}`? \
             other names are custom events)",
            known.as_str()
        ));
    }
    Ok(event_type)
}

fn document(event: &str, subject: Option<String>, report: &Report) -> RunDocument {
    let summary = Summary::from_report(report);
    RunDocument {
        event: event.to_owned(),
        decision: match summary.decision {
            ChainDecision::Allow => DecisionWord::Allow,
            ChainDecision::Block => DecisionWord::Block,
        },
        reason: summary.reason.clone(),
        additional_context: report.merged.context.iter().map(|c| c.value.clone()).collect(),
        updated_input: summary.updated_input.clone(),
        continue_: true,
        stop_reason: None,
        system_messages: report.merged.messages.iter().map(|m| m.value.clone()).collect(),
        shown: None,
        hooks: report.records.iter().map(hook_line).collect(),
        subject,
        elapsed_ms: 0,
        severity: summary.severity.map(|s| s.as_str().to_owned()),
    }
}

fn hook_line(record: &HookRecord) -> HookLine {
    let note = record.failure.clone().or_else(|| record.warnings.first().cloned());
    HookLine {
        command: record.label.clone(),
        status: HookStatusWord::from(record.status),
        exit_code: record.process.as_ref().and_then(|p| p.exit.code()),
        duration_ms: u64::try_from(record.duration.as_millis()).unwrap_or(u64::MAX),
        note,
    }
}
