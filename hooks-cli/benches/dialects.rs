//! A Codex, a Copilot, a Cursor and a Gemini CLI event against a Claude Code event, each
//! against its own raw spawn, side by side in one run (`cargo xtask bench dialects`).
//!
//! The hook is the same no-op line (`cat >/dev/null`), one per event, on a PreToolUse event
//! with a 2 KB payload. Each dialect starts it its own way: Claude Code through `/bin/sh -c`,
//! Codex through `$SHELL -lc` (`SHELL=/bin/sh` here, so that both start the same shell),
//! Copilot through `/bin/bash --norc --noprofile -c`, Cursor through `/bin/sh -c` (a shell call
//! fires its `preToolUse`; the hook is on it), Gemini CLI through `bash -c` (its `BeforeTool`).
//! Each engine's cost is its ratio to std's `Command` running its own command line, stdin from a file, output to `/dev/null`; the cells to
//! read are the other dialects' ratios over the Claude one. Rounds interleave the ten sides,
//! each first in turn, so that the machine's drift touches them alike; the medians are printed.

#![expect(clippy::print_stdout, clippy::print_stderr, reason = "a benchmark prints its table")]
#![expect(
    clippy::disallowed_methods,
    reason = "the raw floor starts processes without hook_exec::run on purpose"
)]

use std::fs::File;
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hooks_claude::input::{Base, PreToolUse};
use hooks_claude::{Engine as ClaudeEngine, HostEnv, Loader as ClaudeLoader, Scope};
use hooks_codex::{Engine as CodexEngine, EventName, Loader as CodexLoader};
use hooks_copilot::{Engine as CopilotEngine, Loader as CopilotLoader, Scope as CopilotScope};
use hooks_cursor::{Engine as CursorEngine, Loader as CursorLoader};
use hooks_gemini::{Engine as GeminiEngine, Loader as GeminiLoader};
use serde_json::{Map, Value, json};

const LINE: &str = "cat >/dev/null";

fn fail(message: &str) -> ! {
    eprintln!("bench dialects: {message}");
    std::process::exit(1)
}

