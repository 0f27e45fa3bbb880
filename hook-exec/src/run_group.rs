//! [`RunGroup`]: the hooks one engine runs, with the containment choices they share, and the
//! means to end them together.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::{Invocation, ResourceLimits};

/// The source of group ids; 0 is no group.
static NEXT: AtomicU64 = AtomicU64::new(1);

/// The hooks one engine (or any owner) runs: its containment choices for them, over the
/// process's ([`contain`](crate::contain)), and the means to count and end the ones still
/// running without touching another engine's.
///
/// Engines of one process each make their own, so that they can differ (one with a memory
/// limit, one without cgroups) and each can end its own hooks; a copy is the same group.
/// [`apply`](Self::apply) puts the group on an invocation before it runs.
///
/// ```
/// use hook_exec::{ResourceLimits, RunGroup};
///
/// let mut limits = ResourceLimits::NONE;
/// limits.pids_max = Some(64);
/// let strict = RunGroup::new().resource_limits(limits);
/// let loose = RunGroup::new().cgroups(false);
/// assert_ne!(strict, loose);
/// assert_eq!(strict.running(), 0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunGroup {
    id: u64,
    resources: ResourceLimits,
    cgroups: bool,
}

impl Default for RunGroup {
    fn default() -> Self {
        Self::new()
    }
}

impl RunGroup {
    /// A new group: no limits of its own, cgroups where the process has them.
    pub fn new() -> Self {
        Self {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            resources: ResourceLimits::NONE,
            cgroups: true,
        }
    }

    /// Resource limits for each of the group's hooks (`pids.max`, `memory.max`, `cpu.weight`),
    /// over the process's: the fields set here win. They apply where the hooks run in cgroups.
    #[must_use]
    pub fn resource_limits(mut self, limits: ResourceLimits) -> Self {
        self.resources = limits;
        self
    }

    /// Whether the group's hooks run in a cgroup of their own where the process has cgroup
    /// containment (the default), or, `false`, with the tree walk and no resource limits. The
    /// parent cgroup and the supervisor stay the process's.
    #[must_use]
    pub fn cgroups(mut self, on: bool) -> Self {
        self.cgroups = on;
        self
    }

    /// The group's resource limits.
    pub fn limits(&self) -> ResourceLimits {
        self.resources
    }

    /// Whether the group's hooks run in cgroups where the process has them.
    pub fn uses_cgroups(&self) -> bool {
        self.cgroups
    }

    /// Puts the group's choices on an invocation, and lists its run as the group's.
    pub fn apply(&self, inv: &mut Invocation) {
        inv.resources = self.resources;
        inv.cgroup = self.cgroups;
        inv.group = self.id;
    }

    /// How many of the group's hooks are running now.
    #[cfg(unix)]
    pub fn running(&self) -> usize {
        crate::in_flight::count(Some(self.id))
    }

    /// Ends the group's running hooks, as [`kill_running`](crate::kill_running) ends the
    /// process's: SIGTERM to each one's tree or cgroup, up to `grace` for them to go, then
    /// SIGKILL. Another group's hooks are not touched. Returns how many were running.
    ///
    /// It blocks for at most `grace` plus a few `/proc` scans: call it from a task or a thread,
    /// never from a signal handler.
    #[cfg(unix)]
    pub fn kill_running(&self, grace: Duration) -> usize {
        crate::in_flight::kill(Some(self.id), grace)
    }
}
