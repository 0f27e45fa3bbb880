//! Containment with real processes: a cgroup per run, joined before the hook runs, the escapes
//! the tree walk misses, leftovers counted and kept, limits (a fork bomb, a memory hog, the CPU
//! weight), `kill_running`, descriptors, and the harness's bad configurations (each in a fresh
//! process of this binary, since containment is set once per process).
//!
//! Where this machine gives no cgroups, the cgroup parts are skipped with a message on stderr.

#![expect(clippy::unwrap_used, reason = "test helpers: a failed unwrap is a failed test")]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use hook_exec::{
    CommandSpec, ContainError, Containment, Invocation, Leftovers, ResourceLimits, run,
};
use hook_protocol::Exit;
use hook_protocol::{Mechanism, ResourceLimit};

use super::support::{
    TempDir, alive, cgroups_here, containments, gone_after_a_moment, kill, mechanism, pids_in,
    run_alone, running_alone, shell, shell_timing_out, still_alive_after_a_moment, wait_for_pids,
};

/// This test's path, for [`run_alone`].
fn this(name: &str) -> String {
    format!("contain::{name}")
}

/// A line writing the hook's v2 cgroup (as `/proc/self/cgroup` shows it) to `file`.
fn save_cgroup(file: &str) -> String {
    format!("sed -n 's/^0:://p' /proc/self/cgroup > {file}")
}

/// The directory of the cgroup a hook saved with [`save_cgroup`].
fn saved_cgroup(file: &str) -> PathBuf {
    let text = std::fs::read_to_string(file).unwrap();
    let name = text.trim().rsplit('/').next().unwrap().to_owned();
    hook_exec::containment().cgroup_dir().unwrap().join(name)
}

/// Whether a cgroup directory is gone or holds no process, within a moment.
async fn emptied(dir: &std::path::Path) -> bool {
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        match std::fs::read_to_string(dir.join("cgroup.procs")) {
            Err(_) => return true,
            Ok(procs) if procs.trim().is_empty() => return true,
            Ok(_) if Instant::now() > until => return false,
            Ok(_) => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    }
}

#[tokio::test]
async fn each_hook_runs_in_a_cgroup_of_its_own_joined_before_it_runs() {
    if !cgroups_here() {
        return;
    }
    // The hook's first instruction already runs in the cgroup: the exec-form program reads
    // its own membership, and everything it forks inherits it.
    let inv = Invocation::new(
        CommandSpec::exec("/bin/sh", ["-c", "cat /proc/self/cgroup; (cat /proc/self/cgroup)"]),
        "/",
        Duration::from_secs(20),
    );
    let out = run(&inv).await.unwrap();
    assert_eq!(out.exit, Exit::Code { code: 0 });
    assert_eq!(out.containment, Mechanism::Cgroup);
    assert_eq!(out.leftovers, Some(0));
    assert!(out.containment_warnings.is_empty(), "{:?}", out.containment_warnings);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("0::")).collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[0], lines[1]);
    let dir = hook_exec::containment().cgroup_dir().unwrap();
    let name = dir.file_name().unwrap().to_str().unwrap();
    assert!(lines[0].contains(&format!("/{name}/")), "{} not under {}", lines[0], dir.display());
    // Empty once the run is over (and kept for the next run: no limit, nothing left).
    let id = lines[0].rsplit('/').next().unwrap();
    assert!(emptied(&dir.join(id)).await, "the run's cgroup still holds processes");
}

#[tokio::test]
async fn a_double_forked_setsid_daemon_with_a_cleared_environment_is_killed_either_way() {
    for cgroup in containments() {
        let dir = TempDir::new();
        let pids = dir.file("pids");
        // Reparented to init, in a session of its own, its environment and stdio gone: the
        // cgroup holds it, and the tree walk finds it by the run's mark, a resource limit.
        let mut inv = shell_timing_out(&format!(
            "( env -i setsid sh -c 'echo $$ > {pids}; exec sleep 300' > /dev/null 2>&1 < /dev/null & ); sleep 60"
        ));
        inv.cgroup = cgroup;
        let out = run(&inv).await.unwrap();
        assert!(out.timed_out(), "{out:?}");
        assert_eq!(out.containment, mechanism(cgroup));
        let daemon = wait_for_pids(&pids, 1).await;
        assert_eq!(still_alive_after_a_moment(&daemon), Vec::<u32>::new(), "cgroup: {cgroup}");
    }
}

