//! `cargo xtask fuzz [TARGET...] [--seconds N] [--direct]`: the libFuzzer targets of `fuzz/`.
//!
//! Installs the pinned `cargo-fuzz` when it is missing, builds every target once, then runs
//! each named target (all when none is named) for N seconds (default 60), as many at once as
//! the machine has cores (each fuzzer runs on one), and prints executions and crashes per
//! target. Only the stable toolchain is available, so
//! the `-Z` flags of a libFuzzer build are allowed with `RUSTC_BOOTSTRAP=1`.
//!
//! Targets are built without a sanitizer (`-s none`): the code under test is safe Rust (the
//! only `unsafe` of the workspace is the process code, which no target reaches), so a
//! sanitizer would find nothing that Rust's own checks miss, and without it a target runs two
//! to three times more inputs per second. Debug assertions (overflow checks) stay on.
//!
//! `cargo xtask ci` runs every target for [`CI_SECONDS`] without `cargo-fuzz`: it builds the
//! targets with `cargo build` and the instrumentation flags `cargo fuzz build` passes
//! (libFuzzer itself comes from the `libfuzzer-sys` crate), which spares CI the one-time install
//! of `cargo-fuzz` (about a minute), and runs them directly; `--direct` does the same from the
//! command line. That build uses the fuzz crate's `ci-fuzz` profile (dev with `opt-level = 1`,
//! parallel codegen units) instead of `cargo fuzz`'s release build with one codegen unit: it
//! builds several times faster on 2 cores, and for runs of seconds the slower inputs per second
//! matter less. The fuzz crate takes `hooks-claude` without its `http` feature, so neither build
//! compiles the HTTP client's network and TLS stack, which no target reaches.
//!
//! Each run reads the committed seeds (`fuzz/corpus/TARGET/`) and keeps what it discovers in
//! `fuzz/target/corpus/TARGET/` (ignored by git), so the committed seeds change only by hand
//! (`python3 fuzz/seeds.py` rebuilds them from the test fixtures). A crash stops the task
//! with the input saved under `fuzz/artifacts/TARGET/`; each becomes a regression test in the
//! crate it concerns.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::util::{Result, cargo, has_cargo_subcommand, root, run as step};

/// The pinned `cargo-fuzz`.
const CARGO_FUZZ_VERSION: &str = "0.13.1";

/// Every target, in the order they run.
pub(crate) const TARGETS: &[&str] = &[
    "codec",
    "claude_settings",
    "claude_output",
    "http_answer",
    "tnsai_response",
    "tnsai_hook_list",
    "matcher",
    "codex",
    "copilot",
    "cursor",
    "gemini",
];

/// Seconds per target when `--seconds` is not given.
const DEFAULT_SECONDS: u64 = 60;

/// The longest one input may take before libFuzzer reports it as a hang.
const INPUT_TIMEOUT_SECONDS: u64 = 10;

/// Seconds per target in `cargo xtask ci`.
pub(crate) const CI_SECONDS: u64 = 10;

/// The instrumentation flags `cargo fuzz build -s none` (0.13) gives rustc, less its
/// `-Ccodegen-units=1`: the direct build's profile decides the codegen units.
const SANCOV_RUSTFLAGS: &str = " -Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
    -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
    -Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing \
    -Cllvm-args=-simplifycfg-branch-fold-threshold=0 -Cllvm-args=-sanitizer-coverage-stack-depth \
    -Cdebug-assertions";

/// The fuzz crate's profile for direct builds.
const DIRECT_PROFILE: &str = "ci-fuzz";

/// How the targets are built and started.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Runner {
    /// Through `cargo fuzz` (installed when missing).
    CargoFuzz,
    /// `cargo build` with libFuzzer's flags, then the binaries themselves.
    Direct,
}

/// What one target's run found.
struct Outcome {
    target: &'static str,
    seconds: f64,
    executions: u64,
    corpus: u64,
    crash: Option<String>,
}

fn fuzz_dir() -> PathBuf {
    root().join("fuzz")
}

/// `cargo fuzz` in `fuzz/`, allowed its nightly flags on stable.
fn cargo_fuzz() -> Command {
    let mut cmd = cargo();
    cmd.current_dir(fuzz_dir()).env("RUSTC_BOOTSTRAP", "1").arg("fuzz");
    cmd
}

