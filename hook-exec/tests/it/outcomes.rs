//! How a hook ended and what it printed: exit codes, signals, bytes, stdin, env, cwd, argv.

use std::ffi::OsString;
use std::sync::Arc;
use std::time::Duration;

use hook_exec::{CommandSpec, Env, run};
use hook_protocol::{Exit, StdinOutcome};

use super::support::{TempDir, shell};

#[tokio::test]
async fn shell_form_echoes_stdin_and_reports_the_exit_code() {
    let mut inv = shell("cat; echo err >&2; exit 3");
    inv.stdin = b"{\"a\":1}\n".to_vec().into();
    let out = run(&inv).await.unwrap();
    assert_eq!(out.exit, Exit::Code { code: 3 });
    assert_eq!(out.stdout, b"{\"a\":1}\n");
    assert_eq!(out.stderr, b"err\n");
    assert_eq!(out.stdin, StdinOutcome::Written);
    assert!(!out.leaked && !out.stdout_truncated && !out.stderr_truncated);
    assert!(out.pid > 0);
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn stdin_is_dev_null_without_a_payload_and_a_pipe_with_one() {
    let mut inv = shell("readlink /proc/self/fd/0; cat");
    let out = run(&inv).await.unwrap();
    assert_eq!(out.stdout, b"/dev/null\n");
    assert_eq!(out.stdin, StdinOutcome::Written);

    inv.stdin = b"x".to_vec().into();
    let out = run(&inv).await.unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("pipe:[") && text.ends_with("]\nx"), "{text}");
}

#[tokio::test]
async fn an_exec_form_script_without_a_shebang_runs_under_sh_as_execvp_runs_it() {
    let dir = TempDir::new();
    let script = dir.path().join("no-shebang");
    std::fs::write(&script, "echo \"no shebang: $1 $2\"\n").unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let mut inv = shell("");
    inv.command = CommandSpec::exec(script.to_str().unwrap(), ["a b", "c"]);
    let out = run(&inv).await.unwrap();
    assert_eq!(out.exit, Exit::Code { code: 0 });
    assert_eq!(out.stdout, b"no shebang: a b c\n");
}

#[tokio::test]
async fn exit_two_is_a_code() {
    let out = run(&shell("echo blocked >&2; exit 2")).await.unwrap();
    assert_eq!(out.exit, Exit::Code { code: 2 });
    assert_eq!(out.stderr_text(), "blocked");
}

#[tokio::test]
async fn death_by_signal_is_reported_with_the_signal() {
    let out = run(&shell("kill -SEGV $$")).await.unwrap();
    assert_eq!(out.exit, Exit::Signal { signal: 11 });
    let out = run(&shell("kill -9 $$")).await.unwrap();
    assert_eq!(out.exit, Exit::Signal { signal: 9 });
    assert!(!out.core_dumped, "SIGKILL dumps no core");
}

#[tokio::test]
async fn a_core_dump_is_reported() {
    // Only where cores go to a file named `core` in the working directory can the test tell
    // that one was written.
    let pattern = std::fs::read_to_string("/proc/sys/kernel/core_pattern").unwrap_or_default();
    if pattern.trim() != "core" {
        return;
    }
    let dir = TempDir::new();
    let mut inv = shell("ulimit -c unlimited 2>/dev/null && kill -SEGV $$");
    inv.cwd = dir.path().to_owned();
    let out = run(&inv).await.unwrap();
    assert_eq!(out.exit, Exit::Signal { signal: 11 });
    let dumped = std::fs::read_dir(dir.path()).unwrap().count() > 0;
    assert_eq!(out.core_dumped, dumped, "a core file was written: {dumped}");
    let mut inv = shell("ulimit -c 0 && kill -SEGV $$");
    inv.cwd = dir.path().to_owned();
    assert!(!run(&inv).await.unwrap().core_dumped);
}

#[tokio::test]
async fn a_missing_command_in_shell_form_is_exit_127() {
    let out = run(&shell("definitely-not-a-command-4242")).await.unwrap();
    assert_eq!(out.exit, Exit::Code { code: 127 });
    assert!(out.stderr_text().contains("definitely-not-a-command-4242"), "{}", out.stderr_text());
}