#[tokio::test]
async fn a_daemon_that_changes_the_marking_limit_escapes_only_the_tree_walk() {
    for cgroup in containments() {
        let dir = TempDir::new();
        let pids = dir.file("pids");
        // The tree walk's documented limit: nothing ties this process to the hook any more.
        let mut inv = shell_timing_out(&format!(
            "( exec bash -c 'ulimit -S -R unlimited; \
               exec env -i setsid sh -c \"echo \\$\\$ > {pids}; exec sleep 300\"' \
               > /dev/null 2>&1 < /dev/null & ); sleep 60"
        ));
        inv.cgroup = cgroup;
        let out = run(&inv).await.unwrap();
        assert!(out.timed_out(), "{out:?}");
        let daemon = wait_for_pids(&pids, 1).await;
        let left = still_alive_after_a_moment(&daemon);
        if cgroup {
            assert_eq!(left, Vec::<u32>::new(), "the cgroup holds the escapee");
        } else {
            assert_eq!(left, daemon, "the tree walk cannot find it");
            kill(&left).await;
        }
    }
}

#[tokio::test]
async fn leftovers_of_a_normal_exit_stay_in_the_cgroup_and_are_counted() {
    if !cgroups_here() {
        return;
    }
    let dir = TempDir::new();
    let pids = dir.file("pids");
    let inv = shell(&format!(
        "{}; for i in 1 2 3; do sleep 60 > /dev/null 2>&1 & echo $! >> {pids}; done; echo {{}}",
        save_cgroup(&format!("{pids}.cgroup"))
    ));
    let out = run(&inv).await.unwrap();
    assert_eq!(out.exit, Exit::Code { code: 0 });
    assert_eq!(out.leftovers, Some(3));
    assert!(!out.leftovers_killed && !out.leaked);
    let left = pids_in(&pids);
    assert_eq!(left.len(), 3);
    assert!(left.iter().all(|p| alive(*p)), "leftovers are left alone by default");
    let cgroup = saved_cgroup(&format!("{pids}.cgroup"));
    let members = std::fs::read_to_string(cgroup.join("cgroup.procs")).unwrap();
    for pid in &left {
        assert!(members.lines().any(|l| l == pid.to_string()), "{pid} is not in {members}");
    }
    // Once they are gone, the cgroup goes too (removed by a later run).
    kill(&left).await;
    let until = Instant::now() + Duration::from_secs(10);
    while cgroup.exists() {
        assert!(Instant::now() < until, "{} was never removed", cgroup.display());
        run(&shell("true")).await.unwrap();
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn leftovers_kill_empties_the_cgroup_and_removes_it() {
    if !cgroups_here() {
        return;
    }
    let dir = TempDir::new();
    let pids = dir.file("pids");
    let mut inv = shell(&format!(
        "{}; \
         ( env -i setsid sh -c 'echo $$ >> {pids}; exec sleep 60' > /dev/null 2>&1 & ); \
         sleep 60 > /dev/null 2>&1 & echo $! >> {pids}; \
         while [ $(wc -l < {pids}) -lt 2 ]; do sleep 0.01; done; echo {{}}",
        save_cgroup(&format!("{pids}.cgroup"))
    ));
    inv.leftovers = Leftovers::Kill;
    let out = run(&inv).await.unwrap();
    assert_eq!(out.exit, Exit::Code { code: 0 });
    assert!(out.leftovers_killed);
    assert_eq!(out.leftovers, Some(2));
    let left = wait_for_pids(&pids, 2).await;
    assert_eq!(still_alive_after_a_moment(&left), Vec::<u32>::new());
    let cgroup = saved_cgroup(&format!("{pids}.cgroup"));
    assert!(gone_after_a_moment(&cgroup).await, "{} was left behind", cgroup.display());
}

/// A hook that makes cgroups in its own, as a harness run as a hook does (its own directory,
/// a run's cgroup in it): once the run is over, its cgroup is removed with them, so that
/// neither the harness nor its supervisor is left waiting on them.
#[tokio::test]
async fn cgroups_a_hook_made_in_its_own_are_removed_with_it() {
    if !cgroups_here() {
        return;
    }
    let dir = TempDir::new();
    let file = dir.file("cgroup");
    let harness = hook_exec::containment().cgroup_dir().unwrap().display().to_string();
    let mut inv = shell(&format!(
        "{}; own=\"{harness}/$(sed -n 's|^0::.*/||p' /proc/self/cgroup)\"; \
         mkdir -p \"$own/hooks-1-2/0\" \"$own/hooks-1-2/1\" && echo {{}}",
        save_cgroup(&file)
    ));
    inv.leftovers = Leftovers::Kill;
    let out = run(&inv).await.unwrap();
    assert_eq!(out.exit, Exit::Code { code: 0 }, "{}", out.stderr_text());
    assert_eq!(out.stdout, b"{}\n");
    let cgroup = saved_cgroup(&file);
    assert!(gone_after_a_moment(&cgroup).await, "{} was left behind", cgroup.display());
}

/// A harness whose own cgroup was once killed through `cgroup.kill` still runs its hooks, each
/// in its cgroup: the kernel kills at birth a child placed by `CLONE_INTO_CGROUP` in a cgroup
/// whose count of kills differs from the parent's, and the child then joins its cgroup itself.
#[test]
fn a_harness_in_a_cgroup_once_killed_runs_its_hooks_contained() {
    let name = this("a_harness_in_a_cgroup_once_killed_runs_its_hooks_contained");
    // Found without setting up containment, which the alone run must do only once inside.
    let Some(own) = own_v2_dir() else {
        eprintln!("skipping: no cgroup v2 directory here");
        return;
    };
    let killed = own.join(format!("killed-{}", std::process::id()));
    if !running_alone(&name) {
        if std::fs::create_dir(&killed).is_err() {
            eprintln!("skipped: {} cannot be made", killed.display());
            return;
        }
        /// Removes the cgroup once the fresh process's supervisor has removed its directory in
        /// it, whether the test passed or not.
        struct Removed<'a>(&'a std::path::Path);
        impl Drop for Removed<'_> {
            fn drop(&mut self) {
                let until = Instant::now() + Duration::from_secs(10);
                while std::fs::remove_dir(self.0).is_err() && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(20));
                }
            }
        }
        let removed = Removed(&killed);
        std::fs::write(killed.join("cgroup.kill"), "1").unwrap();
        super::support::run_alone_with(&name, &[("KILLED_CGROUP", killed.to_str().unwrap())]);
        drop(removed);
        assert!(!killed.exists(), "{} was left behind", killed.display());
        return;
    }
    let killed = PathBuf::from(std::env::var_os("KILLED_CGROUP").unwrap());
    let parent = killed.parent().unwrap().join("cgroup.procs");
    std::fs::write(killed.join("cgroup.procs"), std::process::id().to_string()).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let out = rt.block_on(run(&shell("sed -n 's/^0:://p' /proc/self/cgroup"))).unwrap();
    // Back where it was, so that the cgroup can go once this process has.
    std::fs::write(parent, std::process::id().to_string()).unwrap();
    assert_eq!(out.exit, Exit::Code { code: 0 }, "{}", out.stderr_text());
    if hook_exec::containment().mechanism() != Mechanism::Cgroup {
        eprintln!("skipped: {}", hook_exec::containment());
        return;
    }
    let inside = format!("/{}/hooks-", killed.file_name().unwrap().to_string_lossy());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(&inside), "not in its cgroup: {text}");
}

