//! `cargo xtask macos`: every crate type-checked for the two Apple targets, so that no
//! Linux-only call breaks a Mac build unseen. A type-check, not a build: nothing is linked or
//! run for macOS.
//!
//! It needs a Rust that can build the standard library from source for a target rustup cannot
//! fetch here: Debian's `rustc-web` (with `cargo-web`, `rust-web-src` and `rust-web-clippy`),
//! installed with `apt-get` when missing, driven with `-Z build-std`. `ring`'s build script
//! asks a C compiler for the target: a stand-in answers as clang and writes empty objects, which
//! a type-check never links.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{Result, root, run, target_dir};

/// The Apple targets checked.
const TARGETS: [&str; 2] = ["aarch64-apple-darwin", "x86_64-apple-darwin"];

/// Debian's packages of a Rust with its standard library's source and clippy.
const PACKAGES: [&str; 4] = ["rustc-web", "cargo-web", "rust-web-src", "rust-web-clippy"];

/// Where Debian's Rust is.
const DEBIAN_BIN: &str = "/usr/bin";

/// The standard library's source Debian ships for `-Z build-std`.
const STD_SOURCE: &str = "/usr/lib/rustlib/src/rust/library";

/// The stand-in C compiler: it says it is clang when cc-rs asks (`-E` on its probe; `-?` is
/// refused, as clang refuses it), and writes an empty object where asked.
const STAND_IN_CC: &str = r#"#!/bin/sh
# A stand-in C compiler for a type-check: nothing is compiled, and nothing is linked.
for arg in "$@"; do
  case "$arg" in
    -E) echo clang >&2; echo gcc >&2; exit 0;;
    '-?') exit 1;;
  esac
done
out=
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out=$2; shift;;
    -o*) out=${1#-o};;
  esac
  shift
done
if [ -n "$out" ]; then : > "$out"; fi
exit 0
"#;

fn tool(program: &str) -> Command {
    #[expect(clippy::disallowed_methods, reason = "xtask drives toolchains; it runs no hook")]
    let cmd = Command::new(program);
    cmd
}

/// Whether Debian's Rust, its library source and clippy are here.
fn installed() -> bool {
    Path::new(STD_SOURCE).is_dir()
        && Path::new(DEBIAN_BIN).join("cargo-clippy").is_file()
        && tool(&format!("{DEBIAN_BIN}/rustc")).arg("--version").output().is_ok_and(|o| {
            o.status.success() && String::from_utf8_lossy(&o.stdout).contains("source tarball")
        })
}

/// Installs Debian's Rust when it is missing.
fn install() -> Result {
    if installed() {
        return Ok(());
    }
    let apt = |args: &[&str]| {
        let mut cmd = tool("apt-get");
        cmd.args(args).env("DEBIAN_FRONTEND", "noninteractive");
        cmd
    };
    run("macos: apt-get update", apt(&["update", "-qq"]).arg("-o").arg("Dpkg::Use-Pty=0"))?;
    let mut install = apt(&["install", "-y", "-qq", "--no-install-recommends"]);
    run(
        "macos: apt-get install Debian's rustc-web, with its std source and clippy",
        install.args(PACKAGES),
    )?;
    if installed() {
        Ok(())
    } else {
        Err(format!("macos: {} did not give a Rust with {STD_SOURCE}", PACKAGES.join(", ")).into())
    }
}

/// The stand-in C compiler, written under `dir`.
fn stand_in_cc(dir: &Path) -> Result<PathBuf> {
    fs::create_dir_all(dir)?;
    let path = dir.join("stand-in-cc");
    fs::write(&path, STAND_IN_CC)?;
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755))?;
    Ok(path)
}

/// Debian's cargo, set to check for the Apple `targets` with `-Z build-std`.
fn cargo(target: &Path, cc: &Path, targets: &[&str]) -> Command {
    let mut cmd = tool(&format!("{DEBIAN_BIN}/cargo"));
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![PathBuf::from(DEBIAN_BIN)];
    dirs.extend(std::env::split_paths(&path));
    cmd.current_dir(root())
        .env("PATH", std::env::join_paths(dirs).unwrap_or(path))
        .env("RUSTC", format!("{DEBIAN_BIN}/rustc"))
        .env("RUSTC_BOOTSTRAP", "1")
        .env("CARGO_TARGET_DIR", target)
        .env("CARGO_INCREMENTAL", "0")
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("RUSTC_WRAPPER");
    for t in TARGETS {
        let var = t.replace('-', "_");
        cmd.env(format!("CC_{var}"), cc).env(format!("AR_{var}"), "ar");
    }
    cmd.args(["clippy", "-q", "-Z", "build-std"]);
    for t in targets {
        cmd.args(["--target", t]);
    }
    cmd
}

/// Runs the check: clippy with warnings denied over every crate and target for Apple silicon;
/// for Intel Macs, the crates whose code depends on the system (`hook-exec`, and `hooks-cli`
/// with every library below it), every target; then `hooks-claude` without its `http`
/// feature, for both. The two targets differ in their architecture only, and no crate's code
/// depends on that.
pub(crate) fn check() -> Result {
    eprintln!(
        "xtask: macos: a type-check for {} (nothing is linked or run)",
        TARGETS.join(" and ")
    );
    install()?;
    let target = target_dir().join("macos");
    let cc = stand_in_cc(&target)?;
    let deny = ["--", "-D", "warnings"];
    let [silicon, intel] = TARGETS;
    let mut all = cargo(&target, &cc, &[silicon]);
    all.args(["--workspace", "--all-targets", "--locked"]).args(deny);
    run(&format!("macos: clippy, every crate and target, {silicon}"), &mut all)?;
    let mut system = cargo(&target, &cc, &[intel]);
    system.args(["-p", "hook-exec", "-p", "hooks-cli", "--all-targets", "--locked"]).args(deny);
    run(&format!("macos: clippy, hook-exec and hooks-cli, {intel}"), &mut system)?;
    let mut lean = cargo(&target, &cc, &TARGETS);
    lean.args(["-p", "hooks-claude", "--no-default-features", "--lib", "--test", "it", "--locked"])
        .args(deny);
    run("macos: clippy, hooks-claude without http", &mut lean)
}

/// `cargo xtask macos` entry point.
pub(crate) fn run_task(args: &[String]) -> Result {
    if let Some(extra) = args.first() {
        return Err(format!("`macos` takes no arguments, got `{extra}`").into());
    }
    check()
}
