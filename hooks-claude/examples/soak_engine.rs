//! Load and leak test of the Claude engine, run by `cargo xtask soak` (release mode) after the
//! process runner's.
//!
//! Fires 100,000 PreToolUse events through one `hooks_claude::Engine`, 16 in flight, over a
//! mix of hooks generated into a temporary project: an exec-form `/bin/true` (no opinion), a
//! shell-form plain-words script that allows (no shell before it), a shell-form line that
//! blocks with exit 2 (through `sh -c`), and events no hook matches. A warm-up of the same mix
//! brings the allocator and the runtime to their working size; then it checks that every
//! event got the decision its tool must get, that the heap holds no more than before (a
//! counting allocator: bytes allocated less bytes freed), that resident memory (free pages
//! handed back first) is within a few MiB of its level, that the open descriptors are back to
//! their count and that no child is left. It prints the memory per event (allocations, bytes
//! allocated, bytes kept) and exits non-zero when a bound is broken.
//!
//! Knobs (environment): `SOAK_EVENTS` (default 100000), `SOAK_EVENTS_IN_FLIGHT` (default 16).

#![expect(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a command-line program printing its figures"
)]

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use hook_protocol::ToolPermission;
use hooks_claude::input::{Base, PreToolUse};
use hooks_claude::{Engine, HostEnv, Loader, Scope};
use serde_json::json;
use test_support::Counting;

/// How much resident memory may grow from the warmed-up level, in KiB.
const RSS_SLACK_KIB: u64 = 8 * 1024;
/// How many heap bytes may stay allocated after the events, in all (caches that fill once).
const HEAP_SLACK: i64 = 256 * 1024;

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The heap's counters now: (allocations, bytes allocated, bytes live).
fn heap() -> (u64, u64, i64) {
    let counts = Counting::counts();
    (counts.allocations, counts.allocated, counts.live())
}

/// The tool of event `i` and the decision it must get: out of every 10 events, 4 `Bash` (no
/// opinion), 3 `Edit` (allow), 1 `Write` (deny, exit 2), 2 `Read` (no hook).
fn tool(i: usize) -> (&'static str, fn(&ToolPermission) -> bool) {
    match i % 10 {
        0 | 3 | 6 | 8 => ("Bash", |p| matches!(p, ToolPermission::NoOpinion)),
        1 | 4 | 7 => ("Edit", |p| matches!(p, ToolPermission::Allow { .. })),
        5 => ("Write", |p| matches!(p, ToolPermission::Deny { .. })),
        _ => ("Read", |p| matches!(p, ToolPermission::NoOpinion)),
    }
}

fn engine(dir: &Path) -> Result<Engine, String> {
    let allow = dir.join("allow.sh");
    std::fs::write(
        &allow,
        "#!/bin/sh\ncat > /dev/null\necho '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}'\n",
    )
    .map_err(|e| format!("cannot write `{}`: {e}", allow.display()))?;
    std::fs::set_permissions(&allow, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .map_err(|e| format!("cannot make `{}` executable: {e}", allow.display()))?;
    let settings = json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "/bin/true", "args": []}]},
        {"matcher": "Edit", "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/allow.sh"}]},
        {"matcher": "Write", "hooks": [{"type": "command", "command": "cat > /dev/null; echo no >&2; exit 2"}]},
    ]}});
    let config = Loader::new()
        .settings_text(dir.join(".claude/settings.json"), &settings.to_string(), Scope::Project)
        .finish()
        .map_err(|e| format!("the soak's settings do not load: {e}"))?;
    Engine::builder(config)
        .host(HostEnv::new(dir))
        .build()
        .map_err(|e| format!("cannot build the engine: {e}"))
}

/// Fires `events` events, `in_flight` at a time; returns how many got the wrong decision and
/// the first few of them.
async fn soak(engine: &Engine, dir: &Path, events: usize, in_flight: usize) -> (u64, Vec<String>) {
    let mut wrong = 0;
    let mut errors = Vec::new();
    let mut pending = FuturesUnordered::new();
    let mut next = 0;
    let cwd = dir.display().to_string();
    while next < events || !pending.is_empty() {
        while next < events && pending.len() < in_flight {
            let (name, expect) = tool(next);
            let input = PreToolUse {
                base: Base::new("soak-session", "/tmp/soak.jsonl", cwd.clone()),
                tool_name: name.into(),
                tool_input: json!({"command": format!("step {next}"), "file_path": "/tmp/x"}),
                tool_use_id: format!("toolu_{next}"),
                mcp_server: None,
            };
            pending.push(async move {
                let fired = engine.pre_tool_use(&input).await;
                (name, expect(&fired.decision.permission), fired.decision.permission)
            });
            next += 1;
        }
        if let Some((name, ok, permission)) = pending.next().await
            && !ok
        {
            wrong += 1;
            if errors.len() < 10 {
                errors.push(format!("{name}: {permission:?}"));
            }
        }
    }
    (wrong, errors)
}