#[tokio::test]
async fn stdout_that_is_not_utf8_is_kept_as_bytes() {
    let out = run(&shell(r"printf '\377\376{}\200'")).await.unwrap();
    assert_eq!(out.exit, Exit::Code { code: 0 });
    assert_eq!(out.stdout, b"\xff\xfe{}\x80");
}

#[tokio::test]
async fn a_stderr_flood_with_quiet_stdout_is_drained_and_capped() {
    let mut inv = shell("head -c 10000000 /dev/zero >&2; echo done");
    inv.limits.stderr_max = 1 << 20;
    let out = run(&inv).await.unwrap();
    assert_eq!(out.exit, Exit::Code { code: 0 });
    assert_eq!(out.stdout, b"done\n");
    assert_eq!(out.stderr.len(), 1 << 20);
    assert_eq!(out.stderr_len, 10_000_000);
    assert!(out.stderr_truncated);
    assert!(!out.stdout_truncated);
}

#[tokio::test]
async fn stdout_past_its_cap_is_counted_and_flagged() {
    let mut inv = shell("head -c 5000 /dev/zero; printf x");
    inv.limits.stdout_max = 1000;
    let out = run(&inv).await.unwrap();
    assert_eq!(out.stdout, vec![0; 1000]);
    assert_eq!(out.stdout_len, 5001);
    assert!(out.stdout_truncated);
}

/// Output does not wake the runner during a run's first milliseconds (a quick hook is read at
/// its end): a hook that fills its pipe at once and then runs on is drained all the same,
/// instead of waiting for its end, which the full pipe would never let come.
#[tokio::test]
async fn a_hook_that_fills_its_pipes_at_once_and_runs_on_is_drained() {
    let mut inv = shell("head -c 1000000 /dev/zero; head -c 300000 /dev/zero >&2; sleep 0.05");
    inv.limits.stdout_max = 2 << 20;
    inv.limits.stderr_max = 2 << 20;
    inv.timeout = Duration::from_secs(5);
    let started = std::time::Instant::now();
    let out = run(&inv).await.unwrap();
    assert_eq!(out.exit, Exit::Code { code: 0 });
    assert_eq!((out.stdout.len(), out.stderr.len()), (1_000_000, 300_000));
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
}

/// A hook that closes its stdout and stderr at once and runs on past the watching delay ends
/// normally: the end of the delay is not its timeout.
#[tokio::test]
async fn a_hook_that_closes_its_outputs_and_runs_on_is_not_timed_out() {
    let mut inv = shell("exec >&- 2>&-; sleep 0.05; exit 4");
    inv.timeout = Duration::from_secs(5);
    let out = run(&inv).await.unwrap();
    assert_eq!(out.exit, Exit::Code { code: 4 });
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
}

/// A payload larger than the pipe, which the hook echoes as it reads it: stdout is drained
/// while stdin is still being written.
#[tokio::test]
async fn a_large_payload_echoed_back_is_exchanged_whole() {
    let mut inv = shell("cat");
    let payload: Vec<u8> = (0..4_000_000_u32).map(|i| b'a' + (i % 26) as u8).collect();
    inv.stdin = Arc::from(payload.clone());
    inv.limits.stdout_max = 8 << 20;
    inv.timeout = Duration::from_secs(10);
    let out = run(&inv).await.unwrap();
    assert_eq!(out.exit, Exit::Code { code: 0 });
    assert_eq!(out.stdin, StdinOutcome::Written);
    assert!(out.stdout == payload, "{} bytes back", out.stdout.len());
}

#[tokio::test]
async fn a_hook_that_never_reads_sixteen_mebibytes_of_stdin_does_not_deadlock() {
    let mut inv = shell("echo started; sleep 0.2; echo done");
    inv.stdin = Arc::from(vec![b'x'; 16 << 20]);
    let out = run(&inv).await.unwrap();
    assert_eq!(out.exit, Exit::Code { code: 0 });
    assert_eq!(out.stdout, b"started\ndone\n");
    let StdinOutcome::Unread { written } = out.stdin else {
        panic!("expected unread stdin, got {:?}", out.stdin)
    };
    assert!(written < 16 << 20, "{written}");
}

