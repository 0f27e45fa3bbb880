//! The raw outcome of running one hook process.

use std::fmt;
use std::time::Duration;

use serde::Serialize;

/// How a hook process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Exit {
    /// It exited with a status code.
    Code {
        /// The status code.
        code: i32,
    },
    /// A signal it did not handle ended it (not one we sent on timeout).
    Signal {
        /// The signal number.
        signal: i32,
    },
    /// It ran past its timeout and was killed; its output was cut there.
    TimedOut {
        /// Whether SIGKILL was needed after the grace period (it ignored SIGTERM).
        escalated: bool,
    },
}

impl Exit {
    /// The exit code, when it exited with one.
    pub fn code(self) -> Option<i32> {
        match self {
            Exit::Code { code } => Some(code),
            _ => None,
        }
    }
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Exit::Code { code } => write!(f, "exit status {code}"),
            Exit::Signal { signal } => {
                write!(f, "killed by signal {signal} ({})", signal_name(*signal))
            }
            Exit::TimedOut { escalated: false } => f.write_str("timed out (terminated)"),
            Exit::TimedOut { escalated: true } => {
                f.write_str("timed out (killed after ignoring SIGTERM)")
            }
        }
    }
}

/// What happened to the bytes meant for the hook's stdin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum StdinOutcome {
    /// Every byte was written and stdin was closed.
    Written,
    /// The hook closed its stdin (or ended) before reading everything; this is not an error.
    Unread {
        /// How many bytes were written before that.
        written: u64,
    },
}

/// Everything one run of a hook process produced: what a dialect needs to decide.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct RawOutcome {
    /// How the process ended.
    pub exit: Exit,
    /// Captured stdout, at most the configured cap.
    #[serde(skip)]
    pub stdout: Vec<u8>,
    /// Captured stderr, at most the configured cap.
    #[serde(skip)]
    pub stderr: Vec<u8>,
    /// How many bytes the hook wrote to stdout in all (the capture may hold fewer).
    pub stdout_len: u64,
    /// How many bytes the hook wrote to stderr in all.
    pub stderr_len: u64,
    /// Whether stdout went past its cap (the rest was read and discarded).
    pub stdout_truncated: bool,
    /// Whether stderr went past its cap.
    pub stderr_truncated: bool,
    /// Whether processes the hook left behind still held its stdout or stderr after it exited
    /// (past the leak window); reading stopped there.
    pub leaked: bool,
    /// Whether those leftover processes were killed (only when the invocation asked for it, or
    /// on timeout).
    pub leftovers_killed: bool,
    /// How the hook's processes were contained.
    pub containment: Mechanism,
    /// How many processes the hook left running when it exited normally: counted in its cgroup
    /// (where they stay, unless killed), or, with the tree walk, known only when they were
    /// killed (the process engine's `Leftovers::Kill`, in `hook-exec`).
    pub leftovers: Option<u32>,
    /// The resource limit that stopped the hook, if one did: `memory.max` when the kernel
    /// killed a process of it for memory, `pids.max` when a fork of it failed for the limit.
    pub limit: Option<ResourceLimit>,
    /// What the containment could not do for this run (a cgroup that could not be made or
    /// joined, a limit the kernel refused, a cgroup that did not empty), naming the path and
    /// the value.
    pub containment_warnings: Vec<String>,
    /// What happened to stdin.
    pub stdin: StdinOutcome,
    /// Whether the signal that ended it ([`Exit::Signal`]) dumped core.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub core_dumped: bool,
    /// Wall-clock time from spawn to the end of the run.
    pub duration: Duration,
    /// The hook process's id.
    pub pid: u32,
}

