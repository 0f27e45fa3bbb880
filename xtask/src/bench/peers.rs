//! `cargo xtask bench peers`: the hook workload through the runners people use, side by side.
//!
//! The workload: a PreToolUse event with a 2 KB payload and 1 or 8 matching command hooks, each
//! a static no-op (built here with `gcc -static`) that reads stdin and prints an allow, given
//! as a shell-form command line. The runners, each in a process of its own:
//!
//! - our engine (`hooks-claude`'s `peer_engine` example), with the no-shell fast path (the
//!   default) and with `--always-shell`;
//! - Node's `child_process.spawn` with a shell, Claude Code's way;
//! - the hook runner of `@google/gemini-cli-core` and that of the `@qwen-code/qwen-code`
//!   bundle, at the versions pinned in `xtask/peers/package.json`, installed under
//!   `target/peers/` with npm (a peer that cannot be installed or run is skipped with a line
//!   saying why);
//! - `hooks run`, our command, a process per event.
//!
//! Each round runs every runner once (the order turning by round); a runner fires
//! `PEERS_BENCH_EVENTS` events after 5 of warm-up and reports its median event. Cold start is a
//! fresh process through its first event and its exit, measured from here. The table shows,
//! over `PEERS_BENCH_ROUNDS` rounds, the best run's median event (on a shared machine a run
//! is now and then slowed as a whole by other work; the least disturbed run is the runner's
//! cost) and the median cold start, with their ratios to our engine. Every process is bounded
//! (120 s; npm's install 600 s). Not part of `ci`.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{Result, cargo, root, run as step};

/// The drivers and the pins, copied next to the install.
const FILES: &[&str] = &["package.json", "common.mjs", "node_spawn.mjs", "gemini.mjs", "qwen.mjs"];
/// The most one runner's process may take.
const RUN_LIMIT: Duration = Duration::from_secs(120);
/// The most npm's install may take.
const INSTALL_LIMIT: Duration = Duration::from_secs(600);
/// Events of warm-up in each steady-state run.
const WARMUP: usize = 5;

/// The no-op hook: reads stdin to its end and prints an allow.
const NOOP_C: &str = r#"#include <unistd.h>
int main(void) {
    static const char allow[] =
        "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}\n";
    char buf[4096];
    while (read(0, buf, sizeof buf) > 0) {}
    return write(1, allow, sizeof allow - 1) == (ssize_t)(sizeof allow - 1) ? 0 : 1;
}
"#;

fn tool(program: impl AsRef<std::ffi::OsStr>) -> Command {
    #[expect(clippy::disallowed_methods, reason = "the peers bench drives other runners")]
    let cmd = Command::new(program);
    cmd
}

/// A knob from the environment: a whole number in `range`, else `default`.
fn knob(name: &str, default: usize, range: std::ops::RangeInclusive<usize>) -> Result<usize> {
    match std::env::var(name) {
        Err(_) => Ok(default),
        Ok(v) => match v.trim().parse::<usize>() {
            Ok(n) if range.contains(&n) => Ok(n),
            _ => Err(format!(
                "{name} must be a whole number from {} to {}, got `{v}`",
                range.start(),
                range.end()
            )
            .into()),
        },
    }
}

/// Runs `cmd` to its end within `limit`, killing it past that; its stdout, or why not.
fn bounded(cmd: &mut Command, limit: Duration) -> std::result::Result<String, String> {
    let mut child: Child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start: {e}"))?;
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_string(&mut text);
            }
            text
        })
    };
    let out = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let err = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let deadline = Instant::now() + limit;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(2)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("ran past {} s and was killed", limit.as_secs()));
            }
            Err(e) => return Err(format!("cannot wait for it: {e}")),
        }
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    if status.success() {
        Ok(stdout)
    } else {
        let tail: String = stderr.lines().rev().take(3).collect::<Vec<_>>().join(" / ");
        Err(format!("failed ({status}): {tail}"))
    }
}

