//! `cargo xtask bench engine`: the whole engine against the raw floor, side by side in one
//! process.
//!
//! `hooks_claude::Engine` fires PreToolUse (a 2 KB payload) with 1 and with 8 matching hooks,
//! one event at a time and 4 events at a time, against std's `Command` running the same
//! command lines (stdin from a file holding the payload, stdout to `/dev/null`), `n` threads
//! in lockstep for `n` hooks. The hook is a static no-op that reads stdin and prints an allow,
//! run through `sh -c` (shell form with the no-shell fast path off) and directly (exec form);
//! a third table runs the same shell-form command with the fast path on (plain words: no
//! shell) against the `sh -c` floor it replaces; a fourth (`tree.rs`) runs the one-hook cells
//! again with the tree walk, the containment where no cgroup can be made. Rounds interleave
//! the two sides (event by event when sequential, batch by batch when concurrent, which goes
//! first alternating); the tables show medians over rounds, the median of the per-round
//! ratios, and the CPU time of this process per event (`getrusage`, every thread), which is
//! the harness's cost apart from the hooks' own. The `capture` table (`capture.rs`) adds std's
//! own way of capturing a hook (its payload piped in, its output read back) as a third side
//! of the one-hook cells, to tell what capturing costs any runner. A last table measures
//! scale: 1,000 configured hooks of which none matches, 100 matching hooks against 100 raw
//! spawns at the engine's concurrency, loading a settings file of 1,000 hooks, and the memory
//! an event allocates.
//!
//! Knobs (out of range: an error naming the knob):
//! - `ENGINE_BENCH_ROUNDS=N` (1 to 1000, default 21): rounds per cell.
//! - `ENGINE_BENCH_RUNTIME=multi|current` (default `multi`, one worker per core).
//! - `ENGINE_BENCH_CONTAIN=auto|off` (default `auto`, what a harness gets: a cgroup per hook
//!   where one can be made, else the process-tree walk; `off`: the tree walk only).
//! - `ENGINE_BENCH_ONLY=engine,capture,tree,fast,scale`: the tables to run (default all;
//!   `tree` runs in a second process when this one has cgroups, and is the `engine` table's
//!   when it has none).
//! - `ENGINE_BENCH_PROFILE=<shell|direct|plain>:<hooks>:<raw|piped|ours|shown>:<events>`: one
//!   side alone, for `perf`, `strace -c` or `valgrind --tool=callgrind`; prints µs and CPU µs
//!   per event (`piped`: the raw floor capturing as std does, see `capture.rs`; `shown`: ours,
//!   and `Fired::shown` after each event, as a harness's loop does).
//!   `ENGINE_BENCH_PROFILE=load:<rounds>`: loading 1,000 hooks and building the engine alone;
//!   `ENGINE_BENCH_PROFILE=unmatched:<hooks>:<events>`: events none of `hooks` matches.
//!
//! Every run is bounded: hooks have a 10 s timeout and a watchdog ends the bench, naming the
//! cell, when one cell runs past 5 minutes.

#![expect(clippy::print_stdout, clippy::print_stderr, reason = "a benchmark prints its table")]

mod capture;
mod measure;
mod raw;
mod scale;
mod setup;
mod tree;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hook_protocol::{HookStatus, ToolPermission};
use hooks_claude::Engine;
use hooks_claude::input::PreToolUse;

use measure::{Counting, Rounds, Sample, cpu_us, median, micros};
use raw::{Lockstep, Raw};
use setup::Form;

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The tables, in the order they run.
const TABLES: [&str; 5] = ["engine", "capture", "tree", "fast", "scale"];

/// The target ratio of a sequential cell of the engine and tree-walk tables.
pub(crate) const SEQUENTIAL_RATIO: f64 = 1.05;
/// The target harness CPU, in µs, of a one-hook sequential event.
pub(crate) const ONE_HOOK_CPU: f64 = 80.0;

/// Events in flight in the concurrent cells.
const IN_FLIGHT: usize = 4;
/// The longest one cell may take before the watchdog ends the bench.
const CELL_LIMIT: Duration = Duration::from_secs(300);

