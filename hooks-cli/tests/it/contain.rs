//! Containment through the `hooks` command: what `-v` says, the signals that end `hooks`
//! (SIGINT, SIGTERM, SIGHUP: the running hooks are killed, exit 128+signal), `hooks` killed
//! outright during a 60 s hook (also where no temporary file can be made), the descriptors a
//! hook gets, and a cgroup parent that cannot be used. Each case runs with cgroups where this
//! machine has them (said on stderr when not) and with `--no-cgroup`.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::hooks;

/// A project whose one Stop hook runs `line` with a 60 s timeout.
fn project(line: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let handler = json!({"type": "command", "command": line, "timeout": 60});
    let settings = json!({"hooks": {"Stop": [{"hooks": [handler]}]}});
    std::fs::write(dir.path().join("settings.json"), settings.to_string()).unwrap();
    std::fs::write(dir.path().join("input.json"), r#"{"stop_hook_active":false}"#).unwrap();
    dir
}

const RUN: &[&str] =
    &["run", "--settings", "settings.json", "--event", "Stop", "--input", "input.json"];

/// Whether `hooks` gets cgroups here; says so on stderr when it does not.
#[expect(clippy::print_stderr, reason = "a test skipping its cgroup part says so")]
fn cgroups_here() -> bool {
    let dir = project("true");
    let mut args = vec!["-v"];
    args.extend(RUN);
    let out = hooks(&args, dir.path(), None);
    let here = out.stderr.contains("hooks: containment: cgroup");
    if !here {
        let line = out.stderr.lines().find(|l| l.contains("containment:")).unwrap_or("?");
        eprintln!("skipping the cgroup part: {line}");
    }
    here
}

/// `[]` (cgroups, where there are) and `["--no-cgroup"]`.
fn modes() -> Vec<&'static [&'static str]> {
    let mut modes: Vec<&'static [&'static str]> = vec![&["--no-cgroup"]];
    if cgroups_here() {
        modes.push(&[]);
    }
    modes
}

/// Starts `hooks run` in `dir` with `extra` flags.
fn start(dir: &Path, extra: &[&str]) -> Child {
    start_with(dir, extra, &[])
}

/// Starts `hooks run` in `dir` with `extra` flags and `env` set.
fn start_with(dir: &Path, extra: &[&str], env: &[(&str, &str)]) -> Child {
    #[expect(clippy::disallowed_methods, reason = "the tests drive the hooks binary itself")]
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hooks"));
    cmd.envs(env.iter().copied());
    cmd.args(RUN)
        .args(extra)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd.spawn().unwrap()
}

/// Sends `signal` (a name: TERM, KILL, ...) to `pid`.
fn send(signal: &str, pid: u32) {
    #[expect(clippy::disallowed_methods, reason = "kill(1), to signal the hooks binary")]
    let status = Command::new("kill").arg(format!("-{signal}")).arg(pid.to_string()).status();
    assert!(status.unwrap().success());
}

/// The pids in `path`, once it holds `n` of them (the hook writes them as it starts).
fn pids(path: &Path, n: usize) -> Vec<u32> {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let pids: Vec<u32> = std::fs::read_to_string(path)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect();
        if pids.len() >= n {
            return pids;
        }
        assert!(Instant::now() < until, "the hook did not write {n} pids to {}", path.display());
        std::thread::sleep(Duration::from_millis(10));
    }
}

use test_support::alive;

/// The pids still alive after up to `within`.
fn survivors(pids: &[u32], within: Duration) -> Vec<u32> {
    let until = Instant::now() + within;
    loop {
        let left: Vec<u32> = pids.iter().copied().filter(|p| alive(*p)).collect();
        if left.is_empty() || Instant::now() > until {
            return left;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The cgroup directories `hooks` with pid `pid` made, wherever a cgroup file system is.
fn cgroup_dirs_of(pid: u32) -> Vec<std::path::PathBuf> {
    // `hooks-<pid>-<start>`.
    let name = format!("hooks-{pid}-");
    let mut found = Vec::new();
    let mut stack = vec![std::path::PathBuf::from("/sys/fs/cgroup")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                if entry.file_name().to_string_lossy().starts_with(&name) {
                    found.push(entry.path());
                } else if stack.len() < 64 && dir.components().count() < 8 {
                    stack.push(entry.path());
                }
            }
        }
    }
    found
}

/// Waits up to `within` for `hooks` `pid`'s cgroups to be removed; returns those left.
fn cgroups_left(pid: u32, within: Duration) -> Vec<std::path::PathBuf> {
    let until = Instant::now() + within;
    loop {
        let left = cgroup_dirs_of(pid);
        if left.is_empty() || Instant::now() > until {
            return left;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A hook that writes its pid and its child's to `pids`, then waits 60 s.
fn sleeper(pids: &Path) -> String {
    let p = pids.display();
    format!("echo $$ >> {p}; sleep 60 & echo $! >> {p}; wait")
}

#[test]
fn sigint_sigterm_and_sighup_kill_the_running_hooks_and_exit_128_plus_the_signal() {
    for mode in modes() {
        for (signal, status) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
            let dir = tempfile::tempdir().unwrap();
            let pidfile = dir.path().join("pids");
            let project = project(&sleeper(&pidfile));
            let child = start(project.path(), mode);
            let hooks_pid = child.id();
            let hook = pids(&pidfile, 2);
            let started = Instant::now();
            send(signal, hooks_pid);
            let out = child.wait_with_output().unwrap();
            assert_eq!(out.status.code(), Some(status), "SIG{signal} {mode:?}: {out:?}");
            assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.contains(&format!("interrupted by SIG{signal}")), "{stderr}");
            assert!(stderr.contains("killed 1 running hook(s)"), "{stderr}");
            assert_eq!(survivors(&hook, Duration::from_secs(2)), Vec::<u32>::new(), "{mode:?}");
            assert_eq!(
                cgroups_left(hooks_pid, Duration::from_secs(10)),
                Vec::<std::path::PathBuf>::new()
            );
        }
    }
}

#[test]
fn hooks_killed_outright_during_a_60_s_hook_leaves_nothing_running() {
    for mode in modes() {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pids");
        let project = project(&sleeper(&pidfile));
        let mut child = start(project.path(), mode);
        let hooks_pid = child.id();
        let hook = pids(&pidfile, 2);
        send("KILL", hooks_pid);
        let status = child.wait().unwrap();
        assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(9));
        // The supervisor sees `hooks` go and kills the hook's cgroup (or process group).
        assert_eq!(survivors(&hook, Duration::from_secs(5)), Vec::<u32>::new(), "{mode:?}");
        assert_eq!(
            cgroups_left(hooks_pid, Duration::from_secs(10)),
            Vec::<std::path::PathBuf>::new()
        );
    }
}

/// Where no temporary file can be made (`TMPDIR` names no directory), the supervisor has no
/// table of the tree-walk runs and is told of each by a message; it kills the hook all the same.
#[test]
fn hooks_killed_outright_without_a_temporary_directory_leaves_nothing_running() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pids");
    let project = project(&sleeper(&pidfile));
    let missing = dir.path().join("no-such-directory");
    let tmpdir = missing.to_str().unwrap();
    let mut child = start_with(project.path(), &["--no-cgroup"], &[("TMPDIR", tmpdir)]);
    let hook = pids(&pidfile, 2);
    send("KILL", child.id());
    let status = child.wait().unwrap();
    assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(9));
    assert_eq!(survivors(&hook, Duration::from_secs(5)), Vec::<u32>::new());
}

