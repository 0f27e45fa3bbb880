//! Hostile hooks through the `hooks` command, end to end (floods, timeouts, escapes from the
//! tree, a fork bomb, a memory hog, `hooks` itself SIGKILLed): each case asserts when `hooks`
//! returns, the decision it prints, and the peak memory of the `hooks` process (bounded by the
//! output caps, whatever the hook prints or leaves behind).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Peak memory of `hooks` on a small event, whatever the hook does: the launcher's few MiB
/// inherited at `exec`, the process itself, the two 1 MiB captures of one hook and what is
/// made of them (about 13 MiB in all for a quiet hook, 22 MiB for a 1 MiB blocking reason).
const PEAK_KIB: u64 = 32 * 1024;

/// What one run of `hooks` did.
#[derive(Debug)]
struct Measured {
    status: i32,
    doc: Value,
    stderr: String,
    elapsed: Duration,
    /// The peak resident memory of `hooks` and of the processes it reaped (its hooks), in KiB.
    peak_kib: u64,
}

/// Starts the program in `argv[2:]`, waits for it with `wait4(2)` and writes its peak resident
/// memory (`ru_maxrss`, KiB) to the file `argv[1]`. The measure is taken from a small launcher
/// rather than from the test process: a child started with `vfork`-style spawning inherits the
/// high-water mark of its parent's memory at `exec`, which for this test process holds the
/// other tests' allocations; the launcher's is a few MiB.
const LAUNCHER: &str = r#"
import os, sys
pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ)
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as f:
    f.write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))
"#;

/// Runs `hooks run ARGS --format json` in `dir` and measures it.
fn measured(dir: &Path, args: &[&str]) -> Measured {
    let peak_file = dir.join(".peak-kib");
    #[expect(clippy::disallowed_methods, reason = "the tests drive the hooks binary itself")]
    let mut cmd = Command::new("python3");
    cmd.args(["-c", LAUNCHER])
        .arg(&peak_file)
        .arg(env!("CARGO_BIN_EXE_hooks"))
        .arg("run")
        .args(args)
        .args(["--format", "json"])
        .current_dir(dir)
        .env("HOME", dir.join("home"))
        .stdin(Stdio::null());
    let started = Instant::now();
    let out = cmd.output().unwrap();
    let elapsed = started.elapsed();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let doc = serde_json::from_str(&stdout)
        .map_err(|e| format!("not one JSON document ({e}): {stdout}\n{stderr}"))
        .unwrap();
    let peak_kib = std::fs::read_to_string(&peak_file).unwrap().trim().parse().unwrap();
    Measured { status: out.status.code().unwrap_or(-1), doc, stderr, elapsed, peak_kib }
}

/// A project with one PreToolUse handler and a small Bash event.
struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    /// A project with the small event and no hook yet.
    fn empty() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let input =
            json!({"tool_name": "Bash", "tool_use_id": "toolu_1", "tool_input": {"command": "ls"}});
        std::fs::write(dir.path().join("input.json"), input.to_string()).unwrap();
        Self { dir }
    }

    /// A project whose one hook is `handler`.
    fn new(handler: Value) -> Self {
        Self::empty().hook(handler)
    }

    /// A project whose hook runs `line` with a timeout in seconds.
    fn shell(line: &str, timeout: f64) -> Self {
        Self::new(json!({"type": "command", "command": line, "timeout": timeout}))
    }

    /// Sets the one hook.
    fn hook(self, handler: Value) -> Self {
        let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}});
        std::fs::write(self.path().join("settings.json"), settings.to_string()).unwrap();
        self
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// A file in the project, as a string for shell lines.
    fn file(&self, name: &str) -> String {
        self.path().join(name).to_str().unwrap().to_owned()
    }

    fn run(&self) -> Measured {
        measured(
            self.path(),
            &["--settings", "settings.json", "--event", "PreToolUse", "--input", "input.json"],
        )
    }
}

/// Asserts the run's decision, its hook's status, that it returned within `within`, and that
/// its peak memory stayed under `peak_kib`.
#[track_caller]
fn assert_run(m: &Measured, decision: &str, status: &str, within: Duration, peak_kib: u64) {
    assert_eq!(m.doc["decision"], decision, "{m:#?}");
    assert_eq!(m.doc["hooks"][0]["status"], status, "{m:#?}");
    assert!(m.elapsed < within, "returned after {:?} (bound {within:?})", m.elapsed);
    assert!(m.peak_kib < peak_kib, "peak {} KiB (bound {peak_kib} KiB)", m.peak_kib);
    let expected_exit = if decision == "deny" || decision == "block" { 2 } else { 0 };
    assert_eq!(m.status, expected_exit, "{m:#?}");
}