/// Installs `cargo-fuzz` when `cargo fuzz` does not run.
fn ensure_cargo_fuzz() -> Result {
    if has_cargo_subcommand("fuzz") {
        return Ok(());
    }
    let started = Instant::now();
    step(
        &format!("fuzz: installing cargo-fuzz {CARGO_FUZZ_VERSION} (once)"),
        cargo().args(["install", "cargo-fuzz", "--locked", "--version", CARGO_FUZZ_VERSION]),
    )?;
    eprintln!("xtask: fuzz: cargo-fuzz installed in {:.0} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// The host's target triple, which `cargo fuzz` builds for (from `rustc -vV`).
fn host_triple() -> Result<String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    #[expect(clippy::disallowed_methods, reason = "xtask asks rustc for its host; it runs no hook")]
    let output = Command::new(rustc).arg("-vV").output()?;
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(str::to_owned)
        .ok_or_else(|| "fuzz: `rustc -vV` names no host".into())
}

/// Builds every target with `cargo build`, instrumented as `cargo fuzz build -s none` does, in
/// the [`DIRECT_PROFILE`].
fn build_direct(triple: &str) -> Result {
    let flags: String = SANCOV_RUSTFLAGS.split_whitespace().fold(String::new(), |mut acc, f| {
        acc.push(' ');
        acc.push_str(f);
        acc
    });
    step(
        "fuzz: build (cargo build with libFuzzer's flags, profile ci-fuzz)",
        cargo()
            .current_dir(fuzz_dir())
            .env("RUSTC_BOOTSTRAP", "1")
            .env("RUSTFLAGS", flags)
            .args(["build", "--manifest-path"])
            .arg(fuzz_dir().join("Cargo.toml"))
            // Where the runs look for the binaries, whatever `CARGO_TARGET_DIR` says.
            .arg("--target-dir")
            .arg(fuzz_dir().join("target"))
            .args(["--target", triple, "--profile", DIRECT_PROFILE, "--locked", "--bins"]),
    )
}

/// `cargo xtask ci`'s run: the fuzz crate's format, then every target for [`CI_SECONDS`],
/// without `cargo-fuzz`.
pub(crate) fn ci() -> Result {
    step(
        "fuzz: format check",
        cargo().args(["fmt", "--check", "--manifest-path"]).arg(fuzz_dir().join("Cargo.toml")),
    )?;
    fuzz_with(Runner::Direct, TARGETS, CI_SECONDS)
}

/// Builds every target, then runs the chosen ones for `seconds` each.
fn fuzz_with(runner: Runner, targets: &[&'static str], seconds: u64) -> Result {
    let started = Instant::now();
    let binaries = match runner {
        Runner::CargoFuzz => {
            ensure_cargo_fuzz()?;
            step("fuzz: build", cargo_fuzz().args(["build", "-s", "none"]))?;
            None
        }
        Runner::Direct => {
            let triple = host_triple()?;
            build_direct(&triple)?;
            Some(fuzz_dir().join("target").join(triple).join(DIRECT_PROFILE))
        }
    };
    eprintln!("xtask: fuzz: built in {:.0} s", started.elapsed().as_secs_f64());
    let mut outcomes = Vec::new();
    // Each target runs on one core: as many at once as the machine has cores.
    let width = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    for chunk in targets.chunks(width) {
        let bins = binaries.as_deref();
        let runs: Vec<std::result::Result<Outcome, String>> = std::thread::scope(|scope| {
            let handles: Vec<_> = chunk
                .iter()
                .map(|&target| {
                    scope
                        .spawn(move || run_target(bins, target, seconds).map_err(|e| e.to_string()))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|_| Err("a fuzz run's thread panicked".into())))
                .collect()
        });
        for run in runs {
            outcomes.push(run?);
        }
    }
    println!(
        "\n{:<16} {:>8} {:>14} {:>10} {:>8}  crash",
        "target", "seconds", "executions", "exec/s", "corpus"
    );
    for o in &outcomes {
        println!(
            "{:<16} {:>8.0} {:>14} {:>10.0} {:>8}  {}",
            o.target,
            o.seconds,
            o.executions,
            o.executions as f64 / o.seconds.max(1.0),
            o.corpus,
            o.crash.as_deref().unwrap_or("none"),
        );
    }
    let crashed: Vec<&str> =
        outcomes.iter().filter(|o| o.crash.is_some()).map(|o| o.target).collect();
    if crashed.is_empty() {
        Ok(())
    } else {
        Err(format!("fuzz: crashes in {}; see the inputs above", crashed.join(", ")).into())
    }
}

fn run_target(binaries: Option<&Path>, target: &'static str, seconds: u64) -> Result<Outcome> {
    let dir = fuzz_dir();
    let work = dir.join("target/corpus").join(target);
    let seeds = dir.join("corpus").join(target);
    let logs = dir.join("target/logs");
    let artifacts = dir.join("artifacts").join(target);
    fs::create_dir_all(&artifacts)?;
    fs::create_dir_all(&work)?;
    fs::create_dir_all(&logs)?;
    eprintln!("xtask: fuzz: {target} for {seconds} s");
    let started = Instant::now();
    let mut cmd = match binaries {
        Some(bins) => {
            #[expect(clippy::disallowed_methods, reason = "xtask runs the fuzz targets it built")]
            let mut cmd = Command::new(bins.join(target));
            cmd.current_dir(&dir)
                .arg(format!("-artifact_prefix={}/", artifacts.display()))
                .arg(&work)
                .arg(&seeds);
            cmd
        }
        None => {
            // Corpus directories before `--`: without them `cargo fuzz` would add the
            // committed seeds as the directory that new inputs are written to.
            let mut cmd = cargo_fuzz();
            cmd.args(["run", "-s", "none", target]).arg(&work).arg(&seeds).arg("--");
            cmd
        }
    };
    let output = cmd
        .arg(format!("-max_total_time={seconds}"))
        .arg(format!("-timeout={INPUT_TIMEOUT_SECONDS}"))
        .arg("-rss_limit_mb=2048")
        .arg("-print_final_stats=1")
        .output()
        .map_err(|e| format!("fuzz: cannot start `cargo fuzz run {target}`: {e}"))?;
    let elapsed = started.elapsed().as_secs_f64();
    let log = String::from_utf8_lossy(&output.stderr).into_owned();
    let log_file = logs.join(format!("{target}.log"));
    fs::write(&log_file, &log)?;
    let executions = stat(&log, "stat::number_of_executed_units:").unwrap_or(0);
    let corpus = count_files(&work);
    let crash = if output.status.success() {
        None
    } else {
        let artifact = log
            .lines()
            .find_map(|l| l.split_once("Test unit written to ").map(|(_, p)| p.trim().to_owned()));
        let panic = log.lines().find(|l| l.contains("panicked at")).map(str::trim);
        eprintln!("{}", tail(&log, 40));
        Some(match (artifact, panic) {
            (Some(a), Some(p)) => format!("{a} ({p})"),
            (Some(a), None) => a,
            (None, _) => format!(
                "`cargo fuzz run {target}` failed ({}); log: {}",
                output.status,
                log_file.display()
            ),
        })
    };
    Ok(Outcome { target, seconds: elapsed, executions, corpus, crash })
}

fn stat(log: &str, key: &str) -> Option<u64> {
    log.lines().rev().find_map(|l| l.trim().strip_prefix(key)).and_then(|v| v.trim().parse().ok())
}

fn count_files(dir: &Path) -> u64 {
    fs::read_dir(dir).map(|d| d.filter(|e| e.is_ok()).count() as u64).unwrap_or(0)
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// `cargo xtask fuzz` entry point.
pub(crate) fn run(args: &[String]) -> Result {
    let mut seconds = DEFAULT_SECONDS;
    let mut targets: Vec<&'static str> = Vec::new();
    let mut runner = Runner::CargoFuzz;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--direct" => runner = Runner::Direct,
            "--seconds" => {
                let value = args.next().ok_or("`--seconds` needs a number")?;
                seconds = value.parse().ok().filter(|&s| s > 0).ok_or_else(|| {
                    format!("`--seconds` takes a positive whole number, got `{value}`")
                })?;
            }
            name => {
                let target = TARGETS.iter().find(|t| **t == name).ok_or_else(|| {
                    format!("unknown fuzz target `{name}`; targets: {}", TARGETS.join(", "))
                })?;
                targets.push(target);
            }
        }
    }
    if targets.is_empty() {
        targets = TARGETS.to_vec();
    }
    fuzz_with(runner, &targets, seconds)
}
