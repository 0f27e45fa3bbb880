use std::path::Path;
use std::time::{Duration, Instant};

use hook_protocol::{HookStatus, ToolPermission};
use hooks_claude::input::{Base, PostToolUse, PreToolUse};
use hooks_claude::{AsyncResult, BackgroundLimits, Engine, HostEnv};
use serde_json::{Value, json};

use crate::support::*;

fn post_tool(dir: &Path) -> PostToolUse {
    PostToolUse {
        base: Base::new("s-bg", "/t", dir.display().to_string()),
        tool_name: "Edit".into(),
        ..PostToolUse::default()
    }
}

fn background(script: &str, args: &[&str], key: &str) -> Value {
    let mut h = exec(script, args);
    h[key] = json!(true);
    h
}

/// Drains until `n` results arrived or 20 s passed.
async fn drain(engine: &Engine, n: usize) -> Vec<AsyncResult> {
    let started = Instant::now();
    let mut results = Vec::new();
    while results.len() < n && started.elapsed() < Duration::from_secs(20) {
        tokio::time::sleep(Duration::from_millis(20)).await;
        results.extend(engine.drain_async());
    }
    results
}

/// Whether the process `pid` runs (a zombie does not: it is being reaped).
fn alive(pid: &str) -> bool {
    pid.parse().is_ok_and(test_support::alive)
}

#[tokio::test]
async fn async_hooks_get_the_same_stdin_and_answer_on_a_later_turn() {
    let dir = temp_dir("async");
    let stdin = dir.join("stdin.json");
    let hook = background("background.sh", &[stdin.to_str().unwrap(), "1"], "async");
    let engine = engine(load(&dir, &settings(json!({"PostToolUse": [{"hooks": [hook]}]}))), &dir);
    let input = post_tool(&dir);
    let started = Instant::now();
    let fired = engine.post_tool_use(&input).await;
    assert!(started.elapsed() < Duration::from_millis(900), "the event does not wait");
    assert!(fired.decision.feedback.is_none() && fired.decision.context.is_empty());
    assert_eq!(fired.records()[0].status, HookStatus::Success);
    assert!(engine.drain_async().is_empty(), "nothing yet");
    let results = drain(&engine, 1).await;
    assert_eq!(results.len(), 1, "{results:?}");
    let r = &results[0];
    assert_eq!((r.status, r.exit_code, r.rewake.as_deref()), (HookStatus::Success, Some(0), None));
    assert_eq!(r.context, ["background lint: clean", "lint finished"], "decision fields ignored");
    assert_eq!(r.event, "PostToolUse");
    let expected = serde_json::to_string(&hooks_claude::input::payload(&input)).unwrap() + "\n";
    assert_eq!(std::fs::read_to_string(&stdin).unwrap(), expected, "stdin as for sync hooks");
    assert!(engine.drain_async().is_empty(), "drained once");
}

#[tokio::test]
async fn async_rewake_exit_two_wakes_through_the_channel() {
    let dir = temp_dir("rewake");
    let hooks = json!({"PostToolUse": [{"hooks": [
        background("respond.sh", &["", "2", "wake up: tests broke"], "asyncRewake"),
        background("respond.sh", &["from stdout", "2"], "asyncRewake"),
        background("respond.sh", &["", "0"], "asyncRewake"),
    ]}]});
    let engine = engine(load(&dir, &settings(hooks)), &dir);
    let mut wake = engine.take_wake_receiver().unwrap();
    assert!(engine.take_wake_receiver().is_none(), "one receiver");
    engine.post_tool_use(&post_tool(&dir)).await;
    let mut woke = Vec::new();
    for _ in 0..2 {
        let r = tokio::time::timeout(Duration::from_secs(20), wake.recv()).await.unwrap().unwrap();
        woke.push((r.hook_id.clone(), r.rewake.clone().unwrap()));
    }
    woke.sort();
    assert_eq!(woke[0].1, "wake up: tests broke", "stderr");
    assert_eq!(woke[1].1, "from stdout", "stdout when stderr is empty");
    let quiet = drain(&engine, 1).await;
    assert_eq!(quiet.len(), 1, "exit 0 is an ordinary result");
    assert_eq!(quiet[0].rewake, None);
}

