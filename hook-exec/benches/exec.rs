//! `exec::run` versus a raw spawn, side by side in one process.
//!
//! Hooks: (a) a static no-op built here with `gcc -static -O2`; (b) `sh -c '<the no-op>'` with
//! a 2 KB payload on stdin (ours writes it; the raw baseline has null stdin). Ours runs with
//! its timeout armed, its own process group, piped and captured stdio, the explicit
//! (inherited) environment plus the run marker, and the working directory set. The raw
//! baseline is `std::process::Command` with null stdio and `.status()`.
//!
//! Ours runs on a multi-thread Tokio runtime with one worker per core (the `#[tokio::main]`
//! default), from a spawned task. Each hook runs sequentially and 8 at a time (raw: 8 threads;
//! ours: 8 spawned tasks). Rounds pair raw and ours under the same load (sequential: run by
//! run; 8 at a time: batch by batch, alternating which goes first); the table shows medians
//! per invocation over rounds and the median of the per-round ratios ours / raw (for 8 at a
//! time, as a throughput ratio too). A last pair of rows runs the 8 hooks through a
//! `Dispatcher`, one event at a time, as a harness does: 8 registered hooks per event, each an
//! `exec::run` (on a multi-thread runtime the dispatcher gives each its own task, since every
//! spawn holds its thread until the child has called `execve`); its raw counterpart is 8
//! threads in lockstep, one invocation each per event, the event ending when all have.
//!
//! Containment: ours runs with the process's default containment, cgroups where the machine
//! has them (`exec::containment()` is printed first). The sequential cells also run ours with
//! the tree walk alone (`Invocation::cgroup = false`, the runner as it was before cgroups),
//! interleaved with the other two, and report the cost of cgroup containment side by side:
//! tree walk / raw, cgroup / raw and cgroup / tree walk (target ≤ 1.15 on the static no-op).
//!
//! Knobs, for investigation: `EXEC_BENCH_RUNTIME=current` (a current-thread runtime),
//! `EXEC_BENCH_WORKERS=N`, and `EXEC_BENCH_PROFILE=<static|shell>:<side>:<rounds>` to run one
//! side alone under `strace -c` or `perf`; it ends with the CPU time of the bench process and
//! of its reaped children (`getrusage`), which separates our cost from the hooks' own.

#![expect(clippy::print_stdout, clippy::print_stderr, reason = "a benchmark prints its table")]
#![expect(
    clippy::disallowed_methods,
    reason = "the raw baseline and the gcc build start processes without exec::run on purpose"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use hook_exec::{CommandSpec, Invocation, run};
use hook_protocol::{
    Common, Dispatcher, Event, Hook as HookTrait, HookInfo, HookOutcome, HookStatus, Payload,
    Source, ToolCall, Verdict,
};

/// Rounds per cell; each round runs raw and ours once. A round's ratio varies by ±10% on a
/// noisy two-core machine; the median of 41 keeps the cell's figure within about ±1%.
const ROUNDS: usize = 41;
/// Concurrency of the parallel cells.
const WIDTH: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hook {
    Static,
    Shell,
}

impl Hook {
    fn name(self) -> &'static str {
        match self {
            Hook::Static => "static no-op",
            Hook::Shell => "sh -c no-op, 2 KB stdin",
        }
    }

    /// Invocations per round, per side (sequential cells), or per worker (parallel cells).
    fn count(self, parallel: bool) -> usize {
        match (self, parallel) {
            (Hook::Static, false) => 60,
            (Hook::Shell, false) => 30,
            (Hook::Static, true) => 12,
            (Hook::Shell, true) => 6,
        }
    }
}

struct Bench {
    noop: PathBuf,
    static_inv: Invocation,
    shell_inv: Invocation,
    static_tree: Invocation,
    shell_tree: Invocation,
    static_dispatcher: Dispatcher,
    shell_dispatcher: Dispatcher,
    static_tree_dispatcher: Dispatcher,
    shell_tree_dispatcher: Dispatcher,
    event: Event,
}

