//! A Claude Code run in the core's words: the decision word, the reason Claude Code shows, a
//! line per hook.

use hook_protocol::{DecisionWord, EventRun, HookLine, Shown};
use serde_json::Value;

use crate::{EventName, RawRun, Record};

/// Whether a deny on this event is a permission decision (`deny`) or a block (`block`).
fn deny_word(name: EventName) -> DecisionWord {
    match name {
        EventName::PreToolUse | EventName::PermissionRequest | EventName::PreModelSwitch => {
            DecisionWord::Deny
        }
        _ => DecisionWord::Block,
    }
}

/// The run of event `name`, with what Claude Code showed after it (a session's `shown`
/// carries the Stop loop guard's notice too).
pub(super) fn event_run(name: EventName, raw: &RawRun, shown: Shown) -> EventRun {
    let merged = &raw.report.merged;
    let mut run = EventRun::new(raw.event.clone());
    run.decision = DecisionWord::of(merged.decision, deny_word(name));
    run.subject = name
        .subject_field()
        .and_then(|f| raw.input.get(f))
        .and_then(Value::as_str)
        .map(str::to_owned);
    run.reason = raw.reason();
    run.context = merged.context.iter().map(|c| c.value.clone()).collect();
    run.updated_input = merged.updated_input.as_ref().map(|u| u.value.clone());
    run.halt = merged.halt.as_ref().map(|h| h.value.reason.clone());
    run.messages = merged.messages.iter().map(|m| m.value.clone()).collect();
    run.warnings = shown.warnings.clone();
    run.shown = Some(shown);
    run.hooks = raw.records.iter().map(hook_line).collect();
    run.decided_by = raw.report.decided_by().map(|r| hook_line(&Record::from_record(r)));
    run
}

fn hook_line(r: &Record) -> HookLine {
    let mut line = HookLine::new(r.command.clone(), r.status, r.duration);
    line.exit_code = r.exit_code;
    line.note = r.message.clone().or_else(|| r.warnings.first().cloned());
    line.source = Some(r.source.clone());
    line
}
