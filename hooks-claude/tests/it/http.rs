use std::time::{Duration, Instant};

use hook_protocol::{HookStatus, PromptPermission, ToolPermission};
use hooks_claude::input::{Base, PreToolUse, UserPromptSubmit};
use hooks_claude::{Engine, HostEnv, HttpPolicy, Loader, Scope};
use serde_json::{Value, json};

use crate::server::{Reply, Server, closed_port};
use crate::support::*;

fn pre_tool(dir: &std::path::Path) -> PreToolUse {
    PreToolUse {
        base: Base::new("s-http", "/t.jsonl", dir.display().to_string()),
        tool_name: "Bash".into(),
        tool_input: json!({"command": "ls"}),
        tool_use_id: "toolu_h".into(),
        mcp_server: None,
    }
}

fn http(url: &str) -> Value {
    json!({"type": "http", "url": url})
}

fn engine_for(dir: &std::path::Path, text: &str) -> Engine {
    let config = load(dir, text);
    assert!(!config.has_errors(), "{:?}", config.diagnostics);
    engine(config, dir)
}

const DENY: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"server says no"}}"#;

#[tokio::test]
async fn the_event_json_is_posted_with_interpolated_headers() {
    let dir = temp_dir("http-post");
    let server = Server::start(|_| Reply::new(200, "")).await;
    let mut handler = http(&server.url("/hook"));
    handler["headers"] = json!({
        "Authorization": "Bearer $HOOKS_IT_TOKEN",
        "X-Both": "${HOOKS_IT_TOKEN}/${HOOKS_IT_SECRET}",
        "X-Limited": "$HOOKS_IT_LIMITED",
    });
    handler["allowedEnvVars"] = json!(["HOOKS_IT_TOKEN", "HOOKS_IT_LIMITED"]);
    let text = settings(json!({"PreToolUse": [{"hooks": [handler]}]}))
        .replacen('{', r#"{"env": {"HOOKS_IT_TOKEN": "t0k", "HOOKS_IT_SECRET": "s3cret", "HOOKS_IT_LIMITED": "lim"}, "httpHookAllowedEnvVars": ["HOOKS_IT_TOKEN"],"#, 1);
    let engine = engine_for(&dir, &text);
    let input = pre_tool(&dir);
    let fired = engine.pre_tool_use(&input).await;
    assert_eq!(fired.records()[0].status, HookStatus::Success, "{:?}", fired.records());
    assert_eq!(fired.decision.permission, ToolPermission::NoOpinion, "2xx and empty: no output");
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let r = &requests[0];
    assert_eq!((r.method.as_str(), r.path.as_str()), ("POST", "/hook"));
    assert_eq!(r.header("content-type"), Some("application/json"));
    let expected = serde_json::to_vec(&hooks_claude::input::payload(&input)).unwrap();
    assert_eq!(r.body, expected, "the body is the stdin object, without the newline");
    assert_eq!(r.header("authorization"), Some("Bearer t0k"));
    assert_eq!(r.header("x-both"), Some("t0k/"), "a name outside `allowedEnvVars` is empty");
    assert_eq!(r.header("x-limited"), Some(""), "`httpHookAllowedEnvVars` limits further");
}

#[tokio::test]
async fn a_model_credential_is_never_sent_even_when_listed() {
    let dir = temp_dir("http-credentials");
    let server = Server::start(|_| Reply::new(200, "")).await;
    let mut handler = http(&server.url("/hook"));
    handler["headers"] = json!({
        "X-Api-Key": "$ANTHROPIC_API_KEY",
        "Authorization": "Bearer ${CLAUDE_CODE_OAUTH_TOKEN}",
        "X-Policy": "$POLICY_SERVICE_TOKEN",
    });
    handler["allowedEnvVars"] =
        json!(["ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN", "POLICY_SERVICE_TOKEN"]);
    let env = r#"{"env": {"ANTHROPIC_API_KEY": "sk-ant-secret", "CLAUDE_CODE_OAUTH_TOKEN": "oauth-secret", "POLICY_SERVICE_TOKEN": "policy-t0k"},"#;
    let text =
        settings(json!({"PreToolUse": [{"hooks": [handler.clone()]}]})).replacen('{', env, 1);
    let fired = engine_for(&dir, &text).pre_tool_use(&pre_tool(&dir)).await;
    let requests = server.requests();
    let r = &requests[0];
    assert_eq!(r.header("x-api-key"), Some(""), "the API key is withheld");
    assert_eq!(r.header("authorization"), Some("Bearer"), "the OAuth token is withheld");
    assert_eq!(r.header("x-policy"), Some("policy-t0k"), "a user's own token still goes");
    let warnings = &fired.records()[0].warnings;
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].starts_with("`ANTHROPIC_API_KEY` is a model credential"), "{warnings:?}");
    assert!(warnings[1].starts_with("`CLAUDE_CODE_OAUTH_TOKEN` is a model credential"));
    assert!(!warnings.iter().any(|w| w.contains("secret")), "values are never shown");

    // A harness that calls its model with its own variable withholds that one instead.
    let config = load(&dir, &text);
    let policy = HttpPolicy::unrestricted().withhold(["POLICY_SERVICE_TOKEN".to_owned()]);
    let engine =
        Engine::builder(config).host(HostEnv::new(&dir)).http_policy(policy).build().unwrap();
    let fired = engine.pre_tool_use(&pre_tool(&dir)).await;
    let requests = server.requests();
    let r = &requests[1];
    assert_eq!(r.header("x-policy"), Some(""));
    assert_eq!(r.header("x-api-key"), Some("sk-ant-secret"), "the harness's set replaces ours");
    assert_eq!(fired.records()[0].warnings.len(), 1);
}

