//! The no-shell fast path: a shell-form command made of plain words ([`crate::run::plain`]) runs by
//! `exec` of its program, with the outcome `/bin/sh -c` would have given.
//!
//! What `sh -c 'prog args'` does, and so what a direct run does in its place:
//!
//! - the words, `PATH` search (a bare name, when `PATH` is set and holds no `%`), working
//!   directory, stdin, signal dispositions and process group are the same;
//! - the environment is what the shell passes on: only shell names, `PWD` set as the shell
//!   sets it (the inherited `PWD` when it names the working directory, else the physical
//!   path), and `IFS`, `OPTIND` and `PPID`, when present, reset as the shell resets them;
//! - a program that cannot be started (not found, not executable, a directory) is run through
//!   `sh -c` after all, which prints its own message and exits 127 or 126; a file without a
//!   `#!` line runs under `/bin/sh`, as the shell runs it;
//! - where `sh` waits for its last command (dash), a program killed by signal N ends with
//!   exit status 128 + N and the shell's notice on stderr (`Terminated`, `Segmentation fault
//!   (core dumped)`; none for SIGINT and SIGPIPE).
//!
//! The fast path is taken only where `/bin/sh` is dash, whose behaviour this reproduces, and
//! after a probe run once per process confirms how it ends a command killed by a signal. What
//! cannot be the same: the program's parent is the harness, not a shell (`$PPID` in a script),
//! and it leads its process group itself, so a `setsid()` without a `fork()` first fails. A
//! hook that depends on either, or any doubt, is what [`crate::HostEnv::shell_fast_path`]
//! turns off.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::Duration;

use hook_exec::{CommandSpec, ExecError, Invocation, run as exec_run};
use hook_protocol::{Exit, RawOutcome};
use tokio::sync::OnceCell;

/// A plain command's program and arguments, made once per hook.
#[derive(Debug, Clone)]
pub(crate) struct Direct {
    /// The words as an exec-form command.
    pub(crate) spec: CommandSpec,
    /// Whether the program is a bare name, searched on `PATH`.
    bare: bool,
}

impl Direct {
    /// The command for `words` (at least one: the program).
    pub(crate) fn new(mut words: Vec<String>) -> Option<Self> {
        if words.is_empty() {
            return None;
        }
        let program = words.remove(0);
        Some(Self { bare: !program.contains('/'), spec: CommandSpec::exec(program, words) })
    }
}

/// How `/bin/sh -c` ends when the last command it runs is killed by a signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shell {
    /// It waits for the command and exits 128 + N, with a notice on stderr (dash).
    Waits,
    /// It runs the command in its own place (`exec`): the signal ends the run itself.
    Execs,
}

/// The shell's behaviour, probed once per process; `None`: no fast path here.
static SHELL: OnceCell<Option<Shell>> = OnceCell::const_new();

/// The shell's behaviour, probed once per process (awaiting the probe started by
/// [`start_probe`], or running it); `None`: no fast path here.
pub(crate) async fn shell() -> Option<Shell> {
    *SHELL.get_or_init(probe).await
}

/// Starts the probe on a thread of its own, once per process, so that it is done by the time
/// the first hook needs it (an engine is built before its first event): it runs two shells,
/// a few milliseconds. A probe that cannot start here runs on first use instead.
pub(crate) fn start_probe() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        let _ = std::thread::Builder::new().name("hooks-sh-probe".into()).spawn(|| {
            if let Ok(rt) = tokio::runtime::Builder::new_current_thread().enable_all().build() {
                rt.block_on(shell());
            }
        });
    });
}

/// Whether `/bin/sh` is dash, and how it ends a command killed by SIGTERM: a shell run as
/// the last command of `sh -c` kills itself.
async fn probe() -> Option<Shell> {
    let sh = std::fs::canonicalize("/bin/sh").ok()?;
    if sh.file_name() != Some(OsStr::new("dash")) {
        return None;
    }
    let line = "/bin/sh -c 'kill -s TERM $$'";
    let inv = Invocation::new(CommandSpec::shell(line), "/", Duration::from_secs(5));
    let out = exec_run(&inv).await.ok()?;
    match out.exit {
        Exit::Code { code: 143 } if out.stderr == b"Terminated\n" => Some(Shell::Waits),
        Exit::Signal { signal: 15 } => Some(Shell::Execs),
        _ => None,
    }
}

/// Turns `inv` (with the hook's shell-form environment) into the direct run of `direct`:
/// the command, and the environment as the shell passes it on. `None` when this run cannot
/// be direct (a bare name without a `PATH` the shell would search alike).
pub(crate) fn prepare(inv: &mut Invocation, direct: &Direct) -> Option<Pwd> {
    if direct.bare && inv.env.get("PATH").is_none_or(|p| p.as_bytes().contains(&b'%')) {
        return None;
    }
    inv.command = direct.spec.clone();
    let env = &mut inv.env;
    env.shell_names_only();
    if env.get("IFS").is_some() {
        env.set("IFS", " \t\n");
    }
    if env.get("OPTIND").is_some() {
        env.set("OPTIND", "1");
    }
    if env.get("PPID").is_some() {
        env.set("PPID", std::process::id().to_string());
    }
    let pwd = Pwd(env.get("PWD"));
    pwd.apply(inv);
    Some(pwd)
}

/// The `PWD` the hook's environment held before the direct run set its own.
#[derive(Debug)]
pub(crate) struct Pwd(Option<OsString>);

