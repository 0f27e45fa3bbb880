//! Load and leak test of the process runner, run by `cargo xtask soak` (release mode).
//!
//! Runs 10,000 hook invocations through [`hook_exec::run`], 64 in flight, mixing
//! well-behaved, slow, timing-out (some ignoring SIGTERM), flooding, crashing and
//! daemon-leaving `sh` hooks generated into a temporary directory. A warm-up of the same mix
//! brings the runtime to its working size first; then it checks that at the end no child is a
//! zombie or still running (the supervisor aside), the open file descriptors are back to their
//! count, resident memory (with the allocator's free pages handed back first) is back within a
//! few MiB of its level, every invocation is accounted for with the outcome its kind must give
//! and the containment asked for, and, with cgroups, that no cgroup of the harness holds a
//! process any more (the idle ones aside, every one was removed). It prints the figures, and
//! the harness's cgroup directory (`soak: cgroup directory PATH`, which `cargo xtask soak`
//! checks is gone once the process has exited), and exits non-zero when a bound is broken.
//!
//! Knobs (environment): `SOAK_RUNS` (default 10000), `SOAK_IN_FLIGHT` (default 64),
//! `SOAK_CONTAINMENT` (`cgroup`, the default, or `tree-walk`). With `cgroup` on a machine
//! without writable cgroups, it says so and exits 0 without running.

#![expect(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a command-line program printing its figures"
)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use hook_exec::{CommandSpec, Containment, Invocation, Leftovers, RunLimits, run};
use hook_protocol::{Exit, Mechanism, RawOutcome};

/// How much resident memory may grow from the warmed-up level, in KiB.
const RSS_SLACK_KIB: u64 = 8 * 1024;

/// One kind of hook in the mix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    WellBehaved,
    BigStdin,
    Slow,
    TimesOut,
    IgnoresTerm,
    FloodsStdout,
    FloodsStderr,
    Segfaults,
    ExitsThree,
    LeavesDaemon,
    KeepsDaemon,
}

impl Kind {
    /// The mix: out of every 20 invocations, how many of each kind.
    const MIX: [(Kind, u32); 11] = [
        (Kind::WellBehaved, 7),
        (Kind::BigStdin, 1),
        (Kind::Slow, 2),
        (Kind::TimesOut, 1),
        (Kind::IgnoresTerm, 1),
        (Kind::FloodsStdout, 2),
        (Kind::FloodsStderr, 1),
        (Kind::Segfaults, 1),
        (Kind::ExitsThree, 2),
        (Kind::LeavesDaemon, 1),
        (Kind::KeepsDaemon, 1),
    ];

    fn of(i: usize) -> Kind {
        let mut slot = (i % 20) as u32;
        for (kind, n) in Kind::MIX {
            if slot < n {
                return kind;
            }
            slot -= n;
        }
        Kind::WellBehaved
    }

