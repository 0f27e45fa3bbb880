//! Bounded memory and no leaks under load, each measured alone in a fresh process.

use std::time::Duration;

use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use hook_exec::run;
use hook_protocol::Exit;

use super::support::{
    open_fds_and_idle_cgroup_fds, run_alone, running_alone, shell, vm_hwm_kib, zombie_children,
};

/// The test's path as `--exact` wants it: the module path without the crate name.
fn this(name: &str) -> String {
    let module = module_path!().split_once("::").map_or(module_path!(), |(_, rest)| rest);
    format!("{module}::{name}")
}

#[expect(clippy::unwrap_used, reason = "test helper: a failed unwrap is a failed test")]
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

/// Runs the futures of `pending` 32 at a time, handing each outcome to `each` as it comes.
async fn thirty_two_at_a_time<F: std::future::Future>(
    mut pending: impl Iterator<Item = F>,
    mut each: impl FnMut(F::Output),
) {
    let mut running = FuturesUnordered::new();
    loop {
        while running.len() < 32 {
            let Some(next) = pending.next() else { break };
            running.push(next);
        }
        let Some(out) = running.next().await else { break };
        each(out);
    }
}

/// Whether this process is `test` run alone; otherwise runs it alone in a fresh process with
/// `vars`, checks that its stdout has one of `markers` and shows what follows it.
#[expect(clippy::print_stderr, reason = "the alone run's figures are shown")]
fn alone(test: &str, vars: &[(&str, &str)], markers: &[&str]) -> bool {
    let name = this(test);
    if running_alone(&name) {
        return true;
    }
    let out = super::support::run_alone_with(&name, vars);
    let text = String::from_utf8_lossy(&out.stdout);
    // libtest prints the test's name on the same line before its output.
    let line = text.lines().find_map(|l| markers.iter().find_map(|m| l.find(m).map(|at| &l[at..])));
    assert!(line.is_some(), "{text}");
    eprintln!("{}", line.unwrap_or_default());
    false
}

/// A hook printing 1 GiB: the run returns, flags the truncation, and the peak memory of the
/// process running it grows by no more than the cap and a few MiB.
#[test]
fn a_gigabyte_of_stdout_costs_bounded_memory() {
    let name = this("a_gigabyte_of_stdout_costs_bounded_memory");
    if !running_alone(&name) {
        let out = run_alone(&name);
        let text = String::from_utf8_lossy(&out.stdout);
        let at = text.find("peak growth").unwrap_or_else(|| panic!("no measurement in:\n{text}"));
        println!("{}", text[at..].lines().next().unwrap_or_default());
        return;
    }
    const GIB: u64 = 1 << 30;
    const SLACK_KIB: u64 = 4 << 10;
    let rt = runtime();
    rt.block_on(async {
        // Warm up the runtime and the allocator before taking the baseline.
        run(&shell("echo warm")).await.unwrap();
        let before = vm_hwm_kib();
        let mut inv = shell(&format!("head -c {GIB} /dev/zero; echo end >&2"));
        inv.timeout = Duration::from_secs(120);
        let out = run(&inv).await.unwrap();
        let after = vm_hwm_kib();
        assert_eq!(out.exit, Exit::Code { code: 0 });
        assert_eq!(out.stdout_len, GIB);
        assert!(out.stdout_truncated);
        assert_eq!(out.stdout.len(), inv.limits.stdout_max);
        assert_eq!(out.stderr, b"end\n");
        let cap_kib = (inv.limits.stdout_max / 1024) as u64;
        println!(
            "peak growth {} KiB (VmHWM {before} -> {after} KiB), cap {cap_kib} KiB",
            after - before
        );
        assert!(
            after <= before + cap_kib + SLACK_KIB,
            "VmHWM grew from {before} to {after} KiB with a cap of {cap_kib} KiB"
        );
    });
}

/// 500 invocations, 32 at a time: no zombie of ours is left and the open descriptors are back
/// to their count before, but for the idle cgroups' (bounded by the runs in flight).
#[test]
fn five_hundred_runs_leave_no_zombie_and_no_descriptor() {
    let name = this("five_hundred_runs_leave_no_zombie_and_no_descriptor");
    if !running_alone(&name) {
        let out = run_alone(&name);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("runs: 500"), "{text}");
        return;
    }
    let rt = runtime();
    rt.block_on(async {
        // Warm: the runtime, and the `/dev/null` that runs without a payload share.
        run(&shell("echo warm")).await.unwrap();
        let (fds_before, _) = open_fds_and_idle_cgroup_fds();
        let pending = (0..500).map(|i| {
            let line = match i % 4 {
                0 => "echo {}".to_owned(),
                1 => "cat; exit 2".to_owned(),
                2 => "echo out; echo err >&2".to_owned(),
                _ => "kill -9 $$".to_owned(),
            };
            let mut inv = shell(&line);
            if i % 8 != 0 {
                inv.stdin = format!("{{\"run\":{i}}}\n").into_bytes().into();
            }
            async move { run(&inv).await }
        });
        let mut runs = 0;
        thirty_two_at_a_time(pending, |out| {
            let out = out.unwrap();
            assert!(!out.leaked && !out.timed_out(), "{out:?}");
            runs += 1;
        })
        .await;
        assert_eq!(zombie_children(), Vec::<u32>::new());
        // Idle cgroups kept for reuse hold two descriptors each, one cgroup per run that
        // was in flight at once at most.
        let (fds_after, idle) = open_fds_and_idle_cgroup_fds();
        assert_eq!(fds_after, fds_before);
        assert!(idle <= 2 * 32, "{idle} descriptors of idle cgroups for 32 runs at a time");
        println!("runs: {runs}");
    });
}

