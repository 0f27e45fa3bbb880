//! Bounded memory and no leaks under load, each measured alone in a fresh process.

use std::time::Duration;

use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use hook_protocol::Exit;
use hook_protocol::exec::run;

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
        let mut pending = (0..500).map(|i| {
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
        let mut running = FuturesUnordered::new();
        let mut runs = 0;
        loop {
            while running.len() < 32 {
                let Some(next) = pending.next() else { break };
                running.push(next);
            }
            let Some(out) = running.next().await else { break };
            let out = out.unwrap();
            assert!(!out.leaked && !out.timed_out(), "{out:?}");
            runs += 1;
        }
        assert_eq!(zombie_children(), Vec::<u32>::new());
        // Idle cgroups kept for reuse hold two descriptors each, one cgroup per run that
        // was in flight at once at most.
        let (fds_after, idle) = open_fds_and_idle_cgroup_fds();
        assert_eq!(fds_after, fds_before);
        assert!(idle <= 2 * 32, "{idle} descriptors of idle cgroups for 32 runs at a time");
        println!("runs: {runs}");
    });
}
