//! Repository tasks, run as `cargo xtask <task>`.
//!
//! - `ci`: everything CI checks (format, lints, tests, docs); `.ci/run` calls it.
//! - `conformance`: `hooks-claude` against third-party Claude Code hook SDKs.
//! - `published-hooks`: hooks published for Codex, Copilot, Cursor and Gemini CLI, run
//!   unmodified.
//! - `bench [exec|native|engine|peers]`: the benchmarks, printing ratios measured side by side in
//!   one run (`peers` only when named).
//! - `fuzz [TARGET...] [--seconds N] [--direct]`: the libFuzzer targets of `fuzz/`.
//! - `macos`: every crate type-checked for the two Apple targets (part of `ci`).
//! - `soak`: load and leak tests of the process runner and the Claude engine (not part of `ci`).

#![allow(clippy::print_stdout, clippy::print_stderr, reason = "xtask is a command-line tool")]

mod bench;
mod ci;
mod conformance;
mod fuzz;
mod macos;
mod package;
mod published_hooks;
mod soak;
#[cfg(test)]
mod tidy;
mod util;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci::run(&args[1..]),
        Some("bench") => bench::run(&args[1..]),
        Some("conformance") => conformance::run(&args[1..]),
        Some("published-hooks") => published_hooks::run(&args[1..]),
        Some("fuzz") => fuzz::run(&args[1..]),
        Some("soak") => soak::run(&args[1..]),
        Some("macos") => macos::run_task(&args[1..]),
        Some("package") => match args.get(1) {
            None => package::check(),
            Some(extra) => Err(format!("`package` takes no arguments, got `{extra}`").into()),
        },
        Some("help" | "--help" | "-h") | None => {
            print_help();
            Ok(())
        }
        Some(other) => Err(format!("unknown task `{other}`; run `cargo xtask help`").into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

fn print_help() {
    println!(
        "cargo xtask <task>

tasks:
  ci                 format check, clippy -D warnings (Linux, and macOS type-checked), every test,
                     conformance, published hooks, a brief run of every fuzz target, docs with
                     warnings denied, the packages
  macos              every crate type-checked (clippy -D warnings) for aarch64-apple-darwin,
                     the system-dependent ones for x86_64 too, with -Z build-std; installs
                     Debian's rustc-web
  package            the published crates packaged, then checked from their packages alone
  conformance        hooks-claude against third-party Claude Code hook SDKs (PyPI, npm)
  published-hooks    hooks published for Codex, Copilot, Cursor and Gemini CLI (crates.io),
                     installed by their authors' installer and run unmodified by `hooks test`
  bench [NAME...]    benchmarks (exec, native, engine, session, dialects, mixed); all when
                     none is named;
                     `peers`, only when named, compares other agents' hook runners (installs
                     them with npm)
  fuzz [TARGET...] [--seconds N] [--direct]
                     libFuzzer targets (codec, claude_settings, claude_output, http_answer,
                     tnsai_response, tnsai_hook_list, matcher, codex, copilot, cursor, gemini),
                     N seconds each (default 60), as many at once as there are cores; installs
                     cargo-fuzz
  soak [--runs N] [--in-flight N] [--events N] [--events-in-flight N]
                     load and leak tests: 10,000 hook runs, 64 in flight, then zombies, file
                     descriptors, memory and accounting checked; then 100,000 events through
                     the Claude engine, 16 in flight, with the memory per event printed"
    );
}