/// The harness's pid, for the signal handler of the storm test.
static HARNESS_PID: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);
/// Signals the handler took in the harness.
static HANDLED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
/// Whether the handler ever ran in another process: a child still sharing the harness's memory
/// before its `execve` (which sets this flag in the harness's own memory).
static HANDLED_ELSEWHERE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

#[expect(unsafe_code, reason = "a signal handler asks for its process's id")]
extern "C" fn count_usr1(_: libc::c_int) {
    use std::sync::atomic::Ordering;
    // SAFETY: getpid is async-signal-safe and has no preconditions.
    if unsafe { libc::getpid() } == HARNESS_PID.load(Ordering::Relaxed) {
        HANDLED.fetch_add(1, Ordering::Relaxed);
    } else {
        HANDLED_ELSEWHERE.store(true, Ordering::Relaxed);
    }
}

/// A harness with a signal handler, under a storm of that signal (to itself, and one in 4 to
/// its process group, which a hook belongs to until it has its own), runs 300 hooks 32 at a
/// time: each gives its exact output (none dies of a signal sent to the harness's group before
/// it had its own), the handler never runs in a child, the harness's system calls ride out the
/// interruptions, the supervisor runs, and nothing is left behind.
#[expect(
    unsafe_code,
    clippy::unwrap_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "a handler is installed and the harness signalled, as a harness might; a failed \
              unwrap or an unexpected outcome is a failed test; the alone run's figures go to stdout"
)]
fn signal_storm() {
    use std::sync::atomic::Ordering;
    HARNESS_PID.store(std::process::id().cast_signed(), Ordering::Relaxed);
    // SAFETY: the handler only makes an async-signal-safe call and touches atomics; the
    // sigaction is zeroed but for the handler (no SA_RESTART: blocking calls see EINTR).
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = count_usr1 as *const () as libc::sighandler_t;
        assert_eq!(libc::sigaction(libc::SIGUSR1, &raw const action, std::ptr::null_mut()), 0);
    }
    // SAFETY: getpgrp and getpid have no preconditions.
    let own_group = unsafe { libc::getpgrp() == libc::getpid() };
    assert!(own_group, "the test process must lead its own process group");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let storm = {
        let stop = std::sync::Arc::clone(&stop);
        std::thread::spawn(move || {
            // SAFETY: the set is initialised by sigemptyset before use; blocking SIGUSR1 in
            // this thread sends every one of them to the others.
            unsafe {
                let mut set: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&raw mut set);
                libc::sigaddset(&raw mut set, libc::SIGUSR1);
                libc::pthread_sigmask(libc::SIG_BLOCK, &raw const set, std::ptr::null_mut());
            }
            let mut sent = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let target =
                    if sent.is_multiple_of(4) { 0 } else { std::process::id().cast_signed() };
                // SAFETY: kill has no memory preconditions.
                unsafe {
                    libc::kill(target, libc::SIGUSR1);
                }
                sent += 1;
                std::thread::yield_now();
            }
            sent
        })
    };
    let payload: Vec<u8> = (0..3000).map(|i| b'a' + (i % 26) as u8).collect();
    let (ok, killed) = runtime().block_on(async {
        let pending = (0..300).map(|i| {
            let (line, expected) = if i % 2 == 0 {
                ("cat".to_owned(), payload.clone())
            } else {
                (format!("echo run-{i}"), format!("run-{i}\n").into_bytes())
            };
            let mut inv = shell(&line);
            inv.stdin = payload.clone().into();
            async move { (run(&inv).await, expected) }
        });
        let (mut ok, mut killed) = (0, 0);
        thirty_two_at_a_time(pending, |(out, expected)| {
            let out = out.unwrap();
            assert!(!out.leaked && !out.timed_out(), "{out:?}");
            match out.exit {
                Exit::Code { code: 0 } if out.stdout == expected => ok += 1,
                Exit::Signal { signal } if signal == libc::SIGUSR1 => killed += 1,
                _ => panic!("a run under the storm: {out:?}"),
            }
        })
        .await;
        (ok, killed)
    });
    stop.store(true, Ordering::Relaxed);
    let sent = storm.join().unwrap();
    assert!(!HANDLED_ELSEWHERE.load(Ordering::Relaxed), "a handler ran in a child");
    let handled = HANDLED.load(Ordering::Relaxed);
    assert!(handled > 100, "only {handled} of {sent} signals were handled during the runs");
    assert_eq!(killed, 0, "{ok} runs gave their output, {killed} died of the signal");
    // The supervisor, started by the first run in the storm, runs (its program, not a
    // child of ours that died before `execve`).
    if let Some(pid) = hook_exec::containment().supervisor_pid() {
        assert!(super::support::alive(pid), "the supervisor {pid} is gone");
    }
    assert_eq!(zombie_children(), Vec::<u32>::new());
    println!("storm: {ok} ok, {killed} killed, {handled} handled of {sent} sent");
}

