//! Containment: how a hook's whole tree is found and killed, chosen once per harness.
//!
//! See the [module documentation](super#containment) for what each mechanism guarantees.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use hook_protocol::{Mechanism, ResourceLimit};

use crate::ResourceLimits;
use thiserror::Error;

/// Checks limits against the ranges the kernel accepts.
fn check_limits(limits: &ResourceLimits) -> Result<(), ContainError> {
    for (limit, value) in limits.iter() {
        let reason = match limit {
            ResourceLimit::Pids if value == 0 => "a hook needs at least its own process",
            ResourceLimit::Memory if value < 4096 => "less than one page",
            ResourceLimit::CpuWeight if !(1..=10_000).contains(&value) => {
                "the kernel accepts 1 to 10000"
            }
            _ => continue,
        };
        return Err(ContainError::InvalidLimit { limit, value, reason });
    }
    Ok(())
}

/// Where the harness's hooks get their cgroups, if anywhere.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Parent {
    /// The harness's own cgroup.
    Auto,
    /// A cgroup the harness names.
    Under(PathBuf),
    /// No cgroups: the tree walk.
    Off,
}

/// The harness's choice of containment, given once to [`contain`] before the first hook runs.
///
/// By default ([`Containment::auto`]), on Linux with a writable cgroup v2 hierarchy, every hook
/// runs in a cgroup of its own under `hooks-<pid>-<start>` in the harness's own cgroup, and a
/// supervisor process kills the running hooks if the harness dies without doing so itself.
///
/// # Example
///
/// ```no_run
/// use hook_exec::{Containment, ResourceLimits};
///
/// let limits = ResourceLimits::new().pids_max(512).memory_max(1 << 30);
/// match hook_exec::contain(Containment::auto().limits(limits)) {
///     Ok(status) => eprintln!("containment: {status}"),
///     // The hooks still run, with the tree walk; the error says why.
///     Err(e) => eprintln!("no cgroup containment: {e}"),
/// }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Containment {
    parent: Parent,
    limits: ResourceLimits,
    supervisor: bool,
}

impl Containment {
    /// cgroups where the harness's own cgroup can hold them, the tree walk elsewhere.
    pub fn auto() -> Self {
        Self { parent: Parent::Auto, limits: ResourceLimits::NONE, supervisor: true }
    }

    /// cgroups under `parent`, an existing cgroup v2 directory the harness may write to (e.g. a
    /// delegated one, `/sys/fs/cgroup/agent.slice`).
    pub fn under(parent: impl Into<PathBuf>) -> Self {
        Self { parent: Parent::Under(parent.into()), ..Self::auto() }
    }

    /// No cgroups: every hook runs with the tree walk.
    pub fn off() -> Self {
        Self { parent: Parent::Off, ..Self::auto() }
    }

    /// Limits for every hook (a hook's own [`Invocation::resources`](super::Invocation)
    /// override them field by field).
    #[must_use]
    pub fn limits(mut self, limits: ResourceLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Whether a supervisor process kills the running hooks when the harness dies without
    /// doing so (SIGKILL, a crash); on by default. See the [module documentation](super).
    #[must_use]
    pub fn supervisor(mut self, on: bool) -> Self {
        self.supervisor = on;
        self
    }
}

impl Default for Containment {
    fn default() -> Self {
        Self::auto()
    }
}

/// Which containment the harness's hooks get, and why: what [`contain`] and [`containment`]
/// return.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContainmentStatus {
    mechanism: Mechanism,
    reason: String,
    dir: Option<PathBuf>,
    limits: ResourceLimits,
    warnings: Vec<String>,
    supervisor: Option<u32>,
}

impl ContainmentStatus {
    /// The mechanism hooks run with (a single run may still fall back to the tree walk: its
    /// record says so).
    pub fn mechanism(&self) -> Mechanism {
        self.mechanism
    }

    /// Why: where the cgroups are, or why there are none.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The directory holding the hooks' cgroups (`<parent>/hooks-<pid>-<start>`), with cgroups.
    pub fn cgroup_dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The limits every hook gets.
    pub fn limits(&self) -> ResourceLimits {
        self.limits
    }

    /// What does not work as configured (a limit that cannot be enforced here, no supervisor).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The pid of the supervisor started with the containment, when one was. One found gone
    /// later is replaced by another (a warning of the `hooks` tracing target names its pid).
    pub fn supervisor_pid(&self) -> Option<u32> {
        self.supervisor
    }
}

impl fmt::Display for ContainmentStatus {
    /// `cgroup (REASON)` or `tree-walk (REASON)`, then the warnings.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.mechanism, self.reason)?;
        for w in &self.warnings {
            write!(f, "; {w}")?;
        }
        Ok(())
    }
}