/// The pids a hook wrote, one per line.
fn pids(path: &str) -> Vec<u32> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

use test_support::alive;

/// Waits up to 5 s for every pid to die; returns those still alive.
fn survivors(pids: &[u32]) -> Vec<u32> {
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        let left: Vec<u32> = pids.iter().copied().filter(|p| alive(*p)).collect();
        if left.is_empty() || Instant::now() > until {
            return left;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A timed-out hook (1 s) returns by its timeout, grace and leak window, with room for load.
const TIMED_OUT_WITHIN: Duration = Duration::from_secs(15);
/// A hook that ends by itself, or leaves processes holding its pipes, returns at once.
const PROMPTLY: Duration = Duration::from_secs(10);

const DENY: &str = r#"{"decision": "block", "reason": "hostile"}"#;

#[test]
fn grandchildren_holding_the_pipes_after_a_normal_exit() {
    // The grandchildren outlive the bound by far; Claude Code leaves them running, and so
    // does `hooks` (they end by themselves).
    for spawn in ["sleep 30 &", "setsid sleep 30 &"] {
        let p = Project::shell(&format!("cat >/dev/null; {spawn} echo '{DENY}'"), 60.0);
        let m = p.run();
        assert_run(&m, "deny", "success", PROMPTLY, PEAK_KIB);
    }
}

#[test]
fn grandchildren_after_a_timeout_are_killed_including_setsid() {
    let p = Project::empty();
    let pidfile = p.file("pids");
    let line = format!(
        "cat >/dev/null; setsid sh -c 'echo $$ >> {pidfile}; exec sleep 60' & echo $! >> {pidfile}; sleep 60 & echo $! >> {pidfile}; echo $$ >> {pidfile}; sleep 60"
    );
    let p = p.hook(json!({"type": "command", "command": line, "timeout": 1}));
    let m = p.run();
    assert_run(&m, "none", "timed_out", TIMED_OUT_WITHIN, PEAK_KIB);
    let pids = pids(&pidfile);
    assert!(pids.len() >= 4, "{pids:?}");
    assert_eq!(survivors(&pids), Vec::<u32>::new(), "the whole tree is killed");
}

#[test]
fn sigterm_ignored_is_killed_after_the_grace() {
    let p = Project::shell("trap '' TERM; cat >/dev/null; sleep 60", 1.0);
    let m = p.run();
    assert_run(&m, "none", "timed_out", TIMED_OUT_WITHIN, PEAK_KIB);
}

#[test]
fn a_gibibyte_on_stdout() {
    let p = Project::shell("cat >/dev/null; head -c 1073741824 /dev/zero", 120.0);
    let m = p.run();
    assert_run(&m, "none", "success", Duration::from_secs(90), PEAK_KIB);
}

#[test]
fn a_gibibyte_on_stderr_with_exit_2() {
    let p = Project::shell(
        "cat >/dev/null; head -c 1073741824 /dev/zero | tr '\\0' e >&2; exit 2",
        120.0,
    );
    let m = p.run();
    assert_run(&m, "deny", "blocking_error", Duration::from_secs(90), PEAK_KIB);
    // What the model sees: the first and last 25,000 characters of the kept 1 MiB, and the
    // whole kept text saved under the Claude home.
    let text = m.doc["shown"]["model"][0]["text"].as_str().unwrap();
    assert_eq!(m.doc["shown"]["model"][0]["is_error"], true);
    assert!(
        text.starts_with("PreToolUse:Bash hook error: [cat >/dev/null; head -c"),
        "{}",
        &text[..80]
    );
    assert!(text.contains("characters truncated] ...\n\neeee"), "the cut");
    let path = saved_path(text);
    assert!(path.starts_with(p.path().join("home/.claude/projects")), "{}", path.display());
    assert!(std::fs::metadata(&path).unwrap().len() > 1 << 20, "the whole kept text");
}

#[test]
fn a_gibibyte_of_context_is_saved_with_a_preview() {
    let p = Project::empty();
    let settings = json!({"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command",
        "command": "cat >/dev/null; head -c 1073741824 /dev/zero | tr '\\0' c", "timeout": 120}]}]}});
    std::fs::write(p.path().join("settings.json"), settings.to_string()).unwrap();
    std::fs::write(p.path().join("prompt.json"), json!({"prompt": "hi"}).to_string()).unwrap();
    let args =
        ["--settings", "settings.json", "--event", "UserPromptSubmit", "--input", "prompt.json"];
    let m = measured(p.path(), &args);
    assert_run(&m, "none", "success", Duration::from_secs(90), PEAK_KIB);
    let shown = &m.doc["shown"]["model"][0];
    assert_eq!(shown["placement"], "environment_end");
    let text = shown["text"].as_str().unwrap();
    assert!(
        text.starts_with("UserPromptSubmit hook success: <persisted-output>\nOutput too large (1024.0KB). Full output saved to: "),
        "{}",
        &text[..120]
    );
    assert!(text.ends_with(&format!(
        "Preview (first 2KB):\n{}\n...\n</persisted-output>",
        "c".repeat(2000)
    )));
    assert!(text.len() < 3000, "bounded: {} bytes", text.len());
    let saved = std::fs::read(saved_path(text)).unwrap();
    assert_eq!(saved.len(), 1 << 20, "the 1 MiB the capture kept");
}