    fn script(self) -> &'static str {
        match self {
            Kind::WellBehaved | Kind::BigStdin => {
                "cat >/dev/null; echo '{\"decision\": \"allow\"}'"
            }
            Kind::Slow => "cat >/dev/null; sleep 0.2; echo '{}'",
            Kind::TimesOut => "sleep 30",
            Kind::IgnoresTerm => "trap '' TERM; sleep 30",
            Kind::FloodsStdout => "head -c 4194304 /dev/zero",
            Kind::FloodsStderr => "head -c 4194304 /dev/zero >&2; echo done",
            Kind::Segfaults => "kill -SEGV $$",
            Kind::ExitsThree => "echo failing >&2; exit 3",
            Kind::LeavesDaemon => "sleep 2 & echo started",
            Kind::KeepsDaemon => "sleep 1 > /dev/null 2>&1 & echo started",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::WellBehaved => "well-behaved",
            Kind::BigStdin => "256 KiB stdin",
            Kind::Slow => "slow (200 ms)",
            Kind::TimesOut => "times out",
            Kind::IgnoresTerm => "ignores SIGTERM",
            Kind::FloodsStdout => "4 MiB stdout",
            Kind::FloodsStderr => "4 MiB stderr",
            Kind::Segfaults => "SIGSEGV",
            Kind::ExitsThree => "exit 3",
            Kind::LeavesDaemon => "leaves a daemon",
            Kind::KeepsDaemon => "keeps a daemon",
        }
    }

    /// Whether an outcome is the one this kind must give, with `containment`.
    fn accepts(self, out: &RawOutcome, containment: Mechanism) -> bool {
        if out.containment != containment || !out.containment_warnings.is_empty() {
            return false;
        }
        let cgroup = containment == Mechanism::Cgroup;
        match self {
            Kind::WellBehaved | Kind::BigStdin => {
                out.exit == Exit::Code { code: 0 } && out.stdout.starts_with(b"{\"decision\"")
            }
            Kind::Slow => out.exit == Exit::Code { code: 0 } && out.stdout == b"{}\n",
            Kind::TimesOut => matches!(out.exit, Exit::TimedOut { .. }),
            Kind::IgnoresTerm => out.exit == Exit::TimedOut { escalated: true },
            Kind::FloodsStdout => {
                out.exit == Exit::Code { code: 0 }
                    && out.stdout_truncated
                    && out.stdout_len == 4 << 20
            }
            Kind::FloodsStderr => {
                out.exit == Exit::Code { code: 0 }
                    && out.stderr_truncated
                    && out.stdout == b"done\n"
            }
            Kind::Segfaults => out.exit == Exit::Signal { signal: 11 },
            Kind::ExitsThree => out.exit == Exit::Code { code: 3 },
            Kind::LeavesDaemon => {
                out.exit == Exit::Code { code: 0 }
                    && out.leftovers_killed
                    && out.leftovers == Some(1)
            }
            // Left running, and counted where its cgroup holds it.
            Kind::KeepsDaemon => {
                out.exit == Exit::Code { code: 0 }
                    && !out.leftovers_killed
                    && (!cgroup || out.leftovers == Some(1))
            }
        }
    }
}

/// What `/proc` says about this process.
#[derive(Debug, Clone, Copy)]
struct Figures {
    fds: usize,
    rss_kib: u64,
    peak_kib: u64,
    threads: u64,
    zombies: usize,
    children: usize,
}

fn status_field(status: &str, key: &str) -> u64 {
    status
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.split_ascii_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// Our children but the supervisor: (zombies, all).
fn children() -> (usize, usize) {
    let me = std::process::id().to_string();
    let supervisor = hook_exec::containment().supervisor_pid().map(|p| p.to_string());
    let mut zombies = 0;
    let mut all = 0;
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        if supervisor.as_deref() == entry.file_name().to_str() {
            continue;
        }
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else { continue };
        let mut fields = rest.split_ascii_whitespace();
        let state = fields.next().unwrap_or("");
        if fields.next() == Some(me.as_str()) {
            all += 1;
            if state == "Z" {
                zombies += 1;
            }
        }
    }
    (zombies, all)
}

/// Hands the allocator's free memory back to the system, so that resident memory measures what
/// is live (glibc keeps freed memory in its per-thread arenas otherwise, by tens of MiB after
/// a burst of 64 captures, which would hide a leak or fake one).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn trim_allocator() {
    #[expect(unsafe_code, reason = "glibc's `malloc_trim` has no safe wrapper")]
    // SAFETY: `malloc_trim` only releases free pages of the allocator's arenas; it takes no
    // pointer and is safe to call at any time from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim_allocator() {}

fn figures() -> Figures {
    trim_allocator();
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let (zombies, children) = children();
    Figures {
        fds: std::fs::read_dir("/proc/self/fd").map(|d| d.count()).unwrap_or(0),
        rss_kib: status_field(&status, "VmRSS:"),
        peak_kib: status_field(&status, "VmHWM:"),
        threads: status_field(&status, "Threads:"),
        zombies,
        children,
    }
}

/// The cgroups in the harness's directory: how many are empty, and those holding processes.
fn cgroups_in(dir: &Path) -> (usize, Vec<PathBuf>) {
    let mut idle = 0;
    let mut busy = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let procs = std::fs::read_to_string(entry.path().join("cgroup.procs")).unwrap_or_default();
        if procs.trim().is_empty() {
            idle += 1;
        } else {
            busy.push(entry.path());
        }
    }
    (idle, busy)
}

