//! Copilot's documented contract, beyond what the recordings exercised
//! (docs/copilot.md: Configuration files, Exit codes and output), with real scripts.

use std::time::Duration;

use hook_protocol::{Decision, HookStatus};
use hooks_copilot::{EventName, Loader, Scope};
use serde_json::{Value, json};

use crate::support::Project;

fn permission_call() -> Value {
    json!({"toolName": "bash", "toolInput": {"command": "ls"}})
}

#[test]
fn a_file_whose_version_is_not_1_is_rejected_whole_and_the_others_load() {
    let p = Project::new();
    let bad = json!({"version": 2, "hooks": {"preToolUse": [{"bash": "true"}]}});
    std::fs::write(p.root.join(".github/hooks/b.json"), bad.to_string()).unwrap();
    p.hook_file("a.json", &json!({"preToolUse": [{"bash": "true"}]}));
    let mut loader = Loader::new();
    for (path, scope) in hooks_copilot::discover(None, &p.root) {
        loader.file(path, scope);
    }
    let config = loader.finish();
    assert_eq!(config.entries.len(), 1, "a.json's hook loads");
    let error = config.diagnostics.iter().find(|d| d.is_error()).unwrap();
    assert!(error.file.ends_with("b.json"), "{error}");
    assert_eq!(error.problem(), "`version` must be 1, found `2`");
    assert!(error.message.ends_with("; no hook from this file runs"), "{error}");
}

#[tokio::test]
async fn disable_all_hooks_in_a_hook_file_skips_that_file_and_in_settings_all_but_the_policys() {
    let p = Project::new();
    let mark = |name: &str| format!("cat > /dev/null; touch {name}");
    let off = json!({"version": 1, "disableAllHooks": true,
        "hooks": {"sessionEnd": [{"bash": mark("off.ran")}]}});
    std::fs::write(p.root.join(".github/hooks/off.json"), off.to_string()).unwrap();
    p.hook_file("on.json", &json!({"sessionEnd": [{"bash": mark("on.ran")}]}));
    p.run(EventName::SessionEnd, json!({"reason": "complete"})).await;
    assert!(p.root.join("on.ran").exists(), "the other file's hook runs");
    assert!(!p.root.join("off.ran").exists(), "the file that turned itself off does not");

    // In a settings file: every hook but the policy's.
    let policy = p.root.join("policy.json");
    let policy_file =
        json!({"version": 1, "hooks": {"sessionEnd": [{"bash": mark("policy.ran")}]}});
    std::fs::write(&policy, policy_file.to_string()).unwrap();
    let settings = p.root.join("settings.json");
    std::fs::write(&settings, json!({"disableAllHooks": true}).to_string()).unwrap();
    let mut loader = Loader::new();
    loader.file(&policy, Scope::Policy);
    loader.file(p.root.join(".github/hooks/on.json"), Scope::Repo);
    loader.file(&settings, Scope::Settings);
    let engine = hooks_copilot::Engine::new(loader.finish(), &p.root, None).unwrap();
    std::fs::remove_file(p.root.join("on.ran")).unwrap();
    let input = test_support::object(json!({"reason": "complete"}));
    engine.run_json(EventName::SessionEnd, input).await;
    assert!(p.root.join("policy.ran").exists(), "policy hooks cannot be turned off");
    assert!(!p.root.join("on.ran").exists(), "the repository's hooks are off");
}

#[test]
fn timeout_sec_wins_over_its_alias() {
    let p = Project::new();
    let file = p.hook_file(
        "a.json",
        &json!({"preToolUse": [
            {"bash": "true", "timeout": 5, "timeoutSec": 7},
            {"bash": "true", "timeoutSec": 7, "timeout": 5},
            {"bash": "true", "timeout": 5}
        ]}),
    );
    let mut loader = Loader::new();
    loader.file(file, Scope::Repo);
    let timeouts: Vec<Duration> = loader.finish().entries.iter().map(|e| e.timeout).collect();
    let (seven, five) = (Duration::from_secs(7), Duration::from_secs(5));
    assert_eq!(timeouts, [seven, seven, five]);
}

