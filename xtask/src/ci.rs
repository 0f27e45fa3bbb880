//! `cargo xtask ci`: what CI checks, in the order a developer wants to hear about failures.

use crate::util::{Result, cargo, has_cargo_subcommand, run as step};

/// Runs every check.
pub(crate) fn run_all() -> Result {
    step("format check", cargo().args(["fmt", "--all", "--check"]))?;
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
    )?;
    // `hooks-claude` without its default `http` feature: no HTTP client in the build, and an
    // `http` hook is a load warning.
    step(
        "hooks-claude without the http feature: clippy",
        cargo().args([
            "clippy",
            "-p",
            "hooks-claude",
            "--no-default-features",
            "--all-targets",
            "--locked",
            "--",
            "-D",
            "warnings",
        ]),
    )?;
    step(
        "hooks-claude without the http feature: tests",
        cargo()
            .args([
                "test",
                "-p",
                "hooks-claude",
                "--no-default-features",
                "--locked",
                "--test",
                "it",
            ])
            .env("CI", "true"),
    )?;
    if has_cargo_subcommand("nextest") {
        step(
            "tests (nextest)",
            cargo()
                .args(["nextest", "run", "--workspace", "--locked", "--profile", "ci"])
                .env("CI", "true"),
        )?;
    } else {
        step(
            "tests (cargo test; cargo-nextest is not installed)",
            cargo()
                .args(["test", "--workspace", "--locked", "--lib", "--bins", "--tests"])
                .env("CI", "true"),
        )?;
    }
    step(
        "doc tests",
        cargo().args(["test", "--workspace", "--locked", "--doc"]).env("CI", "true"),
    )?;
    crate::conformance::run(&[])?;
    crate::fuzz::ci()?;
    step(
        "docs",
        cargo()
            .args(["doc", "--workspace", "--no-deps", "--locked"])
            .env("RUSTDOCFLAGS", "-D warnings"),
    )?;
    Ok(())
}

/// `cargo xtask ci` entry point.
pub(crate) fn run(args: &[String]) -> Result {
    if let Some(extra) = args.first() {
        return Err(format!("`ci` takes no arguments, got `{extra}`").into());
    }
    run_all()
}