/// A hook that runs one invocation through `exec::run`, as a dialect's command hook does.
#[derive(Debug)]
struct ExecHook {
    info: HookInfo,
    inv: Invocation,
}

#[async_trait]
impl HookTrait for ExecHook {
    fn info(&self) -> &HookInfo {
        &self.info
    }

    async fn run(&self, _event: &Event) -> HookOutcome {
        match run(&self.inv).await {
            Ok(out) if out.exit.code() == Some(0) => HookOutcome::success(Verdict::no_opinion()),
            Ok(out) => HookOutcome::failure(HookStatus::Failed, out.exit.to_string()),
            Err(e) => HookOutcome::failure(HookStatus::SpawnFailed, e.to_string()),
        }
    }
}

fn dispatcher(inv: &Invocation) -> Dispatcher {
    let mut builder = Dispatcher::builder();
    for i in 0..WIDTH {
        let info = HookInfo::new(format!("hook-{i}"), Source::new("bench", None));
        builder = builder.hook(ExecHook { info, inv: inv.clone() });
    }
    builder.build().unwrap_or_else(|e| fail(&format!("cannot build the dispatcher: {e}")))
}

impl Bench {
    fn new(noop: PathBuf) -> Self {
        let timeout = Duration::from_secs(10);
        let static_inv = Invocation::new(
            CommandSpec::exec(noop.to_string_lossy(), Vec::<String>::new()),
            "/",
            timeout,
        );
        let mut shell_inv =
            Invocation::new(CommandSpec::shell(noop.to_string_lossy()), "/", timeout);
        shell_inv.stdin = Arc::from(payload());
        let static_dispatcher = dispatcher(&static_inv);
        let shell_dispatcher = dispatcher(&shell_inv);
        let call = ToolCall::new("Bash", serde_json::json!({"command": "true"}));
        let event = Event::new(Common::new("bench", "/"), Payload::PreTool(call));
        let mut static_tree = static_inv.clone();
        static_tree.cgroup = false;
        let mut shell_tree = shell_inv.clone();
        shell_tree.cgroup = false;
        Self {
            noop,
            static_tree_dispatcher: dispatcher(&static_tree),
            shell_tree_dispatcher: dispatcher(&shell_tree),
            static_inv,
            shell_inv,
            static_tree,
            shell_tree,
            static_dispatcher,
            shell_dispatcher,
            event,
        }
    }

    fn invocation(&self, hook: Hook) -> &Invocation {
        match hook {
            Hook::Static => &self.static_inv,
            Hook::Shell => &self.shell_inv,
        }
    }

    fn tree_invocation(&self, hook: Hook) -> &Invocation {
        match hook {
            Hook::Static => &self.static_tree,
            Hook::Shell => &self.shell_tree,
        }
    }

    fn raw_once(&self, hook: Hook) {
        let mut cmd = match hook {
            Hook::Static => Command::new(&self.noop),
            Hook::Shell => {
                let mut c = Command::new("/bin/sh");
                c.arg("-c").arg(&self.noop);
                c
            }
        };
        let status = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap_or_else(|e| fail(&format!("raw spawn failed: {e}")));
        if !status.success() {
            fail(&format!("raw {} exited with {status}", hook.name()));
        }
    }

    async fn ours_once(&self, hook: Hook) {
        Self::check(hook, run(self.invocation(hook)).await);
    }

    async fn tree_once(&self, hook: Hook) {
        Self::check(hook, run(self.tree_invocation(hook)).await);
    }

    fn check(hook: Hook, out: Result<hook_protocol::RawOutcome, hook_exec::ExecError>) {
        match out {
            Ok(out) if out.exit.code() == Some(0) => {}
            Ok(out) => fail(&format!("{} ended with {}", hook.name(), out.exit)),
            Err(e) => fail(&format!("{} did not run: {e}", hook.name())),
        }
    }

