//! Our side of `cargo xtask bench peers`: the same workload as the peers' drivers, through
//! `hooks_claude::Engine` in one process.
//!
//! Usage: `peer_engine WORKLOAD.json EVENTS WARMUP [--always-shell] [--no-cgroup]`, where
//! WORKLOAD.json is `{"commands": [shell-form lines], "payload": {a PreToolUse input}}`.
//! Registers each command
//! as a PreToolUse hook, fires the payload WARMUP times and then EVENTS times on a multi-thread
//! runtime, checks that every hook allowed each event, and prints one JSON line:
//! `{"median_us": ..., "first_us": ...}` (the median event, and the time from the start of
//! `main` to the end of the first event). `--always-shell` turns the no-shell fast path off,
//! `--no-cgroup` the cgroup containment.

#![expect(clippy::print_stdout, clippy::print_stderr, reason = "a command-line driver")]

use std::process::ExitCode;
use std::time::Instant;

use hook_protocol::{HookStatus, ToolPermission};
use hooks_claude::input::PreToolUse;
use hooks_claude::{Engine, HostEnv, Loader, Scope};
use serde_json::{Value, json};

fn main() -> ExitCode {
    let started = Instant::now();
    match run(started) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("peer_engine: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(started: Instant) -> Result<String, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, events, warmup, rest @ ..] = &args[..] else {
        return Err(
            "usage: peer_engine WORKLOAD.json EVENTS WARMUP [--always-shell] [--no-cgroup]".into(),
        );
    };
    let events: usize =
        events.parse().map_err(|_| format!("EVENTS is a number, got `{events}`"))?;
    let warmup: usize =
        warmup.parse().map_err(|_| format!("WARMUP is a number, got `{warmup}`"))?;
    let always_shell = rest.iter().any(|a| a == "--always-shell");
    if rest.iter().any(|a| a == "--no-cgroup") {
        hook_exec::contain(hook_exec::Containment::off())
            .map_err(|e| format!("cannot turn cgroup containment off: {e}"))?;
    }
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read `{file}`: {e}"))?;
    let work: Value = serde_json::from_str(&text).map_err(|e| format!("`{file}`: {e}"))?;
    let commands: Vec<&str> = work["commands"]
        .as_array()
        .map(|c| c.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let input: PreToolUse = serde_json::from_value(work["payload"].clone())
        .map_err(|e| format!("`{file}`: the payload is no PreToolUse input: {e}"))?;
    let hooks: Vec<Value> =
        commands.iter().map(|c| json!({"type": "command", "command": c})).collect();
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": hooks}]}});
    let cwd = std::path::PathBuf::from(&input.base.cwd);
    let config = Loader::new()
        .settings_text(cwd.join(".claude/settings.json"), &settings.to_string(), Scope::Project)
        .finish()
        .map_err(|e| format!("the settings do not load: {e}"))?;
    let mut host = HostEnv::new(&cwd);
    host.shell_fast_path = !always_shell;
    let engine = Engine::builder(config)
        .host(host)
        .build()
        .map_err(|e| format!("cannot build the engine: {e}"))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let n = commands.len();
    runtime.block_on(async move {
        let fire = async || -> Result<(), String> {
            let fired = engine.pre_tool_use(&input).await;
            let records = &fired.report.records;
            let allowed = matches!(fired.decision.permission, ToolPermission::Allow { .. });
            if records.len() != n
                || records.iter().any(|r| r.status != HookStatus::Success)
                || !allowed
            {
                return Err(format!("an event did not get {n} allows: {:?}", fired.records()));
            }
            Ok(())
        };
        let mut first = None;
        for _ in 0..warmup {
            fire().await?;
            first.get_or_insert_with(|| started.elapsed());
        }
        let mut samples = Vec::with_capacity(events);
        for _ in 0..events {
            let t = Instant::now();
            fire().await?;
            samples.push(t.elapsed().as_secs_f64() * 1e6);
            first.get_or_insert_with(|| started.elapsed());
        }
        samples.sort_by(f64::total_cmp);
        let median = samples.get(samples.len() / 2).copied().unwrap_or(0.0);
        let first = first.map_or(0.0, |f| f.as_secs_f64() * 1e6);
        Ok(json!({"median_us": median, "first_us": first}).to_string())
    })
}
