//! Command handlers: a process run through `hook_exec::run`, in the foreground, in
//! the background (`async`, `asyncRewake`), or in the foreground until its first stdout line
//! says `{"async":true}` ([Background hooks](crate::compatibility#background-hooks)), after which
//! the event goes on without it and the rest of its output is collected like an async hook's. The
//! background part keeps the hook's own timeout; `asyncTimeout` is not read.

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::Poll;
use std::time::Duration;

use hook_exec::{ExecError, Invocation, LineTap, run as exec_run};
use hook_protocol::codec::{parse_object, trim};
use hook_protocol::{Exit, HookOutcome, HookStatus, ProcessFacts, RawOutcome, Verdict};
use serde_json::Value;

use crate::OnFailure;
use crate::output::Fields;
use crate::run::background::{AsyncResult, Refused};
use crate::run::direct::{self, Direct};
use crate::run::env::hook_env;
use crate::run::runner::Runner;
use crate::wire::conversion::InputObject;
use crate::wire::decode::{decode, decode_spawn_error, settle_worktree};

/// The longest first line that is read as a possible `{"async":true}` marker.
const MARKER_MAX: usize = 256;

type Running = Pin<Box<dyn Future<Output = Result<RawOutcome, ExecError>> + Send>>;

/// Runs a command hook on an event.
pub(crate) async fn run(
    hook: &Runner,
    payload: &InputObject,
    timeout: Duration,
    env_file: Option<&std::path::Path>,
) -> HookOutcome {
    let spec = match &hook.spec {
        Ok(spec) => spec.clone(),
        Err(why) => {
            let ctx = hook.decode_ctx(timeout);
            let d = crate::wire::decode::decode_failure(&ctx, why.clone());
            return hook.finish(d, None);
        }
    };
    let host = &hook.shared.host;
    let cwd = hook.start_dir(payload);
    // Only a WorktreeCreate hook's path is read against the directory it ran in.
    let worktree_cwd = (hook.entry.event == crate::EventName::WorktreeCreate).then(|| cwd.clone());
    let mut inv = Invocation::new(spec, cwd, timeout);
    hook.shared.group.apply(&mut inv);
    inv.env = hook_env(&hook.env, payload, env_file);
    inv.stdin = Arc::clone(payload.bytes());
    let project = host.project_dir.clone();
    let direct = hook.direct.clone();
    if hook.entry.handler.runs_async() {
        let running: Running = Box::pin(launch(inv, project, direct));
        return start_background(hook, running, hook.entry.handler.async_rewake, false, payload);
    }
    // The tap is called from within this future's own poll of `running` (the process is driven
    // from here), so it only records what it saw, and the loop below looks after each poll:
    // waking this task from inside its own poll would schedule it again for nothing, and on a
    // multi-thread runtime wake another worker for it.
    let marked = Arc::new(AtomicBool::new(false));
    let tap = Arc::clone(&marked);
    inv.first_line = Some(LineTap::new(move |line: &[u8]| {
        if line.len() <= MARKER_MAX && is_async_marker(line) {
            tap.store(true, Ordering::Release);
        }
    }));
    let mut running: Running = Box::pin(launch(inv, project, direct));
    let finished = std::future::poll_fn(|cx| match running.as_mut().poll(cx) {
        Poll::Ready(result) => Poll::Ready(Some(result)),
        Poll::Pending if marked.load(Ordering::Acquire) => Poll::Ready(None),
        Poll::Pending => Poll::Pending,
    })
    .await;
    let Some(result) = finished else {
        return start_background(hook, running, false, true, payload);
    };
    if let Ok(raw) = &result
        && first_line_is_marker(&raw.stdout)
    {
        // It said it goes async and ended at once: its result is an async hook's.
        let done = async_result(hook, result, false, true, payload);
        hook.shared.background.deliver(done);
        return background_outcome(hook, None);
    }
    let ctx = hook.decode_ctx(timeout);
    let (mut decoded, process) = match &result {
        Ok(raw) => (decode(&ctx, raw), Some(ProcessFacts::from_outcome(raw))),
        Err(e) => (decode_spawn_error(&ctx, e), None),
    };
    if let Some(cwd) = &worktree_cwd {
        settle_worktree(&mut decoded, cwd);
    }
    hook.finish(decoded, process)
}

