//! `cargo xtask conformance`: the payloads and decisions of `hooks-claude` against third-party
//! Claude Code hook SDKs (pinned in `hooks-claude/tests/conformance/`).
//!
//! The SDKs are installed once under `target/conformance/` (a Python venv with pip, and
//! `npm install`); a stamp file with the pinned versions skips the install on later runs. The
//! driver scripts are copied next to the installs, then the `conformance` example of
//! `hooks-claude` runs every check.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::util::{Result, cargo, root, run as step};

/// The files that pin the SDKs and drive them.
const FILES: &[&str] = &[
    "requirements.txt",
    "package.json",
    "cchooks_driver.py",
    "mizunashi_driver.mjs",
    "cc_hooks_ts_driver.mjs",
];

fn tool(program: &str) -> Command {
    #[expect(clippy::disallowed_methods, reason = "xtask installs test tools; it runs no hook")]
    let cmd = Command::new(program);
    cmd
}

fn available(program: &str) -> bool {
    tool(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn install(dir: &Path, source: &Path) -> Result {
    for program in ["python3", "node", "npm"] {
        if !available(program) {
            return Err(format!(
                "conformance needs `{program}` on PATH (python3 with venv, node and npm)"
            )
            .into());
        }
    }
    let venv = dir.join("venv");
    if !venv.join("bin/python3").exists() {
        step("conformance: python venv", tool("python3").arg("-m").arg("venv").arg(&venv))?;
    }
    step(
        "conformance: pip install (PyPI)",
        tool(&venv.join("bin/python3").display().to_string())
            .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check"])
            .args(["--timeout", "30", "--retries", "2", "-r"])
            .arg(source.join("requirements.txt")),
    )
    .map_err(|e| format!("{e}; is PyPI reachable?"))?;
    step(
        "conformance: npm install (npm registry)",
        tool("npm")
            .arg("install")
            .arg("--prefix")
            .arg(dir)
            .args(["--no-audit", "--no-fund", "--omit=optional", "--ignore-scripts"])
            .args(["--loglevel=error", "--fetch-timeout=30000", "--fetch-retries=2"]),
    )
    .map_err(|e| format!("{e}; is the npm registry reachable?"))?;
    Ok(())
}

/// Installs the SDKs if needed and runs the checks.
pub(crate) fn run(args: &[String]) -> Result {
    if let Some(extra) = args.first() {
        return Err(format!("`conformance` takes no arguments, got `{extra}`").into());
    }
    let root = root();
    let source = root.join("hooks-claude/tests/conformance");
    let dir = root.join("target/conformance");
    fs::create_dir_all(&dir)?;
    let mut pins = String::new();
    for file in FILES {
        fs::copy(source.join(file), dir.join(file))
            .map_err(|e| format!("cannot copy `{file}` into `{}`: {e}", dir.display()))?;
        if file.ends_with(".txt") || file.ends_with(".json") {
            pins.push_str(&fs::read_to_string(source.join(file))?);
        }
    }
    let stamp = dir.join("installed.stamp");
    if fs::read_to_string(&stamp).ok().as_deref() != Some(pins.as_str()) {
        install(&dir, &source)?;
        fs::write(&stamp, &pins)?;
    } else {
        eprintln!("xtask: conformance: SDKs already installed under `{}`", dir.display());
    }
    step(
        "conformance checks",
        cargo()
            .args([
                "run",
                "--quiet",
                "--locked",
                "-p",
                "hooks-claude",
                "--example",
                "conformance",
                "--",
            ])
            .arg(&dir),
    )
}
