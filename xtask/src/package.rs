//! `ci`'s package step: the published crates packaged as crates.io would get them, then built
//! from those packages alone.
//!
//! `cargo package` verifies a package by building it in a fresh target directory, and, for
//! crates that depend on each other, through a temporary local registry whose extracted
//! sources it keeps under `$CARGO_HOME/registry/src`: a second run with changed sources but the
//! same version reuses the stale extraction and fails. So the packages are made with
//! `--no-verify`, unpacked under `target/package-check/`, and checked there as one workspace
//! that patches the published crates to their unpacked copies. What this catches is what
//! verification is for: a file the package leaves out (the included compatibility reference,
//! the licences, the readme), a path dependency without a version, a manifest that only works
//! inside this workspace.

use std::fs;
use std::path::Path;

use crate::util::{Result, cargo, root, run};

/// The crates published to crates.io, packaged (and built from their packages) by `ci`.
pub(crate) const PUBLISHED: &[&str] = &[
    "hook-protocol",
    "hook-exec",
    "hook-kit",
    "hooks-claude",
    "hooks-tnsai",
    "hooks-native",
    "hooks-codex",
    "hooks-copilot",
    "hooks-cursor",
    "hooks-gemini",
    "hooks-mixed",
    "hooks-cli",
];

/// Packages the published crates and checks them from their packages.
pub(crate) fn check() -> Result {
    let mut package = cargo();
    package.args(["package", "--locked", "--allow-dirty", "--no-verify"]);
    for krate in PUBLISHED {
        package.args(["-p", krate]);
    }
    run("package: cargo package --no-verify", &mut package)?;

    let root = root();
    let version = workspace_version(&root)?;
    let dir = root.join("target/package-check");
    if dir.exists() {
        fs::remove_dir_all(&dir).map_err(|e| format!("cannot empty {}: {e}", dir.display()))?;
    }
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;

    let mut members = Vec::new();
    let mut patches = String::new();
    for krate in PUBLISHED {
        let name = format!("{krate}-{version}");
        let archive = root.join("target/package").join(format!("{name}.crate"));
        #[expect(clippy::disallowed_methods, reason = "xtask unpacks an archive; it runs no hook")]
        let mut tar = std::process::Command::new("tar");
        // `-m`: the files get the time of unpacking, not the archive's, so that cargo, whose
        // freshness check goes by modification times, never takes a package for the one it
        // checked in an earlier run.
        tar.arg("-xzmf").arg(&archive).arg("-C").arg(&dir);
        run(&format!("package: unpack {}", archive.display()), &mut tar)?;
        members.push(format!("{name:?}"));
        patches.push_str(&format!("{krate} = {{ path = {name:?} }}\n"));
    }
    let manifest = format!(
        "# Written by `cargo xtask ci`: the published crates, built from their packages.\n\
         [workspace]\nresolver = \"3\"\nmembers = [{}]\n\n[patch.crates-io]\n{patches}",
        members.join(", ")
    );
    write(&dir.join("Cargo.toml"), &manifest)?;
    // The workspace's lock file, so that the packages build with the versions CI tested.
    let lock =
        fs::read(root.join("Cargo.lock")).map_err(|e| format!("cannot read Cargo.lock: {e}"))?;
    fs::write(dir.join("Cargo.lock"), lock).map_err(|e| format!("cannot write Cargo.lock: {e}"))?;

    let mut check = cargo();
    check
        .current_dir(&dir)
        .args(["check", "--workspace", "--lib", "--bins", "--offline"])
        // The workspace's own target directory: the dependencies are already built there.
        .arg("--target-dir")
        .arg(root.join("target"));
    run("package: build the crates from their packages (cargo check)", &mut check)
}

fn write(path: &Path, text: &str) -> Result {
    fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()).into())
}

/// `version` of `[workspace.package]` in the root manifest.
fn workspace_version(root: &Path) -> Result<String> {
    let text = fs::read_to_string(root.join("Cargo.toml"))
        .map_err(|e| format!("cannot read Cargo.toml: {e}"))?;
    let mut in_package = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_package = line == "[workspace.package]";
        } else if in_package && let Some(value) = line.strip_prefix("version") {
            let value = value.trim_start().trim_start_matches('=').trim().trim_matches('"');
            return Ok(value.to_owned());
        }
    }
    Err("Cargo.toml: no `version` in `[workspace.package]`".into())
}
