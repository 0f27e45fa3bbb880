use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use hook_protocol::{
    Continuation, Event, Hook, HookInfo, HookOutcome, HookStatus, On, PromptPermission, Seam,
    Source, ToolPermission, Verdict,
};
use hooks_claude::input::{Base, PostToolUse, PreToolUse, Stop, UserPromptSubmit};
use hooks_claude::{Engine, HostEnv, Loader, Plugin, Scope, StopGuard};
use serde_json::{Value, json};

use crate::support::*;

fn pre_tool(dir: &std::path::Path, command: &str) -> PreToolUse {
    PreToolUse {
        base: Base::new("s-1", "/t.jsonl", dir.display().to_string()),
        tool_name: "Bash".into(),
        tool_input: json!({"command": command}),
        tool_use_id: "toolu_1".into(),
        mcp_server: None,
    }
}

fn deny(reason: &str) -> String {
    json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}}).to_string()
}

#[tokio::test]
async fn stdin_is_the_exact_payload_and_the_environment_is_claudes() {
    let dir = temp_dir("stdin");
    let out = dir.join("stdin.json");
    let text = settings(
        json!({"PreToolUse": [{"matcher": "Bash", "hooks": [exec("record.sh", &[out.to_str().unwrap()])]}]}),
    );
    let text = text.replacen('{', "{\"env\": {\"FROM_SETTINGS\": \"yes\"},", 1);
    let engine = engine(load(&dir, &text), &dir);
    let input = pre_tool(&dir, "ls");
    let fired = engine.pre_tool_use(&input).await;
    assert_eq!(fired.records()[0].status, HookStatus::Success, "{:?}", fired.records());
    let written = std::fs::read_to_string(&out).unwrap();
    let expected = serde_json::to_string(&hooks_claude::input::payload(&input)).unwrap() + "\n";
    assert_eq!(written, expected, "one compact line and a newline");
    let v: Value = serde_json::from_str(&written).unwrap();
    assert_eq!(v["hook_event_name"], "PreToolUse");
    let env = std::fs::read_to_string(dir.join("stdin.json.env")).unwrap();
    for line in [
        format!("pwd={}", dir.display()),
        format!("CLAUDE_PROJECT_DIR={}", dir.display()),
        "CLAUDECODE=1".to_owned(),
        "CLAUDE_CODE_SESSION_ID=s-1".to_owned(),
        "CLAUDE_PLUGIN_ROOT=".to_owned(),
        "FROM_SETTINGS=yes".to_owned(),
    ] {
        assert!(env.lines().any(|l| l == line), "missing `{line}` in:\n{env}");
    }
}

#[tokio::test]
async fn decisions_from_real_scripts() {
    let dir = temp_dir("decisions");
    let text = settings(json!({"PreToolUse": [
        {"matcher": "Bash", "hooks": [exec("respond.sh", &[&deny("no rm"), "0"])]},
        {"matcher": "Write", "hooks": [exec("respond.sh", &["", "2", "exit two"])]},
        {"matcher": "Read", "hooks": [exec("respond.sh", &["", "1", "oops"])]},
        {"matcher": "Edit", "hooks": [{"type": "command", "command": "./no-such-hook.sh"}]},
    ]}));
    let engine = engine(load(&dir, &text), &dir);
    let mut input = pre_tool(&dir, "rm -rf /");
    let d = engine.pre_tool_use(&input).await.decision;
    assert_eq!(d.permission, ToolPermission::Deny { reason: Some("no rm".into()) });
    input.tool_name = "Write".into();
    let fired = engine.pre_tool_use(&input).await;
    let d = &fired.decision;
    assert_eq!(d.permission, ToolPermission::Deny { reason: Some("exit two".into()) }, "{d:?}");
    let shown = fired.shown();
    let text = &shown.tool_result().unwrap().text;
    assert!(
        text.starts_with("PreToolUse:Write hook error: [") && text.ends_with("]: exit two"),
        "{text}"
    );
    input.tool_name = "Read".into();
    let fired = engine.pre_tool_use(&input).await;
    assert_eq!(fired.decision.permission, ToolPermission::NoOpinion, "exit 1 is not a block");
    assert_eq!(fired.records()[0].status, HookStatus::Failed);
    input.tool_name = "Edit".into();
    let fired = engine.pre_tool_use(&input).await;
    assert_eq!(fired.decision.permission, ToolPermission::NoOpinion);
    let r = &fired.records()[0];
    assert_eq!((r.status, r.exit_code), (HookStatus::Failed, Some(127)), "{r:?}");
    assert!(r.message.as_deref().is_some_and(|m| m.contains("no-such-hook.sh")), "{r:?}");
}

