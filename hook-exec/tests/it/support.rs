//! Helpers for the execution tests: invocations, `/proc` checks, temporary directories, and
//! re-running one test alone in a fresh process of this binary.

#![expect(clippy::unwrap_used, reason = "test helpers: a failed unwrap is a failed test")]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use hook_exec::{CommandSpec, Invocation, RunLimits, run};
use hook_protocol::{Exit, RawOutcome};

/// Set to a test's name in the process that runs it alone.
const CHILD_ENV: &str = "HOOK_PROTOCOL_IT_ALONE";

/// Short limits for tests: timeout 300 ms, grace 300 ms, leak window 200 ms.
pub(crate) const TIMEOUT: Duration = Duration::from_millis(300);
pub(crate) const GRACE: Duration = Duration::from_millis(300);
pub(crate) const LEAK_WINDOW: Duration = Duration::from_millis(200);

/// A shell-form invocation in `/` with the short test limits.
pub(crate) fn shell(line: &str) -> Invocation {
    let mut inv = Invocation::new(CommandSpec::shell(line), "/", Duration::from_secs(20));
    inv.limits = limits();
    inv
}

/// A shell-form invocation with the short test timeout.
pub(crate) fn shell_timing_out(line: &str) -> Invocation {
    let mut inv = shell(line);
    inv.timeout = TIMEOUT;
    inv
}

/// The default limits with the short grace and leak window.
pub(crate) fn limits() -> RunLimits {
    let mut limits = RunLimits::DEFAULT;
    limits.grace = GRACE;
    limits.leak_window = LEAK_WINDOW;
    limits
}

/// A directory removed when dropped.
#[derive(Debug)]
pub(crate) struct TempDir(PathBuf);