/// A line that prints the value of the hook's own cgroup file `name` (v2), or, on a host that
/// keeps the controller on cgroup v1, of `v1_name` in the controller's hierarchy.
fn own_cgroup_file(name: &str, controller: &str, v1_name: &str) -> String {
    let dir = hook_exec::containment().cgroup_dir().unwrap().display().to_string();
    format!(
        "own() {{ cat \"{dir}/$(sed -n 's|^0::.*/||p' /proc/self/cgroup)/{name}\" 2>/dev/null && return; \
         p=$(sed -n 's/^[0-9]*:\\([^:]*,\\)\\{{0,1\\}}{controller}\\(,[^:]*\\)\\{{0,1\\}}://p' /proc/self/cgroup); \
         cat /sys/fs/cgroup/{controller}*$p/{v1_name} 2>/dev/null | head -n 1; }}"
    )
}

/// Whether `limits` can be enforced here: a probe run with them records no warning.
#[expect(clippy::print_stderr, reason = "a test skipping its cgroup part says so")]
async fn enforced(limits: ResourceLimits) -> bool {
    let mut inv = shell("true");
    inv.resources = limits;
    let out = run(&inv).await.unwrap();
    if out.containment != Mechanism::Cgroup || !out.containment_warnings.is_empty() {
        eprintln!("skipping: {limits:?} cannot be enforced here: {:?}", out.containment_warnings);
        return false;
    }
    true
}

