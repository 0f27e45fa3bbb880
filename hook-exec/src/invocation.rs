//! What to run: the command, its environment, its limits.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use hook_protocol::Scrub;
use thiserror::Error;

use super::ResourceLimits;
use super::changes::Changes;
#[cfg(doc)]
use super::containment::Containment;

/// The two forms a hook command takes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CommandSpec {
    /// A line run by `/bin/sh -c LINE`: the shell expands variables, pipes, globs.
    Shell {
        /// The command line.
        line: String,
    },
    /// A program run directly with arguments, no shell; a program without `/` is looked up on
    /// the `PATH` of the invocation's environment.
    Exec {
        /// The program.
        program: String,
        /// Its arguments.
        args: Vec<String>,
    },
}

impl CommandSpec {
    /// Shell form.
    pub fn shell(line: impl Into<String>) -> Self {
        CommandSpec::Shell { line: line.into() }
    }

    /// Exec form.
    pub fn exec<I, S>(program: impl Into<String>, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        CommandSpec::Exec {
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
        }
    }

    /// The program that is started (`/bin/sh` for the shell form).
    pub fn program(&self) -> &str {
        match self {
            CommandSpec::Shell { .. } => "/bin/sh",
            CommandSpec::Exec { program, .. } => program,
        }
    }
}

impl fmt::Display for CommandSpec {
    /// The command as a user would write it: the line, or the program and its arguments.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandSpec::Shell { line } => f.write_str(line),
            CommandSpec::Exec { program, args } => {
                f.write_str(program)?;
                for arg in args {
                    write!(f, " {arg}")?;
                }
                Ok(())
            }
        }
    }
}

/// The environment a hook process gets: explicit, never read implicitly by [`crate::run`]
/// except when the invocation says to inherit.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Env {
    inherit: bool,
    changes: Changes,
    scrub: Option<Scrub>,
    shell_names: bool,
}

impl Env {
    /// Inherit the harness process's environment (as Claude Code does), then apply changes.
    pub fn inherit() -> Self {
        Self { inherit: true, changes: Changes::default(), scrub: None, shell_names: false }
    }

    /// Start from an empty environment.
    pub fn empty() -> Self {
        Self::default()
    }

    /// Sets a variable.
    pub fn set(&mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> &mut Self {
        self.changes.insert(key.into(), Some(value.into()));
        self
    }

    /// Removes a variable (from the inherited environment or from earlier changes).
    pub fn remove(&mut self, key: impl Into<OsString>) -> &mut Self {
        self.changes.insert(key.into(), None);
        self
    }

    /// Whether the harness's environment is inherited.
    pub fn inherits(&self) -> bool {
        self.inherit
    }

    /// The explicit changes: `Some(value)` sets, `None` removes.
    pub fn changes(&self) -> impl Iterator<Item = (&OsStr, Option<&OsStr>)> {
        self.changes.iter().map(|(k, v)| (k.as_os_str(), v.as_deref()))
    }

    /// Whether the invocation sets or removes `name`.
    pub(super) fn changes_var(&self, name: &OsStr) -> bool {
        self.changes.contains(name)
    }

    /// The value the hook will see for `key`, reading the harness's environment when inherited.
    pub fn get(&self, key: impl AsRef<OsStr>) -> Option<OsString> {
        let key = key.as_ref();
        if self.shell_names && !is_shell_name(key.as_encoded_bytes()) {
            return None;
        }
        match self.changes.get(key) {
            Some(v) => v.clone(),
            None if self.inherit && !self.scrub.as_ref().is_some_and(|s| s.matches(key)) => {
                std::env::var_os(key)
            }
            None => None,
        }
    }

    /// Drops the inherited variables that `scrub` names as credentials before the hook starts.
    ///
    /// Only what the harness's environment passes down is dropped: a variable set on this
    /// environment with [`Env::set`] is kept, whatever its name, since a configuration that
    /// hands a hook a credential does so on purpose. Replaces an earlier scrub.
    pub fn scrub_credentials(&mut self, scrub: Scrub) -> &mut Self {
        self.scrub = Some(scrub);
        self
    }

    /// The credential scrub, when one is set.
    pub fn scrub(&self) -> Option<&Scrub> {
        self.scrub.as_ref()
    }

    /// Passes only the variables whose names are shell names (an ASCII letter or `_`, then
    /// ASCII letters, digits and `_`), inherited or set, as a POSIX shell passes its
    /// environment on: `sh -c` drops the others before it starts the command. For a program
    /// started in place of such a shell, with the environment the shell would give it.
    pub fn shell_names_only(&mut self) -> &mut Self {
        self.shell_names = true;
        self
    }

    /// Whether only shell names are passed ([`Env::shell_names_only`]).
    pub fn passes_shell_names_only(&self) -> bool {
        self.shell_names
    }

    /// The full environment the hook will see, as pairs.
    pub fn resolve(&self) -> Vec<(OsString, OsString)> {
        let mut out: BTreeMap<OsString, OsString> =
            if self.inherit { std::env::vars_os().collect() } else { BTreeMap::new() };
        if let Some(scrub) = &self.scrub {
            out.retain(|k, _| !scrub.matches(k));
        }
        for (k, v) in self.changes.iter() {
            match v {
                Some(v) => {
                    out.insert(k.clone(), v.clone());
                }
                None => {
                    out.remove(k);
                }
            }
        }
        if self.shell_names {
            out.retain(|k, _| is_shell_name(k.as_encoded_bytes()));
        }
        out.into_iter().collect()
    }
}

/// Whether `name` is a shell variable name: an ASCII letter or `_`, then ASCII letters,
/// digits and `_`.
pub(crate) fn is_shell_name(name: &[u8]) -> bool {
    name.first().is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_')
        && name.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_')
}

/// Bounds on one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RunLimits {
    /// The most bytes of stdout kept; the rest is read and discarded.
    pub stdout_max: usize,
    /// The most bytes of stderr kept; the rest is read and discarded.
    pub stderr_max: usize,
    /// How long a timed-out hook's tree has between SIGTERM and SIGKILL.
    pub grace: Duration,
    /// How long to wait for end-of-file on stdout and stderr after the hook exits normally
    /// before giving up on processes it left holding them.
    pub leak_window: Duration,
}