    /// One round of sequential runs, raw, ours with the tree walk and ours with the default
    /// containment, run by run in a rotating order: the median µs per invocation of each.
    async fn sequential(&self, hook: Hook) -> [f64; 3] {
        let n = hook.count(false);
        let mut samples: [Vec<f64>; 3] = std::array::from_fn(|_| Vec::with_capacity(n));
        for i in 0..n {
            for k in 0..3 {
                let side = (i + k) % 3;
                let t = Instant::now();
                match side {
                    0 => self.raw_once(hook),
                    1 => self.tree_once(hook).await,
                    _ => self.ours_once(hook).await,
                }
                samples[side].push(micros(t.elapsed()));
            }
        }
        samples.map(|mut s| median(&mut s))
    }

    /// Wall µs per invocation of `WIDTH` raw threads, each running `count` invocations.
    fn raw_parallel(&self, hook: Hook) -> f64 {
        let n = hook.count(true);
        let t = Instant::now();
        std::thread::scope(|s| {
            for _ in 0..WIDTH {
                s.spawn(|| {
                    for _ in 0..n {
                        self.raw_once(hook);
                    }
                });
            }
        });
        micros(t.elapsed()) / (n * WIDTH) as f64
    }

    /// Wall µs per invocation of `WIDTH` raw threads running `count` events in lockstep: each
    /// thread runs one invocation per event and the event ends when all have (the raw
    /// counterpart of a dispatch, which returns when its last hook has).
    fn raw_lockstep(&self, hook: Hook) -> f64 {
        let n = hook.count(true);
        let barrier = std::sync::Barrier::new(WIDTH);
        let t = Instant::now();
        std::thread::scope(|s| {
            for _ in 0..WIDTH {
                s.spawn(|| {
                    for _ in 0..n {
                        self.raw_once(hook);
                        barrier.wait();
                    }
                });
            }
        });
        micros(t.elapsed()) / (n * WIDTH) as f64
    }

    /// The raw side of a parallel cell.
    fn raw_side(&self, hook: Hook, spread: Spread) -> f64 {
        match spread {
            Spread::Tasks => self.raw_parallel(hook),
            Spread::Dispatcher => self.raw_lockstep(hook),
        }
    }

    /// Wall µs per invocation of `WIDTH` concurrent loops of ours, each running `count`
    /// invocations: spawned as tasks (spread over the workers), or polled by one task.
    async fn ours_parallel(self: &Arc<Self>, hook: Hook, spread: Spread, tree: bool) -> f64 {
        let n = hook.count(true);
        let t = Instant::now();
        match spread {
            Spread::Tasks => {
                let tasks: Vec<_> = (0..WIDTH)
                    .map(|_| {
                        let b = Arc::clone(self);
                        tokio::spawn(async move {
                            for _ in 0..n {
                                if tree {
                                    b.tree_once(hook).await;
                                } else {
                                    b.ours_once(hook).await;
                                }
                            }
                        })
                    })
                    .collect();
                for task in tasks {
                    if let Err(e) = task.await {
                        fail(&format!("benchmark task failed: {e}"));
                    }
                }
            }
            Spread::Dispatcher => {
                let dispatcher = match (hook, tree) {
                    (Hook::Static, false) => &self.static_dispatcher,
                    (Hook::Shell, false) => &self.shell_dispatcher,
                    (Hook::Static, true) => &self.static_tree_dispatcher,
                    (Hook::Shell, true) => &self.shell_tree_dispatcher,
                };
                for _ in 0..n {
                    let report = dispatcher.dispatch(&self.event).await;
                    if let Some(r) = report.records.iter().find(|r| r.status != HookStatus::Success)
                    {
                        fail(&format!("{} through the dispatcher: {:?}", hook.name(), r.failure));
                    }
                }
            }
        }
        micros(t.elapsed()) / (n * WIDTH) as f64
    }
}

/// How ours runs `WIDTH` invocations at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spread {
    /// `WIDTH` tasks spawned on the multi-thread runtime.
    Tasks,
    /// One event with `WIDTH` matching hooks through a `Dispatcher`, `count` events in a row.
    Dispatcher,
}