impl TempDir {
    pub(crate) fn new() -> Self {
        static N: AtomicU32 = AtomicU32::new(0);
        let path = std::env::temp_dir().join(format!(
            "hook-protocol-it-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&path).unwrap();
        Self(path)
    }

    pub(crate) fn path(&self) -> &Path {
        &self.0
    }

    /// A path inside the directory, as a string for shell lines.
    pub(crate) fn file(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_owned()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The `/proc/PID/stat` state letter and process group, when the process exists.
fn stat(pid: u32) -> Option<(u8, u32, u32)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &text[text.rfind(')')? + 1..];
    let mut fields = rest.split_ascii_whitespace();
    let state = fields.next()?.as_bytes()[0];
    let ppid = fields.next()?.parse().ok()?;
    let pgrp = fields.next()?.parse().ok()?;
    Some((state, ppid, pgrp))
}

/// Whether `pid` is a live process (a zombie is dead: it only waits for its parent).
pub(crate) use test_support::alive;

/// Waits up to 2 s for every pid to be dead and returns those still alive.
pub(crate) fn still_alive_after_a_moment(pids: &[u32]) -> Vec<u32> {
    let until = Instant::now() + Duration::from_secs(2);
    loop {
        let left: Vec<u32> = pids.iter().copied().filter(|p| alive(*p)).collect();
        if left.is_empty() || Instant::now() > until {
            return left;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn all_pids() -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect()
}

/// Live processes whose process group is `pgid`.
pub(crate) fn group_members(pgid: u32) -> Vec<u32> {
    all_pids()
        .into_iter()
        .filter(|p| stat(*p).is_some_and(|(s, _, g)| g == pgid && s != b'Z' && s != b'X'))
        .collect()
}

/// Our children that are zombies.
pub(crate) fn zombie_children() -> Vec<u32> {
    children().into_iter().filter(|p| stat(*p).is_some_and(|(s, _, _)| s == b'Z')).collect()
}

/// This process's children, whatever their state.
pub(crate) fn children() -> Vec<u32> {
    let me = std::process::id();
    all_pids().into_iter().filter(|p| stat(*p).is_some_and(|(_, ppid, _)| ppid == me)).collect()
}

/// The open descriptors of this process apart from those of the idle cgroups the runner keeps
/// for its next runs (each one's directory and `cgroup.procs`, under `hooks-<pid>-<start>`),
/// and how many of those there are.
pub(crate) fn open_fds_and_idle_cgroup_fds() -> (usize, usize) {
    let ours = format!("/hooks-{}-", std::process::id());
    let (mut other, mut idle) = (0, 0);
    for entry in std::fs::read_dir("/proc/self/fd").unwrap().flatten() {
        match std::fs::read_link(entry.path()) {
            Ok(target) if target.to_string_lossy().contains(&ours) => idle += 1,
            _ => other += 1,
        }
    }
    (other, idle)
}

/// The peak resident set of this process, in KiB.
pub(crate) fn vm_hwm_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_ascii_whitespace().nth(1).unwrap().parse().unwrap()
}

/// The pids a hook wrote to `path`, one per line.
pub(crate) fn pids_in(path: &str) -> Vec<u32> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// Waits until `path` holds at least `n` pids (a hook writes them as it starts them).
pub(crate) async fn wait_for_pids(path: &str, n: usize) -> Vec<u32> {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let pids = pids_in(path);
        if pids.len() >= n {
            return pids;
        }
        assert!(Instant::now() < until, "the hook did not write {n} pids to {path}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Kills processes a test deliberately left running.
pub(crate) async fn kill(pids: &[u32]) {
    if pids.is_empty() {
        return;
    }
    let line: Vec<String> = pids.iter().map(ToString::to_string).collect();
    let _ = run(&shell(&format!("kill -9 {} 2>/dev/null", line.join(" ")))).await;
}

/// Whether this process is the fresh one running `test` alone.
pub(crate) fn running_alone(test: &str) -> bool {
    std::env::var(CHILD_ENV).is_ok_and(|v| v == test)
}

/// Runs `test` (its path without the crate name, e.g. `stress::name`) alone in a fresh
/// process of this test binary, through `hook_exec::run`, and returns its outcome after checking
/// that it ran and passed.
pub(crate) fn run_alone(test: &str) -> RawOutcome {
    run_alone_with(test, &[])
}

/// [`run_alone`] with more variables in the fresh process's environment.
pub(crate) fn run_alone_with(test: &str, vars: &[(&str, &str)]) -> RawOutcome {
    let exe = std::env::current_exe().unwrap();
    let mut inv = Invocation::new(
        CommandSpec::exec(
            exe.to_str().unwrap(),
            [test, "--exact", "--nocapture", "--test-threads=1"],
        ),
        "/",
        Duration::from_secs(240),
    );
    inv.env.set(CHILD_ENV, test);
    for (key, value) in vars {
        inv.env.set(key, value);
    }
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let out = rt.block_on(run(&inv)).unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.exit,
        Exit::Code { code: 0 },
        "{test} failed alone:\n{stdout}\n{}",
        out.stderr_text()
    );
    assert!(stdout.contains("1 passed"), "{test} did not run alone:\n{stdout}");
    out
}

/// Whether runs get cgroups in this process; says so on stderr when they do not, so that a
/// test skipping its cgroup part never passes silently.
#[expect(clippy::print_stderr, reason = "a test skipping its cgroup part says so")]
pub(crate) fn cgroups_here() -> bool {
    let status = hook_exec::containment();
    let here = status.mechanism() == hook_protocol::Mechanism::Cgroup;
    if !here {
        eprintln!("skipping the cgroup part: containment here is {status}");
    }
    here
}

/// The containments to test a behaviour with: the tree walk, and cgroups where this machine
/// has them (`Invocation::cgroup`).
pub(crate) fn containments() -> Vec<bool> {
    if cgroups_here() { vec![false, true] } else { vec![false] }
}

/// The mechanism a run with `cgroup` gets here.
pub(crate) fn mechanism(cgroup: bool) -> hook_protocol::Mechanism {
    if cgroup { hook_protocol::Mechanism::Cgroup } else { hook_protocol::Mechanism::TreeWalk }
}

/// Waits up to 5 s for `path` to disappear; true when it did.
pub(crate) async fn gone_after_a_moment(path: &Path) -> bool {
    let until = Instant::now() + Duration::from_secs(5);
    while path.exists() {
        if Instant::now() > until {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    true
}