/// The bench's knobs, read and checked once.
#[derive(Debug, Clone)]
pub(crate) struct Knobs {
    pub(crate) rounds: usize,
    current_thread: bool,
    only: Vec<String>,
    profile: Option<String>,
    contain_off: bool,
}

impl Knobs {
    fn read() -> Self {
        let rounds = match std::env::var("ENGINE_BENCH_ROUNDS") {
            Err(_) => 21,
            Ok(v) => match v.trim().parse::<usize>() {
                Ok(n) if (1..=1000).contains(&n) => n,
                _ => fail(&format!(
                    "ENGINE_BENCH_ROUNDS must be a whole number from 1 to 1000, got `{v}`"
                )),
            },
        };
        let current_thread = match std::env::var("ENGINE_BENCH_RUNTIME").as_deref() {
            Err(_) | Ok("multi") => false,
            Ok("current") => true,
            Ok(other) => {
                fail(&format!("ENGINE_BENCH_RUNTIME must be `multi` or `current`, got `{other}`"))
            }
        };
        let only: Vec<String> = match std::env::var("ENGINE_BENCH_ONLY") {
            Err(_) => TABLES.iter().map(|t| (*t).to_owned()).collect(),
            Ok(v) => v.split(',').map(|s| s.trim().to_owned()).collect(),
        };
        if let Some(bad) = only.iter().find(|t| !TABLES.contains(&t.as_str())) {
            fail(&format!(
                "ENGINE_BENCH_ONLY takes `engine`, `capture`, `tree`, `fast` and `scale`, \
                 comma-separated; got `{bad}`"
            ));
        }
        let contain_off = match std::env::var("ENGINE_BENCH_CONTAIN").as_deref() {
            Err(_) | Ok("auto") => false,
            Ok("off") => true,
            Ok(other) => {
                fail(&format!("ENGINE_BENCH_CONTAIN must be `auto` or `off`, got `{other}`"))
            }
        };
        let profile = std::env::var("ENGINE_BENCH_PROFILE").ok();
        Self { rounds, current_thread, only, profile, contain_off }
    }

    fn runs(&self, table: &str) -> bool {
        self.only.iter().any(|t| t == table)
    }
}

/// Ends the bench with a message.
pub(crate) fn fail(message: &str) -> ! {
    eprintln!("bench engine: {message}");
    std::process::exit(1)
}

/// The cell now running, for the watchdog.
static CELL: Mutex<Option<(String, Instant)>> = Mutex::new(None);

pub(crate) fn enter(cell: &str) {
    *CELL.lock().unwrap_or_else(|e| e.into_inner()) = Some((cell.to_owned(), Instant::now()));
}

fn watchdog() {
    std::thread::spawn(|| {
        loop {
            std::thread::sleep(Duration::from_secs(1));
            let cell = CELL.lock().unwrap_or_else(|e| e.into_inner()).clone();
            if let Some((name, since)) = cell
                && since.elapsed() > CELL_LIMIT
            {
                fail(&format!("cell `{name}` ran past {} s; stopping", CELL_LIMIT.as_secs()));
            }
        }
    });
}

/// Everything a cell needs, shared with the runtime's tasks.
pub(crate) struct Ctx {
    pub(crate) dir: PathBuf,
    pub(crate) noop: PathBuf,
    pub(crate) stdin: PathBuf,
    pub(crate) input: Arc<PreToolUse>,
    pub(crate) rt: tokio::runtime::Runtime,
    pub(crate) knobs: Knobs,
}

impl Ctx {
    /// Runs a future to its end inside a task spawned on the runtime, as a harness runs its
    /// hooks (not on the blocked calling thread).
    pub(crate) fn block<T: Send + 'static>(
        &self,
        fut: impl std::future::Future<Output = T> + Send + 'static,
    ) -> T {
        self.rt
            .block_on(async move { tokio::spawn(fut).await })
            .unwrap_or_else(|e| fail(&format!("benchmark task failed: {e}")))
    }
}

