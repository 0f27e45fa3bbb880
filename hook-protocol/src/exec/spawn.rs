//! Starting the hook process: program resolution, the command, the run marker, error mapping.
//!
//! The command is built so that std can start it with `posix_spawn` (a `vfork`-style spawn
//! instead of `fork`): no `pre_exec` closure, the process group through
//! [`CommandExt::process_group`], and a program given as a path (we search the invocation's
//! `PATH` ourselves, which std would otherwise do only through `fork` and `execvp`).

use std::ffi::OsString;
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};

use super::{CommandSpec, ExecError, Invocation, RUN_MARKER};

/// The `PATH` searched when the invocation's environment has none (glibc's `execvp` default).
const DEFAULT_PATH: &str = "/bin:/usr/bin";

/// Counts runs in this process, for unique markers.
static RUNS: AtomicU64 = AtomicU64::new(0);

/// A started hook: the child (its pipes taken out) and the marker in its environment.
#[derive(Debug)]
pub(super) struct Spawned {
    pub(super) child: Child,
    pub(super) stdin: OwnedFd,
    pub(super) stdout: OwnedFd,
    pub(super) stderr: OwnedFd,
    /// `RUN_MARKER=value`, as it appears in `/proc/PID/environ`.
    pub(super) marker: Vec<u8>,
}

/// Starts the invocation's process in a new process group, with piped stdio.
pub(super) fn spawn(inv: &Invocation) -> Result<Spawned, ExecError> {
    let program = resolve(inv)?;
    let value = format!("{}.{}", std::process::id(), RUNS.fetch_add(1, Ordering::Relaxed));
    #[expect(
        clippy::disallowed_methods,
        reason = "this module is the one place that starts processes"
    )]
    let mut cmd = Command::new(program.as_ref());
    match &inv.command {
        CommandSpec::Shell { line } => {
            cmd.arg("-c").arg(line);
        }
        CommandSpec::Exec { args, .. } => {
            cmd.args(args);
        }
    }
    if !inv.env.inherits() {
        cmd.env_clear();
    }
    for key in inv.env.scrubbed() {
        cmd.env_remove(key);
    }
    for (key, value) in inv.env.changes() {
        match value {
            Some(value) => cmd.env(key, value),
            None => cmd.env_remove(key),
        };
    }
    cmd.env(RUN_MARKER, &value)
        .current_dir(&inv.cwd)
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| spawn_error(inv, e))?;
    let (Some(stdin), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        // Unreachable with piped stdio; reported rather than assumed.
        return Err(ExecError::Io {
            stage: "taking the hook's pipes",
            source: io::Error::from(io::ErrorKind::BrokenPipe),
        });
    };
    let mut marker = Vec::with_capacity(RUN_MARKER.len() + 1 + value.len());
    marker.extend_from_slice(RUN_MARKER.as_bytes());
    marker.push(b'=');
    marker.extend_from_slice(value.as_bytes());
    Ok(Spawned { child, stdin: stdin.into(), stdout: stdout.into(), stderr: stderr.into(), marker })
}

/// The path of the program to start.
///
/// Shell form: `/bin/sh`. Exec form: a program with a `/` is a path (a relative one is taken
/// from the invocation's working directory); a bare name is searched on the invocation's
/// `PATH`, as `execvp` would (an empty entry is the working directory).
fn resolve(inv: &Invocation) -> Result<std::borrow::Cow<'_, Path>, ExecError> {
    let program = match &inv.command {
        CommandSpec::Shell { .. } => return Ok(Path::new("/bin/sh").into()),
        CommandSpec::Exec { program, .. } => program,
    };
    if program.contains('/') {
        let path = Path::new(program);
        return Ok(if path.is_absolute() { path.into() } else { inv.cwd.join(path).into() });
    }
    if program.is_empty() {
        return Err(ExecError::NotFound { program: program.clone() });
    }
    let search = inv.env.get("PATH").unwrap_or_else(|| OsString::from(DEFAULT_PATH));
    let mut denied = false;
    for dir in std::env::split_paths(&search) {
        let dir = if dir.is_absolute() { dir } else { inv.cwd.join(dir) };
        let candidate: PathBuf = dir.join(program);
        match candidate.metadata() {
            Ok(meta) if meta.is_file() && meta.permissions().mode() & 0o111 != 0 => {
                return Ok(candidate.into());
            }
            Ok(meta) if meta.is_file() => denied = true,
            _ => {}
        }
    }
    Err(if denied {
        ExecError::PermissionDenied { program: program.clone() }
    } else {
        ExecError::NotFound { program: program.clone() }
    })
}

/// Maps a spawn failure to what the caller got wrong. The working directory is checked only
/// here, after the fact: `posix_spawn` reports a missing one as `ENOENT`, like a missing program.
fn spawn_error(inv: &Invocation, source: io::Error) -> ExecError {
    let program = inv.command.program().to_owned();
    if matches!(
        source.kind(),
        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory | io::ErrorKind::PermissionDenied
    ) && !inv.cwd.is_dir()
    {
        return ExecError::MissingCwd { path: inv.cwd.clone() };
    }
    match source.kind() {
        io::ErrorKind::NotFound => ExecError::NotFound { program },
        io::ErrorKind::PermissionDenied => ExecError::PermissionDenied { program },
        _ => ExecError::Spawn { program, source },
    }
}
