//! `cargo xtask bench session`: what a `Session` step costs over firing the same event on the
//! engine and rendering what it shows, side by side in one process.
//!
//! Two cells, PreToolUse with a 2 KB payload: no hook matches (the session's own work alone:
//! the order check, the fields it fills, the background inbox, the rendering), and one exec-form
//! hook that reads stdin and allows. Each round fires the event through
//! `Engine::fire` + `Fired::shown` and through `Session::pre_tool_use`, the order alternating
//! by round; the table shows the medians over rounds and the median of the per-round ratios.
//! `SESSION_BENCH_ROUNDS=N` (1 to 100000, default 2001 without hooks, a tenth with one).

#![expect(clippy::print_stdout, clippy::print_stderr, reason = "a benchmark prints its table")]

use std::os::unix::fs::PermissionsExt;
use std::process::ExitCode;
use std::time::Instant;

use hooks_claude::input::{Base, PreToolUse, SessionStart};
use hooks_claude::{Engine, HostEnv, Loader, Scope, Session};
use serde_json::json;

fn engine(dir: &std::path::Path, hooks: serde_json::Value) -> Result<Engine, String> {
    let text = json!({ "hooks": hooks }).to_string();
    let config = Loader::new()
        .settings_text(dir.join(".claude/settings.json"), &text, Scope::Project)
        .finish()
        .map_err(|e| e.to_string())?;
    Engine::builder(config)
        .host(HostEnv::new(dir))
        .claude_home(dir.join("home/.claude"))
        .build()
        .map_err(|e| e.to_string())
}

fn call(dir: &std::path::Path, i: usize) -> PreToolUse {
    PreToolUse {
        base: Base::new("bench", "/t", dir.display().to_string()),
        tool_name: "Bash".into(),
        tool_input: json!({"command": "x".repeat(2000)}),
        tool_use_id: format!("toolu_{i}"),
        ..PreToolUse::default()
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

async fn cell(
    name: &str,
    dir: &std::path::Path,
    hooks: serde_json::Value,
    rounds: usize,
) -> Result<(), String> {
    let fired = engine(dir, hooks.clone())?;
    let mut session = Session::new(engine(dir, hooks)?);
    let start = SessionStart {
        base: Base::new("bench", "/t", dir.display().to_string()),
        source: "startup".into(),
        ..SessionStart::default()
    };
    session.session_start(&start, None).await.map_err(|e| e.to_string())?;
    let (mut ours, mut theirs, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..rounds {
        let input = call(dir, i);
        let mut engine_us = 0.0;
        let mut session_us = 0.0;
        for side in [i % 2, (i + 1) % 2] {
            let t = Instant::now();
            if side == 0 {
                let f = fired.pre_tool_use(&input).await;
                std::hint::black_box(f.shown());
                engine_us = t.elapsed().as_secs_f64() * 1e6;
            } else {
                let step = session.pre_tool_use(&input, None).await.map_err(|e| e.to_string())?;
                std::hint::black_box(step);
                session_us = t.elapsed().as_secs_f64() * 1e6;
            }
        }
        theirs.push(engine_us);
        ours.push(session_us);
        ratios.push(session_us / engine_us);
    }
    println!("{name:<28} {:>12.1} {:>12.1} {:>10.3}", median(theirs), median(ours), median(ratios));
    Ok(())
}

fn rounds() -> Result<usize, String> {
    match std::env::var("SESSION_BENCH_ROUNDS") {
        Err(_) => Ok(2001),
        Ok(v) => match v.trim().parse::<usize>() {
            Ok(n) if (1..=100_000).contains(&n) => Ok(n),
            _ => Err(format!(
                "SESSION_BENCH_ROUNDS must be a whole number from 1 to 100000, got `{v}`"
            )),
        },
    }
}

async fn run() -> Result<(), String> {
    let rounds = rounds()?;
    let dir = std::env::temp_dir().join(format!("hooks-session-bench-{}", std::process::id()));
    std::fs::create_dir_all(dir.join(".claude")).map_err(|e| e.to_string())?;
    let hook = dir.join("allow.sh");
    std::fs::write(
        &hook,
        "#!/bin/sh\ncat > /dev/null\necho '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"permissionDecision\": \"allow\"}}'\n",
    )
    .map_err(|e| e.to_string())?;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| e.to_string())?;
    println!("PreToolUse, 2 KB payload; medians over rounds, in µs per event");
    println!("{:<28} {:>12} {:>12} {:>10}", "cell", "engine+shown", "session", "ratio");
    cell("no matching hook", &dir, json!({}), rounds).await?;
    let one = json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": hook.display().to_string(), "args": []}]}]});
    cell("one exec-form hook", &dir, one, (rounds / 10).max(1)).await?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

fn main() -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("bench session: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bench session: {e}");
            ExitCode::FAILURE
        }
    }
}