#[test]
fn a_hook_gets_exactly_stdin_stdout_and_stderr_whatever_hooks_inherits() {
    // `hooks` starts with descriptors 7 and 8 open without close-on-exec, as a shell's
    // redirections leave them; the hook lists its own (exit 2: the list is the reason).
    let line =
        "for f in /proc/self/fd/*; do [ -e \"$f\" ] && printf '%s ' \"${f##*/}\" >&2; done; exit 2";
    let project = project(line);
    for mode in modes() {
        let seven = project.path().join("seven");
        #[expect(clippy::disallowed_methods, reason = "a shell hands hooks extra descriptors")]
        let out = Command::new("/bin/sh")
            .arg("-c")
            .arg(r#"exec "$0" "$@" --format json 7>"$SEVEN" 8</dev/null"#)
            .arg(env!("CARGO_BIN_EXE_hooks"))
            .args(RUN)
            .args(mode)
            .env("SEVEN", &seven)
            .current_dir(project.path())
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["decision"], "block", "{doc}");
        assert_eq!(doc["reason"].as_str().map(str::trim), Some("0 1 2"), "{mode:?}: {doc}");
    }
}

#[test]
fn verbose_says_which_containment_and_why() {
    let project = project("true");
    let mut args = vec!["-v"];
    args.extend(RUN);
    args.push("--no-cgroup");
    let out = hooks(&args, project.path(), None);
    assert!(
        out.stderr.contains(
            "hooks: containment: tree-walk (cgroup containment turned off by the harness)"
        ),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("containment=\"tree-walk\""), "{}", out.stderr);
    if cgroups_here() {
        args.pop();
        let out = hooks(&args, project.path(), None);
        assert!(
            out.stderr.contains(
                "hooks: containment: cgroup (each hook runs in a cgroup of its own under "
            ),
            "{}",
            out.stderr
        );
        assert!(out.stderr.contains("containment=\"cgroup\""), "{}", out.stderr);
    }
}

#[test]
fn a_cgroup_parent_that_cannot_be_used_is_a_warning_and_the_hook_still_runs() {
    let project = project("echo ran >&2; exit 2");
    for parent in ["/sys/fs/cgroup/no-such-parent", "/tmp"] {
        let mut args = vec!["-v"];
        args.extend(RUN);
        args.extend(["--cgroup-parent", parent, "--format", "json"]);
        let out = hooks(&args, project.path(), None);
        let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(doc["reason"], "ran\n", "the hook ran: {doc}");
        assert!(
            out.stderr.contains(&format!("hooks: warning: cgroup parent {parent} ")),
            "{}",
            out.stderr
        );
        assert!(out.stderr.contains("hooks: containment: tree-walk"), "{}", out.stderr);
    }
}

#[test]
fn what_a_hook_leaves_running_outlives_hooks_and_its_cgroup_goes_with_it() {
    for mode in modes() {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pids");
        let line = format!("sleep 30 > /dev/null 2>&1 & echo $! > {}", pidfile.display());
        let project = project(&line);
        let child = start(project.path(), mode);
        let hooks_pid = child.id();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let daemon = pids(&pidfile, 1);
        // Left running by default, as Claude Code leaves it, even once `hooks` has exited.
        std::thread::sleep(Duration::from_millis(1500));
        assert_eq!(survivors(&daemon, Duration::ZERO), daemon, "{mode:?}: the daemon was killed");
        if mode.is_empty() {
            assert_eq!(cgroup_dirs_of(hooks_pid).len(), 1, "its cgroup stays while it runs");
        }
        send("KILL", daemon[0]);
        assert_eq!(
            cgroups_left(hooks_pid, Duration::from_secs(10)),
            Vec::<std::path::PathBuf>::new()
        );
    }
}