/// One parallel cell of the table.
#[derive(Debug, Clone, Copy)]
struct Cell {
    hook: Hook,
    spread: Spread,
    /// The least throughput of ours (tree walk) relative to raw.
    target: f64,
}

impl Cell {
    fn mode(self) -> &'static str {
        match self.spread {
            Spread::Tasks => "8 tasks",
            Spread::Dispatcher => "dispatch of 8",
        }
    }
}

fn main() -> ExitCode {
    let dir = std::env::temp_dir().join(format!("hook-protocol-bench-{}", std::process::id()));
    let noop = build_noop(&dir);
    let bench = Arc::new(Bench::new(noop));
    // `EXEC_BENCH_RUNTIME=current` measures on a current-thread runtime instead.
    let current = std::env::var("EXEC_BENCH_RUNTIME").is_ok_and(|v| v == "current");
    // `EXEC_BENCH_WORKERS=N` sets the multi-thread runtime's workers (default: one per core).
    let workers: Option<usize> =
        std::env::var("EXEC_BENCH_WORKERS").ok().and_then(|v| v.parse().ok());
    let mut builder = if current {
        tokio::runtime::Builder::new_current_thread()
    } else {
        tokio::runtime::Builder::new_multi_thread()
    };
    if let (false, Some(n)) = (current, workers) {
        builder.worker_threads(n);
    }
    let rt = builder
        .enable_all()
        .build()
        .unwrap_or_else(|e| fail(&format!("cannot build the runtime: {e}")));
    if let Ok(spec) = std::env::var("EXEC_BENCH_PROFILE") {
        profile(&rt, &bench, &spec);
        return ExitCode::SUCCESS;
    }
    let flavour = if current {
        "a current-thread Tokio runtime".to_owned()
    } else {
        format!("a multi-thread Tokio runtime ({} workers)", rt.metrics().num_workers())
    };
    let status = hook_exec::containment();
    let cgroups = status.mechanism() == hook_protocol::Mechanism::Cgroup;
    println!(
        "exec::run versus std::process::Command::status(), {ROUNDS} interleaved rounds; \
         ours on {flavour}, driven from a spawned task"
    );
    println!("containment: {status}");
    println!();
    let mut all_met = true;

    println!(
        "sequential, µs per invocation (median over rounds) and ratios (median of per-round ratios)"
    );
    println!(
        "{:<24} {:>8} {:>10} {:>8} {:>9} {:>11} {:>12}  target",
        "hook", "raw", "tree-walk", "cgroup", "tree/raw", "cgroup/raw", "cgroup/tree"
    );
    for (hook, tree_target) in [(Hook::Static, 1.20), (Hook::Shell, 1.05)] {
        let b = Arc::clone(&bench);
        block(&rt, async move {
            for _ in 0..20 {
                b.raw_once(hook);
                b.tree_once(hook).await;
                b.ours_once(hook).await;
            }
        });
        let mut rounds: Vec<[f64; 3]> = Vec::with_capacity(ROUNDS);
        for _ in 0..ROUNDS {
            let b = Arc::clone(&bench);
            rounds.push(block(&rt, async move { b.sequential(hook).await }));
        }
        let ratio = |num: usize, den: usize| {
            let mut r: Vec<f64> = rounds.iter().map(|x| x[num] / x[den]).collect();
            median(&mut r)
        };
        let column = |i: usize| {
            let mut c: Vec<f64> = rounds.iter().map(|x| x[i]).collect();
            median(&mut c)
        };
        let (tree_raw, cg_raw, cg_tree) = (ratio(1, 0), ratio(2, 0), ratio(2, 1));
        let mut verdict = format!("tree/raw ≤ {tree_target:.2}");
        let mut met = tree_raw <= tree_target;
        if cgroups && hook == Hook::Static {
            verdict.push_str(", cgroup/tree ≤ 1.15");
            met &= cg_tree <= 1.15;
        }
        all_met &= met;
        let (cg, cg_raw, cg_tree) = if cgroups {
            (format!("{:.1}", column(2)), format!("{cg_raw:.3}"), format!("{cg_tree:.3}"))
        } else {
            ("-".to_owned(), "-".to_owned(), "-".to_owned())
        };
        println!(
            "{:<24} {:>8.1} {:>10.1} {:>8} {:>9.3} {:>11} {:>12}  {verdict}{}",
            hook.name(),
            column(0),
            column(1),
            cg,
            tree_raw,
            cg_raw,
            cg_tree,
            if met { "" } else { " missed" }
        );
    }
    println!();
    println!("8 at a time, wall µs per invocation; throughput ratios (median of per-round ratios)");
    println!(
        "{:<24} {:<14} {:>8} {:>10} {:>8} {:>9} {:>11}  target",
        "hook", "mode", "raw", "tree-walk", "cgroup", "raw/tree", "raw/cgroup"
    );
    let cells = [
        Cell { hook: Hook::Static, spread: Spread::Tasks, target: 0.95 },
        Cell { hook: Hook::Shell, spread: Spread::Tasks, target: 0.95 },
        Cell { hook: Hook::Static, spread: Spread::Dispatcher, target: 0.95 },
        Cell { hook: Hook::Shell, spread: Spread::Dispatcher, target: 0.95 },
    ];
    for cell in cells {
        let hook = cell.hook;
        let b = Arc::clone(&bench);
        // Warm-up: page cache, allocator, runtime.
        block(&rt, async move {
            for _ in 0..20 {
                b.raw_once(hook);
                b.tree_once(hook).await;
                b.ours_once(hook).await;
            }
        });
        let mut rounds: Vec<[f64; 3]> = Vec::with_capacity(ROUNDS);
        for round in 0..ROUNDS {
            let b = Arc::clone(&bench);
            rounds.push(block(&rt, async move {
                let mut x = [0.0; 3];
                for k in 0..3 {
                    let side = (round + k) % 3;
                    x[side] = match side {
                        0 => b.raw_side(hook, cell.spread),
                        1 => b.ours_parallel(hook, cell.spread, true).await,
                        _ => b.ours_parallel(hook, cell.spread, false).await,
                    };
                }
                x
            }));
        }
        let ratio = |num: usize, den: usize| {
            let mut r: Vec<f64> = rounds.iter().map(|x| x[num] / x[den]).collect();
            median(&mut r)
        };
        let column = |i: usize| {
            let mut c: Vec<f64> = rounds.iter().map(|x| x[i]).collect();
            median(&mut c)
        };
        // Throughput of ours relative to raw: raw µs / ours µs.
        let (tree_tp, cg_tp) = (ratio(0, 1), ratio(0, 2));
        let met = tree_tp >= cell.target;
        all_met &= met;
        let (cg, cg_tp) = if cgroups {
            (format!("{:.1}", column(2)), format!("{cg_tp:.3}"))
        } else {
            ("-".to_owned(), "-".to_owned())
        };
        println!(
            "{:<24} {:<14} {:>8.1} {:>10.1} {:>8} {:>9.3} {:>11}  tree-walk ≥ {:.2}{}",
            hook.name(),
            cell.mode(),
            column(0),
            column(1),
            cg,
            tree_tp,
            cg_tp,
            cell.target,
            if met { "" } else { " missed" }
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!();
    println!(
        "µs per invocation, median over rounds: sequential = median of single runs in a round; \
         8 at a time = wall / count; ratios = median of per-round ratios; tree-walk = ours with \
         Invocation::cgroup = false (the runner before cgroups), cgroup = ours as configured"
    );
    if !all_met {
        println!("some targets were missed (a loaded machine inflates the parallel cells)");
    }
    ExitCode::SUCCESS
}

/// `EXEC_BENCH_PROFILE=<static|shell>:<raw|ours|raw-par|ours-tasks|ours-dispatch>:<rounds>` runs
/// one side alone, for `strace -c` or `perf`.
fn profile(rt: &tokio::runtime::Runtime, bench: &Arc<Bench>, spec: &str) {
    let parts: Vec<&str> = spec.split(':').collect();
    let [hook, side, rounds] = parts[..] else {
        fail(
            "EXEC_BENCH_PROFILE=<static|shell>:<raw|ours|raw-par|ours-tasks|ours-dispatch>:<rounds>",
        )
    };
    let hook = if hook == "shell" { Hook::Shell } else { Hook::Static };
    let rounds: usize = rounds.parse().unwrap_or(1);
    let b = Arc::clone(bench);
    let side = side.to_owned();
    let mut samples: Vec<f64> = block(rt, async move {
        let mut samples = Vec::with_capacity(rounds);
        for _ in 0..rounds {
            samples.push(match side.as_str() {
                "raw" => {
                    (0..hook.count(false)).map(|_| time(|| b.raw_once(hook))).sum::<f64>()
                        / hook.count(false) as f64
                }
                "raw-par" => b.raw_parallel(hook),
                "ours-tasks" => b.ours_parallel(hook, Spread::Tasks, false).await,
                "ours-dispatch" => b.ours_parallel(hook, Spread::Dispatcher, false).await,
                _ => {
                    let t = Instant::now();
                    for _ in 0..hook.count(false) {
                        b.ours_once(hook).await;
                    }
                    micros(t.elapsed()) / hook.count(false) as f64
                }
            });
        }
        samples
    });
    println!("{spec}: median {:.1} µs per invocation", median(&mut samples));
    println!(
        "cpu ms (user + system): this process {:.1}, its reaped children {:.1}",
        cpu_ms(libc::RUSAGE_SELF),
        cpu_ms(libc::RUSAGE_CHILDREN)
    );
}

/// User plus system CPU time of `who`, in milliseconds.
fn cpu_ms(who: libc::c_int) -> f64 {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: `getrusage` writes one `rusage` into the pointer it is given, which points to
    // zeroed memory of that type; we read it only when the call reports success.
    #[expect(unsafe_code, reason = "getrusage(2), for the profile mode's CPU figures")]
    let usage = unsafe {
        if libc::getrusage(who, usage.as_mut_ptr()) != 0 {
            return f64::NAN;
        }
        usage.assume_init()
    };
    let ms = |t: libc::timeval| t.tv_sec as f64 * 1e3 + t.tv_usec as f64 / 1e3;
    ms(usage.ru_utime) + ms(usage.ru_stime)
}

/// Runs a future to completion inside a task spawned on the runtime (as a harness would run
/// its hooks), not on the blocked calling thread.
fn block<T: Send + 'static>(
    rt: &tokio::runtime::Runtime,
    fut: impl std::future::Future<Output = T> + Send + 'static,
) -> T {
    rt.block_on(async move { tokio::spawn(fut).await })
        .unwrap_or_else(|e| fail(&format!("benchmark task failed: {e}")))
}

fn build_noop(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir)
        .unwrap_or_else(|e| fail(&format!("cannot create `{}`: {e}", dir.display())));
    let source = dir.join("noop.c");
    let binary = dir.join("noop");
    std::fs::write(&source, "int main(void) { return 0; }\n")
        .unwrap_or_else(|e| fail(&format!("cannot write `{}`: {e}", source.display())));
    let status = Command::new("gcc")
        .args(["-static", "-O2", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .unwrap_or_else(|e| {
            fail(&format!(
                "the exec benchmark needs `gcc` (with static libc) to build its no-op hook: {e}"
            ))
        });
    if !status.success() {
        fail(&format!("`gcc -static -O2` failed ({status}); is the static libc installed?"));
    }
    binary
}

fn payload() -> Vec<u8> {
    let mut p =
        br#"{"session_id":"bench","hook_event_name":"PreToolUse","tool_input":{"command":""#
            .to_vec();
    p.resize(2047, b'x');
    p.extend_from_slice(b"\n");
    p
}

fn time(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    micros(t.elapsed())
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn median(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn fail(message: &str) -> ! {
    eprintln!("bench exec: {message}");
    std::process::exit(1)
}