impl RunLimits {
    /// 1 MiB of stdout and of stderr, a grace of 1.5 s (Claude Code's), a leak window of 100 ms.
    pub const DEFAULT: RunLimits = RunLimits {
        stdout_max: 1 << 20,
        stderr_max: 1 << 20,
        grace: Duration::from_millis(1500),
        leak_window: Duration::from_millis(100),
    };
}

impl Default for RunLimits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// What to do with processes a hook leaves behind after it exits normally.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Leftovers {
    /// Leave them running (hooks start daemons on purpose; Claude Code lets them live).
    #[default]
    Leave,
    /// Kill them, whether or not they hold the hook's output.
    Kill,
}

/// Receives the first line of a hook's stdout while the hook still runs.
///
/// [`crate::run`] calls it at most once, as soon as the first `\n` is read, with the
/// bytes before it; never when stdout ends (or reaches its cap) without a newline. Output is
/// read as it comes once a run has lasted 5 ms (Linux; from the start elsewhere), and at its end
/// before that. A dialect uses it to react to an early marker (e.g. a hook announcing that it
/// goes on in the background) without waiting for the hook to exit. The bytes stay in the
/// outcome's stdout.
#[derive(Clone)]
pub struct LineTap(Arc<TapFn>);

/// The function behind a [`LineTap`].
type TapFn = dyn Fn(&[u8]) + Send + Sync;

impl LineTap {
    /// A tap calling `f` with the first line.
    pub fn new(f: impl Fn(&[u8]) + Send + Sync + 'static) -> Self {
        Self(Arc::new(f))
    }

    /// Calls the tap.
    pub(crate) fn call(&self, line: &[u8]) {
        (self.0)(line);
    }
}

impl fmt::Debug for LineTap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("LineTap")
    }
}

/// One run of one hook process.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Invocation {
    /// What to run.
    pub command: CommandSpec,
    /// Its environment.
    pub env: Env,
    /// Its working directory.
    pub cwd: PathBuf,
    /// The bytes written to its stdin, which is then closed.
    pub stdin: Arc<[u8]>,
    /// How long it may run, on the wall clock.
    pub timeout: Duration,
    /// Output caps, grace and leak window.
    pub limits: RunLimits,
    /// What happens to what it leaves behind.
    pub leftovers: Leftovers,
    /// Told the first line of stdout as soon as it is complete (none by default).
    pub first_line: Option<LineTap>,
    /// This hook's resource limits, over the harness's ([`Containment::limits`]): the fields
    /// set here win. None by default.
    pub resources: ResourceLimits,
    /// Whether it runs in a cgroup of its own when the harness's [`containment`] has cgroups
    /// (the default); false runs it with the tree walk, without limits.
    ///
    /// [`containment`]: super::containment
    pub cgroup: bool,
    /// The id of the [`RunGroup`](crate::RunGroup) it runs in, set by
    /// [`RunGroup::apply`](crate::RunGroup::apply); 0 (the default) for none.
    pub group: u64,
}

impl Invocation {
    /// An invocation with an inherited environment, empty stdin and default limits.
    pub fn new(command: CommandSpec, cwd: impl Into<PathBuf>, timeout: Duration) -> Self {
        Self {
            command,
            env: Env::inherit(),
            cwd: cwd.into(),
            stdin: Arc::from(&[][..]),
            timeout,
            limits: RunLimits::DEFAULT,
            leftovers: Leftovers::Leave,
            first_line: None,
            resources: ResourceLimits::NONE,
            cgroup: true,
            group: 0,
        }
    }
}