fn invocation(
    dir: &Path,
    kind: Kind,
    big_stdin: &Arc<[u8]>,
    small_stdin: &Arc<[u8]>,
) -> Invocation {
    let script: PathBuf = dir.join(format!("{kind:?}.sh"));
    let timeout = match kind {
        Kind::TimesOut | Kind::IgnoresTerm => Duration::from_millis(300),
        _ => Duration::from_secs(30),
    };
    let mut inv =
        Invocation::new(CommandSpec::exec("/bin/sh", [script.display().to_string()]), dir, timeout);
    let mut limits = RunLimits::DEFAULT;
    limits.grace = Duration::from_millis(300);
    limits.leak_window = Duration::from_millis(100);
    inv.limits = limits;
    inv.stdin =
        if kind == Kind::BigStdin { Arc::clone(big_stdin) } else { Arc::clone(small_stdin) };
    if kind == Kind::LeavesDaemon {
        inv.leftovers = Leftovers::Kill;
    }
    inv
}

/// Runs `runs` invocations, `in_flight` at a time; returns per kind (accepted, wrong), and the
/// spawn errors.
async fn soak(
    dir: &Path,
    runs: usize,
    in_flight: usize,
    containment: Mechanism,
) -> (BTreeMap<Kind, (u64, u64)>, Vec<String>) {
    let big: Arc<[u8]> = vec![b'x'; 256 << 10].into();
    let small: Arc<[u8]> =
        br#"{"hook_event_name": "PreToolUse", "tool_name": "Bash"}"#.to_vec().into();
    let mut tally: BTreeMap<Kind, (u64, u64)> = BTreeMap::new();
    let mut errors = Vec::new();
    let mut pending = FuturesUnordered::new();
    let mut next = 0;
    while next < runs || !pending.is_empty() {
        while next < runs && pending.len() < in_flight {
            let kind = Kind::of(next);
            let inv = invocation(dir, kind, &big, &small);
            pending.push(async move { (kind, run(&inv).await) });
            next += 1;
        }
        if let Some((kind, result)) = pending.next().await {
            let entry = tally.entry(kind).or_default();
            match result {
                Ok(out) if kind.accepts(&out, containment) => entry.0 += 1,
                Ok(out) => {
                    entry.1 += 1;
                    if errors.len() < 10 {
                        errors.push(format!(
                            "{}: unexpected {} ({:?})",
                            kind.name(),
                            out.exit,
                            out
                        ));
                    }
                }
                Err(e) => {
                    entry.1 += 1;
                    if errors.len() < 10 {
                        errors.push(format!("{}: {e}", kind.name()));
                    }
                }
            }
        }
    }
    (tally, errors)
}

