//! `cargo xtask bench native`: the cost of a native `around` chain, per registered hook.
//!
//! Three loops run interleaved in one process, round after round (the order alternating), so
//! that machine noise hits them alike: the bare body, `around` with nothing registered, and
//! `around` with 10 befores and 10 afters. The cost per hook is the median over rounds of
//! (chain − body) / 20. A counting global allocator then counts the heap allocations of
//! `around` calls whose subject and result do not allocate; there must be none.

#![expect(clippy::print_stdout, reason = "a benchmark reports on stdout")]

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use hooks_native::{Hooks, Stages, Tool};
use test_support::Counting;

#[global_allocator]
static GLOBAL: Counting = Counting;

/// A harness error of a realistic shape (not zero-sized), so `Result` is not free.
#[derive(Debug)]
#[expect(dead_code, reason = "the hooks of this benchmark never fail")]
struct StageError(&'static str);

struct Bench;

impl Stages for Bench {
    type Error = StageError;
    type TaskSubject = ();
    type TaskResult = ();
    type PromptSubject = ();
    type PromptResult = ();
    type AgentSubject = ();
    type AgentResult = ();
    type ToolSubject = u64;
    type ToolResult = u64;
}

/// Hooks per half: 10 befores and 10 afters.
const PER_HALF: u64 = 10;
/// Calls per loop per round.
const CALLS: u64 = 200_000;
/// Measured rounds (after one warm-up round).
const ROUNDS: usize = 41;
/// The target cost per registered hook.
const TARGET_NS: f64 = 5.0;

/// The stage: a few cycles of real work on the subject.
#[inline]
fn body(x: u64) -> Result<u64, StageError> {
    Ok(x.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(7))
}

/// Nanoseconds per call of the bare body.
fn direct() -> f64 {
    let start = Instant::now();
    for i in 0..CALLS {
        let _ = black_box(body(black_box(i)));
    }
    start.elapsed().as_nanos() as f64 / CALLS as f64
}

/// Nanoseconds per call of `around` on `hooks`.
fn around(hooks: &Hooks<Bench>) -> f64 {
    let start = Instant::now();
    for i in 0..CALLS {
        let _ = black_box(hooks.around(Tool, black_box(i), body));
    }
    start.elapsed().as_nanos() as f64 / CALLS as f64
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() -> ExitCode {
    Counting::start();
    let empty = Hooks::<Bench>::new();
    let mut chained = Hooks::<Bench>::new();
    for k in 0..PER_HALF {
        chained.before(Tool, move |x: u64| Ok(x.wrapping_add(k)));
        chained.after(Tool, move |x: u64| Ok(x ^ k));
    }
    // The registry is opaque to the optimiser, as one built from configuration would be.
    let empty = black_box(&empty);
    let chained = black_box(&chained);

    let (mut bare, mut nothing, mut twenty, mut per_hook) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for round in 0..=ROUNDS {
        let (b, n, t) = if round % 2 == 0 {
            let b = direct();
            let n = around(empty);
            (b, n, around(chained))
        } else {
            let t = around(chained);
            let n = around(empty);
            (direct(), n, t)
        };
        if round == 0 {
            continue; // warm-up
        }
        bare.push(b);
        nothing.push(n);
        twenty.push(t);
        per_hook.push((t - b) / (2 * PER_HALF) as f64);
    }
    let bare = median(&mut bare);
    let nothing = median(&mut nothing);
    let twenty = median(&mut twenty);
    let per_hook = median(&mut per_hook);

    let before = Counting::counts().allocations;
    for i in 0..CALLS {
        let _ = black_box(chained.around(Tool, black_box(i), body));
    }
    let allocations = (Counting::counts().allocations - before) as f64 / CALLS as f64;

    let verdict = |ok: bool| if ok { "met" } else { "MISSED" };
    println!(
        "native: around(Tool, ..) on a u64 subject, median of {ROUNDS} interleaved rounds of {CALLS} calls"
    );
    println!("  bare body                        {bare:8.2} ns/call");
    println!("  around, nothing registered       {nothing:8.2} ns/call");
    println!("  around, 10 befores + 10 afters   {twenty:8.2} ns/call");
    println!(
        "  cost per registered hook         {per_hook:8.2} ns   (target <= {TARGET_NS} ns: {})",
        verdict(per_hook <= TARGET_NS)
    );
    println!(
        "  heap allocations per around call {allocations:8.3}      (target 0: {})",
        verdict(allocations == 0.0)
    );
    // Timings depend on the machine; the allocation count does not, so only it fails the run.
    if allocations == 0.0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