/// Our children but the containment's supervisor: (zombies, all).
fn children() -> (usize, usize) {
    let me = std::process::id().to_string();
    let supervisor = hook_exec::containment().supervisor_pid().map(|p| p.to_string());
    let (mut zombies, mut all) = (0, 0);
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        if supervisor.as_deref().is_some_and(|s| entry.file_name() == s) {
            continue;
        }
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else { continue };
        let mut fields = rest.split_ascii_whitespace();
        let state = fields.next().unwrap_or("");
        if fields.next() == Some(me.as_str()) {
            all += 1;
            zombies += usize::from(state == "Z");
        }
    }
    (zombies, all)
}

/// Resident memory in KiB, after handing the allocator's free pages back (glibc keeps freed
/// memory in its arenas otherwise, which would hide a leak or fake one).
fn rss_kib() -> u64 {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[expect(unsafe_code, reason = "glibc's `malloc_trim` has no safe wrapper")]
    // SAFETY: `malloc_trim` only releases free pages of the allocator's arenas; it takes no
    // pointer and is safe to call at any time from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn fds() -> usize {
    std::fs::read_dir("/proc/self/fd").map(|d| d.count()).unwrap_or(0)
}

/// A knob: a whole number in `range`, or the default; out of range is an error naming it.
fn knob(
    name: &str,
    default: usize,
    range: std::ops::RangeInclusive<usize>,
) -> Result<usize, String> {
    match std::env::var(name) {
        Err(_) => Ok(default),
        Ok(v) => match v.trim().parse::<usize>() {
            Ok(n) if range.contains(&n) => Ok(n),
            _ => Err(format!(
                "{name} must be a whole number from {} to {}, got `{v}`",
                range.start(),
                range.end()
            )),
        },
    }
}

fn main() -> ExitCode {
    Counting::start();
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("soak engine: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<bool, String> {
    let events = knob("SOAK_EVENTS", 100_000, 1..=10_000_000)?;
    let in_flight = knob("SOAK_EVENTS_IN_FLIGHT", 16, 1..=256)?;
    let dir = std::env::temp_dir().join(format!("hooks-claude-soak-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
    let engine = Arc::new(engine(&dir)?);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let warmup = (in_flight * 100).min(events);
    let (warm_wrong, warm_errors) = runtime.block_on(soak(&engine, &dir, warmup, in_flight));
    std::thread::sleep(Duration::from_millis(300));
    let (fds_before, rss_before, heap_before) = (fds(), rss_kib(), heap());
    let started = Instant::now();
    let (wrong, errors) = runtime.block_on(soak(&engine, &dir, events, in_flight));
    let elapsed = started.elapsed();
    std::thread::sleep(Duration::from_millis(300));
    let heap_after = heap();
    let (fds_after, rss_after) = (fds(), rss_kib());
    let (zombies, kids) = children();
    drop(engine);
    let _ = std::fs::remove_dir_all(&dir);

    let n = events as f64;
    let allocations = (heap_after.0 - heap_before.0) as f64 / n;
    let churn = (heap_after.1 - heap_before.1) as f64 / n;
    let kept = heap_after.2 - heap_before.2;
    println!(
        "soak engine: {events} PreToolUse events, {in_flight} in flight, in {:.1} s ({:.0} per \
         second)",
        elapsed.as_secs_f64(),
        n / elapsed.as_secs_f64()
    );
    println!("{:<40} {:>12}", "wrong decisions", wrong + warm_wrong);
    println!("{:<40} {:>12.1}", "allocations per event", allocations);
    println!("{:<40} {:>12.0}", "bytes allocated per event", churn);
    println!("{:<40} {:>12}", "heap bytes kept after the events", kept);
    println!("{:<40} {:>12.3}", "heap bytes kept per event", kept as f64 / n);
    println!("{:<40} {:>6} {:>5}", "resident memory, KiB (before, after)", rss_before, rss_after);
    println!("{:<40} {:>6} {:>5}", "open file descriptors (before, after)", fds_before, fds_after);
    println!("{:<40} {:>12}", "children left (zombies)", format!("{kids} ({zombies})"));

    let mut broken = Vec::new();
    if wrong + warm_wrong > 0 {
        broken.push(format!(
            "{} events got the wrong decision: {errors:?} {warm_errors:?}",
            wrong + warm_wrong
        ));
    }
    if kept > HEAP_SLACK {
        broken.push(format!("the heap kept {kept} bytes (bound {HEAP_SLACK})"));
    }
    if rss_after > rss_before + RSS_SLACK_KIB {
        broken.push(format!(
            "resident memory grew by {} KiB (bound {RSS_SLACK_KIB} KiB)",
            rss_after - rss_before
        ));
    }
    if fds_after != fds_before {
        broken.push(format!("{fds_after} file descriptors open, {fds_before} before"));
    }
    if kids > 0 {
        broken.push(format!("{kids} children left, {zombies} of them zombies"));
    }
    for b in &broken {
        eprintln!("soak engine: {b}");
    }
    if broken.is_empty() {
        println!("\nsoak engine: every bound holds");
    }
    Ok(broken.is_empty())
}