impl Pwd {
    /// Sets `PWD` as the shell would in `inv.cwd`: the inherited value when it is absolute
    /// and names that directory, else the directory's physical path.
    pub(crate) fn apply(&self, inv: &mut Invocation) {
        let cwd = &inv.cwd;
        let kept = self.0.as_deref().filter(|p| {
            p.as_bytes().first() == Some(&b'/')
                && (p == &cwd.as_os_str() && cwd.is_absolute() || same_file(Path::new(p), cwd))
        });
        match kept {
            Some(p) => {
                let p = p.to_owned();
                inv.env.set("PWD", p);
            }
            None => {
                if let Ok(physical) = std::fs::canonicalize(cwd) {
                    inv.env.set("PWD", physical);
                }
            }
        }
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Whether a direct run that failed so leaves the answer to `sh -c`: the program could not be
/// started (the shell reports that itself, with its exit status).
pub(crate) fn shell_decides(e: &ExecError) -> bool {
    matches!(
        e,
        ExecError::NotFound { .. } | ExecError::PermissionDenied { .. } | ExecError::Spawn { .. }
    )
}

/// The outcome as `sh -c` would have ended: where the shell waits, a death by signal N is
/// exit status 128 + N and the shell's notice at the end of stderr (within its cap).
pub(crate) fn as_shell_would(out: &mut RawOutcome, shell: Shell, stderr_max: usize) {
    let Exit::Signal { signal } = out.exit else { return };
    if shell == Shell::Execs {
        return;
    }
    out.exit = Exit::Code { code: 128 + signal };
    let core = std::mem::take(&mut out.core_dumped);
    if signal == SIGINT || signal == SIGPIPE {
        return;
    }
    let mut notice = signal_text(signal);
    if core {
        notice.push_str(" (core dumped)");
    }
    notice.push('\n');
    out.stderr_len += notice.len() as u64;
    let room = stderr_max.saturating_sub(out.stderr.len());
    if out.stderr_truncated || room < notice.len() {
        out.stderr.extend_from_slice(&notice.as_bytes()[..room.min(notice.len())]);
        out.stderr_truncated = true;
    } else {
        out.stderr.extend_from_slice(notice.as_bytes());
    }
}

/// The signals whose deaths the shell does not report.
const SIGINT: i32 = 2;
const SIGPIPE: i32 = 13;

/// glibc's `strsignal` text (as the shell prints it, untranslated) for Linux's signals.
fn signal_text(signal: i32) -> String {
    const TEXTS: [&str; 31] = [
        "Hangup",
        "Interrupt",
        "Quit",
        "Illegal instruction",
        "Trace/breakpoint trap",
        "Aborted",
        "Bus error",
        "Floating point exception",
        "Killed",
        "User defined signal 1",
        "Segmentation fault",
        "User defined signal 2",
        "Broken pipe",
        "Alarm clock",
        "Terminated",
        "Stack fault",
        "Child exited",
        "Continued",
        "Stopped (signal)",
        "Stopped",
        "Stopped (tty input)",
        "Stopped (tty output)",
        "Urgent I/O condition",
        "CPU time limit exceeded",
        "File size limit exceeded",
        "Virtual timer expired",
        "Profiling timer expired",
        "Window changed",
        "I/O possible",
        "Power failure",
        "Bad system call",
    ];
    match usize::try_from(signal) {
        Ok(n @ 1..=31) => TEXTS[n - 1].to_owned(),
        Ok(n @ 34..=64) => format!("Real-time signal {}", n - 34),
        _ => format!("Unknown signal {signal}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signal_texts_are_glibcs() {
        assert_eq!(signal_text(15), "Terminated");
        assert_eq!(signal_text(11), "Segmentation fault");
        assert_eq!(signal_text(31), "Bad system call");
        assert_eq!(signal_text(34), "Real-time signal 0");
        assert_eq!(signal_text(64), "Real-time signal 30");
        assert_eq!(signal_text(32), "Unknown signal 32");
    }

    #[test]
    fn a_death_by_signal_reads_as_the_shell_reports_it() {
        let mut out = RawOutcome::new(Exit::Signal { signal: 11 }, "", "oops\n");
        out.core_dumped = true;
        as_shell_would(&mut out, Shell::Waits, 1 << 20);
        assert_eq!(out.exit, Exit::Code { code: 139 });
        assert_eq!(out.stderr, b"oops\nSegmentation fault (core dumped)\n");
        assert_eq!(out.stderr_len, out.stderr.len() as u64);
        let mut quiet = RawOutcome::new(Exit::Signal { signal: 13 }, "", "");
        as_shell_would(&mut quiet, Shell::Waits, 1 << 20);
        assert_eq!((quiet.exit, quiet.stderr.len()), (Exit::Code { code: 141 }, 0));
        let mut execs = RawOutcome::new(Exit::Signal { signal: 9 }, "", "");
        as_shell_would(&mut execs, Shell::Execs, 1 << 20);
        assert_eq!(execs.exit, Exit::Signal { signal: 9 });
        let mut full = RawOutcome::new(Exit::Signal { signal: 15 }, "", "12345678");
        as_shell_would(&mut full, Shell::Waits, 12);
        assert_eq!(full.stderr, b"12345678Term");
        assert!(full.stderr_truncated);
        assert_eq!(full.stderr_len, 8 + "Terminated\n".len() as u64);
    }
}
