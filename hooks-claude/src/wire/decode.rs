//! The outcome rules ([Exit codes and output](crate::compatibility#exit-codes-and-output)): from
//! what a hook process did to a Claude status, a neutral verdict and the validated output, event by
//! event.
//!
//! | stdout | exit 0 | exit 2 | other exit |
//! |---|---|---|---|
//! | valid JSON object | success, fields apply | blocking error, stdout ignored | success, JSON decides |
//! | invalid JSON output | non-blocking error | blocking error | non-blocking error |
//! | text or nothing | success | blocking error | non-blocking error |
//!
//! "Starts with `{` and parses as one object" is JSON; anything else is text
//! ([JSON detection](crate::compatibility#json-detection)). A blocking error blocks only where the
//! event can block ([`crate::Exit2`]); its message is stderr, or `No stderr output`. A timeout
//! gives no decision, except on `PreModelSwitch` and with `onFailure: "block"`.

use std::borrow::Cow;
use std::time::Duration;

use hook_exec::ExecError;
use hook_protocol::codec::{parse_object, trim};
use hook_protocol::{
    Decision, Exit, HookOutcome, HookStatus, Metadata, RawOutcome, RecordData, Verdict,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::output::{HookOutput, Specific, to_verdict};
use crate::{EventName, Exit2, OnFailure};

use super::templates::{self as t, NO_STDERR};

/// What the decision builders need of one hook's run, kept in `HookOutcome::metadata`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RunRecord {
    /// The event's name.
    pub event: String,
    /// How it went.
    pub status: HookStatus,
    /// The exit code, when it exited with one.
    pub exit_code: Option<i32>,
    /// The JSON output as the hook wrote it, when it was valid and read.
    pub output: Option<Map<String, Value>>,
    /// Plain stdout (trimmed), when it was not JSON.
    pub plain_stdout: Option<String>,
    /// The message Claude Code would show: the blocking reason, or the error notice.
    pub message: Option<String>,
    /// Whether `onFailure: "block"` turned a failure into a block.
    pub blocked_on_failure: bool,
    /// Whether it was started in the background (`async`), so it answers later.
    #[serde(default)]
    pub background: bool,
    /// The HTTP status an `http` hook's server answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http_status: Option<u16>,
    /// A WorktreeCreate command hook's path, made absolute against the directory it ran in,
    /// once Claude Code's checks passed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worktree_path: Option<String>,
}

impl RunRecord {
    /// An empty record of a run of a hook of `event`, with a status.
    pub(crate) fn new(event: &str, status: HookStatus) -> Self {
        Self {
            event: event.to_owned(),
            status,
            exit_code: None,
            output: None,
            plain_stdout: None,
            message: None,
            blocked_on_failure: false,
            background: false,
            http_status: None,
            worktree_path: None,
        }
    }

    /// The output, validated and with the event's discard rules applied.
    pub fn parsed_output(&self) -> Option<HookOutput> {
        let event = EventName::parse(&self.event);
        let map = self.output.as_ref()?;
        HookOutput::parse(event, map, &self.event).ok().map(|o| o.discard_for(event))
    }

    /// Reads the record kept in a hook's metadata: the record itself when it was kept typed
    /// (as this crate's hooks keep it), read from its JSON otherwise.
    pub fn from_metadata(metadata: Option<&Metadata>) -> Option<Self> {
        Self::of_metadata(metadata).map(Cow::into_owned)
    }

