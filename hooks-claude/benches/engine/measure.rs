//! Timing, CPU and allocation counters, and the statistics of a cell.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// Whether the allocator counts (only during the memory phase, so that the timed cells pay
/// nothing for it but one relaxed load).
static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static ALLOCATED: AtomicU64 = AtomicU64::new(0);
static FREED: AtomicU64 = AtomicU64::new(0);

/// The global allocator: `System`, counting allocations and bytes while [`Alloc::start`]ed.
pub(crate) struct Counting;

#[expect(unsafe_code, reason = "a global allocator is an unsafe impl; it forwards to `System`")]
// SAFETY: every method forwards to `System` with the arguments it received.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_alloc(layout.size());
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which `System` shares.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count_alloc(layout.size());
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if COUNTING.load(Ordering::Relaxed) {
            FREED.fetch_add(layout.size() as u64, Ordering::Relaxed);
        }
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
            ALLOCATED.fetch_add(new_size as u64, Ordering::Relaxed);
            FREED.fetch_add(layout.size() as u64, Ordering::Relaxed);
        }
        // SAFETY: as for `dealloc`; `new_size` comes from the caller's contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

fn count_alloc(size: usize) {
    if COUNTING.load(Ordering::Relaxed) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        ALLOCATED.fetch_add(size as u64, Ordering::Relaxed);
    }
}

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
        ALLOCATIONS.store(0, Ordering::Relaxed);
        ALLOCATED.store(0, Ordering::Relaxed);
        FREED.store(0, Ordering::Relaxed);
        COUNTING.store(true, Ordering::SeqCst);
    }

    /// Stops counting and returns the counts.
    pub(crate) fn stop() -> Alloc {
        COUNTING.store(false, Ordering::SeqCst);
        let bytes = ALLOCATED.load(Ordering::Relaxed);
        let freed = FREED.load(Ordering::Relaxed);
        Alloc {
            count: ALLOCATIONS.load(Ordering::Relaxed),
            bytes,
            live: bytes as i64 - freed as i64,
        }
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