/// Why the containment asked for cannot be had; the hooks then run with the tree walk.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ContainError {
    /// [`contain`] was called after the containment was set (by an earlier call, or by the
    /// first run).
    #[error("containment is already set: call hook_exec::contain before the first hook runs, once")]
    AlreadySet,
    /// The configured parent does not exist.
    #[error("cgroup parent {} does not exist", path.display())]
    ParentMissing {
        /// The parent as configured.
        path: PathBuf,
    },
    /// The configured parent is not a directory of the cgroup v2 hierarchy.
    #[error("cgroup parent {} is not a cgroup v2 directory", path.display())]
    NotACgroup {
        /// The parent as configured.
        path: PathBuf,
    },
    /// The kernel lacks `cgroup.kill` (Linux 5.14 and later have it).
    #[error("cgroup parent {} has no cgroup.kill (Linux 5.14 or later is needed)", path.display())]
    NoCgroupKill {
        /// The parent.
        path: PathBuf,
    },
    /// The harness's directory cannot be made in the parent.
    #[error("cannot make {} (cgroup parent not writable)", path.display())]
    ParentNotWritable {
        /// The directory that could not be made.
        path: PathBuf,
        /// The system's error.
        #[source]
        source: io::Error,
    },
    /// A limit is out of the range the kernel accepts; the cgroups are kept, without it.
    #[error("{limit} = {value} is not a valid limit: {reason}")]
    InvalidLimit {
        /// The limit.
        limit: ResourceLimit,
        /// The value given.
        value: u64,
        /// What the kernel accepts.
        reason: &'static str,
    },
}

#[cfg(unix)]
/// The containment of this process: set once, by [`contain`] or by the first run.
static STATE: OnceLock<State> = OnceLock::new();

#[cfg(unix)]
/// The process-wide containment state.
#[derive(Debug)]
pub(super) struct State {
    pub(super) status: ContainmentStatus,
    pub(super) setup: Option<std::sync::Arc<super::cgroup::Setup>>,
    pub(super) supervisor: std::sync::Mutex<Option<super::supervisor::Keeper>>,
}

#[cfg(unix)]
/// Sets the containment of every hook this process runs, and returns what it amounts to.
///
/// Call it once, before the first hook runs (the first run sets up [`Containment::auto`]
/// otherwise). It makes the harness's directory of cgroups and, unless turned off, starts the
/// supervisor.
///
/// # Errors
///
/// [`ContainError::AlreadySet`] when the containment is already set (nothing changes). Any
/// other error says why the containment asked for cannot be had: the hooks then run with the
/// tree walk (or, for [`ContainError::InvalidLimit`], in cgroups without that limit), and
/// [`containment`] reports it.
pub fn contain(config: Containment) -> Result<&'static ContainmentStatus, ContainError> {
    let mut ran = None;
    let state = STATE.get_or_init(|| {
        let (state, error) = State::new(&config);
        ran = Some(error);
        state
    });
    match ran {
        None => Err(ContainError::AlreadySet),
        Some(None) => Ok(&state.status),
        Some(Some(e)) => Err(e),
    }
}

#[cfg(unix)]
/// The containment of this process's hooks: [`Containment::auto`] unless [`contain`] set
/// another before the first run.
pub fn containment() -> &'static ContainmentStatus {
    &state().status
}

#[cfg(unix)]
/// The state, set up with the default on first use.
pub(super) fn state() -> &'static State {
    STATE.get_or_init(|| State::new(&Containment::auto()).0)
}