    /// The record kept in a hook's metadata, borrowed when it was kept typed.
    pub(crate) fn of_metadata(metadata: Option<&Metadata>) -> Option<Cow<'_, Self>> {
        let metadata = metadata?;
        match metadata.downcast_ref::<Self>() {
            Some(meta) => Some(Cow::Borrowed(meta)),
            None => metadata
                .value()
                .get("claude")
                .and_then(|v| Self::deserialize(v).ok())
                .map(Cow::Owned),
        }
    }

    /// The metadata holding a copy of this record.
    pub fn to_metadata(&self) -> Metadata {
        self.clone().into_metadata()
    }

    /// The metadata holding this record, kept typed: no JSON is built unless something asks
    /// for it ([`Metadata::value`], a serialized record).
    pub fn into_metadata(self) -> Metadata {
        Metadata::typed(self)
    }

    /// The metadata's JSON form, `{"claude": record}`, built from the record without a copy:
    /// the same value as its serialization, key order included (a test checks it), without
    /// serde's round trip through a copy of the output.
    pub fn into_json(self) -> Value {
        let text = |s: Option<String>| s.map_or(Value::Null, Value::String);
        let mut record = Map::with_capacity(9);
        record.insert("event".to_owned(), Value::String(self.event));
        record.insert("status".to_owned(), Value::String(self.status.as_str().to_owned()));
        record.insert("exit_code".to_owned(), self.exit_code.map_or(Value::Null, Value::from));
        record.insert("output".to_owned(), self.output.map_or(Value::Null, Value::Object));
        record.insert("plain_stdout".to_owned(), text(self.plain_stdout));
        record.insert("message".to_owned(), text(self.message));
        record.insert("blocked_on_failure".to_owned(), Value::Bool(self.blocked_on_failure));
        record.insert("background".to_owned(), Value::Bool(self.background));
        if let Some(status) = self.http_status {
            record.insert("http_status".to_owned(), Value::from(status));
        }
        let mut map = Map::with_capacity(1);
        map.insert("claude".to_owned(), Value::Object(record));
        Value::Object(map)
    }
}

/// Kept typed in a hook's record; its JSON is `{"claude": record}`.
impl RecordData for RunRecord {
    fn to_value(&self) -> Value {
        self.clone().into_json()
    }
}

/// What decoding one run produced.
#[derive(Debug, Clone)]
pub(crate) struct Decoded {
    pub(crate) verdict: Verdict,
    pub(crate) meta: RunRecord,
    pub(crate) failure: Option<String>,
    pub(crate) warnings: Vec<String>,
}

/// What decoding needs to know about the hook and the event.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DecodeCtx<'a> {
    pub(crate) event: Option<EventName>,
    pub(crate) name: &'a str,
    pub(crate) on_failure: OnFailure,
    pub(crate) from_plugin: bool,
    pub(crate) timeout: Duration,
}

impl DecodeCtx<'static> {
    /// The context of a known event's hook that is not a plugin's.
    pub(crate) fn of(event: EventName, on_failure: OnFailure, timeout: Duration) -> Self {
        Self { event: Some(event), name: event.as_str(), on_failure, from_plugin: false, timeout }
    }
}

impl DecodeCtx<'_> {
    fn exit2(&self) -> Exit2 {
        self.event.map_or(Exit2::Block, EventName::exit2)
    }

    fn block_on_failure(&self) -> bool {
        self.on_failure == OnFailure::Block && self.event.is_none_or(EventName::on_failure_applies)
    }
}

/// The verdict exit 2 gives on the event, with `reason` as its message. Where exit 2 only
/// shows stderr to the user, the verdict says nothing: the stderr stays in the record, and
/// Claude Code's notice is presentation (`SessionEnd hook [cmd] failed: ...`), not one of the
/// hooks' `systemMessage`s.
fn blocking_verdict(ctx: &DecodeCtx<'_>, reason: String) -> Verdict {
    match ctx.exit2() {
        Exit2::Block | Exit2::Feedback => Verdict::deny(reason),
        Exit2::UserNotice | Exit2::Ignored => Verdict::no_opinion(),
    }
}

/// Bytes a hook wrote as text; invalid UTF-8 becomes U+FFFD, with a warning naming the
/// stream.
fn lossy(bytes: &[u8], stream: &str, warnings: &mut Vec<String>) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => {
            warnings.push(format!(
                "{stream} is not valid UTF-8; each invalid byte sequence is read as U+FFFD"
            ));
            String::from_utf8_lossy(bytes).into_owned()
        }
    }
}

fn first_line(text: &str) -> &str {
    text.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim()
}