#[tokio::test]
async fn env_values_are_expanded_from_the_environment() {
    let p = Project::new();
    let seen =
        p.script("env.sh", "cat > /dev/null; printf '%s|%s|%s' \"$A\" \"$B\" \"$C\" > env.txt");
    let env = json!({"A": "$HOME/x", "B": "${HOME}-y", "C": "$NOT_SET_ANYWHERE_42"});
    p.hook_file("a.json", &json!({"sessionEnd": [{"bash": seen, "env": env}]}));
    p.run(EventName::SessionEnd, json!({"reason": "complete"})).await;
    let home = std::env::var("HOME").unwrap();
    assert_eq!(p.read("env.txt"), format!("{home}/x|{home}-y|$NOT_SET_ANYWHERE_42"));
}

#[tokio::test]
async fn the_environment_carries_copilots_version_and_git_settings() {
    let p = Project::new();
    let seen = p.script(
        "env.sh",
        "cat > /dev/null; printf '%s|%s|%s|%s' \"$COPILOT_CLI_BINARY_VERSION\" \"$GIT_CONFIG_COUNT\" \"$GIT_CONFIG_KEY_0\" \"$GIT_CONFIG_VALUE_0\" > env.txt",
    );
    p.hook_file("a.json", &json!({"sessionEnd": [{"bash": seen}]}));
    p.run(EventName::SessionEnd, json!({"reason": "complete"})).await;
    assert_eq!(p.read("env.txt"), "1.0.102|1|safe.bareRepository|explicit");
}

#[tokio::test]
async fn matchers_filter_pre_compact_on_its_trigger_and_subagent_start_on_the_agent() {
    let p = Project::new();
    let mark = p.script("mark.sh", "cat > /dev/null; echo ran >> ran.txt");
    p.hook_file(
        "a.json",
        &json!({
            "preCompact": [{"bash": mark, "matcher": "auto"}],
            "subagentStart": [{"bash": mark, "matcher": "explore|review"}]
        }),
    );
    let runs = [
        (EventName::PreCompact, json!({"trigger": "manual"}), false),
        (EventName::PreCompact, json!({"trigger": "auto"}), true),
        (EventName::SubagentStart, json!({"agentName": "research"}), false),
        (EventName::SubagentStart, json!({"agentName": "explore"}), true),
    ];
    for (event, input, ran) in runs {
        let _ = std::fs::remove_file(p.root.join("ran.txt"));
        p.run(event, input.clone()).await;
        assert_eq!(p.root.join("ran.txt").exists(), ran, "{event}: {input}");
    }
}

#[tokio::test]
async fn every_permission_request_hook_runs_and_exit_2_merges_its_json() {
    let p = Project::new();
    let deny = p.script(
        "deny.sh",
        "cat > /dev/null; echo '{\"message\": \"not this one\"}'; echo 'ignored' >&2; exit 2",
    );
    let after = p.script("after.sh", "cat > /dev/null; touch after.ran; echo '{}'");
    p.hook_file("a.json", &json!({"permissionRequest": [{"bash": deny}, {"bash": after}]}));
    let run = p.run(EventName::PermissionRequest, permission_call()).await;
    assert!(p.root.join("after.ran").exists(), "a deny does not stop the others");
    assert_eq!(run.report.merged.decision, Some(Decision::Deny));
    assert_eq!(run.report.merged.reason().as_deref(), Some("not this one"));
    let texts: Vec<&str> = run.shown.model.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["Permission denied by a PermissionRequest hook: not this one"]);
}

#[tokio::test]
async fn exit_2_on_post_tool_use_failure_gives_its_stdout_as_context() {
    let p = Project::new();
    let hint = p.script("hint.sh", "cat > /dev/null; echo 'try --force'; exit 2");
    p.hook_file("a.json", &json!({"postToolUseFailure": [{"bash": hint}]}));
    let input = json!({"toolName": "bash", "toolArgs": {"command": "rm x"}, "error": "exit 1"});
    let run = p.run(EventName::PostToolUseFailure, input).await;
    assert_eq!(run.report.records[0].status, HookStatus::Success);
    let texts: Vec<&str> = run.shown.model.iter().map(|m| m.text.as_str()).collect();
    let want =
        "Tool \"bash\" failed. Additional guidance from postToolUseFailure hooks:\ntry --force";
    assert_eq!(texts, [want]);
}