#[tokio::test]
async fn a_fork_bomb_is_bounded_by_pids_max_and_killed() {
    let limits = ResourceLimits::new().pids_max(64);
    if !cgroups_here() || !enforced(limits).await {
        return;
    }
    let dir = TempDir::new();
    let marker = dir.file("marker");
    // The bomb checks its own limit first, so that it never runs unbounded; even then it
    // stops at depth 10 (2047 processes).
    let mut inv = shell(&format!(
        "{}; {}; [ \"$(own)\" = 64 ] || exit 99; \
         b() {{ [ $1 -gt 0 ] || exec sleep 60; b $(($1 - 1)) & b $(($1 - 1)) & wait; }}; \
         b 10; exec sleep 60",
        own_cgroup_file("pids.max", "pids", "pids.max"),
        save_cgroup(&marker)
    ));
    inv.timeout = Duration::from_secs(2);
    inv.resources = limits;
    let started = Instant::now();
    let out = run(&inv).await.unwrap();
    assert!(out.timed_out(), "{out:?}\n{}", out.stderr_text());
    assert_eq!(out.limit, Some(ResourceLimit::Pids), "{out:?}");
    assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
    let cgroup = saved_cgroup(&marker);
    assert!(gone_after_a_moment(&cgroup).await, "{} was left behind", cgroup.display());
    // The harness goes on.
    assert_eq!(run(&shell("echo fine")).await.unwrap().stdout, b"fine\n");
}

#[tokio::test]
async fn a_memory_hog_is_stopped_by_memory_max() {
    let limits = ResourceLimits::new().memory_max(64 << 20);
    if !cgroups_here() || !enforced(limits).await {
        return;
    }
    let dir = TempDir::new();
    let marker = dir.file("marker");
    let mut inv = shell(&format!(
        "{}; exec python3 -c 'x = bytearray(512 << 20); x[::4096] = b\"x\" * len(x[::4096]); print(len(x))'",
        save_cgroup(&marker)
    ));
    inv.resources = limits;
    let out = run(&inv).await.unwrap();
    assert_eq!(out.exit, Exit::Signal { signal: libc::SIGKILL }, "{out:?}");
    assert_eq!(out.limit, Some(ResourceLimit::Memory));
    assert!(out.stdout.is_empty());
    let cgroup = saved_cgroup(&marker);
    assert!(gone_after_a_moment(&cgroup).await, "{} was left behind", cgroup.display());
    // Without the limit, the same hook is fine.
    inv.resources = ResourceLimits::new();
    let out = run(&inv).await.unwrap();
    assert_eq!(out.exit, Exit::Code { code: 0 }, "{}", out.stderr_text());
    assert_eq!(out.limit, None);
}

#[tokio::test]
async fn the_cpu_weight_is_set_on_the_hook_cgroup() {
    let limits = ResourceLimits::new().cpu_weight(50);
    if !cgroups_here() || !enforced(limits).await {
        return;
    }
    let mut inv = shell(&format!("{}; own", own_cgroup_file("cpu.weight", "cpu", "cpu.shares")));
    inv.resources = limits;
    let out = run(&inv).await.unwrap();
    let value = String::from_utf8(out.stdout).unwrap();
    // cpu.weight 50 on cgroup v2; on v1, cpu.shares 512 (1024 being the default, as 100 is).
    assert!(value.trim() == "50" || value.trim() == "512", "{value:?}");
    assert_eq!(out.limit, None, "a weight never stops a hook");
}