/// Fires one event and checks that every hook allowed it.
pub(crate) async fn fire(engine: &Engine, input: &PreToolUse, hooks: usize) {
    fired(engine, input, hooks).await;
}

/// Fires one event, checks that every hook allowed it, and renders what Claude Code shows
/// after it, as a harness's loop does.
async fn fire_and_show(engine: &Engine, input: &PreToolUse, hooks: usize) {
    let shown = fired(engine, input, hooks).await.shown();
    std::hint::black_box(shown);
}

async fn fired(
    engine: &Engine,
    input: &PreToolUse,
    hooks: usize,
) -> hooks_claude::Fired<hooks_claude::ToolCallDecision> {
    let fired = engine.pre_tool_use(input).await;
    let records = &fired.report.records;
    let allowed = matches!(fired.decision.permission, ToolPermission::Allow { .. });
    if records.len() != hooks
        || records.iter().any(|r| r.status != HookStatus::Success)
        || allowed != (hooks > 0)
    {
        fail(&format!("an event did not get {hooks} allows: {:?}", fired.records()));
    }
    fired
}

/// One cell of the engine, tree-walk and no-shell tables.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cell {
    pub(crate) form: Form,
    pub(crate) hooks: usize,
    pub(crate) concurrent: bool,
}

impl Cell {
    fn name(self) -> String {
        let mode =
            if self.concurrent { format!("{IN_FLIGHT} in flight") } else { "one at a time".into() };
        format!(
            "{} · {} hook{} · {mode}",
            self.form.name(),
            self.hooks,
            if self.hooks == 1 { "" } else { "s" }
        )
    }

    /// Events per round, per side (concurrent: per group).
    fn events(self) -> usize {
        let base = match (self.hooks, self.form) {
            (1, Form::Shell) => 20,
            (1, _) => 40,
            (_, Form::Shell) => 6,
            _ => 10,
        };
        if self.concurrent { (base / 2).max(2) } else { base }
    }
}

/// One round of a sequential cell: raw and ours alternating event by event (which goes first
/// alternating too); per side the median µs per event and the mean CPU µs per event.
async fn sequential_round(
    ctx: Arc<Ctx>,
    engine: Arc<Engine>,
    raw: Arc<Raw>,
    cell: Cell,
) -> (Sample, Sample) {
    let n = cell.events();
    let (mut raw_us, mut ours_us) = (Vec::with_capacity(n), Vec::with_capacity(n));
    let (mut raw_cpu, mut ours_cpu) = (0.0, 0.0);
    // The raw side blocks this worker while it runs; ours is idle meanwhile, and the reverse.
    let lockstep = Lockstep::new(&raw, cell.hooks, n);
    for k in 0..n {
        let raw_first = k.is_multiple_of(2);
        if raw_first {
            let (us, cpu) = timed(|| lockstep.event());
            raw_us.push(us);
            raw_cpu += cpu;
        }
        let cpu = cpu_us();
        let t = Instant::now();
        fire(&engine, &ctx.input, cell.hooks).await;
        ours_us.push(micros(t.elapsed()));
        ours_cpu += cpu_us() - cpu;
        if !raw_first {
            let (us, cpu) = timed(|| lockstep.event());
            raw_us.push(us);
            raw_cpu += cpu;
        }
    }
    lockstep.join();
    let per = n as f64;
    (
        Sample { us: median(&raw_us), cpu: raw_cpu / per },
        Sample { us: median(&ours_us), cpu: ours_cpu / per },
    )
}

/// Ours in a concurrent cell: `IN_FLIGHT` tasks each firing `events` events; wall and CPU µs
/// per event.
async fn ours_concurrent(
    ctx: &Arc<Ctx>,
    engine: &Arc<Engine>,
    hooks: usize,
    events: usize,
) -> Sample {
    let cpu = cpu_us();
    let t = Instant::now();
    let tasks: Vec<_> = (0..IN_FLIGHT)
        .map(|_| {
            let (ctx, engine) = (Arc::clone(ctx), Arc::clone(engine));
            tokio::spawn(async move {
                for _ in 0..events {
                    fire(&engine, &ctx.input, hooks).await;
                }
            })
        })
        .collect();
    for task in tasks {
        if let Err(e) = task.await {
            fail(&format!("a firing task failed: {e}"));
        }
    }
    let per = (IN_FLIGHT * events) as f64;
    Sample { us: micros(t.elapsed()) / per, cpu: (cpu_us() - cpu) / per }
}

