use std::time::{Duration, Instant};

use hook_protocol::HookStatus;
use hooks_claude::input::{Base, SessionEnd, UserPromptSubmit};
use hooks_claude::{Engine, HostEnv, Loader, Plugin, Scope};
use serde_json::json;

use crate::support::*;

#[tokio::test]
async fn a_decision_keeps_every_context_whole() {
    let dir = temp_dir("cap");
    let long = "printf 'x%.0s' $(seq 1 12000)";
    let short = "printf 'short context'";
    let hooks = json!({"UserPromptSubmit": [{"hooks": [
        {"type": "command", "command": long},
        {"type": "command", "command": short},
    ]}]});
    let engine = Engine::builder(load(&dir, &settings(hooks)))
        .host(HostEnv::new(&dir))
        .claude_home(dir.join(".claude"))
        .build()
        .unwrap();
    let input = UserPromptSubmit {
        base: Base::new("s-cap", "/t", dir.display().to_string()),
        prompt: "hi".into(),
        ..UserPromptSubmit::default()
    };
    let fired = engine.user_prompt_submit(&input).await;
    let texts: Vec<_> = fired.decision.context.iter().map(|c| c.text.clone()).collect();
    assert_eq!(
        texts,
        ["x".repeat(12000), "short context".to_owned()],
        "the 10,000 cap is presentation"
    );
    assert!(!dir.join(".claude").exists(), "nothing is saved until the texts are rendered");
}

fn session_end(dir: &std::path::Path) -> SessionEnd {
    SessionEnd { base: Base::new("s-end", "/t", dir.display().to_string()), reason: "other".into() }
}

#[tokio::test]
async fn session_end_hooks_share_one_budget() {
    let dir = temp_dir("session-end");
    let sleeper = |timeout: Option<f64>| {
        // Distinct arguments, so that no two are duplicates.
        let secs = format!("{}", 30.0 + timeout.unwrap_or(0.0));
        let mut h = exec("sleep.sh", &[&secs]);
        if let Some(t) = timeout {
            h["timeout"] = json!(t);
        }
        h
    };
    // Settings timeouts raise the budget (at most 60 s); plugin timeouts do not.
    let settings_text =
        settings(json!({"SessionEnd": [{"hooks": [sleeper(Some(2.0)), sleeper(Some(90.0))]}]}));
    let plugin_text = settings(json!({"SessionEnd": [{"hooks": [sleeper(Some(45.0))]}]}));
    let mut loader = Loader::new();
    loader.settings_text(dir.join("s.json"), &settings_text, Scope::Project);
    loader.plugin_text(
        dir.join("p/hooks/hooks.json"),
        &plugin_text,
        Plugin::new("p", dir.join("p")),
    );
    let engine = engine(loader.finish().unwrap(), &dir);
    assert_eq!(engine.session_end_budget(), Duration::from_secs(60));
    let plugin_only = Loader::new()
        .plugin_text(dir.join("p/hooks/hooks.json"), &plugin_text, Plugin::new("p", dir.join("p")))
        .finish()
        .unwrap();
    let engine = crate::support::engine(plugin_only, &dir);
    assert_eq!(engine.session_end_budget(), Duration::from_millis(1500), "plugins do not raise it");

    // Hooks without a timeout get the default, 1.5 s; all of them end within the budget.
    let hooks = json!({"SessionEnd": [{"hooks": [sleeper(None), sleeper(Some(0.5))]}]});
    let engine = crate::support::engine(load(&dir, &settings(hooks.clone())), &dir);
    let started = Instant::now();
    let fired = engine.session_end(&session_end(&dir)).await;
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
    let records = fired.records();
    assert!(records.iter().all(|r| r.status == HookStatus::TimedOut), "{records:?}");
    assert!(records[0].duration >= Duration::from_millis(1400), "{:?}", records[0].duration);
    assert!(records[1].duration < Duration::from_millis(1400), "{:?}", records[1].duration);

    // The harness's override (CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS) sets both.
    let engine = Engine::builder(load(&dir, &settings(hooks)))
        .host(HostEnv::new(&dir))
        .session_end_budget(Duration::from_millis(200))
        .build()
        .unwrap();
    let fired = engine.session_end(&session_end(&dir)).await;
    assert!(
        fired.records().iter().all(|r| r.duration < Duration::from_millis(1200)),
        "{:?}",
        fired.records()
    );
}
