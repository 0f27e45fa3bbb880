//! Containment set per engine: two engines of one process, one with cgroups and resource
//! limits, one without, running the same hook.

use hook_protocol::Mechanism;
use hooks_claude::ResourceLimits;
use hooks_claude::input::{Base, Stop};
use hooks_claude::{Engine, HostEnv, StopGuard};
use serde_json::json;

use crate::support::{load, settings, temp_dir};

#[tokio::test]
async fn each_engine_sets_its_hooks_cgroups_and_limits() {
    let dir = temp_dir("engine-containment");
    let out = dir.join("pids.max");
    // The hook writes its own cgroup's `pids.max` (cgroup v2, else the v1 pids controller),
    // or `none` outside a cgroup of its own.
    let own = hook_exec::containment().cgroup_dir().map(|d| d.display().to_string());
    let body = format!(
        "cat > /dev/null\n\
         v2=\"{own}/$(sed -n 's|^0::.*/||p' /proc/self/cgroup)/pids.max\"\n\
         v1=$(sed -n 's/^[0-9]*:\\([^:]*,\\)\\{{0,1\\}}pids\\(,[^:]*\\)\\{{0,1\\}}://p' /proc/self/cgroup)\n\
         {{ cat \"$v2\" 2>/dev/null || cat /sys/fs/cgroup/pids*$v1/pids.max 2>/dev/null || echo none; }} | head -n 1 > '{out}'",
        own = own.unwrap_or_default(),
        out = out.display()
    );
    let text = settings(json!({"Stop": [{"hooks": [{"type": "command", "command": body}]}]}));
    let build = |limits: Option<u64>, cgroups: bool| -> Engine {
        let mut builder =
            Engine::builder(load(&dir, &text)).host(HostEnv::new(&dir)).cgroups(cgroups);
        if let Some(n) = limits {
            builder = builder.resource_limits(ResourceLimits::new().pids_max(n));
        }
        builder.build().unwrap()
    };
    let input = Stop { base: Base::new("s", "/t", dir.display().to_string()), ..Stop::default() };
    let process_has_cgroups = hook_exec::containment().mechanism() == Mechanism::Cgroup;

    let limited = build(Some(64), true).stop(&input, &mut StopGuard::default()).await;
    let facts = limited.report.records[0].process.clone().unwrap();
    let seen = std::fs::read_to_string(&out).unwrap();
    if process_has_cgroups {
        assert_eq!(facts.containment, Mechanism::Cgroup);
        if facts.containment_warnings.is_empty() {
            assert_eq!(seen.trim(), "64", "this engine's limit");
        } else {
            // Where the kernel does not take the limit, the run says so, naming it.
            assert!(facts.containment_warnings.iter().any(|w| w.contains("pids")), "{facts:?}");
        }
    } else {
        assert_eq!(facts.containment, Mechanism::TreeWalk, "no cgroups in this process");
    }

    // Another engine of the same process: no cgroups for its hooks.
    let plain = build(Some(64), false).stop(&input, &mut StopGuard::default()).await;
    let facts = plain.report.records[0].process.clone().unwrap();
    assert_eq!(facts.containment, Mechanism::TreeWalk, "this engine turned cgroups off");
    let seen = std::fs::read_to_string(&out).unwrap();
    assert_ne!(seen.trim(), "64", "no limit of its own: {seen}");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_engine_ends_its_own_running_hooks_and_no_other_engines() {
    let dir = temp_dir("engine-kill-running");
    let started = |name: &str| dir.join(name);
    // Each engine's Stop hook says it started, then waits, deaf to SIGTERM.
    let text = |name: &str| {
        let mark = started(name).display().to_string();
        settings(json!({"Stop": [{"hooks": [{"type": "command",
            "command": format!("trap '' TERM; cat > /dev/null; : > '{mark}'; sleep 60 & wait")}]}]}))
    };
    let engine = |name: &str| {
        std::sync::Arc::new(
            Engine::builder(load(&dir, &text(name))).host(HostEnv::new(&dir)).build().unwrap(),
        )
    };
    let (first, second) = (engine("first"), engine("second"));
    let input = Stop { base: Base::new("s", "/t", dir.display().to_string()), ..Stop::default() };
    let fire = |engine: &std::sync::Arc<Engine>| {
        let (engine, input) = (std::sync::Arc::clone(engine), input.clone());
        tokio::spawn(async move { engine.stop(&input, &mut StopGuard::default()).await })
    };
    let (one, two) = (fire(&first), fire(&second));
    while !(started("first").exists() && started("second").exists()) {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!((first.running(), second.running()), (1, 1));

    let killer = std::sync::Arc::clone(&first);
    let killed = tokio::task::spawn_blocking(move || {
        killer.kill_running(std::time::Duration::from_millis(100))
    })
    .await
    .unwrap();
    assert_eq!(killed, 1);
    let ended = one.await.unwrap();
    let record = &ended.report.records[0];
    assert!(record.status.is_failure(), "its hook was killed: {record:?}");
    assert_eq!(first.running(), 0);
    assert_eq!(second.running(), 1, "the other engine's hook still runs");
    assert!(!two.is_finished());

    let killer = std::sync::Arc::clone(&second);
    let killed =
        tokio::task::spawn_blocking(move || killer.kill_running(std::time::Duration::ZERO))
            .await
            .unwrap();
    assert_eq!(killed, 1);
    two.await.unwrap();
}