#[tokio::test]
async fn a_first_line_async_marker_lets_the_event_go_on() {
    let dir = temp_dir("marker");
    let hooks = json!({"PreToolUse": [{"hooks": [exec("marker.sh", &["1"])]}]});
    let engine = engine(load(&dir, &settings(hooks)), &dir);
    let input = PreToolUse {
        base: Base::new("s-m", "/t", dir.display().to_string()),
        tool_name: "Bash".into(),
        tool_input: json!({"command": "ls"}),
        tool_use_id: "t".into(),
        mcp_server: None,
    };
    let started = Instant::now();
    let fired = engine.pre_tool_use(&input).await;
    assert!(started.elapsed() < Duration::from_millis(900), "{:?}", started.elapsed());
    assert_eq!(fired.decision.permission, ToolPermission::NoOpinion, "its later deny is too late");
    let results = drain(&engine, 1).await;
    assert_eq!(results.len(), 1);
    assert_eq!(results[0].context, ["after the marker"]);

    // A hook that says so and ends at once is read the same way.
    let quick = r#"printf '%s\n' '{"async":true}' '{"systemMessage":"quick"}'"#;
    let hooks = json!({"PreToolUse": [{"hooks": [{"type": "command", "command": quick}]}]});
    let quick_engine = crate::support::engine(load(&dir, &settings(hooks)), &dir);
    let fired = quick_engine.pre_tool_use(&input).await;
    assert_eq!(fired.decision.permission, ToolPermission::NoOpinion);
    assert_eq!(drain(&quick_engine, 1).await[0].context, ["quick"]);
}

#[tokio::test]
async fn background_hooks_are_bounded_and_shutdown_kills_them() {
    let dir = temp_dir("bounded");
    let pids = dir.join("pids");
    let hooks = json!({"PostToolUse": [{"hooks": [
        background("long_running.sh", &[pids.to_str().unwrap()], "async"),
        background("sleep.sh", &["30"], "async"),
        background("sleep.sh", &["31"], "async"),
    ]}]});
    let mut limits = BackgroundLimits::DEFAULT;
    limits.max_running = 1;
    limits.max_queued = 1;
    let engine = Engine::builder(load(&dir, &settings(hooks)))
        .host(HostEnv::new(&dir))
        .background_limits(limits)
        .build()
        .unwrap();
    let fired = engine.post_tool_use(&post_tool(&dir)).await;
    let records = fired.records();
    let statuses: Vec<_> = records.iter().map(|r| r.status).collect();
    assert_eq!(
        statuses,
        [HookStatus::Success, HookStatus::Success, HookStatus::Failed],
        "one runs, one waits, the third is refused"
    );
    assert!(records[2].warnings.iter().any(|w| w.contains("too many background hooks")));
    assert_eq!(engine.background_pending(), 2);
    let started = Instant::now();
    while !pids.exists() && started.elapsed() < Duration::from_secs(20) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let text = std::fs::read_to_string(&pids).unwrap();
    let (own, child) = text.trim().split_once(' ').unwrap();
    assert!(alive(own) && alive(child));
    engine.shutdown().await;
    assert_eq!(engine.background_pending(), 0);
    let started = Instant::now();
    while (alive(own) || alive(child)) && started.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(!alive(own), "the hook is gone");
    assert!(!alive(child), "and its child too");
    let fired = engine.post_tool_use(&post_tool(&dir)).await;
    assert!(
        fired.records()[0].warnings.iter().any(|w| w.contains("shut down")),
        "nothing starts after shutdown"
    );
}

#[tokio::test]
async fn dropping_the_engine_ends_background_hooks() {
    let dir = temp_dir("dropped");
    let pids = dir.join("pids");
    let hooks = json!({"PostToolUse": [{"hooks": [
        background("long_running.sh", &[pids.to_str().unwrap()], "async"),
    ]}]});
    let engine = engine(load(&dir, &settings(hooks)), &dir);
    engine.post_tool_use(&post_tool(&dir)).await;
    let started = Instant::now();
    while !pids.exists() && started.elapsed() < Duration::from_secs(20) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let text = std::fs::read_to_string(&pids).unwrap();
    let (own, child) = text.trim().split_once(' ').unwrap();
    drop(engine);
    let started = Instant::now();
    while (alive(own) || alive(child)) && started.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(!alive(own) && !alive(child), "an engine dropped ends its background hooks");
}
