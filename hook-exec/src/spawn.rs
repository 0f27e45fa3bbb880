//! Starting the hook process: program resolution, the argument and environment lists, the run's
//! mark, the pipes, error mapping.
//!
//! The process is started by [`super::sys::spawn`] (a `vfork`-style `clone` with child code of
//! our own on Linux, `posix_spawn` on macOS; never a `fork` of the harness) with lists built
//! here once per run: the environment is packed in one buffer from the harness's variables, the
//! invocation's changes. The program is given as a path: a bare name is searched
//! on the invocation's `PATH` here, as `execvp` would. Elsewhere std's `Command` starts it.

use std::ffi::{CString, OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use super::cstrings::{CStrings, Unpassable};
use super::invocation::is_shell_name;
use super::{CommandSpec, ExecError, Invocation};
use super::{pipes, spare_pipes};

/// The `PATH` searched when the invocation's environment has none (glibc's `execvp` default).
const DEFAULT_PATH: &str = "/bin:/usr/bin";

/// Counts runs in this process, for unique marks.
static RUNS: AtomicU64 = AtomicU64::new(0);

/// The id of the next run of this process: part of its mark, and its cgroup's name.
pub(super) fn next_id() -> u64 {
    RUNS.fetch_add(1, Ordering::Relaxed)
}

/// A started hook: its pid, our ends of its pipes and the mark its processes carry.
#[derive(Debug)]
pub(super) struct Spawned {
    pub(super) pid: i32,
    /// Its pidfd, when the kernel gave one with the process.
    pub(super) pidfd: Option<OwnedFd>,
    /// For each `cgroup.procs` it was to join, 0 or the errno of the failed write.
    pub(super) join_errors: [i32; super::sys::MAX_JOIN],
    /// Our end of the hook's stdin, non-blocking, when some of the payload is still to be
    /// written; None when there is none (the hook's stdin is then `/dev/null`) or all of it
    /// went into the pipe before the hook started (our end then closed).
    pub(super) stdin: Option<OwnedFd>,
    /// The bytes of the payload already in the stdin pipe, written before the hook started.
    pub(super) stdin_written: usize,
    pub(super) stdout: OwnedFd,
    pub(super) stderr: OwnedFd,
    /// The run's mark, as its processes carry it ([`crate::tree::mark`]).
    pub(super) mark: u64,
}

/// Where a hook starts: its v2 cgroup's directory and the `cgroup.procs` of its v1 cgroups.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Place<'a> {
    pub(super) cgroup: Option<BorrowedFd<'a>>,
    pub(super) join: &'a [BorrowedFd<'a>],
}

/// Starts run `id` of the invocation's process in a new process group, with piped stdio, in
/// the cgroups of `place`.
pub(super) fn spawn(inv: &Invocation, id: u64, place: Place<'_>) -> Result<Spawned, ExecError> {
    let program = resolve(inv)?;
    let mark = crate::tree::mark(id);
    let pipes_error = |source| ExecError::Io { stage: "creating the hook's pipes", source };
    // Close-on-exec on both ends: the child gets its ends as 0, 1 and 2 through dup2.
    // Without a payload, stdin is `/dev/null`, opened once per process: one pipe less.
    let stdin_read;
    let null = if inv.stdin.is_empty() { dev_null() } else { None };
    let (child_stdin, stdin, stdin_written) = match null {
        Some(null) => (null, None, 0),
        None => {
            let (read, write) = spare_pipes::take().map_err(pipes_error)?;
            // The payload goes in before the hook starts, and when all of it fits, its end of
            // file too (our end closed): a hook reading its stdin to the end never waits for us.
            let written = pipes::prefill(&write, &inv.stdin).map_err(pipes_error)?;
            stdin_read = read;
            let rest = (written < inv.stdin.len()).then(|| OwnedFd::from(write));
            (stdin_read.as_fd(), rest, written)
        }
    };
    let (stdout, child_stdout) = spare_pipes::take().map_err(pipes_error)?;
    let (stderr, child_stderr) = spare_pipes::take().map_err(pipes_error)?;
    let stdio = [child_stdin, child_stdout.as_fd(), child_stderr.as_fd()];
    let (pid, pidfd, join_errors) = start(inv, &program, mark, stdio, place)?;
    // The child is starting its program: the pipes of this thread's next spawn are made now,
    // off that spawn's path.
    spare_pipes::refill();
    Ok(Spawned {
        pid,
        pidfd,
        join_errors,
        stdin,
        stdin_written,
        stdout: stdout.into(),
        stderr: stderr.into(),
        mark,
    })
}