/// One round of a concurrent cell, the side that goes first alternating by round.
async fn concurrent_round(
    ctx: Arc<Ctx>,
    engine: Arc<Engine>,
    raw: Arc<Raw>,
    cell: Cell,
    round: usize,
) -> (Sample, Sample) {
    let events = cell.events();
    let raw_side = || {
        let cpu = cpu_us();
        let us = raw.concurrent(IN_FLIGHT, cell.hooks, events);
        Sample { us, cpu: (cpu_us() - cpu) / (IN_FLIGHT * events) as f64 }
    };
    if round.is_multiple_of(2) {
        let r = raw_side();
        (r, ours_concurrent(&ctx, &engine, cell.hooks, events).await)
    } else {
        let o = ours_concurrent(&ctx, &engine, cell.hooks, events).await;
        (raw_side(), o)
    }
}

fn timed(f: impl FnOnce()) -> (f64, f64) {
    let cpu = cpu_us();
    let t = Instant::now();
    f();
    (micros(t.elapsed()), cpu_us() - cpu)
}

/// Measures one cell over the rounds, after a warm-up.
pub(crate) fn measure(ctx: &Arc<Ctx>, cell: Cell) -> measure::Figures {
    enter(&cell.name());
    let engine = Arc::new(setup::engine_of(&ctx.dir, &ctx.noop, cell.form, cell.hooks));
    let raw = Arc::new(Raw::new(&ctx.noop, &ctx.stdin, cell.form));
    {
        let (c, e, r) = (Arc::clone(ctx), Arc::clone(&engine), Arc::clone(&raw));
        ctx.block(async move {
            let lockstep = Lockstep::new(&r, cell.hooks, 10);
            for _ in 0..10 {
                lockstep.event();
                fire(&e, &c.input, cell.hooks).await;
            }
            lockstep.join();
        });
    }
    let mut rounds = Rounds::default();
    for round in 0..ctx.knobs.rounds {
        let (c, e, r) = (Arc::clone(ctx), Arc::clone(&engine), Arc::clone(&raw));
        let (raw_s, ours_s) = if cell.concurrent {
            ctx.block(concurrent_round(c, e, r, cell, round))
        } else {
            ctx.block(sequential_round(c, e, r, cell))
        };
        rounds.push(raw_s, ours_s);
    }
    rounds.figures()
}

pub(crate) fn header(first: &str) {
    println!(
        "{first:<44} {:>9} {:>9} {:>7} {:>9} {:>9}  target",
        "raw µs", "ours µs", "ratio", "raw cpu", "ours cpu"
    );
}

pub(crate) fn row(
    cell: Cell,
    f: &measure::Figures,
    target: Option<f64>,
    cpu_target: Option<f64>,
) -> bool {
    let mut met = true;
    let mut notes = Vec::new();
    if let Some(t) = target {
        let ok = f.ratio <= t;
        met &= ok;
        notes.push(format!("ratio ≤ {t:.2}{}", if ok { "" } else { " MISSED" }));
    }
    if let Some(t) = cpu_target {
        let ok = f.ours_cpu <= t;
        met &= ok;
        notes.push(format!("cpu ≤ {t:.0} µs{}", if ok { "" } else { " MISSED" }));
    }
    println!(
        "{:<44} {:>9.1} {:>9.1} {:>7.3} {:>9.1} {:>9.1}  {}",
        cell.name(),
        f.raw_us,
        f.ours_us,
        f.ratio,
        f.raw_cpu,
        f.ours_cpu,
        if notes.is_empty() { "—".to_owned() } else { notes.join(", ") }
    );
    met
}

