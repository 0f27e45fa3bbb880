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