fn meta(ctx: &DecodeCtx<'_>, status: HookStatus, exit_code: Option<i32>) -> RunRecord {
    RunRecord { exit_code, ..RunRecord::new(ctx.name, status) }
}

/// A failure that `onFailure: "block"` may turn into a block. The block's reason is
/// `blocking` when given (a failed process's stderr), else the error: Claude Code's words
/// around it (`[cmd]: failed; blocking because onFailure is "block"`) are presentation.
fn failed(ctx: &DecodeCtx<'_>, mut d: Decoded, error: String, blocking: Option<String>) -> Decoded {
    if ctx.block_on_failure() {
        let message = blocking.unwrap_or_else(|| error.clone());
        d.verdict = if ctx.event == Some(EventName::PermissionRequest) {
            Verdict::deny(message.clone())
        } else {
            blocking_verdict(ctx, message.clone())
        };
        d.meta.blocked_on_failure = true;
        d.meta.message = Some(message);
        d.failure = Some(error);
    } else {
        d.meta.message = Some(error.clone());
        d.failure = Some(error);
    }
    d
}

/// Decodes a process that could not start.
pub(crate) fn decode_spawn_error(ctx: &DecodeCtx<'_>, error: &ExecError) -> Decoded {
    let d = Decoded {
        verdict: Verdict::no_opinion(),
        meta: meta(ctx, HookStatus::SpawnFailed, None),
        failure: None,
        warnings: Vec::new(),
    };
    let mut d = failed(ctx, d, format!("Failed to start: {error}"), None);
    if matches!(ctx.event, Some(EventName::WorktreeCreate | EventName::WorktreeRemove)) {
        d.verdict = Verdict::deny(d.meta.message.clone().unwrap_or_default());
    }
    d
}