#[tokio::test]
async fn a_timeout_gives_no_decision_and_kills_the_hook() {
    let dir = temp_dir("timeout");
    let mut slow = exec("sleep.sh", &["30", &deny("too late")]);
    slow["timeout"] = json!(0.5);
    let text = settings(
        json!({"PreToolUse": [{"hooks": [slow, exec("respond.sh", &[&deny("on time")])]}]}),
    );
    let engine = engine(load(&dir, &text), &dir);
    let started = Instant::now();
    let fired = engine.pre_tool_use(&pre_tool(&dir, "ls")).await;
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    let records = fired.records();
    assert_eq!(records[0].status, HookStatus::TimedOut);
    assert_eq!(
        fired.decision.permission,
        ToolPermission::Deny { reason: Some("on time".into()) },
        "the other hook's decision is kept"
    );
}

#[tokio::test]
async fn hooks_run_in_parallel() {
    let dir = temp_dir("parallel");
    let text = settings(
        json!({"UserPromptSubmit": [{"hooks": [exec("sleep.sh", &["1", "a"]), exec("sleep.sh", &["1", "b"]), exec("sleep.sh", &["1", "c"])]}]}),
    );
    let engine = engine(load(&dir, &text), &dir);
    let input = UserPromptSubmit {
        base: Base::new("s", "/t", dir.display().to_string()),
        prompt: "hi".into(),
        session_title: None,
    };
    let started = Instant::now();
    let d = engine.user_prompt_submit(&input).await.decision;
    assert!(
        started.elapsed() < Duration::from_millis(2800),
        "three 1 s hooks took {:?}",
        started.elapsed()
    );
    let texts: Vec<_> = d.context.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(texts, vec!["a", "b", "c"], "contexts in configuration order");
    assert_eq!(d.permission, PromptPermission::NoOpinion);
}

#[tokio::test]
async fn identical_handlers_run_once_but_plugins_stay_separate() {
    let dir = temp_dir("dedup");
    let count = dir.join("count");
    let handler = exec("count.sh", &[count.to_str().unwrap()]);
    let text = settings(
        json!({"PostToolUse": [{"matcher": "Bash", "hooks": [handler.clone()]}, {"matcher": "Bash|Write", "hooks": [handler.clone()]}]}),
    );
    let plugin = settings(json!({"PostToolUse": [{"hooks": [handler.clone()]}]}));
    let config = Loader::new()
        .settings_text(dir.join("user.json"), &text, Scope::User)
        .settings_text(dir.join("project.json"), &text, Scope::Project)
        .plugin_text(dir.join("a/hooks/hooks.json"), &plugin, Plugin::new("a", dir.join("a")))
        .plugin_text(dir.join("b/hooks/hooks.json"), &plugin, Plugin::new("b", dir.join("b")))
        .finish()
        .unwrap();
    let engine = engine(config, &dir);
    let input = PostToolUse {
        base: Base::new("s", "/t", dir.display().to_string()),
        tool_name: "Write".into(),
        tool_input: json!({}),
        tool_response: json!({}),
        tool_use_id: "t".into(),
        ..PostToolUse::default()
    };
    let fired = engine.post_tool_use(&input).await;
    let runs = std::fs::read_to_string(&count).unwrap().lines().count();
    assert_eq!(runs, 3, "once for the settings files, once per plugin");
    let skipped = fired.records().iter().filter(|r| r.status == HookStatus::Skipped).count();
    assert_eq!(skipped, 1, "{:?}", fired.records());
    let listed = engine.list(&hooks_claude::event_from_payload(
        "PostToolUse",
        hooks_claude::input::payload(&input),
    ));
    assert_eq!(listed.iter().filter(|l| l.not_run.is_some()).count(), 1);
}

#[tokio::test]
async fn if_rules_filter_tool_calls() {
    let dir = temp_dir("if");
    let mut h = exec("respond.sh", &[&deny("no rm")]);
    h["if"] = json!("Bash(rm *)");
    let engine = engine(
        load(&dir, &settings(json!({"PreToolUse": [{"matcher": "Bash", "hooks": [h]}]}))),
        &dir,
    );
    let d = engine.pre_tool_use(&pre_tool(&dir, "git status && rm -rf target")).await.decision;
    assert!(matches!(d.permission, ToolPermission::Deny { .. }));
    let fired = engine.pre_tool_use(&pre_tool(&dir, "ls")).await;
    assert_eq!(fired.decision.permission, ToolPermission::NoOpinion);
    assert_eq!(fired.records()[0].status, HookStatus::Skipped);
}