/// The file a `<persisted-output>` block names.
fn saved_path(text: &str) -> std::path::PathBuf {
    let marker = "Full output saved to: ";
    let at = text.find(marker).unwrap() + marker.len();
    std::path::PathBuf::from(&text[at..at + text[at..].find('\n').unwrap()])
}

#[test]
fn sixteen_mebibytes_of_stdin_never_read() {
    let p = Project::shell(&format!("echo '{DENY}'"), 30.0);
    let big = "x".repeat(16 << 20);
    let input =
        json!({"tool_name": "Bash", "tool_use_id": "toolu_1", "tool_input": {"command": big}});
    std::fs::write(p.path().join("input.json"), input.to_string()).unwrap();
    let m = p.run();
    // The event itself is 16 MiB: read, parsed and serialized once for the hook.
    assert_run(&m, "deny", "success", PROMPTLY, PEAK_KIB + 5 * 16 * 1024);
}

#[test]
fn a_hundred_forked_children_are_killed_on_timeout() {
    let p = Project::empty();
    let pidfile = p.file("pids");
    let line = format!(
        "cat >/dev/null; i=0; while [ $i -lt 100 ]; do sleep 60 & echo $! >> {pidfile}; i=$((i+1)); done; sleep 60"
    );
    let p = p.hook(json!({"type": "command", "command": line, "timeout": 3}));
    let m = p.run();
    assert_run(&m, "none", "timed_out", TIMED_OUT_WITHIN, PEAK_KIB);
    let pids = pids(&pidfile);
    assert_eq!(pids.len(), 100, "the hook forked its hundred children in time");
    assert_eq!(survivors(&pids), Vec::<u32>::new());
}

#[test]
fn invalid_utf8_on_stdout_and_stderr() {
    let p = Project::shell(r"cat >/dev/null; printf '\377\376 not utf-8 {\n'", 30.0);
    let m = p.run();
    assert_run(&m, "none", "success", PROMPTLY, PEAK_KIB);
    let p = Project::shell(r"cat >/dev/null; printf 'bad \377\376 bytes' >&2; exit 2", 30.0);
    let m = p.run();
    assert_run(&m, "deny", "blocking_error", PROMPTLY, PEAK_KIB);
    let reason = m.doc["reason"].as_str().unwrap();
    assert!(reason.ends_with("bad \u{fffd}\u{fffd} bytes"), "{reason}");
}

#[test]
fn death_by_signal() {
    let p = Project::shell("cat >/dev/null; kill -SEGV $$", 30.0);
    let m = p.run();
    assert_run(&m, "none", "non_blocking_error", PROMPTLY, PEAK_KIB);
}

#[test]
fn a_missing_executable() {
    let p = Project::new(json!({"type": "command", "command": "/nonexistent/hook", "args": []}));
    let m = p.run();
    assert_run(&m, "none", "spawn_failed", PROMPTLY, PEAK_KIB);
    let p = Project::shell("/nonexistent/hook.sh", 30.0);
    let m = p.run();
    assert_run(&m, "none", "non_blocking_error", PROMPTLY, PEAK_KIB);
}

