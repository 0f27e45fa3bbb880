//! Containment for the hooks `hooks run` and `hooks replay` start: cgroups (or the tree walk)
//! and resource limits from the flags, and the signals that end the command.

use std::future::Future;
use std::time::Duration;

use hook_exec::{ContainError, Containment, ResourceLimits};
use tokio::signal::unix::{Signal, SignalKind, signal};

use crate::cli::ContainArgs;
use crate::error::{CliError, cli_error};
use crate::output;

/// How long the running hooks get between SIGTERM and SIGKILL when `hooks` is interrupted.
const INTERRUPT_GRACE: Duration = Duration::from_millis(500);

/// Sets up the containment the flags ask for; warnings (a cgroup parent that cannot be used, a
/// limit that cannot be enforced) go to stderr, and with `verbose` the mechanism and why.
pub(crate) fn setup(args: &ContainArgs, verbose: bool) {
    let mut config = match (&args.cgroup_parent, args.no_cgroup) {
        (_, true) => Containment::off(),
        (Some(parent), false) => Containment::under(parent),
        (None, false) => Containment::auto(),
    };
    let mut limits = ResourceLimits::new();
    limits.pids_max = args.pids_max;
    limits.memory_max = args.memory_max;
    limits.cpu_weight = args.cpu_weight;
    config = config.limits(limits);
    let status = match hook_exec::contain(config) {
        Ok(status) => status,
        Err(ContainError::AlreadySet) => hook_exec::containment(),
        Err(e) => {
            output::errln!("hooks: warning: {}", error_chain(&e));
            hook_exec::containment()
        }
    };
    for warning in status.warnings() {
        if !warning.starts_with("no supervisor (turned off)") {
            output::errln!("hooks: warning: {warning}");
        }
    }
    if verbose {
        output::errln!("hooks: containment: {} ({})", status.mechanism(), status.reason());
    }
}

/// An error and its sources, on one line.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// SIGINT, SIGTERM and SIGHUP, caught for as long as `hooks` runs hooks.
#[derive(Debug)]
pub(crate) struct Signals {
    int: Signal,
    term: Signal,
    hup: Signal,
}

/// `hooks` was interrupted by this signal; it exits with 128 + the signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Interrupted(pub(crate) i32);

impl Interrupted {
    /// The exit status: 128 + the signal.
    pub(crate) fn status(self) -> u8 {
        u8::try_from(128 + self.0).unwrap_or(u8::MAX)
    }
}

impl Signals {
    /// Catches the three signals (inside `runtime`).
    pub(crate) fn new(runtime: &tokio::runtime::Runtime) -> Result<Self, CliError> {
        let _entered = runtime.enter();
        let catch = |kind| signal(kind).map_err(|e| cli_error!("cannot catch signals: {e}"));
        Ok(Self {
            int: catch(SignalKind::interrupt())?,
            term: catch(SignalKind::terminate())?,
            hup: catch(SignalKind::hangup())?,
        })
    }

    /// Runs `work` to its end, unless a signal comes first: the running hooks are then killed
    /// (SIGTERM, a short grace, SIGKILL to their whole trees or cgroups) and `work` is dropped.
    pub(crate) fn run<F: Future>(
        &mut self,
        runtime: &tokio::runtime::Runtime,
        work: F,
    ) -> Result<F::Output, Interrupted> {
        runtime.block_on(async {
            let work = std::pin::pin!(work);
            let caught = tokio::select! {
                biased;
                out = work => return Ok(out),
                _ = self.int.recv() => libc::SIGINT,
                _ = self.term.recv() => libc::SIGTERM,
                _ = self.hup.recv() => libc::SIGHUP,
            };
            let killed = hook_exec::kill_running(INTERRUPT_GRACE);
            output::errln!(
                "hooks: interrupted by {}; killed {killed} running hook(s)",
                hook_protocol::signal_name(caught)
            );
            Err(Interrupted(caught))
        })
    }
}