#[tokio::test]
async fn a_hook_that_reads_a_large_stdin_gets_all_of_it() {
    let mut inv = shell("wc -c");
    inv.stdin = Arc::from(vec![b'x'; 16 << 20]);
    let out = run(&inv).await.unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), (16 << 20).to_string());
    assert_eq!(out.stdin, StdinOutcome::Written);
}

#[tokio::test]
async fn exec_form_runs_without_a_shell_and_keeps_the_payload_off_argv() {
    let mut inv = shell("");
    inv.command = CommandSpec::exec("/bin/sh", ["-c", "cat /proc/$$/cmdline; echo; cat", "x"]);
    inv.stdin = b"{\"secret\":\"payload\"}\n".to_vec().into();
    let out = run(&inv).await.unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let (argv, stdin) = text.split_once('\n').unwrap();
    assert!(!argv.contains("payload"), "{argv}");
    assert_eq!(stdin, "{\"secret\":\"payload\"}\n");
}

#[tokio::test]
async fn exec_form_searches_the_path_of_the_invocation_environment() {
    let dir = TempDir::new();
    let script = dir.path().join("my-hook");
    std::fs::write(&script, "#!/bin/sh\necho \"hook $1\"\n").unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let mut inv = shell("");
    inv.command = CommandSpec::exec("my-hook", ["arg"]);
    inv.env.set("PATH", format!("/nonexistent:{}:/usr/bin:/bin", dir.path().display()));
    let out = run(&inv).await.unwrap();
    assert_eq!(out.exit, Exit::Code { code: 0 }, "{}", out.stderr_text());
    assert_eq!(out.stdout, b"hook arg\n");
}

#[tokio::test]
async fn the_environment_is_exactly_the_invocations_and_the_run_is_marked_by_a_limit() {
    let mut inv = shell("");
    inv.command = CommandSpec::exec("env", Vec::<String>::new());
    inv.env = Env::empty();
    inv.env.set("A", "1");
    let out = run(&inv).await.unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text, "A=1\n", "no variable of ours");
    // The run's mark is the soft RLIMIT_RTTIME, past 2^62 and unique to the run (Linux).
    #[cfg(target_os = "linux")]
    {
        let mark = |out: &hook_protocol::RawOutcome| -> u64 {
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            let line = text.lines().find(|l| l.starts_with("Max realtime timeout")).unwrap();
            line["Max realtime timeout".len()..].split_whitespace().next().unwrap().parse().unwrap()
        };
        let limits = shell("cat /proc/self/limits");
        let (a, b) = (run(&limits).await.unwrap(), run(&limits).await.unwrap());
        assert!(mark(&a) >= 1 << 62, "{}", String::from_utf8_lossy(&a.stdout));
        assert_ne!(mark(&a), mark(&b), "each run its own");
    }
}

#[tokio::test]
async fn shell_names_only_drops_what_sh_would_drop() {
    let mut inv = shell("");
    inv.command = CommandSpec::exec("env", Vec::<String>::new());
    inv.env = Env::empty();
    inv.env.set("A_1", "1").set("a-b", "2").set("1x", "3").set("x.y", "4").set("_u", "5");
    inv.env.set("ÄÖ", "6").set("OK", "é");
    inv.env.shell_names_only();
    assert_eq!(inv.env.get("a-b"), None);
    assert_eq!(inv.env.get("A_1"), Some(OsString::from("1")));
    let out = run(&inv).await.unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let mut names: Vec<&str> = text.lines().filter_map(|l| l.split('=').next()).collect();
    names.sort_unstable();
    assert_eq!(names, ["A_1", "OK", "_u"], "{text}");
    let resolved: Vec<_> = inv.env.resolve().into_iter().map(|(k, _)| k).collect();
    assert_eq!(resolved, ["A_1", "OK", "_u"]);
}