#[tokio::test]
async fn a_limit_the_kernel_refuses_is_a_warning_naming_the_file_and_the_value() {
    if !cgroups_here() {
        return;
    }
    // Above the kernel's PID_MAX_LIMIT (4194304): pids.max refuses it.
    let mut inv = shell("echo ran");
    inv.resources = ResourceLimits::new().pids_max(1 << 40);
    let out = run(&inv).await.unwrap();
    assert_eq!(out.stdout, b"ran\n", "the hook runs all the same");
    assert_eq!(out.containment, Mechanism::Cgroup);
    let warning = out.containment_warnings.join("\n");
    assert!(warning.contains("pids.max"), "{warning}");
    assert!(warning.contains(&(1_u64 << 40).to_string()), "{warning}");
}

#[tokio::test]
async fn a_hook_gets_exactly_stdin_stdout_and_stderr() {
    for cgroup in containments() {
        // The shell lists its own descriptors (the glob's directory descriptor is closed by
        // the time `-e` tests it).
        let mut inv =
            shell("for f in /proc/self/fd/*; do [ -e \"$f\" ] && printf '%s ' \"${f##*/}\"; done");
        inv.cgroup = cgroup;
        inv.stdin = b"{}".to_vec().into();
        let out = run(&inv).await.unwrap();
        assert_eq!(String::from_utf8(out.stdout).unwrap(), "0 1 2 ");
    }
}

#[test]
fn kill_running_ends_every_running_hook_in_both_containments() {
    let name = this("kill_running_ends_every_running_hook_in_both_containments");
    if !running_alone(&name) {
        let out = run_alone(&name);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("killed:"), "{text}");
        return;
    }
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let dir = TempDir::new();
        let modes = containments();
        let mut runs = Vec::new();
        for (i, cgroup) in modes.iter().enumerate() {
            let pids = dir.file(&format!("pids{i}"));
            let mut inv = shell(&format!(
                "trap '' TERM; echo $$ > {pids}; \
                 ( env -i setsid sh -c 'echo $$ >> {pids}; exec sleep 60' > /dev/null 2>&1 & ); \
                 sleep 60 & echo $! >> {pids}; wait"
            ));
            inv.cgroup = *cgroup;
            runs.push((tokio::spawn(async move { run(&inv).await }), pids));
        }
        let mut all = Vec::new();
        for (_, pids) in &runs {
            all.extend(wait_for_pids(pids, 3).await);
        }
        let started = Instant::now();
        let killed =
            tokio::task::spawn_blocking(|| hook_exec::kill_running(Duration::from_millis(200)))
                .await
                .unwrap();
        assert_eq!(killed, modes.len());
        assert!(started.elapsed() < Duration::from_secs(3), "took {:?}", started.elapsed());
        for (task, _) in runs {
            let out = task.await.unwrap().unwrap();
            // They ignore SIGTERM: SIGKILL after the grace.
            assert_eq!(out.exit, Exit::Signal { signal: libc::SIGKILL }, "{out:?}");
        }
        // The cleared-environment escapee is found either way: by its cgroup, or by the run's
        // mark.
        let left = still_alive_after_a_moment(&all);
        assert_eq!(left, Vec::<u32>::new(), "of {all:?}");
        assert_eq!(hook_exec::kill_running(Duration::ZERO), 0, "nothing runs any more");
        println!("killed: {killed}");
    });
}

/// A fresh process's containment: the status after `contain(config)`, and one run's outcome.
fn fresh(
    config: Containment,
) -> (Result<(), String>, Mechanism, String, hook_protocol::RawOutcome) {
    let result = hook_exec::contain(config).map(|_| ()).map_err(|e| e.to_string());
    let status = hook_exec::containment();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let out = rt.block_on(run(&shell("echo ran"))).unwrap();
    (result, status.mechanism(), status.to_string(), out)
}