#[tokio::test]
async fn an_empty_prompt_rewrite_leaves_the_prompt_unchanged() {
    let p = Project::new();
    let empty =
        p.script("empty.sh", "cat > /dev/null; echo '{\"modifiedTransformedPrompt\": \"\"}'");
    p.hook_file("a.json", &json!({"userPromptTransformed": [{"bash": empty}]}));
    let input = json!({"prompt": "hello", "transformedPrompt": "hello"});
    let run = p.run(EventName::UserPromptTransformed, input).await;
    assert!(run.shown.model.is_empty(), "{:?}", run.shown);
}

/// Found by the `copilot` fuzz target: a `timeoutSec` too large for a duration skips its entry
/// with a warning, as a negative one does, and the rest loads.
#[test]
fn a_timeout_too_large_for_a_duration_skips_its_entry() {
    let p = Project::new();
    let huge = "5".repeat(100);
    let text = format!(
        r#"{{"version": 1, "hooks": {{"preToolUse": [{{"bash": "a", "timeoutSec": {huge}}}, {{"bash": "b"}}]}}}}"#
    );
    let mut loader = Loader::new();
    loader.text(p.root.join(".github/hooks/a.json"), &text, Scope::Repo);
    let config = loader.finish();
    assert_eq!(config.entries.len(), 1, "{:?}", config.diagnostics);
    let warning = &config.diagnostics[0];
    assert!(!warning.is_error(), "{warning}");
    assert!(warning.message.contains("must be a positive number of seconds"), "{warning}");
}