fn rounds() -> usize {
    std::env::var("DIALECTS_BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(15)
}

const EVENTS: usize = 100;

fn payload() -> Value {
    json!({"command": "cargo test --workspace", "description": "x".repeat(2000)})
}

/// std's `Command` running `shell FLAGS... LINE`, stdin from the payload file.
fn raw(shell: &str, flags: &[&str], stdin: &Path) -> Duration {
    let started = Instant::now();
    for _ in 0..EVENTS {
        let input = File::open(stdin).unwrap_or_else(|e| fail(&e.to_string()));
        let status = Command::new(shell)
            .args(flags)
            .arg(LINE)
            .stdin(input)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap_or_else(|e| fail(&e.to_string()));
        if !status.success() {
            fail("the raw hook failed");
        }
    }
    started.elapsed()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    // Codex starts `$SHELL -lc`: with `SHELL=/bin/sh`, the same shell as Claude Code's `sh -c`,
    // as a login shell. The bench runs itself again with it when it is not so.
    if std::env::var("SHELL").as_deref() != Ok("/bin/sh") {
        let me = std::env::current_exe().unwrap_or_else(|e| fail(&e.to_string()));
        let status = Command::new(me)
            .args(std::env::args().skip(1))
            .env("SHELL", "/bin/sh")
            .status()
            .unwrap_or_else(|e| fail(&e.to_string()));
        std::process::exit(status.code().unwrap_or(1));
    }
    let dir = std::env::temp_dir().join(format!("bench-dialects-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| fail(&e.to_string()));
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": LINE}]}]}});
    let mut claude = ClaudeLoader::new();
    claude.settings_text(dir.join("settings.json"), &settings.to_string(), Scope::Explicit);
    let claude = ClaudeEngine::builder(claude.finish().unwrap_or_else(|e| fail(&e.to_string())))
        .host(HostEnv::new(&dir))
        .build()
        .unwrap_or_else(|e| fail(&e.to_string()));
    let mut codex = CodexLoader::new().trust_all(true);
    codex.hooks_json_text(
        dir.join(".codex/hooks.json"),
        &settings.to_string(),
        hooks_codex::Scope::Project,
    );
    let codex =
        CodexEngine::new(codex.finish(), &dir, None).unwrap_or_else(|e| fail(&e.to_string()));
    let copilot_file =
        json!({"version": 1, "hooks": {"preToolUse": [{"matcher": "bash", "bash": LINE}]}});
    let mut copilot = CopilotLoader::new();
    copilot.text(
        dir.join(".github/hooks/hooks.json"),
        &copilot_file.to_string(),
        CopilotScope::Repo,
    );
    let copilot =
        CopilotEngine::new(copilot.finish(), &dir, None).unwrap_or_else(|e| fail(&e.to_string()));
    let copilot_input: Map<String, Value> = json!({
        "sessionId": "s", "timestamp": 1, "cwd": dir.display().to_string(), "toolName": "bash",
        "toolArgs": payload()
    })
    .as_object()
    .cloned()
    .unwrap_or_default();
    let cursor_file =
        json!({"version": 1, "hooks": {"preToolUse": [{"matcher": "Shell", "command": LINE}]}});
    let mut cursor = CursorLoader::new();
    cursor.text(
        dir.join(".cursor/hooks.json"),
        &cursor_file.to_string(),
        hooks_cursor::Scope::Project,
    );
    let cursor = CursorEngine::new(cursor.finish(), &dir, None, None)
        .unwrap_or_else(|e| fail(&e.to_string()));
    let cursor_input: Map<String, Value> = json!({
        "conversation_id": "s", "tool_name": "Shell", "tool_input": payload(), "tool_use_id": "t"
    })
    .as_object()
    .cloned()
    .unwrap_or_default();
    let gemini_file = json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": LINE}]}]}});
    let mut gemini = GeminiLoader::new();
    gemini.text(
        dir.join(".gemini/settings.json"),
        &gemini_file.to_string(),
        hooks_gemini::Scope::Project,
    );
    let gemini =
        GeminiEngine::new(gemini.finish(), &dir, None, None, hooks_gemini::HooksConfig::default())
            .unwrap_or_else(|e| fail(&e.to_string()));
    let gemini_input: Map<String, Value> = json!({
        "session_id": "s", "tool_name": "run_shell_command", "tool_input": payload()
    })
    .as_object()
    .cloned()
    .unwrap_or_default();
    let call = PreToolUse {
        base: Base::new("s", "/tmp/t.jsonl", dir.display().to_string()),
        tool_name: "Bash".into(),
        tool_input: payload(),
        tool_use_id: "toolu_1".into(),
        mcp_server: None,
    };
    let codex_input: Map<String, Value> = json!({
        "session_id": "s", "cwd": dir.display().to_string(), "tool_name": "Bash",
        "tool_input": payload(), "tool_use_id": "call_1", "model": "gpt-5.5", "turn_id": "t"
    })
    .as_object()
    .cloned()
    .unwrap_or_default();
    let stdin = dir.join("payload.json");
    File::create(&stdin)
        .and_then(|mut f| f.write_all(&serde_json::to_vec(&codex_input).unwrap_or_default()))
        .unwrap_or_else(|e| fail(&e.to_string()));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| fail(&e.to_string()));
    let claude_run = || {
        runtime.block_on(async {
            let started = Instant::now();
            for _ in 0..EVENTS {
                let fired = claude.pre_tool_use(&call).await;
                if fired.report.records.len() != 1 {
                    fail("the Claude hook did not run");
                }
            }
            started.elapsed()
        })
    };
    let codex_run = || {
        runtime.block_on(async {
            let started = Instant::now();
            for _ in 0..EVENTS {
                let run = codex.run_json(EventName::PreToolUse, codex_input.clone()).await;
                if run.report.records.len() != 1 {
                    fail("the Codex hook did not run");
                }
            }
            started.elapsed()
        })
    };
    let copilot_run = || {
        runtime.block_on(async {
            let started = Instant::now();
            for _ in 0..EVENTS {
                let run = copilot
                    .run_json(hooks_copilot::EventName::PreToolUse, copilot_input.clone())
                    .await;
                if run.report.records.len() != 1 {
                    fail("the Copilot hook did not run");
                }
            }
            started.elapsed()
        })
    };
    let cursor_run = || {
        runtime.block_on(async {
            let started = Instant::now();
            for _ in 0..EVENTS {
                let run = cursor
                    .run_json(hooks_cursor::EventName::PreToolUse, cursor_input.clone())
                    .await;
                if run.report.records.len() != 1 {
                    fail("the Cursor hook did not run");
                }
            }
            started.elapsed()
        })
    };
    let gemini_run = || {
        runtime.block_on(async {
            let started = Instant::now();
            for _ in 0..EVENTS {
                let run = gemini
                    .run_json(hooks_gemini::EventName::BeforeTool, gemini_input.clone())
                    .await;
                if run.report.records.len() != 1 {
                    fail("the Gemini hook did not run");
                }
            }
            started.elapsed()
        })
    };
    let (mut gemini_ratio, mut gemini_over, mut gemini_us) = (Vec::new(), Vec::new(), Vec::new());
    let (mut cursor_ratio, mut cursor_over, mut cursor_us) = (Vec::new(), Vec::new(), Vec::new());
    let (mut claude_ratio, mut codex_ratio, mut over) = (Vec::new(), Vec::new(), Vec::new());
    let (mut copilot_ratio, mut copilot_over) = (Vec::new(), Vec::new());
    let (mut claude_us, mut codex_us, mut copilot_us) = (Vec::new(), Vec::new(), Vec::new());
    let bash = ["--norc", "--noprofile", "-c"];
    for round in 0..rounds() {
        let mut t = [Duration::ZERO; 10];
        for k in 0..10 {
            let side = (round + k) % 10;
            t[side] = match side {
                0 => raw("/bin/sh", &["-c"], &stdin),
                1 => claude_run(),
                2 => raw("/bin/sh", &["-lc"], &stdin),
                3 => codex_run(),
                4 => raw("/bin/bash", &bash, &stdin),
                5 => copilot_run(),
                6 => raw("/bin/sh", &["-c"], &stdin),
                7 => cursor_run(),
                8 => raw("bash", &["-c"], &stdin),
                _ => gemini_run(),
            };
        }
        let per = |d: Duration| d.as_secs_f64() * 1e6 / EVENTS as f64;
        let a = per(t[1]) / per(t[0]);
        let b = per(t[3]) / per(t[2]);
        let c = per(t[5]) / per(t[4]);
        claude_ratio.push(a);
        codex_ratio.push(b);
        copilot_ratio.push(c);
        over.push(b / a);
        copilot_over.push(c / a);
        claude_us.push(per(t[1]));
        codex_us.push(per(t[3]));
        copilot_us.push(per(t[5]));
        let d = per(t[7]) / per(t[6]);
        cursor_ratio.push(d);
        cursor_over.push(d / a);
        cursor_us.push(per(t[7]));
        let g = per(t[9]) / per(t[8]);
        gemini_ratio.push(g);
        gemini_over.push(g / a);
        gemini_us.push(per(t[9]));
    }
    println!(
        "bench dialects: one hook per PreToolUse event, {} rounds of {EVENTS} events",
        rounds()
    );
    println!("| dialect | µs per event | ratio to its raw spawn |");
    println!("| --- | ---: | ---: |");
    println!("| Claude Code (`sh -c`) | {:.1} | {:.3} |", median(claude_us), median(claude_ratio));
    println!("| Codex (`$SHELL -lc`) | {:.1} | {:.3} |", median(codex_us), median(codex_ratio));
    println!(
        "| Copilot (`bash --norc --noprofile -c`) | {:.1} | {:.3} |",
        median(copilot_us),
        median(copilot_ratio)
    );
    println!("| Cursor (`sh -c`) | {:.1} | {:.3} |", median(cursor_us), median(cursor_ratio));
    println!("| Gemini CLI (`bash -c`) | {:.1} | {:.3} |", median(gemini_us), median(gemini_ratio));
    println!("Codex ratio / Claude Code ratio: {:.3} (target ≤ 1.05)", median(over));
    println!("Copilot ratio / Claude Code ratio: {:.3} (target ≤ 1.05)", median(copilot_over));
    println!("Cursor ratio / Claude Code ratio: {:.3} (target ≤ 1.05)", median(cursor_over));
    println!("Gemini CLI ratio / Claude Code ratio: {:.3} (target ≤ 1.05)", median(gemini_over));
    let _ = std::fs::remove_dir_all(&dir);
}
