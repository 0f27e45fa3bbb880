//! One PreToolUse through a project holding one no-op hook of each of Claude Code, Codex,
//! Copilot and Cursor, against four raw spawns of the same commands at the same concurrency,
//! side by side in one run (`cargo xtask bench engine`, `cargo xtask bench mixed`); and what
//! loading such a project costs.
//!
//! The hook is the same no-op line (`cat >/dev/null`) in each agent's file, each started as its
//! agent starts it: Claude Code and Cursor through `/bin/sh -c`, Codex through `$SHELL -lc`
//! (`SHELL=/bin/sh` here), Copilot through `/bin/bash --norc --noprofile -c`. The raw side
//! starts those four command lines with std's `Command` at once, stdin from a 2 KB payload
//! file, and waits for all four. Rounds interleave the two sides, each first in turn; the
//! medians are printed.

#![expect(clippy::print_stdout, clippy::print_stderr, reason = "a benchmark prints its table")]
#![expect(
    clippy::disallowed_methods,
    reason = "the raw floor starts processes without hook_exec::run on purpose"
)]

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hook_protocol::{Common, Event, FileKind, LoadRequest, Payload, ToolCall};
use hooks_mixed::{Mixed, Project};
use serde_json::json;

const LINE: &str = "cat >/dev/null";
const EVENTS: usize = 50;

fn fail(message: &str) -> ! {
    eprintln!("bench mixed: {message}");
    std::process::exit(1)
}

fn rounds() -> usize {
    std::env::var("MIXED_BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(15)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn write(path: &Path, value: &serde_json::Value) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap_or_else(|e| fail(&e.to_string()));
    }
    std::fs::write(path, value.to_string()).unwrap_or_else(|e| fail(&e.to_string()));
}

/// The project: one no-op PreToolUse hook in each agent's file.
fn project(dir: &Path) -> Vec<PathBuf> {
    let files = [
        (
            ".claude/settings.json",
            json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": LINE}]}]}}),
        ),
        (
            ".codex/hooks.json",
            json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": LINE}]}]}}),
        ),
        (
            ".github/hooks/hooks.json",
            json!({"version": 1, "hooks": {"preToolUse": [{"matcher": "bash", "bash": LINE}]}}),
        ),
        (
            ".cursor/hooks.json",
            json!({"version": 1, "hooks": {"preToolUse": [{"matcher": "Shell", "command": LINE}]}}),
        ),
    ];
    files
        .iter()
        .map(|(file, value)| {
            write(&dir.join(file), value);
            dir.join(file)
        })
        .collect()
}

/// The project loaded, its files named (a named Codex file is vouched for).
fn load(dir: &Path, files: &[PathBuf]) -> Mixed {
    let mut request = LoadRequest::new(dir);
    request.files = files.iter().map(|f| (FileKind::Config, f.clone())).collect();
    Project::with_request(request).load()
}

/// The four command lines at once, stdin from the payload file, `EVENTS` times.
fn raw(stdin: &Path) -> Duration {
    let lines: [(&str, &[&str]); 4] = [
        ("/bin/sh", &["-c"]),
        ("/bin/sh", &["-lc"]),
        ("/bin/bash", &["--norc", "--noprofile", "-c"]),
        ("/bin/sh", &["-c"]),
    ];
    let started = Instant::now();
    for _ in 0..EVENTS {
        let children: Vec<std::process::Child> = lines
            .iter()
            .map(|(shell, flags)| {
                let input = File::open(stdin).unwrap_or_else(|e| fail(&e.to_string()));
                Command::new(shell)
                    .args(*flags)
                    .arg(LINE)
                    .stdin(input)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .unwrap_or_else(|e| fail(&e.to_string()))
            })
            .collect();
        for mut child in children {
            let status = child.wait().unwrap_or_else(|e| fail(&e.to_string()));
            if !status.success() {
                fail("a raw hook failed");
            }
        }
    }
    started.elapsed()
}

fn main() {
    // Codex starts `$SHELL -lc`: with `SHELL=/bin/sh`, the raw side's `sh -lc`.
    if std::env::var("SHELL").as_deref() != Ok("/bin/sh") {
        let me = std::env::current_exe().unwrap_or_else(|e| fail(&e.to_string()));
        let status = Command::new(me)
            .args(std::env::args().skip(1))
            .env("SHELL", "/bin/sh")
            .status()
            .unwrap_or_else(|e| fail(&e.to_string()));
        std::process::exit(status.code().unwrap_or(1));
    }
    let dir = std::env::temp_dir().join(format!("bench-mixed-{}", std::process::id()));
    let files = project(&dir);
    let payload = json!({"command": "cargo test --workspace", "description": "x".repeat(2000)});
    let stdin = dir.join("payload.json");
    write(&stdin, &json!({"tool_name": "Bash", "tool_input": payload}));
    let mut loads = Vec::new();
    for _ in 0..20 {
        let started = Instant::now();
        let mixed = load(&dir, &files);
        loads.push(started.elapsed().as_secs_f64() * 1e3);
        if mixed.dialects().len() != 4 {
            fail(&format!("the project loaded {:?}", mixed.dialects()));
        }
    }
    let mixed = load(&dir, &files);
    let mut call = ToolCall::new("Bash", payload);
    call.tool_use_id = Some("toolu_1".into());
    let event = Event::new(Common::new("s", &dir), Payload::PreTool(call));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| fail(&e.to_string()));
    let mixed_run = || {
        runtime.block_on(async {
            let started = Instant::now();
            for _ in 0..EVENTS {
                let run = mixed.run(&event).await.unwrap_or_else(|e| fail(&e.to_string()));
                if run.run.hooks.len() != 4 {
                    fail(&format!("{} hooks ran, not 4", run.run.hooks.len()));
                }
            }
            started.elapsed()
        })
    };
    let (mut ratio, mut mixed_us, mut raw_us) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds() {
        let mut t = [Duration::ZERO; 2];
        for k in 0..2 {
            let side = (round + k) % 2;
            t[side] = if side == 0 { raw(&stdin) } else { mixed_run() };
        }
        let per = |d: Duration| d.as_secs_f64() * 1e6 / EVENTS as f64;
        ratio.push(per(t[1]) / per(t[0]));
        mixed_us.push(per(t[1]));
        raw_us.push(per(t[0]));
    }
    println!(
        "bench mixed: one PreToolUse, one no-op hook of each of Claude Code, Codex, Copilot and \
         Cursor, {} rounds of {EVENTS} events",
        rounds()
    );
    println!("| side | µs per event |");
    println!("| --- | ---: |");
    println!("| four raw spawns at once | {:.1} |", median(raw_us));
    println!("| every agent's hooks (hooks-mixed) | {:.1} |", median(mixed_us));
    println!("every agent's hooks / four raw spawns: {:.3} (target ≤ 1.10)", median(ratio));
    println!(
        "loading the project (four agents' files): {:.2} ms median (target < 10 ms)",
        median(loads)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