#[test]
fn a_configured_parent_that_does_not_exist_is_an_error_and_hooks_still_run() {
    let name = this("a_configured_parent_that_does_not_exist_is_an_error_and_hooks_still_run");
    if !running_alone(&name) {
        run_alone(&name);
        return;
    }
    let (result, mechanism, status, out) = fresh(Containment::under("/sys/fs/cgroup/no-such"));
    assert_eq!(result, Err("cgroup parent /sys/fs/cgroup/no-such does not exist".to_owned()));
    assert_eq!(mechanism, Mechanism::TreeWalk);
    assert!(status.contains("/sys/fs/cgroup/no-such"), "{status}");
    assert_eq!(out.stdout, b"ran\n");
    assert_eq!(out.containment, Mechanism::TreeWalk);
    assert!(matches!(hook_exec::contain(Containment::auto()), Err(ContainError::AlreadySet)));
}

#[test]
fn a_configured_parent_that_is_not_a_cgroup_is_an_error_and_hooks_still_run() {
    let name = this("a_configured_parent_that_is_not_a_cgroup_is_an_error_and_hooks_still_run");
    if !running_alone(&name) {
        run_alone(&name);
        return;
    }
    let dir = TempDir::new();
    let (result, mechanism, _, out) = fresh(Containment::under(dir.path()));
    let expected = format!("cgroup parent {} is not a cgroup v2 directory", dir.path().display());
    assert_eq!(result, Err(expected));
    assert_eq!(mechanism, Mechanism::TreeWalk);
    assert_eq!(out.stdout, b"ran\n");
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none(), "nothing made there");
}

#[test]
fn containment_turned_off_is_the_tree_walk() {
    let name = this("containment_turned_off_is_the_tree_walk");
    if !running_alone(&name) {
        run_alone(&name);
        return;
    }
    let (result, mechanism, status, out) = fresh(Containment::off());
    assert_eq!(result, Ok(()));
    assert_eq!(mechanism, Mechanism::TreeWalk);
    assert!(status.contains("turned off"), "{status}");
    assert_eq!(out.containment, Mechanism::TreeWalk);
}

#[test]
fn an_invalid_harness_limit_is_an_error_and_the_cgroups_stay() {
    let name = this("an_invalid_harness_limit_is_an_error_and_the_cgroups_stay");
    if !running_alone(&name) {
        run_alone(&name);
        return;
    }
    let (result, mechanism, status, out) =
        fresh(Containment::auto().limits(ResourceLimits::new().cpu_weight(0)));
    assert_eq!(
        result,
        Err("cpu.weight = 0 is not a valid limit: the kernel accepts 1 to 10000".to_owned())
    );
    assert!(status.contains("cpu.weight = 0"), "{status}");
    assert_eq!(hook_exec::containment().limits(), ResourceLimits::NONE);
    if cgroups_here() {
        assert_eq!(mechanism, Mechanism::Cgroup);
        assert_eq!(out.containment, Mechanism::Cgroup);
    }
    assert_eq!(out.stdout, b"ran\n");
}

#[test]
fn without_clone3_the_child_joins_its_cgroup_itself_before_it_runs() {
    let name = this("without_clone3_the_child_joins_its_cgroup_itself_before_it_runs");
    if !running_alone(&name) {
        super::support::run_alone_with(&name, &[("HOOK_PROTOCOL_CLONE3", "0")]);
        return;
    }
    if !cgroups_here() {
        return;
    }
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let dir = TempDir::new();
        let pids = dir.file("pids");
        let mut inv = shell_timing_out(&format!(
            "cat /proc/self/cgroup; for f in /proc/self/fd/*; do [ -e \"$f\" ] && printf '%s ' \"${{f##*/}}\"; done; \
             ( env -i setsid sh -c 'echo $$ > {pids}; exec sleep 300' & ); sleep 60"
        ));
        inv.timeout = Duration::from_secs(1);
        let out = run(&inv).await.unwrap();
        assert!(out.timed_out());
        assert_eq!(out.containment, Mechanism::Cgroup);
        let text = String::from_utf8(out.stdout).unwrap();
        let name = hook_exec::containment().cgroup_dir().unwrap().file_name().unwrap().to_owned();
        assert!(text.contains(&format!("/{}/", name.to_str().unwrap())), "{text}");
        assert!(text.ends_with("0 1 2 "), "{text}");
        let daemon = wait_for_pids(&pids, 1).await;
        assert_eq!(still_alive_after_a_moment(&daemon), Vec::<u32>::new());
    });
}

