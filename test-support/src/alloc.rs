//! [`Counting`], the global allocator that counts what a test, an example or a bench allocates.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Whether the allocator counts: off until [`Counting::start`], so that what runs outside a
/// measured stretch pays one relaxed load per allocation and nothing more.
static ON: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static ALLOCATED: AtomicU64 = AtomicU64::new(0);
static FREED: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// Bytes this thread allocated while counting (a reallocation counts what it grew by).
    static THREAD: Cell<u64> = const { Cell::new(0) };
}

/// `System`, counting allocations and bytes while on: install it with
/// `#[global_allocator] static ALLOC: Counting = Counting;`, then [`Counting::start`] and read
/// [`Counting::counts`] (every thread) or [`Counting::thread_allocated`] (this thread).
///
/// A reallocation is one allocation of its new size and the freeing of its old one; for
/// [`Counting::thread_allocated`], the bytes it grew by.
#[derive(Debug, Clone, Copy, Default)]
pub struct Counting;

/// What the allocator counted since [`Counting::start`], on every thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    /// Allocations and reallocations.
    pub allocations: u64,
    /// Bytes allocated.
    pub allocated: u64,
    /// Bytes freed.
    pub freed: u64,
}

impl Counts {
    /// Bytes allocated less bytes freed: what stayed live.
    pub fn live(&self) -> i64 {
        self.allocated as i64 - self.freed as i64
    }
}

impl Counting {
    /// Starts counting from zero.
    pub fn start() {
        ALLOCATIONS.store(0, Ordering::Relaxed);
        ALLOCATED.store(0, Ordering::Relaxed);
        FREED.store(0, Ordering::Relaxed);
        ON.store(true, Ordering::SeqCst);
    }

    /// Stops counting and returns the counts.
    pub fn stop() -> Counts {
        ON.store(false, Ordering::SeqCst);
        Self::counts()
    }

    /// The counts so far.
    pub fn counts() -> Counts {
        Counts {
            allocations: ALLOCATIONS.load(Ordering::Relaxed),
            allocated: ALLOCATED.load(Ordering::Relaxed),
            freed: FREED.load(Ordering::Relaxed),
        }
    }

    /// Bytes this thread allocated while counting, since it started.
    pub fn thread_allocated() -> u64 {
        THREAD.try_with(Cell::get).unwrap_or(0)
    }
}

fn allocated(bytes: usize, thread_bytes: usize) {
    if ON.load(Ordering::Relaxed) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        ALLOCATED.fetch_add(bytes as u64, Ordering::Relaxed);
        // `try_with`: the slot may be gone while the thread is being torn down.
        let _ = THREAD.try_with(|t| t.set(t.get() + thread_bytes as u64));
    }
}

fn freed(bytes: usize) {
    if ON.load(Ordering::Relaxed) {
        FREED.fetch_add(bytes as u64, Ordering::Relaxed);
    }
}

#[expect(unsafe_code, reason = "a global allocator is an unsafe impl; it forwards to `System`")]
// SAFETY: every method forwards to `System` with the arguments it received.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        allocated(layout.size(), layout.size());
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which `System` shares.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        allocated(layout.size(), layout.size());
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        freed(layout.size());
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        allocated(new_size, new_size.saturating_sub(layout.size()));
        freed(layout.size());
        // SAFETY: as for `dealloc`; `new_size` comes from the caller's contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}