/// A JSON string literal.
fn json_str(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A number field of the drivers' one-line JSON report.
fn field(report: &str, name: &str) -> Option<f64> {
    let key = format!("\"{name}\":");
    let at = report.find(&key)? + key.len();
    let rest = &report[at..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    rest[..end].trim().parse().ok()
}

/// One runner of the workload.
struct Runner {
    name: &'static str,
    /// The program and its arguments before `workload-N.json EVENTS WARMUP`, and after them;
    /// `None` for `hooks run`.
    program: Option<(PathBuf, Vec<String>, &'static [&'static str])>,
    /// Set when the runner cannot run: why, and it is skipped from then on.
    broken: Option<String>,
}

impl Runner {
    fn command(&self, work: &Path, hooks: usize, events: usize, warmup: usize) -> Option<Command> {
        let (program, before, after) = self.program.as_ref()?;
        let mut cmd = tool(program);
        cmd.args(before)
            .arg(work.join(format!("workload-{hooks}.json")))
            .arg(events.to_string())
            .arg(warmup.to_string())
            .args(*after)
            .current_dir(work);
        Some(cmd)
    }
}

/// Writes the no-op, the workloads (1 and 8 hooks) and, for `hooks run`, settings and input.
fn prepare(work: &Path) -> Result<PathBuf> {
    fs::create_dir_all(work)?;
    let source = work.join("noop.c");
    let noop = work.join("noop");
    fs::write(&source, NOOP_C)?;
    step(
        "bench peers: the no-op hook (gcc -static)",
        tool("gcc").args(["-static", "-O2", "-o"]).arg(&noop).arg(&source),
    )
    .map_err(|e| format!("{e}; the peers bench needs gcc with a static libc"))?;
    let dir = work.display().to_string();
    let payload_fields = format!(
        "\"session_id\":\"peers\",\"transcript_path\":\"/tmp/peers.jsonl\",\"cwd\":{},\
         \"permission_mode\":\"default\",\"tool_name\":\"Bash\",\"tool_input\":{{\"command\":\"{}\",\
         \"description\":\"a bench call\"}},\"tool_use_id\":\"toolu_bench\"",
        json_str(&dir),
        "x".repeat(1900)
    );
    fs::write(work.join("payload.json"), format!("{{{payload_fields}}}"))?;
    for hooks in [1, 8] {
        let commands: Vec<String> =
            (0..hooks).map(|i| json_str(&format!("{} {i}", noop.display()))).collect();
        fs::write(
            work.join(format!("workload-{hooks}.json")),
            format!("{{\"commands\":[{}],\"payload\":{{{payload_fields}}}}}", commands.join(",")),
        )?;
        let handlers: Vec<String> =
            commands.iter().map(|c| format!("{{\"type\":\"command\",\"command\":{c}}}")).collect();
        fs::write(
            work.join(format!("settings-{hooks}.json")),
            format!(
                "{{\"hooks\":{{\"PreToolUse\":[{{\"matcher\":\"Bash\",\"hooks\":[{}]}}]}}}}",
                handlers.join(",")
            ),
        )?;
    }
    Ok(noop)
}

/// Installs the pinned peers under `dir` when needed; why not, when it cannot.
fn install(dir: &Path) -> std::result::Result<(), String> {
    let stamp = dir.join("installed.stamp");
    let pins = fs::read_to_string(dir.join("package.json")).map_err(|e| e.to_string())?;
    if fs::read_to_string(&stamp).is_ok_and(|s| s == pins) {
        return Ok(());
    }
    eprintln!("xtask: bench peers: npm install (npm registry)");
    let mut npm = tool("npm");
    npm.arg("install")
        .arg("--prefix")
        .arg(dir)
        .args(["--no-audit", "--no-fund", "--ignore-scripts", "--omit=optional"])
        .args(["--loglevel=error", "--fetch-timeout=30000", "--fetch-retries=2"]);
    bounded(&mut npm, INSTALL_LIMIT)
        .map_err(|e| format!("npm install {e}; is the npm registry reachable?"))?;
    fs::write(&stamp, pins).map_err(|e| e.to_string())
}

/// A copy of the Qwen Code bundle's chunk that defines `HookRunner`, exporting it.
fn qwen_runner(modules: &Path) -> std::result::Result<PathBuf, String> {
    let chunks = modules.join("@qwen-code/qwen-code/chunks");
    let out = chunks.join("hooks-bench-hookrunner.js");
    if out.exists() {
        return Ok(out);
    }
    let entries = fs::read_dir(&chunks)
        .map_err(|e| format!("no bundle chunks at `{}`: {e}", chunks.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "js") {
            continue;
        }
        let Ok(text) = fs::read_to_string(&path) else { continue };
        if text.contains("\nvar HookRunner = class {") {
            let exported = format!("{text}\nexport {{ HookRunner as HooksBenchHookRunner }};\n");
            fs::write(&out, exported).map_err(|e| e.to_string())?;
            return Ok(out);
        }
    }
    Err("no chunk of the bundle defines `HookRunner` (another version?)".into())
}

/// `cargo xtask bench peers` entry point.
pub(crate) fn run() -> Result {
    let rounds = knob("PEERS_BENCH_ROUNDS", 9, 1..=100)?;
    let events = knob("PEERS_BENCH_EVENTS", 50, 1..=10_000)?;
    let root = root();
    let dir = root.join("target/peers");
    let work = dir.join("work");
    fs::create_dir_all(&dir)?;
    for file in FILES {
        fs::copy(root.join("xtask/peers").join(file), dir.join(file))?;
    }
    prepare(&work)?;
    step(
        "bench peers: our engine and command (release)",
        cargo().args([
            "build",
            "--release",
            "--locked",
            "-p",
            "hooks-claude",
            "--example",
            "peer_engine",
        ]),
    )?;
    step(
        "bench peers: the hooks command (release)",
        cargo().args(["build", "--release", "--locked", "-p", "hooks-cli"]),
    )?;
    let release = root.join("target/release");
    let engine = release.join("examples/peer_engine");
    let hooks_bin = release.join("hooks");

    let node = tool("node").arg("--version").output().is_ok_and(|o| o.status.success());
    let modules = dir.join("node_modules");
    let installed = if node { install(&dir) } else { Err("`node` is not on PATH".into()) };
    let qwen = installed.clone().and_then(|()| qwen_runner(&modules));
    let driver = |name: &str| {
        Some((PathBuf::from("node"), vec![dir.join(name).display().to_string()], &[][..]))
    };
    let mut runners = vec![
        Runner {
            name: "our engine",
            program: Some((engine.clone(), Vec::new(), &[])),
            broken: None,
        },
        Runner {
            name: "our engine, sh -c (fast path off)",
            program: Some((engine, Vec::new(), &["--always-shell"])),
            broken: None,
        },
        Runner {
            name: "node child_process.spawn, shell",
            program: driver("node_spawn.mjs"),
            broken: (!node).then(|| "`node` is not on PATH".to_owned()),
        },
        Runner {
            name: "gemini-cli-core 0.61.0 HookRunner",
            program: driver("gemini.mjs"),
            broken: installed.clone().err(),
        },
        Runner {
            name: "qwen-code 0.24.4 HookRunner",
            program: driver("qwen.mjs"),
            broken: qwen.clone().err(),
        },
        Runner { name: "hooks run (a process per event)", program: None, broken: None },
    ];
    let env = |cmd: &mut Command| {
        cmd.env("PEERS_NODE_MODULES", &modules);
        // Bash reads `~/.bashrc` even for `bash -c` when it guesses it was started by a remote
        // shell daemon: stdin a socket (node's pipes to a child are socket pairs) and a shell
        // level below 2. Started with `SHLVL` unset or 0 (as from a service, not a shell), the
        // peers that run hooks through bash would time the user's startup files with every
        // hook; a level of 1 keeps every runner to the hook itself, however the bench starts.
        cmd.env("SHLVL", "1");
        if let Ok(q) = &qwen {
            cmd.env("PEERS_QWEN_RUNNER", q);
        }
    };
    let hooks_run = |hooks: usize| {
        let mut cmd = tool(&hooks_bin);
        cmd.args(["run", "--format", "json", "--settings"])
            .arg(work.join(format!("settings-{hooks}.json")))
            .args(["--event", "PreToolUse", "--input"])
            .arg(work.join("payload.json"))
            .arg("--project-dir")
            .arg(&work)
            .current_dir(&work);
        cmd
    };

    println!(
        "the same PreToolUse workload (2 KB payload, static no-op hooks as shell-form commands) \
         through each runner; {rounds} rounds, {events} events per run after {WARMUP} of warm-up"
    );
    // Steady state: µs per event, per runner and hook count.
    let mut steady: Vec<[Vec<f64>; 2]> = runners.iter().map(|_| [Vec::new(), Vec::new()]).collect();
    let mut cold: Vec<Vec<f64>> = runners.iter().map(|_| Vec::new()).collect();
    for round in 0..rounds {
        for k in 0..runners.len() {
            let i = (k + round) % runners.len();
            for (slot, hooks) in [1, 8].into_iter().enumerate() {
                if runners[i].broken.is_some() {
                    continue;
                }
                let result = match runners[i].command(&work, hooks, events, WARMUP) {
                    Some(mut cmd) => {
                        env(&mut cmd);
                        bounded(&mut cmd, RUN_LIMIT).and_then(|out| {
                            field(&out, "median_us")
                                .ok_or_else(|| format!("no median in `{}`", out.trim()))
                        })
                    }
                    // `hooks run`: a process per event, timed from here.
                    None => {
                        let t = Instant::now();
                        bounded(&mut hooks_run(hooks), RUN_LIMIT).and_then(|out| {
                            let us = t.elapsed().as_secs_f64() * 1e6;
                            if out.contains("\"decision\":\"allow\"") {
                                Ok(us)
                            } else {
                                Err(format!("did not allow: {}", out.trim()))
                            }
                        })
                    }
                };
                match result {
                    Ok(us) => steady[i][slot].push(us),
                    Err(why) => runners[i].broken = Some(why),
                }
            }
            // Cold start: a fresh process through its first event (1 hook).
            if runners[i].broken.is_none() {
                let t = Instant::now();
                let result = match runners[i].command(&work, 1, 1, 0) {
                    Some(mut cmd) => {
                        env(&mut cmd);
                        bounded(&mut cmd, RUN_LIMIT).map(|_| ())
                    }
                    None => bounded(&mut hooks_run(1), RUN_LIMIT).map(|_| ()),
                };
                match result {
                    Ok(()) => cold[i].push(t.elapsed().as_secs_f64() * 1e3),
                    Err(why) => runners[i].broken = Some(why),
                }
            }
        }
    }
    let median = |v: &[f64]| {
        let mut v = v.to_vec();
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied()
    };
    let best = |v: &[f64]| v.iter().copied().min_by(f64::total_cmp);
    let ours = [best(&steady[0][0]), best(&steady[0][1])];
    let ours_cold = median(&cold[0]);
    let ratio = |x: Option<f64>, base: Option<f64>| match (x, base) {
        (Some(x), Some(b)) if b > 0.0 => format!("×{:.2}", x / b),
        _ => "—".to_owned(),
    };
    let us = |x: Option<f64>| x.map_or("—".to_owned(), |x| format!("{x:.0}"));
    println!();
    println!(
        "{:<36} {:>10} {:>7} {:>10} {:>7} {:>12} {:>7}",
        "runner", "1 hook µs", "ratio", "8 hooks µs", "ratio", "cold start ms", "ratio"
    );
    for (i, r) in runners.iter().enumerate() {
        let (one, eight, c) = (best(&steady[i][0]), best(&steady[i][1]), median(&cold[i]));
        println!(
            "{:<36} {:>10} {:>7} {:>10} {:>7} {:>12} {:>7}",
            r.name,
            us(one),
            ratio(one, ours[0]),
            us(eight),
            ratio(eight, ours[1]),
            c.map_or("—".to_owned(), |c| format!("{c:.1}")),
            ratio(c, ours_cold),
        );
    }
    println!();
    println!(
        "µs per event: the median event of the best run of the rounds; cold start: process \
         start through the first event and exit, median over rounds; ratios to our engine. A \
         shared machine is noisy: read the ratios."
    );
    for r in &runners {
        if let Some(why) = &r.broken {
            println!("{}: skipped: {why}", r.name);
        }
    }
    Ok(())
}