/// Why an invocation could not run.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ExecError {
    /// The program does not exist (exec form; in shell form the shell reports it as exit 127).
    #[error("command not found: `{program}`")]
    NotFound {
        /// The program as given.
        program: String,
    },
    /// The program exists but cannot be executed.
    #[error("permission denied: `{program}` is not executable")]
    PermissionDenied {
        /// The program as given.
        program: String,
    },
    /// The working directory does not exist or is not a directory.
    #[error("working directory `{}` does not exist", path.display())]
    MissingCwd {
        /// The directory as given.
        path: PathBuf,
    },
    /// An argument (or the shell line) holds a NUL byte, which no process can receive.
    #[error("argument {argument:?} holds a NUL byte")]
    NulInArgument {
        /// The argument as given.
        argument: String,
    },
    /// A variable the invocation sets cannot be passed to a process.
    #[error("environment variable {name:?} cannot be passed to a process: {reason}")]
    InvalidEnvVar {
        /// The variable's name (lossily decoded).
        name: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The timeout is zero.
    #[error("timeout must be positive, got {timeout:?}")]
    ZeroTimeout {
        /// The timeout given.
        timeout: Duration,
    },
    /// Starting the process failed for another reason.
    #[error("failed to start `{program}`")]
    Spawn {
        /// The program as given.
        program: String,
        /// The system's error.
        #[source]
        source: io::Error,
    },
    /// An I/O error with the process's pipes.
    #[error("i/o error while {stage}")]
    Io {
        /// What was being done.
        stage: &'static str,
        /// The system's error.
        #[source]
        source: io::Error,
    },
}

/// A timeout given in seconds that is not a usable duration.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
#[error("timeout must be a positive number of seconds, got {seconds}")]
#[non_exhaustive]
pub struct TimeoutError {
    /// The value given.
    pub seconds: f64,
}

/// A timeout from a number of seconds (fractions allowed).
///
/// # Errors
///
/// [`TimeoutError`] for zero, negative, NaN, infinite or absurdly large values.
pub fn timeout_from_secs(seconds: f64) -> Result<Duration, TimeoutError> {
    if seconds.is_finite() && seconds > 0.0 {
        Duration::try_from_secs_f64(seconds).map_err(|_| TimeoutError { seconds })
    } else {
        Err(TimeoutError { seconds })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_in_seconds() {
        assert_eq!(timeout_from_secs(1.5), Ok(Duration::from_millis(1500)));
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e300] {
            let err = timeout_from_secs(bad).unwrap_err();
            assert!(err.to_string().contains("positive"), "{err}");
        }
    }

    #[test]
    fn env_changes_apply_in_order() {
        let mut env = Env::empty();
        env.set("A", "1").set("B", "2").remove("A");
        assert_eq!(env.resolve(), vec![(OsString::from("B"), OsString::from("2"))]);
        assert_eq!(env.get("B"), Some(OsString::from("2")));
        assert_eq!(env.get("A"), None);
    }

    #[test]
    fn scrub_names_credentials_by_suffix_and_extra_names() {
        let scrub = Scrub::new().names(["DATABASE_URL", "*_CREDENTIALS", "*"]);
        for name in [
            "GITHUB_TOKEN",
            "openai_api_key",
            "Db_Password",
            "AWS_SECRET",
            "TOKEN",
            "API_KEY",
            "database_url",
            "GOOGLE_APPLICATION_CREDENTIALS",
        ] {
            assert!(scrub.matches(OsStr::new(name)), "{name}");
        }
        for name in ["PATH", "HOME", "TOKENS", "MY_TOKEN_FILE", "SECRETARY", "DATABASE_URL_RO", ""]
        {
            assert!(!scrub.matches(OsStr::new(name)), "{name}");
        }
        assert_eq!(scrub.extra().len(), 3);
    }

    #[test]
    fn scrub_drops_inherited_credentials_but_keeps_what_is_set() {
        // `PATH` is inherited by every test process; a scrub naming it drops it.
        let mut env = Env::inherit();
        env.scrub_credentials(Scrub::new().name("PATH")).set("EXPLICIT_TOKEN", "kept");
        assert_eq!(env.get("PATH"), None);
        let resolved = env.resolve();
        assert!(!resolved.iter().any(|(k, _)| k == "PATH"));
        assert!(resolved.iter().any(|(k, v)| k == "EXPLICIT_TOKEN" && v == "kept"));
        assert_eq!(env.get("EXPLICIT_TOKEN"), Some(OsString::from("kept")));
        env.set("PATH", "/bin");
        assert_eq!(env.get("PATH"), Some(OsString::from("/bin")), "an explicit value wins");
        assert!(env.resolve().iter().any(|(k, v)| k == "PATH" && v == "/bin"));
        assert!(Env::empty().scrub_credentials(Scrub::new().name("PATH")).resolve().is_empty());
    }

    #[test]
    fn command_displays_as_written() {
        assert_eq!(CommandSpec::shell("echo hi | cat").to_string(), "echo hi | cat");
        assert_eq!(CommandSpec::exec("jq", ["-r", ".a"]).to_string(), "jq -r .a");
    }
}