#[tokio::test]
async fn the_last_rewrite_in_configuration_order_wins() {
    let dir = temp_dir("rewrite");
    let rewrite = |cmd: &str| {
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": cmd}}}).to_string()
    };
    let text = settings(json!({"PreToolUse": [{"hooks": [
        exec("sleep.sh", &["0.3", &rewrite("first")]),
        exec("respond.sh", &[&rewrite("second")]),
    ]}]}));
    let engine = engine(load(&dir, &text), &dir);
    let d = engine.pre_tool_use(&pre_tool(&dir, "ls")).await.decision;
    assert_eq!(d.updated_input, Some(json!({"command": "second"})));
    assert_eq!(d.rewrite_conflict.len(), 2);
    let text = settings(
        json!({"PreToolUse": [{"hooks": [exec("respond.sh", &[&rewrite("x")]), exec("respond.sh", &[&deny("no")])]}]}),
    );
    let engine2 = crate::support::engine(load(&dir, &text), &dir);
    let d = engine2.pre_tool_use(&pre_tool(&dir, "ls")).await.decision;
    assert_eq!(d.updated_input, None, "no rewrite applies with a deny");
}

#[tokio::test]
async fn in_a_pipeline_each_hook_gets_the_input_the_hooks_before_it_rewrote() {
    let dir = temp_dir("pipeline");
    let seen = dir.join("seen.json");
    let rewrite = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "ls -la"}}}).to_string();
    let text = settings(json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
        exec("respond.sh", &[&rewrite]),
        exec("record.sh", &[seen.to_str().unwrap()]),
    ]}]}));
    let engine = Engine::builder(load(&dir, &text))
        .host(HostEnv::new(&dir))
        .mode(hook_protocol::Mode::Pipeline)
        .build()
        .unwrap();
    let input = pre_tool(&dir, "ls");
    let fired = engine.pre_tool_use(&input).await;
    assert_eq!(fired.decision.updated_input, Some(json!({"command": "ls -la"})));
    let sent: Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
    assert_eq!(sent["tool_input"], json!({"command": "ls -la"}), "the rewritten input");
    let mut expected = hooks_claude::input::payload(&input);
    expected.insert("tool_input".into(), json!({"command": "ls -la"}));
    assert_eq!(
        sent.as_object().unwrap().keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>(),
        "every other field as it was, in its order"
    );
    assert_eq!(sent, Value::Object(expected));
}

#[tokio::test]
async fn invalid_output_is_a_named_warning_and_other_hooks_still_decide() {
    let dir = temp_dir("bad-output");
    let bad = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "Deny"}}).to_string();
    let text = settings(
        json!({"PreToolUse": [{"hooks": [exec("respond.sh", &[&bad]), exec("respond.sh", &[&deny("real deny")])]}]}),
    );
    let engine = engine(load(&dir, &text), &dir);
    let fired = engine.pre_tool_use(&pre_tool(&dir, "ls")).await;
    assert_eq!(
        fired.decision.permission,
        ToolPermission::Deny { reason: Some("real deny".into()) }
    );
    let r = &fired.records()[0];
    assert_eq!(r.status, HookStatus::Failed);
    assert!(
        r.message
            .as_deref()
            .is_some_and(|m| m.contains("permissionDecision") && m.contains("Deny")),
        "{r:?}"
    );
}

#[tokio::test]
async fn the_stop_guard_overrides_the_ninth_block() {
    let dir = temp_dir("stop");
    let seen = dir.join("seen");
    let engine = engine(
        load(
            &dir,
            &settings(
                json!({"Stop": [{"hooks": [exec("stop_always.sh", &[seen.to_str().unwrap()])]}]}),
            ),
        ),
        &dir,
    );
    let input = Stop { base: Base::new("s", "/t", dir.display().to_string()), ..Stop::default() };
    let mut guard = StopGuard::default();
    for i in 0..8 {
        let d = engine.stop(&input, &mut guard).await.decision;
        assert_eq!(
            d.continuation,
            Continuation::Continue { reason: Some("keep working".into()) },
            "block {i}"
        );
    }
    let d = engine.stop(&input, &mut guard).await.decision;
    assert_eq!(d.continuation, Continuation::Stop);
    assert_eq!(d.guard_override.map(|o| o.consecutive), Some(8));
    let flags: Vec<String> =
        std::fs::read_to_string(&seen).unwrap().lines().map(str::to_owned).collect();
    assert_eq!(flags.first().map(String::as_str), Some("false"));
    assert!(flags[1..].iter().all(|f| f == "true"), "{flags:?}");
    guard.tool_called();
    assert!(!guard.stop_hook_active());
}