impl RawOutcome {
    /// An outcome with an exit and outputs; everything else empty or zero.
    pub fn new(exit: Exit, stdout: impl Into<Vec<u8>>, stderr: impl Into<Vec<u8>>) -> Self {
        let stdout = stdout.into();
        let stderr = stderr.into();
        Self {
            exit,
            stdout_len: stdout.len() as u64,
            stderr_len: stderr.len() as u64,
            stdout,
            stderr,
            stdout_truncated: false,
            stderr_truncated: false,
            leaked: false,
            leftovers_killed: false,
            containment: Mechanism::TreeWalk,
            leftovers: None,
            limit: None,
            containment_warnings: Vec::new(),
            stdin: StdinOutcome::Written,
            core_dumped: false,
            duration: Duration::ZERO,
            pid: 0,
        }
    }

    /// Whether the run timed out.
    pub fn timed_out(&self) -> bool {
        matches!(self.exit, Exit::TimedOut { .. })
    }

    /// Stderr as text (invalid UTF-8 replaced), trimmed.
    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).trim().to_owned()
    }

    /// The last `max` characters of stderr, for records and messages.
    pub fn stderr_tail(&self, max: usize) -> String {
        tail(&self.stderr_text(), max)
    }
}

/// The last `max` characters of `text`, prefixed with `…` when cut.
pub(crate) fn tail(text: &str, max: usize) -> String {
    let count = text.chars().count();
    if count <= max {
        return text.to_owned();
    }
    let skip = count - max;
    let mut out = String::from("…");
    out.extend(text.chars().skip(skip));
    out
}

/// The conventional name of a POSIX signal number.
pub fn signal_name(signal: i32) -> &'static str {
    match signal {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        10 => "SIGUSR1",
        11 => "SIGSEGV",
        12 => "SIGUSR2",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        _ => "unknown signal",
    }
}

/// How a run's processes were contained, as its record says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Mechanism {
    /// The hook ran in a cgroup of its own, joined before it ran any code: everything it
    /// starts stays in it, and `cgroup.kill` ends it all.
    Cgroup,
    /// The hook's tree is its process group, its descendants and the processes carrying its
    /// run's marker, found in `/proc` when it is killed; a process that leaves all three
    /// escapes.
    TreeWalk,
}

impl Mechanism {
    /// `cgroup` or `tree-walk`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mechanism::Cgroup => "cgroup",
            Mechanism::TreeWalk => "tree-walk",
        }
    }
}

impl fmt::Display for Mechanism {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One resource limit of a hook's cgroup.
///
/// Exhaustive: the process engine (`hook-exec`, released with this crate) writes each one to
/// its controller's files, and a new one must be taught to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum ResourceLimit {
    /// `pids.max`: how many processes and threads the hook's cgroup may hold at once.
    #[serde(rename = "pids.max")]
    Pids,
    /// `memory.max`: how many bytes of memory the hook's cgroup may use (no swap beyond it).
    #[serde(rename = "memory.max")]
    Memory,
    /// `cpu.weight`: the hook's share of the CPU when it competes, 1 to 10000 (100 is the
    /// kernel's default).
    #[serde(rename = "cpu.weight")]
    CpuWeight,
}

impl ResourceLimit {
    /// The cgroup v2 file name: `pids.max`, `memory.max`, `cpu.weight`.
    pub fn as_str(self) -> &'static str {
        match self {
            ResourceLimit::Pids => "pids.max",
            ResourceLimit::Memory => "memory.max",
            ResourceLimit::CpuWeight => "cpu.weight",
        }
    }
}

impl fmt::Display for ResourceLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_keeps_the_end() {
        assert_eq!(tail("abcdef", 3), "…def");
        assert_eq!(tail("abc", 3), "abc");
        assert_eq!(tail("ééé", 2), "…éé");
    }

    #[test]
    fn exit_displays() {
        assert_eq!(Exit::Code { code: 2 }.to_string(), "exit status 2");
        assert_eq!(Exit::Signal { signal: 9 }.to_string(), "killed by signal 9 (SIGKILL)");
        assert_eq!(Exit::Code { code: 3 }.code(), Some(3));
        assert_eq!(Exit::TimedOut { escalated: true }.code(), None);
    }
}