/// `modifiedResponse` on `subagentStop`: the last hook's rewrite is what the parent gets;
/// a block discards every rewrite (copilot.md, Exit codes and output).
#[tokio::test]
async fn a_subagent_stop_rewrite_is_the_last_hooks_and_a_block_discards_it() {
    let p = Project::new();
    let say = |json: &str| format!("cat > /dev/null; echo '{json}'");
    p.hook_file(
        "a.json",
        &json!({"subagentStop": [
            {"bash": say(r#"{"modifiedResponse": "redacted"}"#)},
            {"bash": say(r#"{"modifiedResponse": "formatted"}"#)},
        ]}),
    );
    let input = json!({"agentName": "explore", "response": "the raw answer"});
    let run = p.run(EventName::SubagentStop, input.clone()).await;
    assert_eq!(
        hooks_copilot::present::modified_response(EventName::SubagentStop, &run.report),
        Some("formatted")
    );
    let model: Vec<&str> = run.shown.model.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(model, ["formatted"], "every hook got the original; the last rewrite wins");

    p.hook_file(
        "b.json",
        &json!({"subagentStop": [{"bash": say(r#"{"decision": "block", "reason": "check again"}"#)}]}),
    );
    let run = p.run(EventName::SubagentStop, input).await;
    assert_eq!(run.report.merged.decision, Some(Decision::Deny));
    assert_eq!(
        hooks_copilot::present::modified_response(EventName::SubagentStop, &run.report),
        None
    );
    let model: Vec<&str> = run.shown.model.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(model, ["check again"], "the block goes on; no rewrite");
}

/// A `powershell`-only entry is started as Copilot starts it, with `pwsh`; where there is
/// none, that is a hook error: on `preToolUse` a deny in Copilot's words, and no later hook
/// runs (copilot.md, Process execution).
#[tokio::test]
async fn a_powershell_only_entry_errors_where_pwsh_is_missing_and_denies() {
    let path = std::env::var_os("PATH").unwrap_or_default();
    if std::env::split_paths(&path).any(|dir| dir.join("pwsh").is_file()) {
        // A machine with PowerShell runs the hook; the rule is about one without it.
        return;
    }
    let p = Project::new();
    p.hook_file(
        "a.json",
        &json!({"preToolUse": [
            {"powershell": "Write-Output 'allowed'"},
            {"bash": "cat > /dev/null; touch later.ran"},
        ]}),
    );
    let run = p.run(EventName::PreToolUse, json!({"toolName": "bash", "toolArgs": {}})).await;
    assert_eq!(run.report.merged.decision, Some(Decision::Deny));
    assert_eq!(run.report.records[0].status, HookStatus::SpawnFailed);
    let model: Vec<&str> = run.shown.model.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(model, ["Denied by preToolUse hook from \".github/hooks/a.json\" (hook errored)"]);
    assert!(!p.root.join("later.ran").exists(), "no later hook runs");
}

/// `permissionRequest` hooks' outputs merge, a later one's decision overriding an earlier
/// one's (copilot.md, Exit codes and output).
#[tokio::test]
async fn a_later_permission_request_hook_overrides_an_earlier_one() {
    let p = Project::new();
    let say = |json: &str| format!("cat > /dev/null; echo '{json}'");
    let deny = say(r#"{"behavior": "deny", "message": "not now"}"#);
    let allow = say(r#"{"behavior": "allow"}"#);
    let silent = say("{}");
    p.hook_file(
        "a.json",
        &json!({"permissionRequest": [{"bash": deny}, {"bash": allow}, {"bash": silent}]}),
    );
    let run = p.run(EventName::PermissionRequest, permission_call()).await;
    assert_eq!(run.report.merged.decision, Some(Decision::Allow), "the later allow wins");
    assert!(run.shown.model.is_empty(), "{:?}", run.shown);
    p.hook_file("a.json", &json!({"permissionRequest": [{"bash": allow}, {"bash": deny}]}));
    let run = p.run(EventName::PermissionRequest, permission_call()).await;
    assert_eq!(run.report.merged.decision, Some(Decision::Deny));
    assert_eq!(run.report.merged.reason().as_deref(), Some("not now"));
    // A harness's own dispatcher built with Copilot's settings folds the same way.
    p.hook_file("a.json", &json!({"permissionRequest": [{"bash": deny}, {"bash": allow}]}));
    let engine = p.engine();
    let dispatcher = hooks_copilot::dispatcher_settings(hook_protocol::Dispatcher::builder())
        .hooks(engine.hooks())
        .build()
        .unwrap();
    let call = hook_protocol::ToolCall::new("bash", json!({"command": "ls"}));
    let event = hook_protocol::Event::new(
        hook_protocol::Common::new("s", &p.root),
        hook_protocol::Payload::PermissionRequest(call),
    );
    let report = dispatcher.dispatch(&event).await;
    assert_eq!(report.merged.decision, Some(Decision::Allow));
}

/// Copilot's documented strictness: an event whose hooks are not a list rejects the whole
/// file, and one refused entry of a settings file's inline `hooks` rejects them all
/// (copilot.md, Configuration files).
#[test]
fn a_structural_error_rejects_the_file_and_settings_hooks_are_all_or_nothing() {
    let p = Project::new();
    let bad = json!({"version": 1, "hooks": {"agentStop": {"bash": "true"}, "sessionEnd": [{"bash": "true"}]}});
    std::fs::write(p.root.join(".github/hooks/b.json"), bad.to_string()).unwrap();
    p.hook_file("a.json", &json!({"sessionEnd": [{"bash": "true"}]}));
    std::fs::create_dir_all(p.root.join(".github/copilot")).unwrap();
    let settings =
        json!({"hooks": {"sessionStart": [{"bash": "true"}, {"bash": "true", "timeoutSec": "5"}]}});
    std::fs::write(p.root.join(".github/copilot/settings.json"), settings.to_string()).unwrap();
    let mut loader = Loader::new();
    for (path, scope) in hooks_copilot::discover(None, &p.root) {
        loader.file(path, scope);
    }
    let config = loader.finish();
    let files: Vec<&str> = config
        .entries
        .iter()
        .map(|e| e.source.path.file_name().and_then(|n| n.to_str()).unwrap_or_default())
        .collect();
    assert_eq!(files, ["a.json"], "b.json and the settings' hooks are rejected whole");
    let errors: Vec<String> =
        config.diagnostics.iter().filter(|d| d.is_error()).map(ToString::to_string).collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors[0].contains(
            "`agentStop` must be a list of hooks, found an object; no hook from this file runs"
        ),
        "{errors:?}"
    );
    assert!(
        errors[1].contains("Copilot then refuses them all; no hook from this file runs"),
        "{errors:?}"
    );
}