#[test]
fn a_signal_storm_on_a_harness_with_a_handler_leaves_every_run_whole() {
    if alone("a_signal_storm_on_a_harness_with_a_handler_leaves_every_run_whole", &[], &["storm: "])
    {
        signal_storm();
    }
}

/// The same storm through `clone` (the fallback where `clone3` is missing), where the
/// signals are blocked around the call instead.
#[cfg(target_os = "linux")]
#[test]
fn a_signal_storm_through_the_clone_fallback_leaves_every_run_whole() {
    if alone(
        "a_signal_storm_through_the_clone_fallback_leaves_every_run_whole",
        &[("HOOK_PROTOCOL_CLONE3", "0")],
        &["storm: "],
    ) {
        signal_storm();
    }
}

/// A supervisor killed outright (by someone else) is reaped and replaced at the next run a
/// second or more later: no zombie of it stays, runs go on, and the new one is started with the
/// harness's cgroup directory (tree-walk runs' groups are told to it too, unit-tested in
/// `supervisor.rs`).
#[test]
fn a_killed_supervisor_is_reaped_at_the_next_run() {
    if !alone(
        "a_killed_supervisor_is_reaped_at_the_next_run",
        &[],
        &["reaped: ", "no supervisor here"],
    ) {
        return;
    }
    let rt = runtime();
    rt.block_on(async {
        run(&shell("true")).await.unwrap();
        let Some(pid) = hook_exec::containment().supervisor_pid() else {
            println!("no supervisor here: {:?}", hook_exec::containment());
            return;
        };
        let pid = pid.cast_signed();
        #[expect(unsafe_code, reason = "the test kills the supervisor, as an outsider might")]
        // SAFETY: kill has no memory preconditions; `pid` is our unreaped child.
        let killed = unsafe { libc::kill(pid, libc::SIGKILL) };
        assert_eq!(killed, 0);
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while zombie_children() != vec![pid.unsigned_abs()] {
            assert!(std::time::Instant::now() < deadline, "the supervisor did not die");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        // The check runs at most once a second.
        tokio::time::sleep(Duration::from_millis(1100)).await;
        let out = run(&shell("echo on")).await.unwrap();
        assert_eq!(out.stdout, b"on\n");
        assert_eq!(zombie_children(), Vec::<u32>::new());
        let supervisors: Vec<String> = super::support::children()
            .into_iter()
            .filter_map(|child| std::fs::read(format!("/proc/{child}/cmdline")).ok())
            .map(|line| String::from_utf8_lossy(&line).replace('\0', " "))
            .filter(|line| line.contains("hooks-supervisor"))
            .collect();
        assert_eq!(supervisors.len(), 1, "{supervisors:?}");
        if let Some(dir) = hook_exec::containment().cgroup_dir() {
            assert!(supervisors[0].contains(&*dir.to_string_lossy()), "{supervisors:?}");
        }
        println!("reaped: {pid}, replaced: {}", supervisors[0]);
    });
}

/// A harness holding 300 more descriptors, none close-on-exec, while another thread opens and
/// closes pipes all along: 200 hooks, 32 at a time, each gets exactly stdin, stdout and stderr,
/// and the harness's descriptors are all still open afterwards (a child on the harness's table
/// closes only in a table of its own). `how` names the start tried: on the harness's table
/// (the hooks' pipes, numbered above the 300, passed through the thread's low descriptors),
/// with a copy at `clone`, or on a table refused (every child started again with a copy).
#[expect(
    unsafe_code,
    clippy::unwrap_used,
    clippy::print_stdout,
    reason = "the test holds descriptors without close-on-exec, as a careless harness might; a \
              failed unwrap is a failed test; the alone run's figures go to stdout"
)]
fn many_descriptors(how: &str) {
    use std::os::fd::AsRawFd;
    use std::sync::atomic::{AtomicBool, Ordering};
    // A first run while the table is small: the spawning thread keeps its three low
    // descriptors, which the 200 runs' children then get their stdio through.
    let rt = runtime();
    rt.block_on(async { run(&shell("true")).await.unwrap() });
    // Whether a limit's cgroup can be joined here at all, asked while the table is small.
    let limit = hook_exec::ResourceLimits::new().pids_max(64);
    let mut probe = shell("true");
    probe.resources = limit;
    let probe = rt.block_on(run(&probe)).unwrap();
    let joins = probe.containment == hook_protocol::Mechanism::Cgroup
        && probe.containment_warnings.is_empty();
    let null = std::fs::File::open("/dev/null").unwrap();
    // SAFETY: dup of an open descriptor; the copy has no close-on-exec flag.
    let held: Vec<i32> = (0..300).map(|_| unsafe { libc::dup(null.as_raw_fd()) }).collect();
    assert!(held.iter().all(|&fd| fd > 2));
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let churn = {
        let stop = std::sync::Arc::clone(&stop);
        std::thread::spawn(move || {
            let mut made = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let mut fds = [0; 2];
                // SAFETY: `fds` is a writable array of two ints.
                if unsafe { libc::pipe(fds.as_mut_ptr()) } == 0 {
                    // SAFETY: both were just made by pipe and are ours.
                    unsafe {
                        libc::close(fds[0]);
                        libc::close(fds[1]);
                    }
                    made += 1;
                }
            }
            made
        })
    };
    let listing = "for f in /proc/self/fd/*; do [ -e \"$f\" ] && printf '%s ' \"${f##*/}\"; done";
    let (runs, joined) = rt.block_on(async {
        // One run in 8 has a limit, so it joins the limit's cgroup too (on a hybrid host a v1
        // one, written into through a descriptor numbered among the many, which the child's
        // table of its own does not hold: it joins first).
        let pending = (0..200).map(|i| {
            let mut inv = shell(&format!("{listing}; echo; cat /proc/self/cgroup"));
            if i % 8 == 0 {
                inv.resources = limit;
            }
            async move { (run(&inv).await, i % 8 == 0) }
        });
        let (mut runs, mut joined) = (0, 0);
        thirty_two_at_a_time(pending, |(out, limited)| {
            let out = out.unwrap();
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            assert_eq!(text.lines().next(), Some("0 1 2 "), "{out:?}");
            if limited && joins {
                assert!(out.containment_warnings.is_empty(), "{out:?}");
                let line = text
                    .lines()
                    .find(|l| l.contains(":pids:"))
                    .or_else(|| text.lines().find(|l| l.starts_with("0::")))
                    .unwrap_or_default();
                let ours = format!("/hooks-{}-", std::process::id());
                assert!(line.contains(&ours), "not in its pids cgroup: {text}");
                joined += 1;
            }
            runs += 1;
        })
        .await;
        (runs, joined)
    });
    stop.store(true, Ordering::Relaxed);
    let made = churn.join().unwrap();
    for fd in held {
        // SAFETY: F_GETFD only reads the descriptor's flags.
        assert_ne!(unsafe { libc::fcntl(fd, libc::F_GETFD) }, -1, "descriptor {fd} was closed");
    }
    assert_eq!(zombie_children(), Vec::<u32>::new());
    println!(
        "descriptors {how}: {runs} runs, {joined} joined a limit's cgroup, {made} pipes made meanwhile"
    );
}

#[test]
fn a_harness_holding_many_descriptors_gives_hooks_exactly_three() {
    if alone(
        "a_harness_holding_many_descriptors_gives_hooks_exactly_three",
        &[],
        &["descriptors shared: 200 runs"],
    ) {
        many_descriptors("shared");
    }
}

#[test]
fn a_harness_holding_many_descriptors_gives_hooks_exactly_three_with_a_copy_at_clone() {
    if alone(
        "a_harness_holding_many_descriptors_gives_hooks_exactly_three_with_a_copy_at_clone",
        &[("HOOK_PROTOCOL_SHARE_FILES", "0")],
        &["descriptors copied: 200 runs"],
    ) {
        many_descriptors("copied");
    }
}

/// Every child refused a table of its own ends at once and is started again with a copy.
#[test]
fn a_harness_holding_many_descriptors_gives_hooks_exactly_three_when_a_table_is_refused() {
    if alone(
        "a_harness_holding_many_descriptors_gives_hooks_exactly_three_when_a_table_is_refused",
        &[("HOOK_PROTOCOL_SHARE_FILES", "refused")],
        &["descriptors refused: 200 runs"],
    ) {
        many_descriptors("refused");
    }
}
