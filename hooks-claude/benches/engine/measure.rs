//! Timing, CPU and allocation counters, and the statistics of a cell.

use std::time::Duration;

/// The global allocator: `System`, counting allocations and bytes while [`Alloc::start`]ed (only
/// during the memory phase, so that the timed cells pay nothing for it but one relaxed load).
pub(crate) use test_support::Counting;

/// Allocation counts over a stretch of code.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Alloc {
    /// Allocations (and reallocations).
    pub(crate) count: u64,
    /// Bytes allocated.
    pub(crate) bytes: u64,
    /// Bytes allocated less bytes freed: what stayed live.
    pub(crate) live: i64,
}

impl Alloc {
    /// Starts counting from zero.
    pub(crate) fn start() {
        Counting::start();
    }

    /// Stops counting and returns the counts.
    pub(crate) fn stop() -> Alloc {
        let counts = Counting::stop();
        Alloc { count: counts.allocations, bytes: counts.allocated, live: counts.live() }
    }
}

/// User plus system CPU time of this process (every thread), in µs.
pub(crate) fn cpu_us() -> f64 {
    let (user, system) = cpu_split_us();
    user + system
}

/// User and system CPU time of this process (every thread), in µs.
pub(crate) fn cpu_split_us() -> (f64, f64) {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: `getrusage` writes one `rusage` into the pointer it is given, which points to
    // zeroed memory of that type; we read it only when the call reports success.
    #[expect(unsafe_code, reason = "getrusage(2): the harness process's CPU time")]
    let usage = unsafe {
        if libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) != 0 {
            return (f64::NAN, f64::NAN);
        }
        usage.assume_init()
    };
    let us = |t: libc::timeval| t.tv_sec as f64 * 1e6 + t.tv_usec as f64;
    (us(usage.ru_utime), us(usage.ru_stime))
}

/// Resident memory of this process, in KiB (`VmRSS`), or 0 when unreadable.
pub(crate) fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

pub(crate) fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// The median (the upper one of an even count); NaN for none.
pub(crate) fn median(samples: &[f64]) -> f64 {
    let mut s = samples.to_vec();
    s.sort_by(f64::total_cmp);
    s.get(s.len() / 2).copied().unwrap_or(f64::NAN)
}

/// What one side of a cell measured in one round: µs per event and CPU µs per event.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sample {
    pub(crate) us: f64,
    pub(crate) cpu: f64,
}

/// The rounds of one cell, raw and ours paired round by round.
#[derive(Debug, Default)]
pub(crate) struct Rounds {
    raw: Vec<Sample>,
    ours: Vec<Sample>,
}

/// The figures of a cell.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Figures {
    pub(crate) raw_us: f64,
    pub(crate) ours_us: f64,
    /// Median of the per-round ratios ours / raw.
    pub(crate) ratio: f64,
    pub(crate) raw_cpu: f64,
    pub(crate) ours_cpu: f64,
}

impl Rounds {
    pub(crate) fn push(&mut self, raw: Sample, ours: Sample) {
        self.raw.push(raw);
        self.ours.push(ours);
    }

    pub(crate) fn figures(&self) -> Figures {
        let us = |s: &[Sample]| median(&s.iter().map(|x| x.us).collect::<Vec<_>>());
        let cpu = |s: &[Sample]| median(&s.iter().map(|x| x.cpu).collect::<Vec<_>>());
        let ratios: Vec<f64> = self.ours.iter().zip(&self.raw).map(|(o, r)| o.us / r.us).collect();
        Figures {
            raw_us: us(&self.raw),
            ours_us: us(&self.ours),
            ratio: median(&ratios),
            raw_cpu: cpu(&self.raw),
            ours_cpu: cpu(&self.ours),
        }
    }
}
