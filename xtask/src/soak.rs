//! `cargo xtask soak`: the load and leak tests of the process runner and of the Claude engine
//! (not part of `ci`).
//!
//! Builds and runs `hook-exec`'s `soak` example in release mode, with the tree walk and then
//! with cgroup containment: 10,000 invocations, 64 in flight, mixing well-behaved, slow,
//! timing-out, flooding, crashing and daemon-leaving hooks, then checks for zombies, file
//! descriptors, resident memory, that every invocation is accounted for with the containment
//! asked for, and, with cgroups, that the harness's cgroup directory is gone once the soak
//! process has exited (the supervisor removes it). `--runs N` and `--in-flight N` change the
//! load; `--containment cgroup|tree-walk` runs one of the two. Then `hooks-claude`'s
//! `soak_engine` example: 100,000 PreToolUse events through one engine, 16 in flight, with the
//! heap's growth, resident memory, descriptors and children checked and the memory per event
//! printed; `--events N` and `--events-in-flight N` change it.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::util::{Result, cargo, run as step};

/// `cargo xtask soak` entry point.
pub(crate) fn run(args: &[String]) -> Result {
    let mut runner_vars: Vec<(&str, String)> = Vec::new();
    let mut modes = vec!["tree-walk", "cgroup"];
    let mut engine = cargo();
    engine.args(["run", "--release", "--locked", "-p", "hooks-claude", "--example", "soak_engine"]);
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let value = args.next().ok_or_else(|| format!("`{arg}` needs a value"))?;
        let (runner, var) = match arg.as_str() {
            "--runs" => (true, "SOAK_RUNS"),
            "--in-flight" => (true, "SOAK_IN_FLIGHT"),
            "--events" => (false, "SOAK_EVENTS"),
            "--events-in-flight" => (false, "SOAK_EVENTS_IN_FLIGHT"),
            "--containment" => {
                if value != "cgroup" && value != "tree-walk" {
                    return Err(
                        format!("`--containment` is cgroup or tree-walk, not `{value}`").into()
                    );
                }
                modes = vec![if value == "cgroup" { "cgroup" } else { "tree-walk" }];
                continue;
            }
            other => return Err(format!("unknown `soak` argument `{other}`").into()),
        };
        if !value.parse::<usize>().is_ok_and(|n| n > 0) {
            return Err(format!("`{arg}` takes a positive whole number, got `{value}`").into());
        }
        if runner {
            runner_vars.push((var, value.clone()));
        } else {
            engine.env(var, value);
        }
    }
    for mode in modes {
        runner_soak(mode, &runner_vars)?;
    }
    step("soak (release): the Claude engine", &mut engine)
}

/// The process runner's soak with one containment, then the check that its cgroups are gone.
fn runner_soak(mode: &str, vars: &[(&str, String)]) -> Result {
    let mut cmd = cargo();
    cmd.args(["run", "--release", "--locked", "-p", "hook-exec", "--example", "soak"]);
    cmd.envs(vars.iter().map(|(k, v)| (*k, v.as_str()))).env("SOAK_CONTAINMENT", mode);
    eprintln!("xtask: soak (release): the process runner, {mode}");
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("soak ({mode}): cannot start: {e}"))?;
    let mut dir = None;
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines() {
            let line = line?;
            println!("{line}");
            if let Some(path) = line.strip_prefix("soak: cgroup directory ") {
                dir = Some(PathBuf::from(path.trim()));
            }
        }
    }
    let status = child.wait()?;
    if !status.success() {
        return Err(format!("soak ({mode}): failed ({status})").into());
    }
    if let Some(dir) = dir {
        gone(&dir)?;
        println!("soak ({mode}): {} was removed after the soak exited", dir.display());
    }
    Ok(())
}

/// Waits up to 15 s for the soak's cgroup directory to be removed by its supervisor.
fn gone(dir: &Path) -> Result {
    let until = Instant::now() + Duration::from_secs(15);
    while dir.exists() {
        if Instant::now() > until {
            return Err(format!("{} is left over after the soak exited", dir.display()).into());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Ok(())
}