/// Decodes a process's raw outcome.
pub(crate) fn decode(ctx: &DecodeCtx<'_>, raw: &RawOutcome) -> Decoded {
    let exit_code = raw.exit.code();
    let mut d = Decoded {
        verdict: Verdict::no_opinion(),
        meta: meta(ctx, HookStatus::Success, exit_code),
        failure: None,
        warnings: Vec::new(),
    };
    if raw.stdout_truncated {
        d.warnings.push(format!("stdout went past {} bytes and was cut", raw.stdout.len()));
    }
    if raw.leaked {
        d.warnings.push(
            "processes the hook left behind still held its output; reading stopped".to_owned(),
        );
    }
    let worktree = matches!(ctx.event, Some(EventName::WorktreeCreate | EventName::WorktreeRemove));
    match raw.exit {
        Exit::TimedOut { .. } => {
            let mut t = decode_timeout(ctx);
            t.warnings.append(&mut d.warnings);
            return t;
        }
        Exit::Code { code: 2 } => {
            let stderr = lossy(&raw.stderr, "stderr", &mut d.warnings);
            let event = ctx.event;
            let missing_file = trim(&raw.stdout).is_empty()
                && stderr.contains("No such file or directory")
                && (matches!(
                    event,
                    Some(EventName::Stop | EventName::SubagentStop | EventName::TaskCompleted)
                ) || (event == Some(EventName::UserPromptSubmit) && ctx.from_plugin));
            if missing_file {
                d.meta.status = HookStatus::Failed;
                let msg = t::non_blocking_status(first_line(&stderr));
                d.meta.message = Some(msg.clone());
                d.failure = Some(msg);
                return d;
            }
            // Verbatim: the framing (`PreToolUse:Bash hook error: [cmd]: `) is presentation.
            let reason = if stderr.trim().is_empty() { NO_STDERR.to_owned() } else { stderr };
            d.meta.status = HookStatus::Blocked;
            d.meta.message = Some(reason.clone());
            d.verdict =
                if worktree { Verdict::deny(reason) } else { blocking_verdict(ctx, reason) };
            return d;
        }
        _ => {}
    }
    let success = exit_code == Some(0);
    let trimmed = trim(&raw.stdout);
    let mut json = None;
    // JSON only when, trimmed, it starts with `{` and ends with `}` (`{not json`, or a JSON line
    // and a log line, is plain text: docs/claude-code.md#json-detection). A WorktreeCreate
    // command hook prints a path: its stdout is never read as JSON.
    let braced = trimmed.first() == Some(&b'{') && trimmed.last() == Some(&b'}');
    if braced && ctx.event != Some(EventName::WorktreeCreate) {
        match parse_object(trimmed) {
            Ok(map) => json = Some(map),
            // Claude Code reports it as an error and reads nothing from it: no decision, no
            // context. On another exit code, that code's rule says what failed.
            Err(e) if success => {
                d.meta.status = HookStatus::Failed;
                d.meta.plain_stdout = Some(lossy(trimmed, "stdout", &mut d.warnings));
                let error = t::not_json(&e.to_string());
                let d = failed(ctx, d, error, None);
                return worktree_failure(ctx, d, success, raw.exit);
            }
            Err(_) => {}
        }
    }
    if let Some(map) = json {
        match HookOutput::parse(ctx.event, &map, ctx.name) {
            Ok(output) => {
                let output = output.discard_for(ctx.event);
                d.verdict = to_verdict(ctx.event, &output);
                if ctx.event == Some(EventName::WorktreeCreate) && !success {
                    d.verdict =
                        Verdict::deny(format!("WorktreeCreate hook failed with {}", raw.exit));
                }
                d.meta.output = Some(map);
                if !success {
                    // Honoured, yet an error as Claude Code reports it.
                    d.meta.status = HookStatus::Failed;
                    let stderr = lossy(&raw.stderr, "stderr", &mut d.warnings);
                    let error = format!("exit code {}", exit_text(raw.exit));
                    let blocking = (!stderr.trim().is_empty()).then_some(stderr);
                    return failed(ctx, d, error, blocking);
                }
                return d;
            }
            Err(e) => {
                d.meta.status = HookStatus::Failed;
                let d = failed(ctx, d, format!("{e} (stdout: {})", short_text(trimmed)), None);
                return worktree_failure(ctx, d, success, raw.exit);
            }
        }
    }
    let text = lossy(trimmed, "stdout", &mut d.warnings);
    if !text.is_empty() {
        d.meta.plain_stdout = Some(text.clone());
    }
    if success {
        if ctx.event.is_some_and(EventName::plain_stdout_is_context) && !text.is_empty() {
            d.verdict.context.push(text);
        }
        return d;
    }
    d.meta.status = HookStatus::Failed;
    let stderr = lossy(&raw.stderr, "stderr", &mut d.warnings);
    let error = match raw.exit {
        Exit::Signal { .. } => format!("Failed: {}", raw.exit),
        _ => t::non_blocking_status(first_line(&stderr)),
    };
    let blocking = match raw.exit {
        Exit::Code { .. } => {
            Some(if stderr.trim().is_empty() { NO_STDERR.to_owned() } else { stderr })
        }
        _ => None,
    };
    let worktree_reason = blocking.as_deref().map(|b| b.trim_end().to_owned());
    let d = failed(ctx, d, error, blocking);
    let mut d = worktree_failure(ctx, d, success, raw.exit);
    if let (Some(EventName::WorktreeCreate), Some(reason)) = (ctx.event, worktree_reason) {
        // Its stderr, for `WorktreeCreate hook failed: {cmd}: {stderr}`.
        d.verdict = Verdict::deny(reason);
    }
    d
}

