//! `cargo xtask ci`: what CI checks, in the order a developer wants to hear about failures,
//! with each step's time printed at the end (also when a step fails).

use std::collections::HashSet;
use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::util::{Result, build_lean, cargo, has_cargo_subcommand, run as step};

/// Each step's name and time, in the order they ran.
#[derive(Default)]
struct Timings(Vec<(&'static str, Duration, bool)>);

impl Timings {
    /// Runs one step, timing it.
    fn time(&mut self, name: &'static str, f: impl FnOnce() -> Result) -> Result {
        let started = Instant::now();
        let result = f();
        self.0.push((name, started.elapsed(), result.is_ok()));
        result
    }

    fn print(&self, total: Duration) {
        eprintln!("xtask: ci step times:");
        for (name, took, ok) in &self.0 {
            let mark = if *ok { "" } else { "  (failed)" };
            eprintln!("xtask:   {:>7}  {name}{mark}", minutes(*took));
        }
        eprintln!("xtask:   {:>7}  total", minutes(total));
        let root = crate::util::root();
        eprintln!(
            "xtask: ci disk use: target/ {}, fuzz/target/ {}",
            megabytes(bytes_under(&root.join("target"))),
            megabytes(bytes_under(&root.join("fuzz/target"))),
        );
    }
}

/// `3m07s`, `42s`.
fn minutes(d: Duration) -> String {
    let secs = d.as_secs();
    if secs >= 60 { format!("{}m{:02}s", secs / 60, secs % 60) } else { format!("{secs}s") }
}

/// `1234 MB`.
fn megabytes(bytes: u64) -> String {
    format!("{} MB", bytes / 1_000_000)
}

/// The disk space the files under `dir` take, as `du` counts it: links not followed, a file
/// linked twice counted once (cargo hard-links its outputs); what cannot be read counts 0.
fn bytes_under(dir: &Path) -> u64 {
    fn walk(dir: &Path, seen: &mut HashSet<(u64, u64)>) -> u64 {
        let Ok(entries) = fs::read_dir(dir) else { return 0 };
        entries
            .flatten()
            .map(|entry| match entry.metadata() {
                Ok(meta) if meta.is_dir() => walk(&entry.path(), seen),
                Ok(meta) if seen.insert((meta.dev(), meta.ino())) => meta.blocks() * 512,
                _ => 0,
            })
            .sum()
    }
    walk(dir, &mut HashSet::new())
}

/// Runs every check.
pub(crate) fn run_all() -> Result {
    build_lean();
    let started = Instant::now();
    let mut t = Timings::default();
    let result = steps(&mut t);
    t.print(started.elapsed());
    result
}

fn steps(t: &mut Timings) -> Result {
    t.time("format check", || step("format check", cargo().args(["fmt", "--all", "--check"])))?;
    t.time("clippy", || {
        step(
            "clippy",
            cargo().args([
                "clippy",
                "--workspace",
                "--all-targets",
                "--locked",
                "--",
                "-D",
                "warnings",
            ]),
        )
    })?;
    // `hooks-claude` without its default `http` feature: no HTTP client in the build, and an
    // `http` hook is a load warning.
    t.time("hooks-claude without http", || {
        step(
            "hooks-claude without the http feature: clippy",
            cargo().args([
                "clippy",
                "-p",
                "hooks-claude",
                "--no-default-features",
                "--lib",
                "--test",
                "it",
                "--locked",
                "--",
                "-D",
                "warnings",
            ]),
        )?;
        step(
            "hooks-claude without the http feature: tests",
            cargo()
                .args(["test", "-p", "hooks-claude", "--no-default-features", "--locked"])
                // The configuration tests, where an `http` hook is a load warning; the rest
                // runs the same code as with the feature.
                .args(["--test", "it", "--", "config::"])
                .env("CI", "true"),
        )
    })?;
    t.time("macOS type-check", || {
        crate::macos::check()?;
        // About 1.7 GB that no later step reads: a CI machine may be short of disk.
        Ok(std::fs::remove_dir_all(crate::util::target_dir().join("macos"))?)
    })?;
    t.time("tests", || {
        if has_cargo_subcommand("nextest") {
            step(
                "tests (nextest)",
                cargo()
                    .args(["nextest", "run", "--workspace", "--locked", "--profile", "ci"])
                    .env("CI", "true"),
            )
        } else {
            step(
                "tests (cargo test; cargo-nextest is not installed)",
                cargo()
                    .args(["test", "--workspace", "--locked", "--lib", "--bins", "--tests"])
                    .env("CI", "true"),
            )
        }
    })?;
    t.time("doc tests", || {
        step(
            "doc tests",
            cargo().args(["test", "--workspace", "--locked", "--doc"]).env("CI", "true"),
        )
    })?;
    t.time("conformance", || crate::conformance::run(&[]))?;
    t.time("published hooks", || crate::published_hooks::run(&[]))?;
    t.time("fuzz", crate::fuzz::ci)?;
    t.time("docs", || {
        step(
            "docs",
            cargo()
                .args(["doc", "--workspace", "--no-deps", "--locked"])
                .env("RUSTDOCFLAGS", "-D warnings"),
        )
    })?;
    t.time("package", crate::package::check)?;
    Ok(())
}

/// `cargo xtask ci` entry point.
pub(crate) fn run(args: &[String]) -> Result {
    if let Some(extra) = args.first() {
        return Err(format!("`ci` takes no arguments, got `{extra}`").into());
    }
    run_all()
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::bytes_under;

    #[test]
    fn a_file_linked_twice_is_counted_once_and_a_missing_dir_is_zero() {
        let dir = std::env::temp_dir().join(format!("xtask-du-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("a/b")).unwrap();
        fs::write(dir.join("a/b/file"), vec![7u8; 64 * 1024]).unwrap();
        let once = bytes_under(&dir);
        assert!(once >= 64 * 1024, "{once} bytes for a 64 KiB file");
        fs::hard_link(dir.join("a/b/file"), dir.join("a/link")).unwrap();
        assert_eq!(bytes_under(&dir), once, "a hard link is the same file");
        fs::write(dir.join("second"), vec![7u8; 64 * 1024]).unwrap();
        assert!(bytes_under(&dir) >= once + 64 * 1024, "a second file adds its size");
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(bytes_under(&dir), 0);
    }
}