#[test]
fn closing_stdout_early_and_running_on() {
    let p = Project::shell("cat >/dev/null; exec >&- 2>&-; sleep 60", 1.0);
    let m = p.run();
    assert_run(&m, "none", "timed_out", TIMED_OUT_WITHIN, PEAK_KIB);
}

#[test]
fn reading_stdin_forever() {
    // Stdin ends after the event: a hook reading to the end goes on.
    let p = Project::shell(&format!("cat >/dev/null; echo '{DENY}'"), 30.0);
    assert_run(&p.run(), "deny", "success", PROMPTLY, PEAK_KIB);
    // A hook that keeps reading after the end runs into its timeout.
    let p = Project::shell("while :; do cat; done", 1.0);
    assert_run(&p.run(), "none", "timed_out", TIMED_OUT_WITHIN, PEAK_KIB);
}

/// A TNSAI hook list with one hook running `body`.
fn tnsai(body: &str, timeout_ms: u64) -> (tempfile::TempDir, Measured) {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("hooks")).unwrap();
    let script = dir.path().join("hooks/hook.sh");
    std::fs::write(&script, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let list = format!(
        "trusted_roots: [./hooks]\nhooks:\n  - id: hostile\n    event_type: PreToolUse\n    executable: ./hooks/hook.sh\n    timeout_ms: {timeout_ms}\n"
    );
    std::fs::write(dir.path().join("hooks.yaml"), list).unwrap();
    let input =
        json!({"tool_name": "Bash", "tool_use_id": "toolu_1", "tool_input": {"command": "ls"}});
    std::fs::write(dir.path().join("input.json"), input.to_string()).unwrap();
    let m = measured(
        dir.path(),
        &[
            "--dialect",
            "tnsai",
            "--config",
            "hooks.yaml",
            "--event",
            "PreToolUse",
            "--input",
            "input.json",
        ],
    );
    (dir, m)
}

#[test]
fn tnsai_hostile_hooks() {
    let allow = r#"{"hook_protocol_version": "1", "decision": "allow"}"#;
    let (_d, m) = tnsai("cat >/dev/null; head -c 1073741824 /dev/zero", 120_000);
    assert_run(&m, "allow", "non_blocking_error", Duration::from_secs(90), PEAK_KIB);
    let (_d, m) = tnsai(&format!("echo '{allow}'; exit 0"), 30_000);
    assert_run(&m, "allow", "success", PROMPTLY, PEAK_KIB);
    let (_d, m) = tnsai("trap '' TERM; setsid sleep 60 & sleep 60", 1_000);
    assert_run(&m, "allow", "timed_out", TIMED_OUT_WITHIN, PEAK_KIB);
    let (_d, m) = tnsai(r"printf '\377\376'", 30_000);
    assert_run(&m, "allow", "non_blocking_error", PROMPTLY, PEAK_KIB);
    assert!(m.stderr.is_empty(), "{}", m.stderr);
}

/// Whether `hooks` gets cgroups here; says so on stderr when it does not, so that a case
/// skipping its cgroup part never passes silently.
#[expect(clippy::print_stderr, reason = "a test skipping its cgroup part says so")]
fn cgroups_here() -> bool {
    let p = Project::shell("cat >/dev/null", 30.0);
    let m = measured(
        p.path(),
        &["-v", "--settings", "settings.json", "--event", "PreToolUse", "--input", "input.json"],
    );
    let here = m.stderr.contains("hooks: containment: cgroup");
    if !here {
        eprintln!("skipping the cgroup part: {}", m.stderr.lines().next().unwrap_or("?"));
    }
    here
}

impl Project {
    /// Runs with `-v` and more flags.
    fn run_with(&self, flags: &[&str]) -> Measured {
        let mut args = vec![
            "-v",
            "--settings",
            "settings.json",
            "--event",
            "PreToolUse",
            "--input",
            "input.json",
        ];
        args.extend(flags);
        measured(self.path(), &args)
    }
}

/// A line that exits 99 unless the hook's own cgroup has `pids.max` = `max` (cgroup v2 at
/// either usual mount point, or the v1 pids hierarchy), so that a fork bomb never runs
/// unbounded.
fn unless_pids_max(max: u32) -> String {
    format!(
        "p=$(sed -n 's/^0:://p' /proc/self/cgroup); q=$(sed -n 's/^[0-9]*:pids://p' /proc/self/cgroup); \
         v=$(cat /sys/fs/cgroup$p/pids.max /sys/fs/cgroup/unified$p/pids.max /sys/fs/cgroup/pids$q/pids.max 2>/dev/null | head -n 1); \
         [ \"$v\" = {max} ] || exit 99"
    )
}

