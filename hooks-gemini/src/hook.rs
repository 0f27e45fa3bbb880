//! One Gemini CLI hook on the core's seams: its command run as Gemini runs it
//! ([Process execution](crate::compatibility#process-execution)): Gemini's variables
//! substituted in the command line first, shell-quoted, then `bash -c LINE` in the session's
//! folder, the input on stdin without a trailing newline, Gemini's variables and the handler's
//! `env` added to the environment.

use std::path::PathBuf;
use std::sync::Arc;

use async_trait::async_trait;
use hook_exec::{CommandSpec, Env, Invocation, RunGroup};
use hook_protocol::{Event, Hook, HookInfo, HookOutcome, Scrub};
use serde_json::{Map, Value};

use crate::decode::{RunRecord, decode, spawn_failed};
use crate::payload::stdin_object;
use crate::{Entry, EventName};

/// The dialect's name in records and sources.
pub const DIALECT: &str = "gemini";

/// The variables Gemini substitutes in a command line and sets for a hook, in the order it
/// substitutes them.
pub const VARIABLES: [&str; 5] = [
    "GEMINI_PROJECT_DIR",
    "GEMINI_CWD",
    "GEMINI_PLANS_DIR",
    "GEMINI_SESSION_ID",
    "CLAUDE_PROJECT_DIR",
];

/// What the hooks of a `sequential` event pass on, one to the next, besides a rewritten tool
/// input (which the core's pipeline carries): `BeforeAgent`'s prompt with each context
/// appended, and `BeforeModel`'s rewritten request.
#[derive(Debug, Default)]
pub(crate) struct Piped(std::sync::Mutex<Map<String, Value>>);

impl Piped {
    /// The input `input`, with what the hooks before this one passed on.
    fn apply(&self, input: &Map<String, Value>) -> Map<String, Value> {
        let mut out = input.clone();
        if let Ok(piped) = self.0.lock() {
            for (key, value) in piped.iter() {
                out.insert(key.clone(), value.clone());
            }
        }
        out
    }

    /// Takes what a hook answered on `event`, given `input`, for the hooks after it.
    fn take(&self, event: EventName, input: &Map<String, Value>, outcome: &HookOutcome) {
        let record = outcome.metadata.as_ref().and_then(|m| m.downcast_ref::<RunRecord>());
        let Some(specific) =
            record.and_then(|r| r.output.as_ref()).and_then(crate::decode::specific)
        else {
            return;
        };
        let Ok(mut piped) = self.0.lock() else { return };
        match event {
            EventName::BeforeAgent => {
                if let Some(context) = specific.get("additionalContext").and_then(Value::as_str) {
                    let prompt = input.get("prompt").and_then(Value::as_str).unwrap_or_default();
                    piped.insert("prompt".into(), Value::from(format!("{prompt}\n\n{context}")));
                }
            }
            EventName::BeforeModel => {
                if let Some(request) = specific.get("llm_request") {
                    piped.insert("llm_request".into(), request.clone());
                }
            }
            _ => {}
        }
    }
}

/// A Gemini CLI hook.
#[derive(Debug)]
pub struct CommandHook {
    info: HookInfo,
    entry: Entry,
    home: Option<PathBuf>,
    scrub: Option<Scrub>,
    /// The engine's group: its containment choices, and the means to end its hooks.
    group: RunGroup,
}

/// A value as one shell word: in single quotes, a quote inside as `'\''`.
fn quoted(value: &str) -> String {
    format!("'{}'", value.replace('\'', r"'\''"))
}

/// The values of [`VARIABLES`] for a session in `cwd`.
pub(crate) fn values(
    cwd: &str,
    session: &str,
    home: Option<&std::path::Path>,
) -> [(&'static str, String); 5] {
    let project = std::path::Path::new(cwd)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let plans = home
        .map(|h| {
            h.join(".gemini/tmp").join(&project).join(session).join("plans").display().to_string()
        })
        .unwrap_or_default();
    [
        ("GEMINI_PROJECT_DIR", cwd.to_owned()),
        ("GEMINI_CWD", cwd.to_owned()),
        ("GEMINI_PLANS_DIR", plans),
        ("GEMINI_SESSION_ID", session.to_owned()),
        ("CLAUDE_PROJECT_DIR", cwd.to_owned()),
    ]
}

/// The command line with Gemini's `$VARIABLES` replaced by their shell-quoted values, as
/// Gemini replaces them before the shell sees the line.
pub fn expand(command: &str, values: &[(&str, String)]) -> String {
    let mut line = command.to_owned();
    for (name, value) in values {
        line = line.replace(&format!("${name}"), &quoted(value));
    }
    line
}

impl CommandHook {
    /// The hook of `entry`, the `index`-th loaded; `home` is the user's home (for
    /// `GEMINI_PLANS_DIR`), `scrub` the variables kept from its environment.
    pub(crate) fn new(
        entry: Entry,
        index: usize,
        home: Option<PathBuf>,
        scrub: Option<Scrub>,
    ) -> Self {
        let label = entry.command.clone();
        let mut info = hook_kit::hook_info(DIALECT, entry.event, index, &entry.source.path, label);
        info.matcher = entry.matcher.clone();
        Self { info, entry, home, scrub, group: RunGroup::new() }
    }

    /// The hook, run in `group`.
    pub(crate) fn in_group(mut self, group: RunGroup) -> Self {
        self.group = group;
        self
    }

    /// The configuration entry.
    pub fn entry(&self) -> &Entry {
        &self.entry
    }
}

#[async_trait]
impl Hook for CommandHook {
    fn info(&self) -> &HookInfo {
        &self.info
    }

    async fn run(&self, event: &Event) -> HookOutcome {
        let record = RunRecord {
            command: self.entry.command.clone(),
            name: self.entry.name.clone(),
            ..RunRecord::default()
        };
        let mut input: Arc<Map<String, Value>> = stdin_object(self.entry.event, event);
        let piped = event.extensions.get::<Arc<Piped>>();
        if let Some(piped) = piped {
            input = Arc::new(piped.apply(&input));
        }
        let stdin = serde_json::to_vec(&*input).unwrap_or_default();
        let cwd = event.common.cwd.display().to_string();
        let values = values(&cwd, &event.common.session_id, self.home.as_deref());
        let line = expand(&self.entry.command, &values);
        let command = CommandSpec::exec("bash", ["-c".to_owned(), line]);
        let mut inv = Invocation::new(command, event.common.cwd.clone(), self.entry.timeout);
        self.group.apply(&mut inv);
        let mut env: Env = hook_kit::inherited_env(self.scrub.as_ref());
        for (name, value) in &values {
            env.set(*name, value);
        }
        for (name, value) in &self.entry.env {
            env.set(name, value);
        }
        inv.env = env;
        inv.stdin = stdin.into();
        let outcome = match hook_exec::run(&inv).await {
            Ok(raw) => decode(self.entry.event, &raw, record, self.entry.timeout),
            Err(e) => spawn_failed(&e.to_string(), record),
        };
        if let Some(piped) = piped {
            piped.take(self.entry.event, &input, &outcome);
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_are_replaced_by_quoted_values_before_the_shell_sees_the_line() {
        let values = values("/w/it's", "s-1", Some(std::path::Path::new("/home/u")));
        let line =
            expand("$GEMINI_PROJECT_DIR/h.sh $GEMINI_SESSION_ID $CLAUDE_PROJECT_DIR", &values);
        assert_eq!(line, r"'/w/it'\''s'/h.sh 's-1' '/w/it'\''s'");
        assert_eq!(values[2].1, "/home/u/.gemini/tmp/it's/s-1/plans");
    }
}