/// A WorktreeCreate command hook that succeeded (its caller passes only those): its path is
/// the last non-empty line of its stdout, taken relative to `cwd` (the directory it ran in). Claude Code refuses a path with
/// `.` or `..` segments and one that is not a directory; the hook's verdict is then a deny
/// with Claude Code's text. A usable path is kept absolute in [`RunRecord::worktree_path`].
pub(crate) fn settle_worktree(d: &mut Decoded, cwd: &std::path::Path) {
    if d.verdict.decision.is_some() {
        return;
    }
    let Some(line) = d.meta.plain_stdout.as_deref().and_then(last_line) else { return };
    let refusal = if line.split('/').any(|segment| segment == "." || segment == "..") {
        Some(t::worktree_dot_segments(&line))
    } else {
        let path = cwd.join(&line);
        if path.is_dir() {
            d.meta.worktree_path = Some(path.display().to_string());
            None
        } else {
            Some(t::worktree_not_a_directory(&path.display().to_string()))
        }
    };
    if let Some(text) = refusal {
        d.meta.message = Some(text.clone());
        d.verdict = Verdict::deny(text);
    }
}

/// A run cancelled at its timeout: no decision (its output is discarded), except on
/// `PreModelSwitch` and the worktree events, and with `onFailure: "block"`
/// ([Timeouts](crate::compatibility#timeouts)).
pub(crate) fn decode_timeout(ctx: &DecodeCtx<'_>) -> Decoded {
    let mut d = Decoded {
        verdict: Verdict::no_opinion(),
        meta: meta(ctx, HookStatus::TimedOut, None),
        failure: None,
        warnings: Vec::new(),
    };
    let secs = (ctx.timeout.as_secs_f64() * 1000.0).round() / 1000.0;
    let error = t::timed_out(ctx.name, secs);
    let worktree = matches!(ctx.event, Some(EventName::WorktreeCreate | EventName::WorktreeRemove));
    if ctx.event == Some(EventName::PreModelSwitch) || worktree {
        d.verdict = Verdict::deny(error.clone());
        d.meta.message = Some(error.clone());
        d.failure = Some(error);
        return d;
    }
    failed(ctx, d, error, None)
}

/// A hook that ran but failed without a process outcome to read (an HTTP error, a refused
/// MCP call, an unreadable model answer): a non-blocking error, which `onFailure: "block"`
/// and the worktree events turn into a block.
pub(crate) fn decode_failure(ctx: &DecodeCtx<'_>, error: String) -> Decoded {
    let d = Decoded {
        verdict: Verdict::no_opinion(),
        meta: meta(ctx, HookStatus::Failed, None),
        failure: None,
        warnings: Vec::new(),
    };
    let d = failed(ctx, d, error, None);
    worktree_failure(ctx, d, false, Exit::Code { code: 1 })
}

/// An answer that is not a process's: a verdict the dialect computed (prompt hooks).
pub(crate) fn decode_verdict(ctx: &DecodeCtx<'_>, verdict: Verdict) -> Decoded {
    let blocking = verdict.decision.is_some();
    let mut d = Decoded {
        meta: meta(ctx, HookStatus::Success, None),
        verdict,
        failure: None,
        warnings: Vec::new(),
    };
    if blocking {
        d.meta.message.clone_from(&d.verdict.reason);
    }
    d
}

/// What an `http` hook's server answered ([HTTP hooks](crate::compatibility#http-hooks)): 2xx with
/// an empty body is success with no output; 2xx with a JSON object is read like a command's stdout;
/// any other 2xx body, and any other status, is a non-blocking error: a status alone never blocks.
pub(crate) fn decode_http(
    ctx: &DecodeCtx<'_>,
    status: u16,
    body: &[u8],
    truncated: bool,
) -> Decoded {
    let mut d = if !(200..300).contains(&status) {
        decode_failure(ctx, format!("HTTP hook answered with status {status}"))
    } else {
        let trimmed = trim(body);
        if trimmed.is_empty() {
            decode(ctx, &RawOutcome::new(Exit::Code { code: 0 }, Vec::new(), Vec::new()))
        } else if trimmed.first() == Some(&b'{') && parse_object(trimmed).is_ok() {
            decode(ctx, &RawOutcome::new(Exit::Code { code: 0 }, trimmed.to_vec(), Vec::new()))
        } else {
            decode_failure(
                ctx,
                format!(
                    "HTTP hook answered with a body that is neither empty nor a JSON object: {}",
                    short_text(trimmed)
                ),
            )
        }
    };
    if truncated {
        d.warnings.push("the HTTP answer went past its size cap and was cut".to_owned());
    }
    d.meta.http_status = Some(status);
    d
}