#[test]
fn a_double_forked_setsid_daemon_with_a_cleared_environment_is_killed_on_timeout() {
    // The escape the tree walk cannot see: reparented to init, a session of its own, no
    // marker. Its cgroup holds it.
    if !cgroups_here() {
        return;
    }
    let p = Project::empty();
    let pidfile = p.file("pids");
    let line = format!(
        "cat >/dev/null; ( env -i setsid sh -c 'echo $$ >> {pidfile}; exec sleep 300' & ); sleep 60"
    );
    let p = p.hook(json!({"type": "command", "command": line, "timeout": 1}));
    let m = p.run();
    assert_run(&m, "none", "timed_out", TIMED_OUT_WITHIN, PEAK_KIB);
    let pids = pids(&pidfile);
    assert_eq!(pids.len(), 1, "{pids:?}");
    assert_eq!(survivors(&pids), Vec::<u32>::new(), "the escapee is dead");
}

#[test]
fn a_fork_bomb_is_bounded_by_pids_max_and_the_next_hook_runs() {
    if !cgroups_here() {
        return;
    }
    let p = Project::empty();
    let line = format!("cat >/dev/null; {}; b() {{ b & b & wait; }}; b", unless_pids_max(64));
    let bomb = json!({"type": "command", "command": line, "timeout": 2});
    let next = json!({"type": "command", "command": format!("cat >/dev/null; echo '{DENY}'")});
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [bomb, next]}]}});
    std::fs::write(p.path().join("settings.json"), settings.to_string()).unwrap();
    let m = p.run_with(&["--pids-max", "64"]);
    // dash gives up once its forks fail, or the timeout ends it: either way, bounded.
    let status = &m.doc["hooks"][0]["status"];
    assert!(status == "timed_out" || status == "success", "{m:#?}");
    assert!(m.stderr.contains("limit=\"pids.max\""), "{}", m.stderr);
    // The other hook of the event ran, and its decision stands.
    assert_eq!(m.doc["hooks"][1]["status"], "success", "{m:#?}");
    assert_eq!(m.doc["decision"], "deny");
    assert!(m.elapsed < TIMED_OUT_WITHIN, "returned after {:?}", m.elapsed);
}

#[test]
fn a_memory_hog_is_killed_by_memory_max() {
    if !cgroups_here() {
        return;
    }
    let p = Project::shell(
        "cat >/dev/null; exec python3 -c 'x = bytearray(1 << 30); x[::4096] = b\"x\" * len(x[::4096])'",
        60.0,
    );
    let m = p.run_with(&["--memory-max", "64M"]);
    assert_eq!(m.doc["hooks"][0]["status"], "non_blocking_error", "{m:#?}");
    assert!(m.stderr.contains("limit=\"memory.max\""), "{}", m.stderr);
    // The peak counts the hooks `hooks` reaped: the hog never got near its gibibyte.
    assert!(m.peak_kib < 128 * 1024, "peak {} KiB", m.peak_kib);
}

#[test]
fn hooks_killed_outright_with_a_hostile_hook_running() {
    // The hook ignores SIGTERM and leaves an escapee; `hooks` is SIGKILLed while it runs.
    if !cgroups_here() {
        return;
    }
    let p = Project::empty();
    let pidfile = p.file("pids");
    let line = format!(
        "trap '' TERM; echo $$ >> {pidfile}; \
         ( env -i setsid sh -c 'trap \"\" TERM; echo $$ >> {pidfile}; exec sleep 300' & ); sleep 60"
    );
    let p = p.hook(json!({"type": "command", "command": line, "timeout": 60}));
    #[expect(clippy::disallowed_methods, reason = "the tests drive the hooks binary itself")]
    let mut child = Command::new(env!("CARGO_BIN_EXE_hooks"))
        .args([
            "run",
            "--settings",
            "settings.json",
            "--event",
            "PreToolUse",
            "--input",
            "input.json",
        ])
        .current_dir(p.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(10);
    while pids(&pidfile).len() < 2 {
        assert!(Instant::now() < until, "the hook did not start");
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(survivors(&pids(&pidfile)), Vec::<u32>::new());
}