/// What `start` returns: the pid, the pidfd if any, the placement results.
type Started = (i32, Option<OwnedFd>, [i32; super::sys::MAX_JOIN]);

/// `/dev/null` opened for reading, close-on-exec, once per process; None if it cannot be.
fn dev_null() -> Option<BorrowedFd<'static>> {
    static NULL: OnceLock<Option<OwnedFd>> = OnceLock::new();
    NULL.get_or_init(|| File::open("/dev/null").ok().map(OwnedFd::from)).as_ref().map(AsFd::as_fd)
}

/// Starts the process (`clone` on Linux, `posix_spawn` on macOS) and returns its pid and the
/// outcome of its cgroup joins.
#[cfg(any(
    all(target_os = "linux", any(target_env = "gnu", target_env = "musl")),
    target_vendor = "apple"
))]
fn start(
    inv: &Invocation,
    program: &Path,
    mark: u64,
    stdio: [BorrowedFd<'_>; 3],
    place: Place<'_>,
) -> Result<Started, ExecError> {
    let path = CString::new(program.as_os_str().as_bytes())
        .map_err(|_| ExecError::NotFound { program: inv.command.program().to_owned() })?;
    let Ok(cwd) = CString::new(inv.cwd.as_os_str().as_bytes()) else {
        return Err(ExecError::MissingCwd { path: inv.cwd.clone() });
    };
    let argv = argv(inv)?;
    thread_local! {
        /// The environment list, reused from run to run on each thread: its buffer is
        /// allocated once rather than once per run.
        static ENVP: std::cell::RefCell<CStrings> = std::cell::RefCell::default();
    }
    ENVP.with_borrow_mut(|envp| {
        envp.clear();
        fill_envp(inv, envp)?;
        let request = super::sys::SpawnRequest {
            path: &path,
            argv: &argv,
            envp,
            cwd: &cwd,
            stdio,
            cgroup: place.cgroup,
            join: place.join,
            session: false,
            mark,
        };
        let started = match super::sys::spawn(&request) {
            // A program without a `#!` line runs under `/bin/sh`, as `execvp` (and so Claude
            // Code, through libuv) runs it.
            Err(e)
                if e.raw_os_error() == Some(libc::ENOEXEC)
                    && matches!(inv.command, CommandSpec::Exec { .. }) =>
            {
                let argv = script_argv(inv, program)?;
                let request = super::sys::SpawnRequest { path: c"/bin/sh", argv: &argv, ..request };
                super::sys::spawn(&request).map_err(|e| spawn_error(inv, e))
            }
            other => other.map_err(|e| spawn_error(inv, e)),
        }?;
        Ok((started.pid, started.pidfd, started.join_errors))
    })
}

/// The arguments that run an exec-form program without a `#!` line as a `/bin/sh` script:
/// `/bin/sh PATH ARGS...`.
#[cfg(any(
    all(target_os = "linux", any(target_env = "gnu", target_env = "musl")),
    target_vendor = "apple"
))]
fn script_argv(inv: &Invocation, program: &Path) -> Result<CStrings, ExecError> {
    let mut list = CStrings::with_capacity(4, 64);
    let _ = list.push(b"/bin/sh");
    let nul = |argument: String| ExecError::NulInArgument { argument };
    list.push(program.as_os_str().as_bytes()).map_err(|_| nul(program.display().to_string()))?;
    if let CommandSpec::Exec { args, .. } = &inv.command {
        for arg in args {
            list.push(arg.as_bytes()).map_err(|_| nul(arg.clone()))?;
        }
    }
    Ok(list)
}

