//! Codex's `async` hooks: started with the event's other hooks and never waited for. Nothing
//! they say changes the event; what they say is queued, and delivered in one bounded developer
//! message with the next user turn Codex accepts.
//!
//! What a run says ([`deliverable`]): nothing for an empty stdout; for exit 0, the event's
//! `additionalContext` (SessionStart, SubagentStart, UserPromptSubmit, PreToolUse,
//! PostToolUse), or that the output was not the event's JSON; for another exit, a signal or a
//! process that could not run, a line saying so. A text over 450 approximate tokens (four bytes
//! each) is cut in the middle; a batch holds the oldest texts that fit in 1,000.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use hook_exec::ExecError;
use hook_protocol::{Event, Exit, RawOutcome};
use serde_json::{Map, Value};
use tokio::task::AbortHandle;

use crate::EventName;
use crate::hook::CommandHook;
use crate::present;

/// At most this many `async` hooks of one engine run at once; more are not started.
pub const MAX_RUNNING: usize = 32;
/// At most this many outputs wait for a turn; past it, the oldest goes.
pub const MAX_QUEUED: usize = 64;
/// An output's budget, in approximate tokens, before it is cut.
const CUT_AT_TOKENS: usize = 450;
/// An output's budget once cut, header included.
const OUTPUT_TOKENS: usize = 500;
/// A batch's budget.
const BATCH_TOKENS: usize = 1_000;
/// Bytes per approximate token.
const BYTES_PER_TOKEN: usize = 4;

/// What one `async` hook said, waiting for a user turn.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct AsyncOutput {
    /// The event it ran for.
    pub event: EventName,
    /// Its command.
    pub command: String,
    /// What it said, cut to its budget.
    pub text: String,
}

/// The `async` hooks of one engine: those running, and what those that ended said.
#[derive(Debug, Clone, Default)]
pub(crate) struct Background {
    state: Arc<Mutex<State>>,
}

#[derive(Debug, Default)]
struct State {
    next: u64,
    running: Vec<(u64, String, AbortHandle)>,
    queue: VecDeque<AsyncOutput>,
}

/// Takes a finished run off the running list, even when its task is aborted.
struct Done {
    state: Arc<Mutex<State>>,
    id: u64,
}