/// This process's cgroup v2 directory, from `/proc/self/mountinfo` and `/proc/self/cgroup`.
fn own_v2_dir() -> Option<PathBuf> {
    let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    let point =
        mountinfo.lines().find(|l| l.contains(" - cgroup2 "))?.split(' ').nth(4)?.to_owned();
    let cgroup = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let own = cgroup.lines().find_map(|l| l.strip_prefix("0::"))?;
    Some(PathBuf::from(point).join(own.trim_start_matches('/')))
}

#[test]
fn a_configured_parent_that_cannot_be_written_is_an_error_and_hooks_still_run() {
    let name = this("a_configured_parent_that_cannot_be_written_is_an_error_and_hooks_still_run");
    if !running_alone(&name) {
        run_alone(&name);
        return;
    }
    // A cgroup that refuses children (`cgroup.max.descendants` 0): what a parent the harness may
    // not write to looks like, even to root.
    let Some(parent) = own_v2_dir().map(|d| d.join(format!("it-parent-{}", std::process::id())))
    else {
        return;
    };
    if std::fs::create_dir(&parent).is_err()
        || std::fs::write(parent.join("cgroup.max.descendants"), "0").is_err()
    {
        eprintln!("skipping: no cgroup v2 directory can be made here");
        let _ = std::fs::remove_dir(&parent);
        return;
    }
    let (result, mechanism, status, out) = fresh(Containment::under(&parent));
    let error = result.unwrap_err();
    assert!(error.starts_with(&format!("cannot make {}/hooks-", parent.display())), "{error}");
    assert!(status.contains("Resource temporarily unavailable"), "{status}");
    assert_eq!(mechanism, Mechanism::TreeWalk);
    assert_eq!(out.stdout, b"ran\n");
    assert_eq!(out.containment, Mechanism::TreeWalk);
    std::fs::remove_dir(&parent).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_group_ends_its_own_hooks_and_no_other() {
    // No need to run alone: each group touches only the hooks it runs.
    let dir = TempDir::new();
    let mine = hook_exec::RunGroup::new();
    let other = hook_exec::RunGroup::new().cgroups(false);
    let mut runs = Vec::new();
    for (i, (group, cgroup)) in
        containments().into_iter().map(|c| (mine.cgroups(c), c)).chain([(other, false)]).enumerate()
    {
        let pids = dir.file(&format!("pids{i}"));
        let mut inv = shell(&format!("trap '' TERM; echo $$ > {pids}; sleep 60 & wait"));
        group.apply(&mut inv);
        assert_eq!(inv.cgroup, cgroup);
        runs.push((group == other, tokio::spawn(async move { run(&inv).await }), pids));
    }
    for (_, _, pids) in &runs {
        wait_for_pids(pids, 1).await;
    }
    let mine_count = runs.iter().filter(|r| !r.0).count();
    assert_eq!(mine.running(), mine_count);
    assert_eq!(other.running(), 1);
    let killed = tokio::task::spawn_blocking(move || mine.kill_running(Duration::from_millis(200)))
        .await
        .unwrap();
    assert_eq!(killed, mine_count);
    let mut other_task = None;
    for (is_other, task, _) in runs {
        if is_other {
            other_task = Some(task);
            continue;
        }
        let out = task.await.unwrap().unwrap();
        // They ignore SIGTERM: SIGKILL after the grace.
        assert_eq!(out.exit, Exit::Signal { signal: libc::SIGKILL }, "{out:?}");
    }
    assert_eq!(mine.running(), 0);
    assert_eq!(other.running(), 1, "the other group's hook still runs");
    let other_task = other_task.unwrap();
    assert!(!other_task.is_finished());
    assert_eq!(
        tokio::task::spawn_blocking(move || other.kill_running(Duration::ZERO)).await.unwrap(),
        1
    );
    let out = other_task.await.unwrap().unwrap();
    assert_eq!(out.exit, Exit::Signal { signal: libc::SIGKILL }, "{out:?}");
}
