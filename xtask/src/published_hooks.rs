//! `cargo xtask published-hooks`: hooks their authors published for Codex, Copilot, Cursor and
//! Gemini CLI,
//! installed from a registry and run unmodified by `hooks test` against their authors'
//! expectations (the case files in `hooks-cli/tests/published/`, each case naming the test or
//! document it comes from).
//!
//! Today that is safe-chains (crates.io), one binary with a hook for each of the four agents:
//! `cargo install` builds it once under `target/published-hooks/`; its own installer
//! (`safe-chains --setup --tool <agent>`) then writes each agent's user configuration into a
//! home folder of its own, which is made anew on every run, so the files the cases run are the
//! ones the author's installer writes. Codex runs hooks through a login shell, which sets
//! `PATH` from the profile: the home's `.profile` puts the install on `PATH`, as rustup's does
//! for `cargo install`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{Result, cargo, root, run as step, target_dir};

/// The pinned version of safe-chains.
const SAFE_CHAINS: &str = "0.241.2";

/// The agents safe-chains is installed for, each with the `hooks test` arguments of its case file
/// (`{home}` is the home folder).
const AGENTS: &[(&str, &[&str])] = &[
    // The user's hooks.json, named: `--settings` runs it as a reviewed (trusted) hook.
    ("codex", &["--settings", "{home}/.codex/hooks.json"]),
    // Discovered in the user's places, as Cursor and Copilot do.
    ("cursor", &[]),
    ("copilot", &[]),
    // The user's settings.json, found as Gemini CLI finds it.
    ("gemini", &[]),
];

fn tool(program: &Path) -> Command {
    #[expect(clippy::disallowed_methods, reason = "xtask installs and runs published hooks")]
    let cmd = Command::new(program);
    cmd
}

/// Builds safe-chains from crates.io into `dir` unless it is there already; returns its binary.
fn install_safe_chains(dir: &Path) -> Result<PathBuf> {
    let install = dir.join(format!("safe-chains-{SAFE_CHAINS}"));
    let binary = install.join("bin/safe-chains");
    if binary.is_file() {
        eprintln!("xtask: published-hooks: safe-chains {SAFE_CHAINS} already installed");
        return Ok(binary);
    }
    let build = dir.join("build");
    step(
        &format!("published-hooks: cargo install safe-chains {SAFE_CHAINS} (crates.io)"),
        cargo()
            .args(["install", "--locked", "--quiet", "--force"])
            .arg(format!("safe-chains@{SAFE_CHAINS}"))
            .arg("--root")
            .arg(&install)
            .arg("--target-dir")
            .arg(&build),
    )
    .map_err(|e| format!("{e}; is crates.io reachable?"))?;
    // The build is a few hundred megabytes that no later run reads.
    let _ = fs::remove_dir_all(&build);
    Ok(binary)
}

/// A home folder holding what the author's installer writes for each agent, and a `.profile`
/// that puts the install on `PATH`.
fn fresh_home(dir: &Path, binary: &Path) -> Result<PathBuf> {
    let home = dir.join("home");
    if home.exists() {
        fs::remove_dir_all(&home)?;
    }
    // The installer writes a Codex, Cursor or Gemini file only where the agent is installed.
    fs::create_dir_all(home.join(".codex"))?;
    fs::create_dir_all(home.join(".cursor"))?;
    fs::create_dir_all(home.join(".gemini"))?;
    let bin = binary.parent().ok_or("the safe-chains binary has no folder")?;
    fs::write(home.join(".profile"), format!("PATH=\"{}:$PATH\"\n", bin.display()))?;
    for (agent, _) in AGENTS {
        step(
            &format!("published-hooks: safe-chains --setup --tool {agent}"),
            tool(binary).args(["--setup", "--tool", agent]).env("HOME", &home),
        )?;
    }
    Ok(home)
}

/// Installs the published hooks if needed and runs their case files.
pub(crate) fn run(args: &[String]) -> Result {
    if let Some(extra) = args.first() {
        return Err(format!("`published-hooks` takes no arguments, got `{extra}`").into());
    }
    let root = root();
    let dir = root.join("target/published-hooks");
    fs::create_dir_all(&dir)?;
    let binary = install_safe_chains(&dir)?;
    let home = fresh_home(&dir, &binary)?;
    // The folder the agent runs in: empty, so that no project file of this repository is read.
    let project = dir.join("project");
    fs::create_dir_all(&project)?;
    let bin = binary.parent().ok_or("the safe-chains binary has no folder")?;
    let path = std::env::join_paths(
        std::iter::once(bin.to_path_buf())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )?;
    // Built first and run as itself: cargo would read its own files from the changed home.
    step(
        "published-hooks: the hooks command",
        cargo().args(["build", "--quiet", "--locked", "-p", "hooks-cli", "--bin", "hooks"]),
    )?;
    let hooks = target_dir().join("debug/hooks");
    let cases = root.join("hooks-cli/tests/published/safe-chains");
    let home_text = home.display().to_string();
    for (agent, extra) in AGENTS {
        let file = cases.join(format!("{agent}.test.yaml"));
        step(
            &format!("published-hooks: safe-chains under --dialect {agent}"),
            tool(&hooks)
                .args(["test", "--dialect", agent])
                .args(extra.iter().map(|a| a.replace("{home}", &home_text)))
                .arg(&file)
                .current_dir(&project)
                .env("HOME", &home)
                .env("PATH", &path),
        )?;
    }
    Ok(())
}