impl Drop for Done {
    fn drop(&mut self) {
        lock(&self.state).running.retain(|(id, _, _)| *id != self.id);
    }
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Background {
    /// Starts `hook` on `event` without waiting for it; false when [`MAX_RUNNING`] already run.
    pub(crate) fn launch(&self, hook: Arc<CommandHook>, event: Event) -> bool {
        let mut state = lock(&self.state);
        if state.running.len() >= MAX_RUNNING {
            return false;
        }
        let id = state.next;
        state.next += 1;
        let shared = Arc::clone(&self.state);
        let command = hook.entry().command.clone();
        let task = tokio::spawn(async move {
            let _done = Done { state: Arc::clone(&shared), id };
            let name = hook.entry().event;
            let result = hook.run_raw(&event).await;
            if let Some(text) = deliverable(name, &result, hook.entry().timeout) {
                let mut state = lock(&shared);
                let command = hook.entry().command.clone();
                state.queue.push_back(AsyncOutput { event: name, command, text: bounded(&text) });
                while state.queue.len() > MAX_QUEUED {
                    state.queue.pop_front();
                }
            }
        });
        state.running.push((id, command, task.abort_handle()));
        true
    }

    /// Ends every running hook: its task is dropped on its next poll, which kills its process
    /// tree. What they would have said is lost.
    pub(crate) fn abort_all(&self) {
        for (_, _, task) in &lock(&self.state).running {
            task.abort();
        }
    }

    /// How many are running.
    pub(crate) fn running(&self) -> usize {
        lock(&self.state).running.len()
    }

    /// The oldest outputs that fit in one delivery, and its text; nothing is removed.
    pub(crate) fn batch(&self) -> Option<(usize, String)> {
        let state = lock(&self.state);
        let mut best = None;
        for count in 1..=state.queue.len() {
            let text = present::async_outputs(
                state.queue.iter().take(count).map(|o| (o.event, o.text.as_str())),
            );
            if tokens(&text) > BATCH_TOKENS {
                break;
            }
            best = Some((count, text));
        }
        best
    }

    /// The first `count` outputs.
    pub(crate) fn peek(&self, count: usize) -> Vec<AsyncOutput> {
        lock(&self.state).queue.iter().take(count).cloned().collect()
    }

    /// Waits up to `wait` for the running hooks to end; those still running go on.
    pub(crate) async fn wait(&self, wait: Duration) {
        let started = Instant::now();
        while self.running() > 0 && started.elapsed() < wait {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Removes the first `count` outputs (a delivered batch).
    pub(crate) fn commit(&self, count: usize) {
        let mut state = lock(&self.state);
        let count = count.min(state.queue.len());
        state.queue.drain(..count);
    }

    /// Waits up to `wait` for the running hooks to end; ends those still running then (their
    /// process trees killed) and returns every output, oldest first, and their commands.
    pub(crate) async fn settle(&self, wait: Duration) -> (Vec<AsyncOutput>, Vec<String>) {
        self.wait(wait).await;
        let ended: Vec<String> =
            lock(&self.state).running.iter().map(|(_, command, _)| command.clone()).collect();
        self.abort_all();
        // An aborted run is dropped on its next poll, which kills its tree.
        let until = Instant::now() + Duration::from_secs(5);
        while self.running() > 0 && Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        (lock(&self.state).queue.drain(..).collect(), ended)
    }
}

/// Codex's approximate token count: a token per four bytes, rounded up.
fn tokens(text: &str) -> usize {
    text.len().div_ceil(BYTES_PER_TOKEN)
}

/// The text cut to its budget: over [`CUT_AT_TOKENS`], a header, then its start and end around
/// a mark of what was cut; never over [`OUTPUT_TOKENS`].
fn bounded(text: &str) -> String {
    let budget = CUT_AT_TOKENS * BYTES_PER_TOKEN;
    if text.len() <= budget {
        return text.to_owned();
    }
    let header = present::async_truncated(tokens(text), text.lines().count());
    let keep = budget.saturating_sub(header.len()) / 2;
    let head_end = floor_boundary(text, keep);
    let tail_start = ceil_boundary(text, text.len() - keep);
    let cut = present::async_cut(tokens(&text[head_end..tail_start]));
    let out = format!("{header}{}{cut}{}", &text[..head_end], &text[tail_start..]);
    let limit = OUTPUT_TOKENS * BYTES_PER_TOKEN;
    if out.len() <= limit { out } else { out[..floor_boundary(&out, limit)].to_owned() }
}

fn floor_boundary(text: &str, at: usize) -> usize {
    (0..=at.min(text.len())).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0)
}

fn ceil_boundary(text: &str, at: usize) -> usize {
    (at.min(text.len())..=text.len()).find(|&i| text.is_char_boundary(i)).unwrap_or(text.len())
}

/// What a finished `async` run of `event` says, if anything.
pub(crate) fn deliverable(
    event: EventName,
    result: &Result<RawOutcome, ExecError>,
    timeout: Duration,
) -> Option<String> {
    let raw = match result {
        Ok(raw) => raw,
        Err(e) => return Some(present::async_failed(&e.to_string())),
    };
    match raw.exit {
        Exit::TimedOut { .. } => {
            Some(present::async_failed(&format!("hook timed out after {}s", timeout.as_secs_f64())))
        }
        Exit::Code { code: 0 } => {
            let stdout = String::from_utf8_lossy(&raw.stdout);
            let trimmed = stdout.trim();
            if trimmed.is_empty() {
                return None;
            }
            let Ok(Value::Object(object)) = serde_json::from_str::<Value>(trimmed) else {
                return Some(present::async_invalid_json(event));
            };
            context(event, &object)
        }
        Exit::Code { code } => Some(present::async_exit_code(code)),
        // A signal ended it: no exit code.
        _ => Some(present::ASYNC_NO_EXIT_CODE.to_owned()),
    }
}

/// The `additionalContext` of the events whose output has one, when it has text.
fn context(event: EventName, object: &Map<String, Value>) -> Option<String> {
    let has_context = matches!(
        event,
        EventName::SessionStart
            | EventName::SubagentStart
            | EventName::UserPromptSubmit
            | EventName::PreToolUse
            | EventName::PostToolUse
    );
    if !has_context {
        return None;
    }
    object
        .get("hookSpecificOutput")
        .and_then(|s| s.get("additionalContext"))
        .and_then(Value::as_str)
        .filter(|c| !c.trim().is_empty())
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_text_is_cut_in_the_middle_within_its_budget() {
        let text = format!("{}{}", "a".repeat(3_000), "z".repeat(3_000));
        let out = bounded(&text);
        assert!(out.len() <= OUTPUT_TOKENS * BYTES_PER_TOKEN, "{}", out.len());
        assert!(
            out.starts_with(
                "Warning: truncated output (original token count: 1500)\nTotal output lines: 1\n\n"
            ),
            "{out}"
        );
        assert!(out.contains("tokens truncated…"), "{out}");
        assert!(out.ends_with('z'), "the end is kept");
        assert_eq!(bounded("short"), "short");
        // Cut on character boundaries.
        let wide = "é".repeat(2_000);
        assert!(bounded(&wide).len() <= OUTPUT_TOKENS * BYTES_PER_TOKEN);
    }
}