/// Runs a shell-form invocation, without the shell when its command is plain words and the
/// fast path applies here ([`crate::run::direct`]): then with the outcome `sh -c` would give, and
/// through `sh -c` after all when the program cannot be started (the shell says why, with its
/// exit status). The environment set for the direct run gives the shell the same result.
async fn launch(
    mut inv: Invocation,
    project: PathBuf,
    direct: Option<Arc<Direct>>,
) -> Result<RawOutcome, ExecError> {
    let Some(direct) = direct else { return run_in(inv, project).await };
    let Some(shell) = direct::shell().await else { return run_in(inv, project).await };
    let line = inv.command.clone();
    let Some(pwd) = direct::prepare(&mut inv, &direct) else {
        inv.command = line;
        return run_in(inv, project).await;
    };
    let mut result = exec_run(&inv).await;
    if matches!(result, Err(ExecError::MissingCwd { .. })) && inv.cwd != project {
        inv.cwd = project.clone();
        pwd.apply(&mut inv);
        result = exec_run(&inv).await;
    }
    match result {
        Ok(mut out) => {
            direct::as_shell_would(&mut out, shell, inv.limits.stderr_max);
            Ok(out)
        }
        Err(e) if direct::shell_decides(&e) => {
            inv.command = line;
            exec_run(&inv).await
        }
        Err(e) => Err(e),
    }
}

/// Runs an invocation started in the event's `cwd`; when that directory cannot be entered
/// (it does not exist, or is no directory), runs it in the project directory instead, as
/// Claude Code does. Nothing ran in the failed attempt: the spawn itself failed.
async fn run_in(inv: Invocation, project: PathBuf) -> Result<RawOutcome, ExecError> {
    match exec_run(&inv).await {
        Err(ExecError::MissingCwd { .. }) if inv.cwd != project => {
            let mut inv = inv;
            inv.cwd = project;
            exec_run(&inv).await
        }
        other => other,
    }
}

/// Whether a line is the runtime marker: a JSON object with `"async": true`. A line that
/// names no `async` (not even through a `\u` escape) is not parsed.
fn is_async_marker(line: &[u8]) -> bool {
    // The standard library's searches are vectorized: `async` in text (a line that is not
    // UTF-8 is searched window by window), a backslash before any `\u`.
    let names_async = match std::str::from_utf8(line) {
        Ok(text) => text.contains("async"),
        Err(_) => line.windows(5).any(|w| w == b"async"),
    };
    let escapes = || line.contains(&b'\\') && line.windows(2).any(|w| w == b"\\u");
    (names_async || escapes())
        && parse_object(trim(line)).is_ok_and(|o| o.get("async") == Some(&Value::Bool(true)))
}

fn first_line_is_marker(stdout: &[u8]) -> bool {
    stdout.iter().position(|&b| b == b'\n').is_some_and(|end| is_async_marker(&stdout[..end]))
}

/// Hands a running (or not yet started) hook to the background; the event goes on.
fn start_background(
    hook: &Runner,
    running: Running,
    rewake: bool,
    went_async: bool,
    payload: &InputObject,
) -> HookOutcome {
    let job_hook = JobHook::of(hook, payload);
    let job = async move {
        let result = running.await;
        job_hook.result(result, rewake, went_async)
    };
    match hook.shared.background.start(&hook.info.label, job) {
        Ok(()) => background_outcome(hook, None),
        Err(refused) => background_outcome(hook, Some(refused)),
    }
}

/// The foreground outcome of a hook that went to the background (or was refused).
fn background_outcome(hook: &Runner, refused: Option<Refused>) -> HookOutcome {
    let mut meta = hook.meta(HookStatus::Success);
    meta.background = true;
    let mut outcome = match &refused {
        None => {
            meta.message = Some("started in the background".to_owned());
            HookOutcome::success(Verdict::no_opinion())
        }
        Some(r) => {
            tracing::warn!(target: "hooks", hook = %hook.info.id, "{r}");
            meta.status = HookStatus::Failed;
            meta.message = Some(r.to_string());
            let mut o = HookOutcome::failure(HookStatus::Failed, r.to_string());
            o.warnings.push(r.to_string());
            o
        }
    };
    outcome.metadata = Some(meta.into_metadata());
    outcome
}

/// The parts of a hook a background job reads after the event has moved on.
struct JobHook {
    id: String,
    label: String,
    source: hook_protocol::Source,
    event: crate::EventName,
    from_plugin: bool,
    timeout: Duration,
    session_id: String,
    cwd: String,
}