/// Starts the process with std's `Command` (no `posix_spawn` working-directory extension in
/// this libc) and returns its pid; std reaps nothing behind our back, the `Child` is dropped.
#[cfg(not(any(
    all(target_os = "linux", any(target_env = "gnu", target_env = "musl")),
    target_vendor = "apple"
)))]
fn start(
    inv: &Invocation,
    program: &Path,
    mark: u64,
    stdio: [BorrowedFd<'_>; 3],
    place: Place<'_>,
) -> Result<Started, ExecError> {
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    let [stdin, stdout, stderr] = stdio.map(|fd| fd.try_clone_to_owned().map(Stdio::from));
    let io = |source| ExecError::Io { stage: "creating the hook's pipes", source };
    #[expect(
        clippy::disallowed_methods,
        reason = "this module is the one place that starts processes"
    )]
    let mut cmd = Command::new(program);
    cmd.args(argv(inv)?.iter().skip(1).map(OsStr::from_bytes)).env_clear();
    let _ = mark; // std's `Command` sets no resource limit before `exec`: no mark.
    for entry in envp(inv)?.iter() {
        let at = entry.iter().position(|&b| b == b'=').unwrap_or(entry.len());
        cmd.env(
            OsStr::from_bytes(&entry[..at]),
            OsStr::from_bytes(entry.get(at + 1..).unwrap_or_default()),
        );
    }
    cmd.current_dir(&inv.cwd)
        .process_group(0)
        .stdin(stdin.map_err(io)?)
        .stdout(stdout.map_err(io)?)
        .stderr(stderr.map_err(io)?);
    let child = cmd.spawn().map_err(|e| spawn_error(inv, e))?;
    let pid = i32::try_from(child.id()).map_err(|_| ExecError::Io {
        stage: "reading the hook's pid",
        source: io::Error::from(io::ErrorKind::InvalidData),
    })?;
    // std's `Command` cannot join a cgroup before `exec`: every join is reported failed, and
    // the run falls back to the tree walk.
    let mut join_errors = [0; super::sys::MAX_JOIN];
    let places = usize::from(place.cgroup.is_some()) + place.join.len();
    for error in join_errors.iter_mut().take(places) {
        *error = libc::EOPNOTSUPP;
    }
    Ok((pid, None, join_errors))
}

/// The arguments: `/bin/sh -c LINE` in shell form, the program as given and its arguments in
/// exec form.
fn argv(inv: &Invocation) -> Result<CStrings, ExecError> {
    let mut list = CStrings::with_capacity(4, 64);
    let nul = |argument: &str| ExecError::NulInArgument { argument: argument.to_owned() };
    match &inv.command {
        CommandSpec::Shell { line } => {
            let _ = list.push(b"/bin/sh");
            let _ = list.push(b"-c");
            list.push(line.as_bytes()).map_err(|_| nul(line))?;
        }
        CommandSpec::Exec { program, args } => {
            list.push(program.as_bytes()).map_err(|_| nul(program))?;
            for arg in args {
                list.push(arg.as_bytes()).map_err(|_| nul(arg))?;
            }
        }
    }
    Ok(list)
}

/// The hook's whole environment in a new list, for std's `Command`.
#[cfg_attr(
    any(
        all(target_os = "linux", any(target_env = "gnu", target_env = "musl")),
        target_vendor = "apple"
    ),
    expect(dead_code, reason = "the std fallback's; posix_spawn fills a reused list")
)]
fn envp(inv: &Invocation) -> Result<CStrings, ExecError> {
    let mut list = CStrings::default();
    fill_envp(inv, &mut list)?;
    Ok(list)
}

/// Appends the hook's whole environment to `list`: the harness's (when inherited, less the
/// scrubbed credentials and the variables the invocation sets or removes), the invocation's
/// variables; with [`super::Env::shell_names_only`], only shell names.
fn fill_envp(inv: &Invocation, list: &mut CStrings) -> Result<(), ExecError> {
    let env = &inv.env;
    let shell_names = env.passes_shell_names_only();
    if env.inherits() {
        thread_local! {
            /// The inherited part of the last list built on this thread.
            static INHERITED: std::cell::RefCell<Inherited> = std::cell::RefCell::default();
        }
        INHERITED.with_borrow_mut(|inherited| {
            if !inherited.still_for(env) {
                inherited.rebuild(env);
            }
            list.extend_from(&inherited.passed);
        });
    }
    for (name, value) in env.changes() {
        let Some(value) = value else { continue };
        if shell_names && !is_shell_name(name.as_bytes()) {
            continue;
        }
        list.push_var(name.as_bytes(), value.as_bytes()).map_err(|e| env_error(name, e))?;
    }
    Ok(())
}

/// The harness's variables that pass an invocation's filter, and what they were chosen from:
/// built again only when the harness's environment or the filter (the scrub, shell names
/// only, the names the invocation sets or removes) differs from the last run's, which spares
/// the per-variable checks on nearly every run.
#[derive(Debug, Default)]
struct Inherited {
    /// Every variable of the harness's environment then, as `name=value` and a NUL.
    snapshot: Vec<u8>,
    scrub: Option<hook_protocol::Scrub>,
    shell_names: bool,
    /// The names the invocation set or removed, in its order.
    changed: Vec<OsString>,
    /// The variables that passed.
    passed: CStrings,
}

