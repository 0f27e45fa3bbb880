//! A hook's whole tree: leaked pipes, timeouts, `setsid` escapees, SIGTERM ignored, cancellation;
//! with the tree walk and, where this machine has them, with cgroups.

use std::time::{Duration, Instant};

use hook_exec::{Leftovers, run};
use hook_protocol::Exit;

use super::support::{
    GRACE, LEAK_WINDOW, TIMEOUT, TempDir, alive, containments, group_members, kill, mechanism,
    pids_in, shell, shell_timing_out, still_alive_after_a_moment, wait_for_pids,
};

/// Slack for a loaded two-core machine.
const SLACK: Duration = Duration::from_secs(1);

#[tokio::test]
async fn a_grandchild_holding_stdout_does_not_hold_the_result() {
    let dir = TempDir::new();
    let pids = dir.file("pids");
    let inv = shell(&format!("sleep 60 & echo $! > {pids}; echo {{}}"));
    let started = Instant::now();
    let out = run(&inv).await.unwrap();
    let took = started.elapsed();
    let left = pids_in(&pids);
    assert_eq!(out.exit, Exit::Code { code: 0 });
    assert_eq!(out.stdout, b"{}\n");
    assert!(out.leaked);
    assert!(!out.leftovers_killed);
    assert!(took >= LEAK_WINDOW && took < LEAK_WINDOW + SLACK, "took {took:?}");
    // Left alone by default: hooks start daemons on purpose.
    assert_eq!(left.len(), 1);
    assert!(alive(left[0]), "the background process was killed");
    kill(&left).await;
}

#[tokio::test]
async fn leftovers_kill_leaves_no_process_of_the_tree() {
    for cgroup in containments() {
        let dir = TempDir::new();
        let pids = dir.file("pids");
        let mut inv = shell(&format!(
            "sleep 60 & echo $! > {pids}; \
         (sleep 60 > /dev/null 2>&1 & echo $! >> {pids}); \
         (setsid sleep 60 > /dev/null 2>&1 & echo $! >> {pids}); \
         echo {{}}"
        ));
        inv.leftovers = Leftovers::Kill;
        inv.cgroup = cgroup;
        let started = Instant::now();
        let out = run(&inv).await.unwrap();
        assert!(started.elapsed() < LEAK_WINDOW + SLACK, "took {:?}", started.elapsed());
        assert_eq!(out.exit, Exit::Code { code: 0 });
        assert_eq!(out.containment, mechanism(cgroup));
        assert_eq!(out.stdout, b"{}\n");
        assert!(out.leaked, "the first sleep holds stdout");
        assert!(out.leftovers_killed);
        assert_eq!(out.leftovers, Some(3), "{out:?}");
        let left = pids_in(&pids);
        assert_eq!(left.len(), 3);
        assert_eq!(still_alive_after_a_moment(&left), Vec::<u32>::new());
        assert_eq!(group_members(out.pid), Vec::<u32>::new());
    }
}

#[tokio::test]
async fn a_timeout_kills_children_holding_the_pipes_setsid_ones_included() {
    for cgroup in containments() {
        let dir = TempDir::new();
        let pids = dir.file("pids");
        // The leader, a plain background child, a `setsid` child whose parent is the leader, and a
        // `setsid` grandchild orphaned at once (reparented to init: only the marker finds it);
        // every one of them holds stdout and stderr.
        let inv = shell_timing_out(&format!(
            "echo $$ > {pids}; \
         sleep 60 & echo $! >> {pids}; \
         setsid sh -c 'echo $$ >> {pids}; exec sleep 60' & \
         (setsid sh -c 'echo $$ >> {pids}; exec sleep 60' &); \
         echo started; wait"
        ));
        let mut inv = inv;
        inv.cgroup = cgroup;
        let started = Instant::now();
        let out = run(&inv).await.unwrap();
        let took = started.elapsed();
        assert!(matches!(out.exit, Exit::TimedOut { .. }), "{:?}", out.exit);
        assert_eq!(out.containment, mechanism(cgroup));
        assert!(took < TIMEOUT + GRACE + SLACK, "took {took:?}");
        assert_eq!(out.stdout, b"started\n");
        let left = pids_in(&pids);
        assert_eq!(left.len(), 4, "{left:?}");
        assert!(out.leftovers_killed);
        assert_eq!(still_alive_after_a_moment(&left), Vec::<u32>::new());
    }
}

#[tokio::test]
async fn a_hook_ignoring_sigterm_is_killed_after_the_grace() {
    for cgroup in containments() {
        let dir = TempDir::new();
        let pids = dir.file("pids");
        let mut inv = shell_timing_out(&format!(
            "trap '' TERM; echo $$ > {pids}; sleep 60 & echo $! >> {pids}; wait; wait"
        ));
        inv.cgroup = cgroup;
        let started = Instant::now();
        let out = run(&inv).await.unwrap();
        let took = started.elapsed();
        assert_eq!(out.exit, Exit::TimedOut { escalated: true });
        assert!(took >= TIMEOUT + GRACE && took < TIMEOUT + GRACE + SLACK, "took {took:?}");
        let left = pids_in(&pids);
        assert_eq!(left.len(), 2);
        assert_eq!(still_alive_after_a_moment(&left), Vec::<u32>::new());
    }
}

#[tokio::test]
async fn a_hook_that_ends_on_sigterm_is_not_escalated() {
    let started = Instant::now();
    let out = run(&shell_timing_out("sleep 60")).await.unwrap();
    assert_eq!(out.exit, Exit::TimedOut { escalated: false });
    assert!(started.elapsed() < TIMEOUT + GRACE, "took {:?}", started.elapsed());
}

#[tokio::test]
async fn a_stopped_hook_still_times_out() {
    // SIGTERM alone stays pending on a stopped process; the SIGCONT that follows lets it act.
    for cgroup in containments() {
        let mut inv = shell_timing_out("kill -STOP $$; echo never");
        inv.cgroup = cgroup;
        let out = run(&inv).await.unwrap();
        assert_eq!(out.exit, Exit::TimedOut { escalated: false });
        assert!(out.stdout.is_empty());
    }
}

#[tokio::test]
async fn dropping_the_future_kills_the_tree() {
    for cgroup in containments() {
        let dir = TempDir::new();
        let pids = dir.file("pids");
        let mut inv = shell(&format!(
            "echo $$ > {pids}; \
         sleep 60 & echo $! >> {pids}; \
         (setsid sleep 60 > /dev/null 2>&1 & echo $! >> {pids}); \
         wait"
        ));
        inv.cgroup = cgroup;
        let running = run(&inv);
        let pids = tokio::select! {
            out = running => panic!("the hook ended by itself: {out:?}"),
            pids = wait_for_pids(&pids, 3) => pids,
        };
        // `running` is dropped here, mid-run.
        assert_eq!(still_alive_after_a_moment(&pids), Vec::<u32>::new());
        // The leader was reaped by us: not even a zombie is left.
        let until = Instant::now() + Duration::from_secs(2);
        while std::path::Path::new(&format!("/proc/{}", pids[0])).exists() {
            assert!(Instant::now() < until, "the leader {} was not reaped", pids[0]);
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}
