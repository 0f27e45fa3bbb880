//! Running one invocation.
//!
//! Provisional implementation on `tokio::process`: process group, capped concurrent draining,
//! timeout with SIGTERM then SIGKILL to the group, leak window. To be replaced by the
//! pidfd-based runner.

use std::io;
use std::process::Stdio;
use std::time::Instant;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};

use super::{CommandSpec, ExecError, Invocation, Leftovers};
use crate::{Exit, RawOutcome, StdinOutcome};

/// Runs one invocation to its end and returns what it produced.
///
/// # Errors
///
/// [`ExecError`] when the process cannot be started; a timeout is an outcome, not an error.
///
/// # Cancel safety
///
/// Dropping the future kills the hook's process (its leader; the group on a best-effort basis).
pub async fn run(inv: &Invocation) -> Result<RawOutcome, ExecError> {
    if inv.timeout.is_zero() {
        return Err(ExecError::ZeroTimeout { timeout: inv.timeout });
    }
    if !inv.cwd.is_dir() {
        return Err(ExecError::MissingCwd { path: inv.cwd.clone() });
    }
    #[expect(
        clippy::disallowed_methods,
        reason = "this module is the one place that starts processes"
    )]
    let mut cmd = match &inv.command {
        CommandSpec::Shell { line } => {
            let mut c = tokio::process::Command::new("/bin/sh");
            c.arg("-c").arg(line);
            c
        }
        CommandSpec::Exec { program, args } => {
            let mut c = tokio::process::Command::new(program);
            c.args(args);
            c
        }
    };
    cmd.env_clear().envs(inv.env.resolve()).current_dir(&inv.cwd);
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd.process_group(0).kill_on_drop(true);
    let started = Instant::now();
    let program = inv.command.program().to_owned();
    let mut child = cmd.spawn().map_err(|source| match source.kind() {
        io::ErrorKind::NotFound => ExecError::NotFound { program: program.clone() },
        io::ErrorKind::PermissionDenied => ExecError::PermissionDenied { program: program.clone() },
        _ => ExecError::Spawn { program: program.clone(), source },
    })?;
    let pid = child.id().unwrap_or(0);
    let mut stdin = child.stdin.take();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let payload = inv.stdin.clone();
    let writer = tokio::spawn(async move {
        let Some(mut pipe) = stdin.take() else { return StdinOutcome::Written };
        match pipe.write_all(&payload).await {
            Ok(()) => StdinOutcome::Written,
            Err(_) => StdinOutcome::Unread { written: 0 },
        }
    });
    let mut out = Capture::new(inv.limits.stdout_max);
    let mut err = Capture::new(inv.limits.stderr_max);
    let deadline = tokio::time::Instant::from_std(started + inv.timeout);
    let mut out_pipe = stdout;
    let mut err_pipe = stderr;
    let mut status = None;
    let mut timed_out = false;
    // Phase 1: until the leader exits or the deadline passes.
    while status.is_none() {
        tokio::select! {
            r = read_some(&mut out_pipe, &mut out) => { if r { out_pipe = None; } }
            r = read_some(&mut err_pipe, &mut err) => { if r { err_pipe = None; } }
            s = child.wait() => { status = Some(s.map_err(|source| ExecError::Io { stage: "waiting for the hook", source })?); }
            () = tokio::time::sleep_until(deadline) => { timed_out = true; break; }
        }
    }
    let mut escalated = false;
    let mut leaked = false;
    let mut leftovers_killed = false;
    if timed_out {
        signal_group(pid, libc::SIGTERM);
        let grace_end = tokio::time::Instant::now() + inv.limits.grace;
        loop {
            if status.is_some() && out_pipe.is_none() && err_pipe.is_none() {
                break;
            }
            tokio::select! {
                r = read_some(&mut out_pipe, &mut out) => { if r { out_pipe = None; } }
                r = read_some(&mut err_pipe, &mut err) => { if r { err_pipe = None; } }
                s = child.wait(), if status.is_none() => { status = s.ok(); }
                () = tokio::time::sleep_until(grace_end) => { escalated = true; break; }
            }
        }
        signal_group(pid, libc::SIGKILL);
        leftovers_killed = true;
        if status.is_none() {
            let _ = child.wait().await;
        }
    } else {
        let window_end = tokio::time::Instant::now() + inv.limits.leak_window;
        while out_pipe.is_some() || err_pipe.is_some() {
            tokio::select! {
                r = read_some(&mut out_pipe, &mut out) => { if r { out_pipe = None; } }
                r = read_some(&mut err_pipe, &mut err) => { if r { err_pipe = None; } }
                () = tokio::time::sleep_until(window_end) => { leaked = true; break; }
            }
        }
        if inv.leftovers == Leftovers::Kill {
            signal_group(pid, libc::SIGKILL);
            leftovers_killed = leaked;
        }
    }
    writer.abort();
    let stdin = writer.await.unwrap_or(StdinOutcome::Unread { written: 0 });
    let exit = if timed_out { Exit::TimedOut { escalated } } else { exit_of(status) };
    let mut outcome = RawOutcome::new(exit, out.kept, err.kept);
    outcome.stdout_len = out.total;
    outcome.stderr_len = err.total;
    outcome.stdout_truncated = out.truncated;
    outcome.stderr_truncated = err.truncated;
    outcome.leaked = leaked;
    outcome.leftovers_killed = leftovers_killed;
    outcome.stdin = stdin;
    outcome.duration = started.elapsed();
    outcome.pid = pid;
    Ok(outcome)
}

fn exit_of(status: Option<std::process::ExitStatus>) -> Exit {
    use std::os::unix::process::ExitStatusExt;
    match status {
        Some(s) => match (s.code(), s.signal()) {
            (Some(code), _) => Exit::Code { code },
            (None, Some(signal)) => Exit::Signal { signal },
            (None, None) => Exit::Code { code: -1 },
        },
        None => Exit::Code { code: -1 },
    }
}

struct Capture {
    kept: Vec<u8>,
    max: usize,
    total: u64,
    truncated: bool,
    buf: Box<[u8]>,
}

impl Capture {
    fn new(max: usize) -> Self {
        Self {
            kept: Vec::new(),
            max,
            total: 0,
            truncated: false,
            buf: vec![0; 64 * 1024].into_boxed_slice(),
        }
    }
}

/// Reads one chunk; true at end of file (or error).
async fn read_some<R: AsyncRead + Unpin>(pipe: &mut Option<R>, cap: &mut Capture) -> bool {
    let Some(p) = pipe.as_mut() else { return std::future::pending().await };
    match p.read(&mut cap.buf).await {
        Ok(0) | Err(_) => true,
        Ok(n) => {
            cap.total += n as u64;
            let room = cap.max.saturating_sub(cap.kept.len());
            if n > room {
                cap.truncated = true;
            }
            cap.kept.extend_from_slice(&cap.buf[..n.min(room)]);
            false
        }
    }
}

fn signal_group(pid: u32, signal: i32) {
    let Ok(pid) = i32::try_from(pid) else { return };
    if pid <= 0 {
        return;
    }
    #[expect(unsafe_code, reason = "kill(2) on the hook's own process group")]
    // SAFETY: kill has no memory-safety preconditions; a negative pid addresses the group we
    // created for this hook with process_group(0).
    unsafe {
        libc::kill(-pid, signal);
    }
}