impl JobHook {
    fn of(hook: &Runner, payload: &InputObject) -> Self {
        let text = |key: Option<&str>| key.unwrap_or_default().to_owned();
        Self {
            id: hook.info.id.clone(),
            label: hook.info.label.clone(),
            source: hook.info.source.clone(),
            event: hook.entry.event,
            from_plugin: hook.entry.source.plugin().is_some(),
            timeout: hook.timeout,
            session_id: text(payload.session_id()),
            cwd: text(payload.cwd()),
        }
    }
}

fn async_result(
    hook: &Runner,
    result: Result<RawOutcome, ExecError>,
    rewake: bool,
    went_async: bool,
    payload: &InputObject,
) -> AsyncResult {
    JobHook::of(hook, payload).result(result, rewake, went_async)
}

/// Reads a background hook's end ([Background hooks](crate::compatibility#background-hooks)):
/// `additionalContext` and `systemMessage` of a JSON output, each field of the wrong type dropped
/// on its own, decision fields ignored; with `asyncRewake`, exit 2 wakes the model with stderr (or
/// stdout when stderr is empty).
impl JobHook {
    fn result(
        &self,
        result: Result<RawOutcome, ExecError>,
        rewake: bool,
        went_async: bool,
    ) -> AsyncResult {
        let h = self;
        let mut out = AsyncResult {
            hook_id: h.id.clone(),
            command: h.label.clone(),
            source: h.source.clone(),
            event: h.event.as_str().to_owned(),
            session_id: h.session_id.clone(),
            cwd: h.cwd.clone(),
            status: HookStatus::Success,
            exit_code: None,
            context: Vec::new(),
            rewake: None,
            message: None,
            warnings: Vec::new(),
        };
        let ctx = crate::wire::decode::DecodeCtx {
            event: Some(h.event),
            name: h.event.as_str(),
            on_failure: OnFailure::Continue,
            from_plugin: h.from_plugin,
            timeout: h.timeout,
        };
        let mut raw = match result {
            Ok(raw) => raw,
            Err(e) => {
                let d = decode_spawn_error(&ctx, &e);
                out.status = d.meta.status;
                out.message = d.meta.message;
                return out;
            }
        };
        if went_async && let Some(end) = raw.stdout.iter().position(|&b| b == b'\n') {
            raw.stdout.drain(..=end);
        }
        out.exit_code = raw.exit.code();
        let stdout = trim(&raw.stdout);
        match raw.exit {
            Exit::Code { code: 2 } => {
                out.status = HookStatus::Blocked;
                let stderr = raw.stderr_text();
                let text = if stderr.is_empty() {
                    String::from_utf8_lossy(stdout).into_owned()
                } else {
                    stderr
                };
                if rewake {
                    out.rewake = Some(text);
                } else {
                    out.message = Some(text);
                }
                return out;
            }
            Exit::Code { code: 0 } => {}
            _ => {
                let d = decode(&ctx, &raw);
                out.status = d.meta.status;
                out.message = d.meta.message;
            }
        }
        if stdout.first() == Some(&b'{') {
            match parse_object(stdout) {
                Ok(map) => {
                    let f = Fields(&map);
                    let specific = map.get("hookSpecificOutput").and_then(Value::as_object);
                    match specific.map(|s| Fields(s).get::<String>("additionalContext")) {
                        Some(Ok(Some(c))) => out.context.push(c),
                        Some(Err(e)) => out.warnings.push(format!("{e}; it is dropped")),
                        _ => {}
                    }
                    match f.get::<String>("systemMessage") {
                        Ok(Some(m)) => out.context.push(m),
                        Err(e) => out.warnings.push(format!("{e}; it is dropped")),
                        Ok(None) => {}
                    }
                }
                Err(e) => {
                    out.warnings.push(format!("stdout is not valid JSON ({e}); it is ignored"))
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_async_marker_is_read_with_or_without_escapes() {
        assert!(is_async_marker(br#"{"async":true}"#));
        assert!(is_async_marker(br#"  {"async": true, "asyncTimeout": 5} "#));
        assert!(is_async_marker(br#"{"\u0061sync":true}"#));
        assert!(!is_async_marker(br#"{"async":false}"#));
        assert!(!is_async_marker(br#"{"hookSpecificOutput":{"permissionDecision":"allow"}}"#));
        assert!(!is_async_marker(b"async"));
    }
}