fn main() -> ExitCode {
    let knob = |name: &str, default: usize| {
        std::env::var(name).ok().and_then(|v| v.parse().ok()).filter(|&n| n > 0).unwrap_or(default)
    };
    let runs = knob("SOAK_RUNS", 10_000);
    let in_flight = knob("SOAK_IN_FLIGHT", 64);
    let containment = match std::env::var("SOAK_CONTAINMENT").as_deref() {
        Ok("tree-walk") => Mechanism::TreeWalk,
        Ok("cgroup") | Err(_) => Mechanism::Cgroup,
        Ok(other) => {
            eprintln!("soak: SOAK_CONTAINMENT is `cgroup` or `tree-walk`, not `{other}`");
            return ExitCode::FAILURE;
        }
    };
    let config =
        if containment == Mechanism::Cgroup { Containment::auto() } else { Containment::off() };
    let status = match hook_exec::contain(config) {
        Ok(status) => status,
        Err(e) => {
            eprintln!("soak: {e}");
            return ExitCode::FAILURE;
        }
    };
    if status.mechanism() != containment {
        println!("soak ({containment}): skipped: containment here is {status}");
        return ExitCode::SUCCESS;
    }
    println!("soak: containment {status}");
    if let Some(cgroups) = status.cgroup_dir() {
        println!("soak: cgroup directory {}", cgroups.display());
    }
    let dir = std::env::temp_dir().join(format!("hook-protocol-soak-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("soak: cannot create `{}`: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    for (kind, _) in Kind::MIX {
        if let Err(e) = std::fs::write(dir.join(format!("{kind:?}.sh")), kind.script()) {
            eprintln!("soak: cannot write a hook script: {e}");
            return ExitCode::FAILURE;
        }
    }
    let runtime =
        match tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build() {
            Ok(rt) => rt,
            Err(e) => {
                eprintln!("soak: cannot start the runtime: {e}");
                return ExitCode::FAILURE;
            }
        };
    // Warm-up: the same mix, so that the allocator, the runtime's threads and the pipes' buffers
    // reach their working size before the baseline is taken.
    let warmup = (in_flight * 20).min(runs);
    let (_, warm_errors) = runtime.block_on(soak(&dir, warmup, in_flight, containment));
    std::thread::sleep(Duration::from_millis(500));
    let before = figures();
    let started = Instant::now();
    let (tally, errors) = runtime.block_on(soak(&dir, runs, in_flight, containment));
    let elapsed = started.elapsed();
    // Leftover daemons are killed at the end of their run, or end within a second; let the
    // kernel finish reaping.
    std::thread::sleep(Duration::from_millis(1500));
    let after = figures();
    let cgroups = status.cgroup_dir().map(cgroups_in);
    let _ = std::fs::remove_dir_all(&dir);

    println!(
        "soak: {runs} invocations, {in_flight} in flight, in {:.1} s ({:.0} per second)",
        elapsed.as_secs_f64(),
        runs as f64 / elapsed.as_secs_f64()
    );
    println!("{:<18} {:>8} {:>8}", "kind", "as due", "wrong");
    let mut accounted = 0;
    let mut wrong = 0;
    for (kind, (ok, bad)) in &tally {
        println!("{:<18} {ok:>8} {bad:>8}", kind.name());
        accounted += ok + bad;
        wrong += bad;
    }
    println!("{:<18} {:>8} {:>8}", "total", accounted - wrong, wrong);
    println!();
    println!("{:<26} {:>10} {:>10}", "", "before", "after");
    println!("{:<26} {:>10} {:>10}", "open file descriptors", before.fds, after.fds);
    println!("{:<26} {:>10} {:>10}", "resident memory (KiB)", before.rss_kib, after.rss_kib);
    println!("{:<26} {:>10} {:>10}", "peak resident (KiB)", before.peak_kib, after.peak_kib);
    println!("{:<26} {:>10} {:>10}", "threads", before.threads, after.threads);
    println!("{:<26} {:>10} {:>10}", "zombie children", before.zombies, after.zombies);
    println!("{:<26} {:>10} {:>10}", "children", before.children, after.children);
    if let Some((idle, busy)) = &cgroups {
        println!(
            "{:<26} {:>10} {:>10}",
            "cgroups (idle, busy)",
            "",
            format!("{idle}, {}", busy.len())
        );
    }

    let mut broken = Vec::new();
    if accounted != runs as u64 {
        broken.push(format!("{accounted} of {runs} invocations accounted for"));
    }
    if wrong > 0 || !warm_errors.is_empty() {
        broken.push(format!(
            "{wrong} invocations gave the wrong outcome: {errors:#?} {warm_errors:#?}"
        ));
    }
    if after.zombies > 0 || after.children > 0 {
        broken.push(format!("{} children left, {} of them zombies", after.children, after.zombies));
    }
    if let Some((idle, busy)) = &cgroups {
        if !busy.is_empty() {
            broken.push(format!("cgroups still holding processes: {busy:?}"));
        }
        if *idle > 64 {
            broken.push(format!("{idle} idle cgroups (at most 64 are kept)"));
        }
    }
    if after.fds != before.fds {
        broken.push(format!("{} file descriptors open, {} before", after.fds, before.fds));
    }
    if after.rss_kib > before.rss_kib + RSS_SLACK_KIB {
        broken.push(format!(
            "resident memory grew by {} KiB (bound {RSS_SLACK_KIB} KiB)",
            after.rss_kib - before.rss_kib
        ));
    }
    if broken.is_empty() {
        println!("\nsoak: every bound holds");
        ExitCode::SUCCESS
    } else {
        for b in &broken {
            eprintln!("soak: {b}");
        }
        ExitCode::FAILURE
    }
}