#[tokio::test]
async fn the_harness_policy_limits_urls_and_variables() {
    let dir = temp_dir("http-policy");
    let server = Server::start(|_| Reply::new(200, "")).await;
    let mut handler = http(&server.url("/allowed/x"));
    handler["headers"] = json!({"X-Token": "$HOOKS_IT_TOKEN"});
    handler["allowedEnvVars"] = json!(["HOOKS_IT_TOKEN"]);
    let text = settings(json!({"PreToolUse": [
        {"hooks": [handler, http(&server.url("/other"))]}
    ]}))
    .replacen('{', r#"{"env": {"HOOKS_IT_TOKEN": "t0k"},"#, 1);
    let config = load(&dir, &text);
    let policy = HttpPolicy::unrestricted()
        .allow_urls([format!("http://127.0.0.1:{}/allowed/*", server.addr.port())])
        .allow_env_vars(Vec::new());
    let engine =
        Engine::builder(config).host(HostEnv::new(&dir)).http_policy(policy).build().unwrap();
    let fired = engine.pre_tool_use(&pre_tool(&dir)).await;
    let records = fired.records();
    assert_eq!(records[0].status, HookStatus::Success);
    assert_eq!(records[1].status, HookStatus::Skipped, "allowlist miss");
    assert!(
        records[1].message.as_deref().is_some_and(|m| m.contains("allowedHttpHookUrls")),
        "{:?}",
        records[1]
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 1, "the miss sent nothing");
    assert_eq!(requests[0].path, "/allowed/x");
    assert_eq!(requests[0].header("x-token"), Some(""), "an empty variable list allows none");
}

#[tokio::test]
async fn settings_allowlists_merge_and_an_empty_one_blocks_all() {
    let dir = temp_dir("http-allowlist");
    let server = Server::start(|_| Reply::new(200, DENY)).await;
    let hooks = settings(
        json!({"PreToolUse": [{"hooks": [http(&server.url("/a")), http(&server.url("/b"))]}]}),
    );
    let user = format!(r#"{{"allowedHttpHookUrls": ["{}"]}}"#, server.url("/a"));
    let project =
        hooks.replacen('{', r#"{"allowedHttpHookUrls": ["http://elsewhere.example/*"],"#, 1);
    let mut loader = Loader::new();
    loader.settings_text(dir.join("user.json"), &user, Scope::User);
    loader.settings_text(dir.join("project.json"), &project, Scope::Project);
    let engine = engine(loader.finish().unwrap(), &dir);
    let fired = engine.pre_tool_use(&pre_tool(&dir)).await;
    let statuses: Vec<_> = fired.records().iter().map(|r| r.status).collect();
    assert_eq!(statuses, [HookStatus::Success, HookStatus::Skipped]);
    assert_eq!(
        fired.decision.permission,
        ToolPermission::Deny { reason: Some("server says no".into()) }
    );

    let blocked = hooks.replacen('{', r#"{"allowedHttpHookUrls": [],"#, 1);
    let engine = engine_for(&dir, &blocked);
    let fired = engine.pre_tool_use(&pre_tool(&dir)).await;
    assert!(fired.records().iter().all(|r| r.status == HookStatus::Skipped));
    assert_eq!(server.requests().len(), 1, "nothing more was sent");
}

/// Each row of docs/claude-code.md#http-hooks, on PreToolUse (and plain text on UserPromptSubmit,
/// where plain stdout of a command would be context).
#[tokio::test]
async fn every_response_rule() {
    let dir = temp_dir("http-rows");
    let server = Server::start(|r| match r.path.as_str() {
        "/empty" => Reply::new(204, ""),
        "/json" => Reply::new(200, format!("  {DENY}\n")),
        "/schema" => Reply::new(200, r#"{"continue": "yes"}"#),
        "/text" => Reply::new(200, "plain words"),
        "/error" => Reply::new(500, DENY),
        "/redirect" => Reply::new(302, ""),
        _ => Reply::new(404, ""),
    })
    .await;
    let dead = format!("http://127.0.0.1:{}/hook", closed_port().await);
    let rows: &[(&str, HookStatus, ToolPermission, Option<&str>)] = &[
        (&server.url("/empty"), HookStatus::Success, ToolPermission::NoOpinion, None),
        (
            &server.url("/json"),
            HookStatus::Success,
            ToolPermission::Deny { reason: Some("server says no".into()) },
            None,
        ),
        (&server.url("/schema"), HookStatus::Failed, ToolPermission::NoOpinion, Some("`continue`")),
        (
            &server.url("/text"),
            HookStatus::Failed,
            ToolPermission::NoOpinion,
            Some("neither empty nor a JSON object"),
        ),
        (&server.url("/error"), HookStatus::Failed, ToolPermission::NoOpinion, Some("status 500")),
        (
            &server.url("/redirect"),
            HookStatus::Failed,
            ToolPermission::NoOpinion,
            Some("status 302"),
        ),
        (&dead, HookStatus::Failed, ToolPermission::NoOpinion, Some("request failed")),
    ];
    for (url, status, permission, message) in rows {
        let engine = engine_for(&dir, &settings(json!({"PreToolUse": [{"hooks": [http(url)]}]})));
        let fired = engine.pre_tool_use(&pre_tool(&dir)).await;
        let record = &fired.records()[0];
        assert_eq!(record.status, *status, "{url}: {record:?}");
        if !url.starts_with(&dead) {
            assert!(record.http_status.is_some(), "{url}: {record:?}");
        }
        assert_eq!(&fired.decision.permission, permission, "{url}: a status alone never blocks");
        if let Some(m) = message {
            assert!(record.message.as_deref().is_some_and(|x| x.contains(m)), "{url}: {record:?}");
        }
    }
    let engine = engine_for(
        &dir,
        &settings(json!({"UserPromptSubmit": [{"hooks": [http(&server.url("/text"))]}]})),
    );
    let input = UserPromptSubmit {
        base: Base::new("s", "/t", dir.display().to_string()),
        prompt: "hi".into(),
        ..UserPromptSubmit::default()
    };
    let fired = engine.user_prompt_submit(&input).await;
    assert!(fired.decision.context.is_empty(), "plain text is not context");
    assert_eq!(fired.decision.permission, PromptPermission::NoOpinion);
}

#[tokio::test]
async fn a_slow_server_times_out_on_the_wall_clock() {
    let dir = temp_dir("http-timeout");
    let server = Server::start(|_| Reply::new(200, DENY).after(Duration::from_secs(30))).await;
    let mut handler = http(&server.url("/slow"));
    handler["timeout"] = json!(0.5);
    let engine = engine_for(&dir, &settings(json!({"PreToolUse": [{"hooks": [handler]}]})));
    let started = Instant::now();
    let fired = engine.pre_tool_use(&pre_tool(&dir)).await;
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    assert_eq!(fired.records()[0].status, HookStatus::TimedOut);
    assert_eq!(fired.decision.permission, ToolPermission::NoOpinion, "a timeout gives no decision");
}

#[tokio::test]
async fn on_failure_block_blocks_on_errors_and_timeouts() {
    let dir = temp_dir("http-onfailure");
    let server = Server::start(|r| match r.path.as_str() {
        "/slow" => Reply::new(200, "").after(Duration::from_secs(30)),
        "/ok" => Reply::new(200, ""),
        _ => Reply::new(503, ""),
    })
    .await;
    let handler = |path: &str, timeout: f64| json!({"type": "http", "url": server.url(path), "onFailure": "block", "timeout": timeout});
    for (path, what) in [("/down", "failed"), ("/slow", "timed out")] {
        let engine =
            engine_for(&dir, &settings(json!({"PreToolUse": [{"hooks": [handler(path, 0.5)]}]})));
        let fired = engine.pre_tool_use(&pre_tool(&dir)).await;
        let ToolPermission::Deny { reason: Some(_) } = &fired.decision.permission else {
            panic!("{path}: {:?}", fired.decision)
        };
        let reason = fired.shown().tool_result().unwrap().text.clone();
        let prefix = format!(
            "PreToolUse:Bash hook error: [{}]: {what}; blocking because onFailure is \"block\"\n",
            server.url(path)
        );
        assert!(reason.starts_with(&prefix), "{reason}");
    }
    let engine =
        engine_for(&dir, &settings(json!({"PreToolUse": [{"hooks": [handler("/ok", 5.0)]}]})));
    let fired = engine.pre_tool_use(&pre_tool(&dir)).await;
    assert_eq!(fired.decision.permission, ToolPermission::NoOpinion, "success does not block");
}

#[tokio::test]
async fn identical_urls_post_once_and_big_answers_are_capped() {
    let dir = temp_dir("http-dedup");
    let server = Server::start(|r| {
        if r.path == "/big" { Reply::new(200, vec![b' '; 3 << 20]) } else { Reply::new(200, "") }
    })
    .await;
    let text = settings(json!({"PreToolUse": [
        {"hooks": [http(&server.url("/same"))]},
        {"matcher": "Bash", "hooks": [http(&server.url("/same")), http(&server.url("/big"))]}
    ]}));
    let engine = engine_for(&dir, &text);
    let fired = engine.pre_tool_use(&pre_tool(&dir)).await;
    let records = fired.records();
    assert_eq!(records[1].status, HookStatus::Skipped, "{records:?}");
    let same = server.requests().iter().filter(|r| r.path == "/same").count();
    assert_eq!(same, 1, "HTTP hooks are deduplicated by URL");
    assert!(records[2].warnings.iter().any(|w| w.contains("size cap")), "{:?}", records[2]);
}

#[test]
fn header_values_are_never_shown() {
    let dir = temp_dir("http-redact");
    let handler = json!({"type": "http", "url": "https://hooks.example/x", "headers": {"Authorization": "Bearer literal-secret"}});
    let config = load(&dir, &settings(json!({"PreToolUse": [{"hooks": [handler]}]})));
    let h = &config.entries[0].handler;
    let shown = format!("{h:?} {}", serde_json::to_string(h).unwrap());
    assert!(!shown.contains("literal-secret"), "{shown}");
    assert!(shown.contains("Authorization"));
    let hooks_claude::HandlerSpec::Http(spec) = &h.spec else { panic!("{h:?}") };
    assert_eq!(spec.headers, [("Authorization".to_owned(), "Bearer literal-secret".to_owned())]);
}

#[tokio::test]
async fn an_http_hook_on_session_start_is_skipped_with_a_warning_and_the_others_run() {
    let dir = temp_dir("http-session-start");
    let server = Server::start(|_| Reply::new(200, "")).await;
    let text = settings(json!({"SessionStart": [{"hooks": [
        http(&server.url("/start")),
        {"type": "command", "command": "printf 'context from a command'"},
    ]}]}));
    let config = load(&dir, &text);
    assert!(!config.has_errors(), "a warning, not an error: {:?}", config.diagnostics);
    let warning = config.diagnostics.iter().find(|d| !d.is_error()).unwrap();
    assert!(warning.message.contains("HTTP hooks are not supported for SessionStart"), "{warning}");
    let engine = engine(config, &dir);
    let input = hooks_claude::input::SessionStart {
        base: Base::new("s-http", "/t.jsonl", dir.display().to_string()),
        source: "startup".into(),
        ..Default::default()
    };
    let fired = engine.session_start(&input).await;
    let records = fired.records();
    assert_eq!(records[0].status, HookStatus::Skipped, "{records:?}");
    assert!(records[0].message.as_deref().unwrap_or_default().contains("not supported"));
    assert_eq!(fired.decision.context[0].text, "context from a command");
    assert!(server.requests().is_empty(), "nothing was posted");
    let listed = engine.list(&engine.raw_event("SessionStart", serde_json::Map::new(), "s"));
    assert_eq!(listed[0].not_run, Some(hooks_claude::NotRun::HttpOnSessionStart));
}