#[cfg(unix)]
impl State {
    fn new(config: &Containment) -> (Self, Option<ContainError>) {
        use super::cgroup::{Setup, SetupError, mounts};

        let mut status = ContainmentStatus {
            mechanism: Mechanism::TreeWalk,
            reason: String::new(),
            dir: None,
            limits: config.limits,
            warnings: Vec::new(),
            supervisor: None,
        };
        let mut error = None;
        if let Err(e) = check_limits(&config.limits) {
            status.warnings.push(format!("{e}; not applied"));
            status.limits = ResourceLimits::NONE;
            error = Some(e);
        }
        let mounts = mounts().unwrap_or(super::cgroup::Mounts { v2: None, v1: Vec::new() });
        let parent = match (&config.parent, &mounts.v2) {
            (Parent::Off, _) => {
                status.reason = "cgroup containment turned off by the harness".to_owned();
                None
            }
            (Parent::Under(path), _) => Some(path.clone()),
            (Parent::Auto, Some((_, own))) => Some(own.clone()),
            (Parent::Auto, None) => {
                status.reason = "no cgroup2 file system is mounted".to_owned();
                None
            }
        };
        let mut setup = None;
        if let Some(parent) = parent {
            let configured = matches!(config.parent, Parent::Under(_));
            match Setup::new(&mounts, &parent) {
                Ok(made) => {
                    status.mechanism = Mechanism::Cgroup;
                    status.reason = format!(
                        "each hook runs in a cgroup of its own under {}, in {}",
                        made.dir().display(),
                        if configured {
                            "the configured parent"
                        } else {
                            "the harness's own cgroup"
                        }
                    );
                    status.dir = Some(made.dir().to_owned());
                    setup = Some(std::sync::Arc::new(made));
                }
                Err(e) => {
                    let e = match e {
                        SetupError::Missing => ContainError::ParentMissing { path: parent },
                        SetupError::NotACgroup => ContainError::NotACgroup { path: parent },
                        SetupError::NoKill => ContainError::NoCgroupKill { path: parent },
                        SetupError::NotWritable(source) => ContainError::ParentNotWritable {
                            path: parent.join(super::cgroup::dir_name()),
                            source,
                        },
                    };
                    status.reason = format!("{e}; the tree walk is used");
                    if let Some(source) = std::error::Error::source(&e) {
                        status.reason = format!("{e}: {source}; the tree walk is used");
                    }
                    if configured {
                        error = Some(e);
                    }
                }
            }
        }
        if let Some(setup) = &setup {
            for (limit, value) in status.limits.iter() {
                if let Err(why) = setup.check_place(limit) {
                    status.warnings.push(format!("{limit} = {value} cannot be enforced: {why}"));
                }
            }
        } else if !status.limits.is_empty() {
            status.warnings.push("limits need cgroup containment and are not applied".to_owned());
        }
        let mut supervisor = None;
        if config.supervisor {
            let dirs = setup.as_ref().map(|s| s.dirs()).unwrap_or_default();
            match super::supervisor::Keeper::start(dirs) {
                Ok(started) => {
                    status.supervisor = started.pid();
                    supervisor = Some(started);
                }
                Err(e) => status.warnings.push(format!(
                    "no supervisor ({e}): hooks running when the harness is killed outright live on"
                )),
            }
        } else {
            status.warnings.push(
                "no supervisor (turned off): hooks running when the harness is killed outright live on"
                    .to_owned(),
            );
        }
        let state = Self { status, setup, supervisor: std::sync::Mutex::new(supervisor) };
        (state, error)
    }

    /// Makes run `id`'s cgroup, unless the harness has none or the run asks for none
    /// (`wanted`), with `limits` over the harness's; what cannot be done is a warning, and a
    /// run without a cgroup runs with the tree walk.
    pub(super) fn prepare(
        &self,
        id: u64,
        limits: ResourceLimits,
        wanted: bool,
        warnings: &mut Vec<String>,
    ) -> Option<super::cgroup::RunCgroup> {
        self.check_supervisor();
        let setup = self.setup.as_ref().filter(|_| wanted)?;
        match setup.run_cgroup(id, limits.or(self.status.limits), warnings) {
            Ok(cg) => {
                for dir in setup.take_new_dirs() {
                    if let Some(message) = super::supervisor::dir_message(&dir) {
                        self.tell(&message);
                    }
                }
                Some(cg)
            }
            Err(e) => {
                warnings.push(format!(
                    "cannot make the hook's cgroup {}: {e}; the tree walk is used",
                    setup.dir().join(id.to_string()).display()
                ));
                None
            }
        }
    }

    /// Tells the supervisor that the tree-walk run leading process group `pid` started or is
    /// over (through its table, which wakes it not; see `supervisor.rs`).
    pub(super) fn tell_group(&self, started: bool, pid: i32) {
        let mut guard = self.supervisor.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(keeper) = guard.as_mut() {
            keeper.group(started, pid, super::in_flight::tree_groups);
        }
    }

    /// Tells the supervisor something (`+gPGID`, `-gPGID`, `=cNAME`, `dPATH`); nothing when
    /// there is none.
    pub(super) fn tell(&self, message: &str) {
        let mut guard = self.supervisor.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(keeper) = guard.as_mut() {
            keeper.tell(message, super::in_flight::tree_groups);
        }
    }

    /// At most once a second, at the start of a run: a supervisor that is gone is replaced.
    fn check_supervisor(&self) {
        let mut guard = self.supervisor.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(keeper) = guard.as_mut() {
            keeper.check(std::time::Instant::now(), super::in_flight::tree_groups);
        }
    }
}