impl Inherited {
    /// Whether the variables that passed are still the ones `env` would pass.
    fn still_for(&self, env: &super::Env) -> bool {
        if self.shell_names != env.passes_shell_names_only()
            || self.scrub.as_ref() != env.scrub()
            || !self.changed.iter().map(OsString::as_os_str).eq(env.changes().map(|(n, _)| n))
        {
            return false;
        }
        let mut at = 0;
        let mut same = true;
        each_entry(|entry| {
            if same {
                let rest = self.snapshot.get(at..).unwrap_or_default();
                same =
                    rest.len() > entry.len() && rest.starts_with(entry) && rest[entry.len()] == 0;
                at += entry.len() + 1;
            }
        });
        same && at == self.snapshot.len()
    }

    /// Chooses again the harness's variables that `env` passes.
    fn rebuild(&mut self, env: &super::Env) {
        self.snapshot.clear();
        self.passed.clear();
        self.scrub = env.scrub().cloned();
        self.shell_names = env.passes_shell_names_only();
        self.changed.clear();
        self.changed.extend(env.changes().map(|(name, _)| name.to_owned()));
        let scrub = env.scrub();
        // Most inherited names are not among the few the invocation changes: a one-word
        // filter of the changed names spares the map lookup for them.
        let changed = env.changes().fold(0u64, |bits, (name, _)| bits | name_bit(name.as_bytes()));
        each_entry(|entry| {
            self.snapshot.extend_from_slice(entry);
            self.snapshot.push(0);
        });
        let passed = &mut self.passed;
        each_inherited(|name, value| {
            let os_name = OsStr::from_bytes(name);
            if (changed & name_bit(name) == 0 || !env.changes_var(os_name))
                && !scrub.is_some_and(|s| s.matches(os_name))
                && (!self.shell_names || is_shell_name(name))
            {
                passed.push_inherited(name, value);
            }
        });
    }
}

/// One bit of 64 for a variable name (from its length and last byte), for a quick "surely not
/// changed" before the lookup.
fn name_bit(name: &[u8]) -> u64 {
    let mix =
        name.len().wrapping_mul(31).wrapping_add(usize::from(name.last().copied().unwrap_or(0)));
    1 << (mix % 64)
}

/// Calls `f` with each entry of the harness's environment as it is stored (`name=value`).
fn each_entry(mut f: impl FnMut(&[u8])) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    super::sys::for_each_env_entry(&mut f);
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        let mut entry = Vec::new();
        for (name, value) in std::env::vars_os() {
            entry.clear();
            entry.extend_from_slice(name.as_bytes());
            entry.push(b'=');
            entry.extend_from_slice(value.as_bytes());
            f(&entry);
        }
    }
}

/// Calls `f` with the name and value of each variable of the harness's environment, split as
/// `std::env::vars_os` splits them (at the first `=` after the first byte; an entry without
/// one is no variable).
fn each_inherited(mut f: impl FnMut(&[u8], &[u8])) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    super::sys::for_each_env_entry(|entry| {
        let split = entry.get(1..).and_then(|rest| rest.iter().position(|&b| b == b'='));
        if let Some(at) = split {
            f(&entry[..=at], &entry[at + 2..]);
        }
    });
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    for (name, value) in std::env::vars_os() {
        f(name.as_bytes(), value.as_bytes());
    }
}

/// The error for a variable of the invocation that cannot be passed to a process.
fn env_error(name: &OsStr, why: Unpassable) -> ExecError {
    ExecError::InvalidEnvVar {
        name: name.to_string_lossy().into_owned(),
        reason: match why {
            Unpassable::Nul => "its name or value holds a NUL byte",
            Unpassable::Name => "its name is empty or holds `=`",
        },
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_inherited_variables_are_those_std_sees() {
        let mut ours = Vec::new();
        each_inherited(|name, value| ours.push((name.to_vec(), value.to_vec())));
        let std: Vec<(Vec<u8>, Vec<u8>)> = std::env::vars_os()
            .map(|(name, value)| (name.as_bytes().to_vec(), value.as_bytes().to_vec()))
            .collect();
        assert!(!ours.is_empty());
        assert_eq!(ours, std);
    }
}
