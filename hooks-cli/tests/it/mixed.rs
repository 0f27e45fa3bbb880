//! Claude Code, TNSAI and native hooks on one seam: one fold, one priority order.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::Arc;

use hook_protocol::{
    Common, Decision, Dispatcher, Event, Hook, Payload, PreToolDecision, ToolCall, ToolPermission,
};
use hooks_claude::{Engine, HostEnv, Loader, Scope};
use hooks_native::{Answer, SeamHook};
use hooks_tnsai::{EventType, ScriptHook};
use serde_json::json;

fn claude_hooks(dir: &Path, command: &str) -> Vec<Arc<dyn Hook>> {
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}});
    let path = dir.join("settings.json");
    std::fs::write(&path, settings.to_string()).unwrap();
    let mut loader = Loader::new();
    loader.settings(path, Scope::Explicit);
    let config = loader.finish().unwrap();
    assert!(config.diagnostics.is_empty(), "{:?}", config.diagnostics);
    Engine::builder(config).host(HostEnv::new(dir)).build().unwrap().claude_hooks()
}

fn tnsai_hook(dir: &Path, id: &str, response: &str, priority: i32) -> ScriptHook {
    let root = dir.join("tnsai");
    std::fs::create_dir_all(&root).unwrap();
    let script = root.join(format!("{id}.sh"));
    std::fs::write(&script, format!("#!/bin/sh\ncat >/dev/null\necho '{response}'\n")).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    ScriptHook::builder(id)
        .event_type(EventType::PreToolUse)
        .executable(&script)
        .trusted_root(&root)
        .priority(priority)
        .build()
        .unwrap()
}

fn bash_event(dir: &Path) -> Event {
    Event::new(
        Common::new("s1", dir),
        Payload::PreTool(ToolCall::new("Bash", json!({"command": "ls"}))),
    )
}

#[tokio::test]
async fn native_deny_claude_allow_tnsai_block_fold_to_deny() {
    let dir = tempfile::tempdir().unwrap();
    let allow = r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","additionalContext":"claude looked"}}'"#;
    let block = r#"{"hook_protocol_version":"1","decision":"block","reason":"tnsai says no","severity":"HIGH"}"#;
    let native = SeamHook::pre_tool("native-guard", |_: &ToolCall, _: &Common| {
        Answer::deny("native says no").with_context("native looked")
    });
    let dispatcher = Dispatcher::builder()
        .hooks(claude_hooks(dir.path(), allow))
        .hook(tnsai_hook(dir.path(), "tnsai-guard", block, 0))
        .hook(native)
        .build()
        .unwrap();
    let report = dispatcher.dispatch(&bash_event(dir.path())).await;
    assert_eq!(report.records.len(), 3, "{report:#?}");
    let dialects: Vec<&str> = report.records.iter().map(|r| r.source.dialect.as_str()).collect();
    assert_eq!(dialects, ["claude", "tnsai", "native"], "registration order at equal priority");
    let decisions: Vec<Option<Decision>> =
        report.records.iter().map(|r| r.verdict.decision).collect();
    assert_eq!(decisions, [Some(Decision::Allow), Some(Decision::Deny), Some(Decision::Deny)]);

    let decision: PreToolDecision = report.decision();
    assert_eq!(
        decision.permission,
        ToolPermission::Deny { reason: Some("tnsai says no\n\nnative says no".to_owned()) },
        "deny wins over allow; the deny reasons in configuration order"
    );
    let context: Vec<(&str, &str)> =
        decision.context.iter().map(|c| (c.text.as_str(), c.source.dialect.as_str())).collect();
    assert_eq!(context, [("claude looked", "claude"), ("native looked", "native")]);
}

#[tokio::test]
async fn priority_orders_hooks_across_kinds() {
    let dir = tempfile::tempdir().unwrap();
    let claude_ctx = r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"claude"}}'"#;
    let allow = r#"{"hook_protocol_version":"1","decision":"allow"}"#;
    let native_late =
        SeamHook::pre_tool("native-late", |_: &ToolCall, _: &Common| Answer::context("native"))
            .priority(10);
    let native_first =
        SeamHook::pre_tool("native-first", |_: &ToolCall, _: &Common| Answer::context("first"))
            .priority(-100);
    let dispatcher = Dispatcher::builder()
        .hook(native_late)
        .hooks(claude_hooks(dir.path(), claude_ctx))
        .hook(tnsai_hook(dir.path(), "tnsai-early", allow, -10))
        .hook(native_first)
        .build()
        .unwrap();
    let report = dispatcher.dispatch(&bash_event(dir.path())).await;
    let order: Vec<&str> = report.records.iter().map(|r| r.source.dialect.as_str()).collect();
    assert_eq!(order, ["native", "tnsai", "claude", "native"]);
    assert_eq!(report.records[0].id, "native-first");
    let context: Vec<&str> = report.merged.context.iter().map(|c| c.value.as_str()).collect();
    assert_eq!(
        context,
        ["first", "claude", "native"],
        "context in priority order, whoever finished first"
    );
    assert_eq!(report.merged.decision, None, "a TNSAI allow grants nothing; nobody decided");
}

/// A TNSAI hook list on a Claude Code `Engine` (whose hooks run in parallel) keeps its
/// pipeline when it goes on as one hook: its second hook sees the first one's rewrite.
#[tokio::test]
async fn a_tnsai_hook_list_keeps_its_pipeline_on_an_engine() {
    use hooks_claude::input::{Base, PreToolUse};

    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("tnsai");
    std::fs::create_dir_all(&root).unwrap();
    let script = |name: &str, body: &str| {
        let path = root.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    script(
        "rewrite.sh",
        r#"cat >/dev/null; echo '{"hook_protocol_version":"1","decision":"modify","modified_payload":{"tool_input":{"command":"ls -la"}}}'"#,
    );
    script(
        "check.sh",
        r#"if grep -q 'ls -la'; then echo '{"hook_protocol_version":"1","decision":"block","reason":"saw the rewrite","severity":"LOW"}'; else echo '{"hook_protocol_version":"1","decision":"allow"}'; fi"#,
    );
    let list_file = dir.path().join("hooks.yaml");
    std::fs::write(
        &list_file,
        "trusted_roots: [./tnsai]\nhooks:\n  - {id: rewrite, event_type: PreToolUse, priority: 1, executable: ./tnsai/rewrite.sh}\n  - {id: check, event_type: PreToolUse, priority: 2, executable: ./tnsai/check.sh}\n",
    )
    .unwrap();
    let list = hooks_tnsai::HookList::load(&list_file).unwrap();
    let settings = dir.path().join("settings.json");
    std::fs::write(&settings, r#"{"hooks": {}}"#).unwrap();
    let mut loader = Loader::new();
    loader.settings(settings, Scope::Explicit);
    let engine = Engine::builder(loader.finish().unwrap())
        .host(HostEnv::new(dir.path()))
        .hooks([list.as_hook()])
        .build()
        .unwrap();
    let call = PreToolUse {
        base: Base::new("s1", "/t", dir.path().display().to_string()),
        tool_name: "Bash".into(),
        tool_input: json!({"command": "ls"}),
        tool_use_id: "toolu_1".into(),
        mcp_server: None,
    };
    let fired = engine.pre_tool_use(&call).await;
    assert_eq!(
        fired.decision.permission,
        ToolPermission::Deny { reason: Some("saw the rewrite".into()) }
    );
    assert_eq!(fired.decision.control.severity, Some(hook_protocol::Severity::Low));
}
