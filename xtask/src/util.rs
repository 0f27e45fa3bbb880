//! Helpers shared by the tasks.

use std::error::Error;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};

/// The result type of every task.
pub(crate) type Result<T = ()> = std::result::Result<T, Box<dyn Error>>;

/// The workspace root.
pub(crate) fn root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(PathBuf::from).unwrap_or(manifest)
}

/// Where cargo builds this workspace: `CARGO_TARGET_DIR` (relative to the root), else
/// `target/` under the root.
pub(crate) fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => root().join(dir),
        _ => root().join("target"),
    }
}

/// Whether [`cargo`] builds lean: set by [`build_lean`].
static LEAN: AtomicBool = AtomicBool::new(false);

/// Makes every later [`cargo`] build without incremental state and with line tables as its
/// only debug information (dev and test profiles). `cargo xtask ci` builds once per commit,
/// so incremental state is never reused there, and full debug information is most of what a
/// build writes: together they are about half of CI's disk use, which a CI machine with
/// little free space needs. Backtraces keep their file names and lines.
pub(crate) fn build_lean() {
    LEAN.store(true, Ordering::Relaxed);
}

/// `cargo` as the one running this task.
pub(crate) fn cargo() -> Command {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    #[expect(clippy::disallowed_methods, reason = "xtask drives cargo; it runs no hook")]
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root());
    if LEAN.load(Ordering::Relaxed) {
        cmd.env("CARGO_INCREMENTAL", "0").env("CARGO_PROFILE_DEV_DEBUG", "line-tables-only");
    }
    cmd
}

/// Runs a command, failing with its description when it fails.
pub(crate) fn run(what: &str, cmd: &mut Command) -> Result {
    eprintln!("xtask: {what}");
    let status = cmd.status().map_err(|e| format!("{what}: cannot start: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("{what}: failed ({status})").into()) }
}

/// Whether `cargo <sub> --version` works (a cargo subcommand is installed).
pub(crate) fn has_cargo_subcommand(sub: &str) -> bool {
    cargo()
        .args([sub, "--version"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