fn worktree_failure(ctx: &DecodeCtx<'_>, mut d: Decoded, success: bool, exit: Exit) -> Decoded {
    if matches!(ctx.event, Some(EventName::WorktreeCreate | EventName::WorktreeRemove)) && !success
    {
        let reason = d.meta.message.clone().unwrap_or_else(|| format!("hook failed with {exit}"));
        d.verdict = Verdict::deny(reason);
    } else if ctx.event == Some(EventName::WorktreeCreate)
        && d.verdict.decision.is_none()
        && d.meta.status != HookStatus::Success
    {
        d.verdict = Verdict::decide(Decision::Deny, d.meta.message.clone());
    }
    d
}

fn exit_text(exit: Exit) -> String {
    match exit {
        Exit::Code { code } => code.to_string(),
        other => other.to_string(),
    }
}

fn short_text(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    if text.chars().count() > 120 {
        let mut cut: String = text.chars().take(120).collect();
        cut.push('…');
        cut
    } else {
        text.into_owned()
    }
}

/// The worktree path a WorktreeCreate hook gave: `worktreePath`, else the last non-empty line
/// of plain stdout with ANSI escapes removed.
pub(crate) fn worktree_path(meta: &RunRecord) -> Option<String> {
    if let Some(path) = &meta.worktree_path {
        return Some(path.clone());
    }
    if let Some(Specific::WorktreeCreate(o)) = meta.parsed_output().and_then(|o| o.specific) {
        return o.worktree_path;
    }
    meta.plain_stdout.as_deref().and_then(last_line)
}

/// The last non-empty line of a text, without its colour codes and surrounding blanks.
fn last_line(text: &str) -> Option<String> {
    let line = text.lines().rev().find(|l| !l.trim().is_empty())?;
    Some(strip_ansi(line).trim().to_owned())
}

fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for n in chars.by_ref() {
                    if n.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// Decodes what a command hook's process did by the outcome rules, as a handler on `event`
/// with the given `onFailure` would: the core status, the neutral verdict, the failure and
/// warnings, and the [`RunRecord`] record in `metadata`.
///
/// This is the decoder [`HandlerHook`](crate::HandlerHook) applies after
/// [`run`](hook_exec::run); it is public for harnesses that start hook processes themselves and for the fuzz
/// targets, which feed it arbitrary stdout, stderr and exits.
pub fn decode_outcome(event: EventName, raw: &RawOutcome, on_failure: OnFailure) -> HookOutcome {
    let ctx = DecodeCtx::of(event, on_failure, Duration::from_secs(60));
    outcome_of(decode(&ctx, raw))
}

/// Decodes what an `http` hook's server answered on `event`: its status and its body (at most
/// the cap; `truncated` when it went past), as [`decode_outcome`] does a command's run.
///
/// This is the decoder [`HandlerHook`](crate::HandlerHook) applies to an `http` hook's answer; it
/// is public for harnesses that make the request themselves and for the fuzz target of the
/// answer path.
pub fn decode_http_outcome(
    event: EventName,
    status: u16,
    body: &[u8],
    truncated: bool,
    on_failure: OnFailure,
) -> HookOutcome {
    let ctx = DecodeCtx::of(event, on_failure, Duration::from_secs(60));
    outcome_of(decode_http(&ctx, status, body, truncated))
}

/// A decoded answer as the core's outcome, with the Claude record in `metadata`.
fn outcome_of(decoded: Decoded) -> HookOutcome {
    let status =
        if decoded.meta.blocked_on_failure { HookStatus::Blocked } else { decoded.meta.status };
    let mut outcome = HookOutcome::with_status(status, decoded.verdict);
    outcome.failure = decoded.failure;
    outcome.warnings = decoded.warnings;
    outcome.metadata = Some(decoded.meta.into_metadata());
    outcome
}

#[cfg(test)]
mod tests;