#[tokio::test]
async fn raw_runs_keep_the_input_as_given() {
    let dir = temp_dir("raw");
    let out = dir.join("raw.json");
    let engine = engine(
        load(
            &dir,
            &settings(
                json!({"Notification": [{"hooks": [exec("record.sh", &[out.to_str().unwrap()])]}]}),
            ),
        ),
        &dir,
    );
    let input: serde_json::Map<String, Value> = serde_json::from_str(
        r#"{"zeta": 1, "message": "hi", "notification_type": "idle_prompt", "cwd": "/nowhere"}"#,
    )
    .unwrap();
    let run = engine.run_json("Notification", input, "sess").await;
    assert_eq!(run.records[0].status, HookStatus::Success);
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        written,
        "{\"zeta\":1,\"message\":\"hi\",\"notification_type\":\"idle_prompt\",\"cwd\":\"/nowhere\",\"hook_event_name\":\"Notification\",\"session_id\":\"sess\",\"transcript_path\":\"\"}\n"
    );
    let env = std::fs::read_to_string(dir.join("raw.json.env")).unwrap();
    assert!(
        env.contains(&format!("pwd={}", dir.display())),
        "a cwd that does not exist falls back to the project: {env}"
    );
    let unknown = engine.run_json("SomeFutureEvent", serde_json::Map::new(), "sess").await;
    assert!(unknown.records.is_empty(), "unknown events pass through");
}

#[derive(Debug)]
struct NativeDeny(HookInfo);

#[async_trait]
impl Hook for NativeDeny {
    fn info(&self) -> &HookInfo {
        &self.0
    }

    async fn run(&self, _event: &Event) -> HookOutcome {
        HookOutcome::success(Verdict::deny("native says no"))
    }
}

#[tokio::test]
async fn claude_hooks_mix_with_native_hooks() {
    let dir = temp_dir("mix");
    let ask = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "additionalContext": "from claude"}}).to_string();
    let mut info = HookInfo::new("native-1", Source::new("native", None));
    info.on = On::seam(Seam::PreTool);
    let engine = hooks_claude::Engine::builder(load(
        &dir,
        &settings(json!({"PreToolUse": [{"hooks": [exec("respond.sh", &[&ask])]}]})),
    ))
    .host(hooks_claude::HostEnv::new(&dir))
    .hooks([Arc::new(NativeDeny(info)) as Arc<dyn Hook>])
    .build()
    .unwrap();
    let d = engine.pre_tool_use(&pre_tool(&dir, "ls")).await.decision;
    assert_eq!(d.permission, ToolPermission::Deny { reason: Some("native says no".into()) });
    assert_eq!(
        d.context[0].source,
        Source::new("claude", Some(dir.join(".claude/settings.json").display().to_string())),
        "context is labelled with its source, never the user"
    );
}

#[tokio::test]
async fn neutral_events_get_a_faithful_payload() {
    let dir = temp_dir("neutral");
    let out = dir.join("n.json");
    let engine = engine(
        load(
            &dir,
            &settings(json!({"Stop": [{"hooks": [exec("record.sh", &[out.to_str().unwrap()])]}]})),
        ),
        &dir,
    );
    let mut turn = hook_protocol::TurnEnd::new();
    turn.continuing = true;
    let event = Event::new(hook_protocol::Common::new("s-9", &dir), turn);
    let report = engine.dispatcher().dispatch(&event).await;
    assert_eq!(report.records.len(), 1);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(
        (v["hook_event_name"].clone(), v["stop_hook_active"].clone(), v["session_id"].clone()),
        (json!("Stop"), json!(true), json!("s-9"))
    );
}

#[test]
fn discovery_finds_the_settings_files_that_exist() {
    let dir = temp_dir("discover");
    let (home, project, managed) = (dir.join("home"), dir.join("project"), dir.join("etc"));
    for d in [home.join(".claude"), project.join(".claude"), managed.join("managed-settings.d")] {
        std::fs::create_dir_all(d).unwrap();
    }
    for f in [
        home.join(".claude/settings.json"),
        project.join(".claude/settings.local.json"),
        managed.join("managed-settings.d/b.json"),
        managed.join("managed-settings.d/a.json"),
    ] {
        std::fs::write(f, "{}").unwrap();
    }
    let found = hooks_claude::discover_in(Some(&home), &project, &managed);
    let scopes: Vec<_> = found
        .iter()
        .map(|(p, s)| (p.file_name().unwrap().to_string_lossy().into_owned(), *s))
        .collect();
    assert_eq!(
        scopes,
        vec![
            ("settings.json".to_owned(), Scope::User),
            ("settings.local.json".to_owned(), Scope::Local),
            ("a.json".to_owned(), Scope::Managed),
            ("b.json".to_owned(), Scope::Managed),
        ]
    );
}
