//! `cargo xtask soak`: the load and leak test of the process runner (not part of `ci`).
//!
//! Builds and runs `hook-protocol`'s `soak` example in release mode, with the tree walk and then
//! with cgroup containment: 10,000 invocations, 64 in flight, mixing well-behaved, slow,
//! timing-out, flooding, crashing and daemon-leaving hooks, then checks for zombies, file
//! descriptors, resident memory, that every invocation is accounted for with the containment
//! asked for, and, with cgroups, that the harness's cgroup directory is gone once the soak
//! process has exited (the supervisor removes it). `--runs N` and `--in-flight N` change the
//! load; `--containment cgroup|tree-walk` runs one of the two.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::util::{Result, cargo};

/// `cargo xtask soak` entry point.
pub(crate) fn run(args: &[String]) -> Result {
    let mut vars: Vec<(&str, String)> = Vec::new();
    let mut modes = vec!["tree-walk", "cgroup"];
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let value = args.next().ok_or_else(|| format!("`{arg}` needs a value"))?;
        let var = match arg.as_str() {
            "--runs" => "SOAK_RUNS",
            "--in-flight" => "SOAK_IN_FLIGHT",
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
        vars.push((var, value.clone()));
    }
    for mode in modes {
        let mut cmd = cargo();
        cmd.args(["run", "--release", "--locked", "-p", "hook-protocol", "--example", "soak"]);
        cmd.envs(vars.iter().map(|(k, v)| (*k, v.as_str()))).env("SOAK_CONTAINMENT", mode);
        eprintln!("xtask: soak (release, {mode})");
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