#[tokio::test]
async fn inherited_environment_applies_changes() {
    let mut inv = shell("echo \"$HOME|${HOOK_IT_X-unset}|$HOOK_IT_Y|$PATH\"");
    inv.env.set("HOOK_IT_Y", "y").remove("HOME");
    let out = run(&inv).await.unwrap();
    let path = std::env::var("PATH").unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), format!("|unset|y|{path}\n"));
    assert_eq!(inv.env.get("HOOK_IT_Y"), Some(OsString::from("y")));
}

#[tokio::test]
async fn the_hook_runs_in_the_invocation_directory() {
    let dir = TempDir::new();
    let mut inv = shell("pwd");
    inv.cwd = dir.path().to_owned();
    let out = run(&inv).await.unwrap();
    let pwd = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        std::fs::canonicalize(pwd.trim()).unwrap(),
        std::fs::canonicalize(dir.path()).unwrap()
    );
}

#[tokio::test]
async fn the_hook_leads_its_own_process_group() {
    let out = run(&shell("cut -d' ' -f5 /proc/$$/stat")).await.unwrap();
    let pgid: u32 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    assert_eq!(pgid, out.pid);
}

#[tokio::test]
async fn the_first_line_is_told_while_the_hook_still_runs() {
    let (tx, rx) = tokio::sync::oneshot::channel::<Vec<u8>>();
    let tx = std::sync::Mutex::new(Some(tx));
    let mut inv = shell("printf 'first\\nsecond'; sleep 5; echo done");
    inv.first_line = Some(hook_exec::LineTap::new(move |line: &[u8]| {
        if let Some(tx) = tx.lock().unwrap().take() {
            let _ = tx.send(line.to_vec());
        }
    }));
    let running = tokio::spawn(async move { run(&inv).await });
    let line = tokio::time::timeout(std::time::Duration::from_secs(4), rx).await;
    assert_eq!(line.unwrap().unwrap(), b"first", "told before the hook exits");
    assert!(!running.is_finished(), "the hook is still running");
    running.abort();
}

#[tokio::test]
async fn no_first_line_without_a_newline() {
    let told = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = Arc::clone(&told);
    let mut inv = shell("printf 'no newline'");
    inv.first_line = Some(hook_exec::LineTap::new(move |_: &[u8]| {
        flag.store(true, std::sync::atomic::Ordering::SeqCst);
    }));
    let out = run(&inv).await.unwrap();
    assert_eq!(out.stdout, b"no newline");
    assert!(!told.load(std::sync::atomic::Ordering::SeqCst));
}

/// Ignored signals survive `exec`; a hook must start with them at their default all the same
/// (std ignores SIGPIPE in every Rust program, and a harness may ignore SIGTERM or SIGINT).
#[cfg(target_os = "linux")]
#[tokio::test]
#[expect(unsafe_code, reason = "the test ignores signals in its own process, as a harness might")]
async fn signals_the_harness_ignores_are_at_their_default_in_the_hook() {
    // SAFETY: setting a signal to SIG_IGN and back installs no handler.
    unsafe {
        libc::signal(libc::SIGTERM, libc::SIG_IGN);
        libc::signal(libc::SIGINT, libc::SIG_IGN);
    }
    let mut inv = shell("");
    inv.command = CommandSpec::exec("cat", ["/proc/self/status"]);
    let out = run(&inv).await;
    // SAFETY: as above.
    unsafe {
        libc::signal(libc::SIGTERM, libc::SIG_DFL);
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
    let status = String::from_utf8(out.unwrap().stdout).unwrap();
    let ignored = status.lines().find_map(|l| l.strip_prefix("SigIgn:\t")).unwrap();
    // The classic signals (1 to 31) are all at their default; glibc's `posix_spawn` leaves its
    // two internal real-time signals (32, 33) ignored in every child, which no hook sends.
    let classic = u64::from_str_radix(ignored, 16).unwrap() & 0x7fff_ffff;
    assert_eq!(classic, 0, "{status}");
    let line = status.lines().find(|l| l.starts_with("SigBlk:")).unwrap();
    assert_eq!(line, "SigBlk:\t0000000000000000", "{status}");
}
