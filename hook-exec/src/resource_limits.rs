//! Resource limits for a hook's cgroup: plain data, read by the containment and the cgroups.

use hook_protocol::ResourceLimit;
use serde::Serialize;

/// Resource limits for a hook's cgroup; `None` leaves a resource unlimited.
///
/// Set for the whole harness with [`Containment::limits`](crate::Containment::limits) and per
/// hook with [`Invocation::resources`](crate::Invocation::resources), whose set fields win.
/// Limits need cgroup containment: a run with the tree walk has none (its record says which
/// mechanism ran it), and a limit the kernel refuses is a warning of the run's record, naming
/// the file and the value; the hook runs without it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[non_exhaustive]
pub struct ResourceLimits {
    /// `pids.max`.
    pub pids_max: Option<u64>,
    /// `memory.max`, in bytes.
    pub memory_max: Option<u64>,
    /// `cpu.weight`, 1 to 10000.
    pub cpu_weight: Option<u64>,
}

impl ResourceLimits {
    /// No limit.
    pub const NONE: ResourceLimits =
        ResourceLimits { pids_max: None, memory_max: None, cpu_weight: None };

    /// No limit (the same as [`ResourceLimits::NONE`]).
    pub fn new() -> Self {
        Self::NONE
    }

    /// Sets `pids.max`.
    #[must_use]
    pub fn pids_max(mut self, max: u64) -> Self {
        self.pids_max = Some(max);
        self
    }

    /// Sets `memory.max`, in bytes.
    #[must_use]
    pub fn memory_max(mut self, bytes: u64) -> Self {
        self.memory_max = Some(bytes);
        self
    }

    /// Sets `cpu.weight` (1 to 10000).
    #[must_use]
    pub fn cpu_weight(mut self, weight: u64) -> Self {
        self.cpu_weight = Some(weight);
        self
    }

    /// These limits, with `fallback`'s for the resources these leave unset.
    #[must_use]
    pub fn or(self, fallback: ResourceLimits) -> Self {
        Self {
            pids_max: self.pids_max.or(fallback.pids_max),
            memory_max: self.memory_max.or(fallback.memory_max),
            cpu_weight: self.cpu_weight.or(fallback.cpu_weight),
        }
    }

    /// Whether no limit is set.
    pub fn is_empty(&self) -> bool {
        *self == Self::NONE
    }

    /// The limits that are set, with their values.
    pub fn iter(&self) -> impl Iterator<Item = (ResourceLimit, u64)> + use<> {
        [
            (ResourceLimit::Pids, self.pids_max),
            (ResourceLimit::Memory, self.memory_max),
            (ResourceLimit::CpuWeight, self.cpu_weight),
        ]
        .into_iter()
        .filter_map(|(limit, value)| Some((limit, value?)))
    }
}