fn main() -> ExitCode {
    let knobs = Knobs::read();
    watchdog();
    let config = if knobs.contain_off {
        hook_exec::Containment::off()
    } else {
        hook_exec::Containment::auto()
    };
    let status = hook_exec::contain(config)
        .unwrap_or_else(|e| fail(&format!("cannot set the containment: {e}")));
    let containment = format!("containment {} ({})", status.mechanism().as_str(), status.reason());
    let dir = std::env::temp_dir().join(format!("hooks-claude-bench-{}", std::process::id()));
    let noop = setup::build_noop(&dir);
    let input = Arc::new(setup::event(&dir));
    let stdin = dir.join("payload.json");
    std::fs::write(&stdin, setup::stdin_of(&input))
        .unwrap_or_else(|e| fail(&format!("cannot write `{}`: {e}", stdin.display())));
    let mut builder = if knobs.current_thread {
        tokio::runtime::Builder::new_current_thread()
    } else {
        tokio::runtime::Builder::new_multi_thread()
    };
    let rt = builder
        .enable_all()
        .build()
        .unwrap_or_else(|e| fail(&format!("cannot build the runtime: {e}")));
    let flavour = if knobs.current_thread {
        "a current-thread Tokio runtime".to_owned()
    } else {
        format!("a multi-thread Tokio runtime ({} workers)", rt.metrics().num_workers())
    };
    let ctx = Arc::new(Ctx { dir: dir.clone(), noop, stdin, input, rt, knobs: knobs.clone() });
    if let Some(spec) = &knobs.profile {
        profile(&ctx, spec);
        let _ = std::fs::remove_dir_all(&dir);
        return ExitCode::SUCCESS;
    }
    if tree::nested() {
        println!();
        let met = tree::rows(&ctx);
        let _ = std::fs::remove_dir_all(&dir);
        tree::exit_nested(met);
    }
    println!(
        "hooks_claude::Engine firing PreToolUse (2 KB payload) against std::process::Command on \
         the same command lines; {} interleaved rounds, on {flavour}; {containment}",
        knobs.rounds
    );
    let mut all_met = true;
    if knobs.runs("engine") {
        println!();
        header("engine vs raw floor");
        for form in [Form::Shell, Form::Direct] {
            for hooks in [1, 8] {
                for concurrent in [false, true] {
                    let cell = Cell { form, hooks, concurrent };
                    let f = measure(&ctx, cell);
                    let target = (!concurrent).then_some(SEQUENTIAL_RATIO);
                    let cpu = (!concurrent && hooks == 1).then_some(ONE_HOOK_CPU);
                    all_met &= row(cell, &f, target, cpu);
                }
            }
        }
    }
    if knobs.runs("capture") {
        println!();
        capture::run(&ctx);
    }
    if knobs.runs("tree") {
        if status.mechanism() != hook_protocol::Mechanism::TreeWalk {
            all_met &= tree::run_nested();
        } else if knobs.runs("engine") {
            println!();
            println!("tree walk: the engine table above ran with it (this process has no cgroups)");
        } else {
            println!();
            all_met &= tree::rows(&ctx);
        }
    }
    if knobs.runs("fast") {
        println!();
        header("no shell for plain words vs the sh -c floor");
        for hooks in [1, 8] {
            let cell = Cell { form: Form::Plain, hooks, concurrent: false };
            let f = measure(&ctx, cell);
            all_met &= row(cell, &f, Some(0.6), None);
        }
    }
    if knobs.runs("scale") {
        println!();
        all_met &= scale::run(&ctx);
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!();
    println!(
        "µs per event: median over rounds (one at a time: of single events; in flight: wall / \
         events); ratio: median of per-round ours / raw; cpu: this process's user + system µs \
         per event (raw: std's spawns; ours: the engine's whole work)"
    );
    println!("a shared machine is noisy: compare ratios measured in one run, not absolute times");
    if !all_met {
        println!("some targets were missed");
    }
    ExitCode::SUCCESS
}

/// `ENGINE_BENCH_PROFILE=<shell|direct|plain>:<hooks>:<raw|piped|ours|shown>:<events>`: one
/// side alone; `ENGINE_BENCH_PROFILE=load:<rounds>`: loading 1,000 hooks and building the
/// engine.
fn profile(ctx: &Arc<Ctx>, spec: &str) {
    let usage = "ENGINE_BENCH_PROFILE=<shell|direct|plain>:<hooks>:<raw|piped|ours|shown>:<events> or load:<rounds>";
    let parts: Vec<&str> = spec.split(':').collect();
    if let ["load", rounds] = parts[..] {
        let rounds = match rounds.parse::<usize>() {
            Ok(n) if (1..=10_000).contains(&n) => n,
            _ => fail(&format!("{usage}: rounds is from 1 to 10000, got `{rounds}`")),
        };
        let (load, build) = scale::load_and_build(ctx, rounds);
        println!("{spec}: loading {load:.2} ms, building the engine {build:.2} ms (medians)");
        return;
    }
    if let ["unmatched", hooks, events] = parts[..] {
        let (Ok(hooks), Ok(events)) = (hooks.parse::<usize>(), events.parse::<usize>()) else {
            fail(&format!("{usage}: unmatched:<hooks>:<events> takes two numbers, got `{spec}`"))
        };
        if !(0..=10_000).contains(&hooks) || !(1..=10_000_000).contains(&events) {
            fail(&format!("{usage}: unmatched takes 0 to 10000 hooks and 1 to 10000000 events"));
        }
        let us = scale::unmatched_events(ctx, hooks, events);
        println!("{spec}: {us:.2} µs per event");
        return;
    }
    let [form, hooks, side, events] = parts[..] else { fail(&format!("{usage}, got `{spec}`")) };
    let form = match form {
        "shell" => Form::Shell,
        "direct" => Form::Direct,
        "plain" => Form::Plain,
        _ => fail(&format!("{usage}: the form is `shell`, `direct` or `plain`, got `{form}`")),
    };
    let hooks: usize = match hooks.parse() {
        Ok(n) if (1..=100).contains(&n) => n,
        _ => fail(&format!("{usage}: hooks is from 1 to 100, got `{hooks}`")),
    };
    let events: usize = match events.parse() {
        Ok(n) if (1..=1_000_000).contains(&n) => n,
        _ => fail(&format!("{usage}: events is from 1 to 1000000, got `{events}`")),
    };
    if !["raw", "piped", "ours", "shown"].contains(&side) {
        fail(&format!("{usage}: the side is `raw`, `piped`, `ours` or `shown`, got `{side}`"));
    }
    enter(&format!("profile {spec}"));
    let engine = Arc::new(setup::engine_of(&ctx.dir, &ctx.noop, form, hooks));
    let raw = Arc::new(if side == "piped" {
        Raw::piped(&ctx.noop, &ctx.stdin, form)
    } else {
        Raw::new(&ctx.noop, &ctx.stdin, form)
    });
    let ours = side != "raw" && side != "piped";
    let show = side == "shown";
    let c = Arc::clone(ctx);
    let (us, (user, system)) = ctx.block(async move {
        let lockstep = (!ours).then(|| Lockstep::new(&raw, hooks, events));
        let cpu = measure::cpu_split_us();
        let t = Instant::now();
        for _ in 0..events {
            match &lockstep {
                Some(l) => l.event(),
                None if show => fire_and_show(&engine, &c.input, hooks).await,
                None => fire(&engine, &c.input, hooks).await,
            }
        }
        let now = measure::cpu_split_us();
        let per = events as f64;
        let out = (micros(t.elapsed()) / per, ((now.0 - cpu.0) / per, (now.1 - cpu.1) / per));
        if let Some(l) = lockstep {
            l.join();
        }
        out
    });
    println!(
        "{spec}: {us:.1} µs per event; this process's CPU per event: {:.1} µs ({user:.1} user, \
         {system:.1} system)",
        user + system
    );
}
