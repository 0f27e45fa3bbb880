//! An agent's events through a dialect's door, as a snapshot shows them: for each event, a hook
//! that exits 2 and one that answers in JSON, each run alone.

use std::path::{Path, PathBuf};

use hook_protocol::{Dialect, EventRun, FileKind, LoadRequest};
use serde_json::{Value, json};

/// An event's run as a snapshot shows it: the decision and all the agent shows, each hook's
/// status, exit code and note (no duration: it varies).
pub fn run_snapshot(run: &EventRun) -> Value {
    let hooks: Vec<Value> = run
        .hooks
        .iter()
        .map(|h| json!({"status": h.status.as_str(), "exit_code": h.exit_code, "note": h.note}))
        .collect();
    let mut snapshot = json!({
        "decision": run.decision.as_str(),
        "reason": run.reason,
        "context": run.context,
        "updated_input": run.updated_input,
        "halt": run.halt,
        "messages": run.messages,
        "shown": run.shown,
        "hooks": hooks,
        "warnings": run.warnings,
    });
    // The agent's own fields, only where a run has some.
    if let Some(object) = snapshot.as_object_mut()
        && !run.dialect_fields.is_empty()
    {
        object.insert("dialect_fields".into(), Value::Object(run.dialect_fields.clone()));
    }
    snapshot
}

/// What a test gives [`every_event`]: the dialect's events, how it writes a file with one hook
/// on an event, and the input each event runs with.
#[expect(missing_debug_implementations, reason = "closures: nothing to print")]
pub struct Events<'a> {
    /// The dialect.
    pub dialect: &'static dyn Dialect,
    /// The project folder.
    pub project: &'a Path,
    /// Every event's name.
    pub events: Vec<&'static str>,
    /// Writes the file of one hook running `command` on `event` and returns its path.
    pub file: &'a dyn Fn(&str, &str) -> PathBuf,
    /// The input of `event`.
    pub input: &'a dyn Fn(&str) -> Value,
    /// The JSON a hook on `event` answers with.
    pub answer: &'a dyn Fn(&str) -> Value,
}

/// The events of `dialect` for `project`, each run by a hook `file` writes.
impl<'a> Events<'a> {
    /// What [`every_event`] runs: `events` of `dialect`, with their files, inputs and answers.
    pub fn new(
        dialect: &'static dyn Dialect,
        project: &'a Path,
        events: Vec<&'static str>,
        file: &'a dyn Fn(&str, &str) -> PathBuf,
        input: &'a dyn Fn(&str) -> Value,
        answer: &'a dyn Fn(&str) -> Value,
    ) -> Self {
        Self { dialect, project, events, file, input, answer }
    }
}

/// Every event run twice through the door: with a hook that prints `policy says no` on stdout
/// and on stderr and exits 2, and with one that answers [`Events::answer`]. One value per
/// event, `{"exit 2": …, "json": …}`, the project's folder written `[project]`.
///
/// # Panics
///
/// When a file does not load or an event does not run.
#[expect(clippy::unwrap_used, reason = "test support: a test stops where it cannot go on")]
pub async fn every_event(events: &Events<'_>) -> Vec<(&'static str, Value)> {
    let mut out = Vec::new();
    for event in &events.events {
        let exit2 =
            "cat > /dev/null; echo 'policy says no'; echo 'policy says no (stderr)' >&2; exit 2";
        let answer = serde_json::to_string(&(events.answer)(event)).unwrap();
        let answer = format!("cat > /dev/null; printf '%s' '{}'", answer.replace('\'', r"'\''"));
        let mut runs = serde_json::Map::new();
        for (name, command) in [("exit 2", exit2.to_owned()), ("json", answer)] {
            let file = (events.file)(event, &command);
            let mut request = LoadRequest::new(events.project);
            request.files.push((FileKind::Config, file));
            let loaded = events.dialect.load(&request).unwrap();
            let errors: Vec<_> = loaded.diagnostics().iter().filter(|d| d.is_error()).collect();
            assert!(errors.is_empty(), "{event}: {errors:?}");
            let input = crate::object((events.input)(event));
            let run = loaded.run(event, input).await.unwrap();
            assert_eq!(run.hooks.len(), 1, "{event}: one hook ran");
            // The project's folder is a temporary one: `[project]` in the snapshot.
            let text = run_snapshot(&run).to_string();
            let project = events.project.display().to_string();
            let text = text.replace(&project, "[project]");
            runs.insert(name.to_owned(), serde_json::from_str(&text).unwrap());
        }
        out.push((*event, Value::Object(runs)));
    }
    out
}
