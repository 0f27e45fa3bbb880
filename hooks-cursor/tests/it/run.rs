//! Running as Cursor runs: one action onto every Cursor event it fires, the outputs,
//! `failClosed` and `loop_limit`.

use std::time::{Duration, Instant};

use hook_protocol::{
    Continuation, Decision, FileKind, FromReport, HookStatus, LoadRequest, Payload, Placement,
    TurnEnd, TurnEndDecision,
};
use hooks_cursor::EventName;
use serde_json::{Value, json};

use crate::support::{Project, post, pre};

/// A hook that appends its event's name (from its input) to `fired.txt`.
fn logger(p: &Project) -> String {
    p.script(
        "log.sh",
        "input=$(cat); echo \"$input\" | sed 's/.*\"hook_event_name\":\"\\([A-Za-z]*\\)\".*/\\1/' >> fired.txt",
    )
}

#[tokio::test]
async fn one_action_fires_every_cursor_event_cursor_fires_for_it() {
    let p = Project::new();
    let log = logger(&p);
    let every = [
        "preToolUse",
        "beforeShellExecution",
        "beforeMCPExecution",
        "beforeReadFile",
        "postToolUse",
        "afterShellExecution",
        "afterMCPExecution",
        "afterFileEdit",
    ];
    let hooks: serde_json::Map<String, Value> =
        every.iter().map(|e| ((*e).to_owned(), json!([{"command": log}]))).collect();
    p.hooks(&Value::Object(hooks));
    let engine = p.engine();
    let cases: [(hook_protocol::Payload, &str); 6] = [
        (pre("Bash", json!({"command": "ls"})), "preToolUse beforeShellExecution"),
        (pre("Read", json!({"file_path": "a"})), "preToolUse beforeReadFile"),
        (pre("mcp__gh__create_issue", json!({})), "preToolUse beforeMCPExecution"),
        (pre("Grep", json!({"pattern": "x"})), "preToolUse"),
        (post("Bash", json!({"command": "ls"}), json!("ok")), "postToolUse afterShellExecution"),
        (
            post(
                "Edit",
                json!({"file_path": "a", "old_string": "x", "new_string": "y"}),
                json!({}),
            ),
            "postToolUse afterFileEdit",
        ),
    ];
    for (payload, fired) in cases {
        let _ = std::fs::remove_file(p.root.join("fired.txt"));
        let report = p.dispatch(&engine, payload).await;
        let mut got: Vec<String> = p.read("fired.txt").lines().map(str::to_owned).collect();
        got.sort();
        let mut want: Vec<String> = fired.split(' ').map(str::to_owned).collect();
        want.sort();
        assert_eq!(got, want, "{fired}");
        assert_eq!(report.records.len(), want.len(), "no record for an event that did not fire");
    }
}

#[tokio::test]
async fn the_input_is_cursors_with_its_tool_names_and_variables() {
    let p = Project::new();
    let seen = p.script(
        "seen.sh",
        "cat > in.json; printf '%s|%s' \"$CURSOR_PROJECT_DIR\" \"$CLAUDE_PROJECT_DIR\" > env.txt",
    );
    p.hooks(&json!({"preToolUse": [{"command": seen}]}));
    let engine = p.engine();
    p.dispatch(&engine, pre("Bash", json!({"command": "ls"}))).await;
    let input: Value = serde_json::from_str(&p.read("in.json")).unwrap();
    assert_eq!(input["tool_name"], "Shell");
    assert_eq!(input["hook_event_name"], "preToolUse");
    assert_eq!(input["conversation_id"], "conv-1");
    assert_eq!(input["workspace_roots"], json!([p.root.display().to_string()]));
    let root = p.root.display().to_string();
    assert_eq!(p.read("env.txt"), format!("{root}|{root}"));
}

#[tokio::test]
async fn a_shell_matcher_searches_the_command_line_and_a_deny_blocks_the_call() {
    let p = Project::new();
    let deny = p.script(
        "deny.sh",
        "cat >/dev/null; echo '{\"permission\":\"deny\",\"user_message\":\"no network tools\",\"agent_message\":\"use the fetch tool\"}'",
    );
    p.hooks(&json!({"beforeShellExecution": [{"command": deny, "matcher": "curl|wget|nc"}]}));
    let engine = p.engine();
    let report = p.dispatch(&engine, pre("Bash", json!({"command": "curl x | sh"}))).await;
    assert_eq!(report.merged.decision, Some(Decision::Deny));
    assert_eq!(report.merged.reason().as_deref(), Some("no network tools"));
    let shown = hooks_cursor::present::shown(EventName::BeforeShellExecution, &report);
    // The result is `user_message`; `agent_message` follows it, for the agent (cursor.md,
    // What Cursor shows).
    let model: Vec<(Placement, &str)> =
        shown.model.iter().map(|m| (m.placement, m.text.as_str())).collect();
    assert_eq!(
        model,
        [(Placement::ToolResult, "no network tools"), (Placement::System, "use the fetch tool")]
    );
    assert_eq!(shown.user, ["no network tools"]);
    // Through the door, the run carries it as a field of Cursor's own.
    let mut request = LoadRequest::new(&p.root);
    request.files.push((FileKind::Config, p.root.join(".cursor/hooks.json")));
    let hooks = hooks_cursor::dialect().load(&request).unwrap();
    let input = json!({"command": "curl x"}).as_object().cloned().unwrap_or_default();
    let run = hooks.run("beforeShellExecution", input).await.unwrap();
    assert_eq!(run.dialect_fields["agent_message"], "use the fetch tool");
    let report = p.dispatch(&engine, pre("Bash", json!({"command": "ls"}))).await;
    assert!(report.records.is_empty(), "the matcher did not accept `ls`");
}

#[tokio::test]
async fn fail_closed_blocks_on_a_crash_a_timeout_and_no_output() {
    let p = Project::new();
    let crash = p.script("crash.sh", "cat >/dev/null; exit 1");
    let slow = p.script("slow.sh", "cat >/dev/null; sleep 5");
    let silent = p.script("silent.sh", "cat >/dev/null");
    for (script, timeout) in [(&crash, 10.0), (&slow, 0.5), (&silent, 10.0)] {
        for fail_closed in [false, true] {
            p.hooks(&json!({"beforeShellExecution": [{"command": script, "timeout": timeout, "failClosed": fail_closed}]}));
            let engine = p.engine();
            let started = Instant::now();
            let report = p.dispatch(&engine, pre("Bash", json!({"command": "ls"}))).await;
            assert!(started.elapsed() < Duration::from_secs(4));
            let want = fail_closed.then_some(Decision::Deny);
            assert_eq!(report.merged.decision, want, "{script} failClosed={fail_closed}");
        }
    }
}

#[tokio::test]
async fn exit_2_blocks_with_its_stdout_unparsed() {
    let p = Project::new();
    let two = p.script("two.sh", "cat >/dev/null; echo 'not allowed here'; exit 2");
    let bare = p.script("bare.sh", "cat >/dev/null; exit 2");
    p.hooks(
        &json!({"preToolUse": [{"command": two}], "beforeShellExecution": [{"command": bare}]}),
    );
    let engine = p.engine();
    let report = p.dispatch(&engine, pre("Bash", json!({"command": "ls"}))).await;
    let reasons: Vec<&str> = report.merged.reasons.iter().map(|r| r.value.as_str()).collect();
    assert_eq!(reasons, ["not allowed here", hooks_cursor::EXIT_2_NO_REASON]);
    assert!(report.records.iter().all(|r| r.status == HookStatus::Blocked));
}

#[tokio::test]
async fn a_stop_follow_up_goes_on_until_the_hooks_loop_limit() {
    let p = Project::new();
    let follow = p
        .script("follow.sh", "cat >/dev/null; echo '{\"followup_message\":\"now run the tests\"}'");
    p.hooks(&json!({"stop": [{"command": follow, "loop_limit": 2}]}));
    let engine = p.engine();
    for (count, goes_on) in [(0, true), (1, true), (2, false)] {
        let mut end = TurnEnd::new();
        end.continuations = count;
        let report = p.dispatch(&engine, Payload::TurnEnd(end)).await;
        let decision = TurnEndDecision::from_report(&report);
        let want = if goes_on {
            Continuation::FollowUp { prompt: "now run the tests".into() }
        } else {
            Continuation::Stop
        };
        assert_eq!(decision.continuation, want, "loop_count {count}");
    }
}

#[tokio::test]
async fn session_start_env_reaches_later_hooks() {
    let p = Project::new();
    let start = p.script(
        "start.sh",
        "cat >/dev/null; echo '{\"env\":{\"TEAM\":\"blue\"},\"additional_context\":\"hi\"}'",
    );
    let later = p.script("later.sh", "cat >/dev/null; printf '%s' \"$TEAM\" > team.txt");
    p.hooks(&json!({"sessionStart": [{"command": start}], "preToolUse": [{"command": later}]}));
    let engine = p.engine();
    let run = engine.run_json(EventName::SessionStart, serde_json::Map::new()).await;
    assert_eq!(run.report.merged.context[0].value, "hi");
    engine
        .run_json(
            EventName::PreToolUse,
            test_support::object(json!({"tool_name": "Shell", "tool_input": {}})),
        )
        .await;
    assert_eq!(p.read("team.txt"), "blue");
}

#[tokio::test]
async fn a_plugins_hooks_come_after_the_projects_and_run_in_the_plugins_folder() {
    let p = Project::new();
    let log = p.root.join("order.log");
    let project_hook =
        p.script("project.sh", &format!("cat > /dev/null\necho project >> '{}'", log.display()));
    p.hooks(&json!({"preToolUse": [{"command": project_hook}]}));
    // A plugin whose command is relative to its own folder.
    let plugin = p.root.join("plugins/audit");
    std::fs::create_dir_all(plugin.join("hooks")).unwrap();
    let script = plugin.join("bin/log.sh");
    std::fs::create_dir_all(script.parent().unwrap()).unwrap();
    std::fs::write(
        &script,
        format!("#!/bin/sh\ncat > /dev/null\necho \"plugin $(pwd)\" >> '{}'\n", log.display()),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let text = json!({"version": 1, "hooks": {"preToolUse": [{"command": "./bin/log.sh"}]}});
    std::fs::write(plugin.join("hooks/hooks.json"), text.to_string()).unwrap();

    let mut loader = hooks_cursor::Loader::new();
    loader.file(p.root.join(".cursor/hooks.json"), hooks_cursor::Scope::Project);
    loader.file(plugin.join("hooks/hooks.json"), hooks_cursor::Scope::Plugin);
    let config = loader.finish();
    assert!(config.diagnostics.iter().all(|d| !d.is_error()), "{:?}", config.diagnostics);
    let engine = hooks_cursor::Engine::new(config, &p.root, None, None).unwrap();
    let report = p.dispatch(&engine, pre("Read", json!({"file_path": "a.rs"}))).await;
    assert_eq!(report.records.len(), 2, "{:?}", report.records);
    // In configuration order: the project's, then the plugin's (they run side by side).
    let origins: Vec<Option<String>> =
        report.records.iter().map(|r| r.source.origin.clone()).collect();
    let plugin_file = plugin.join("hooks/hooks.json").display().to_string();
    assert_eq!(origins[1].as_deref(), Some(plugin_file.as_str()), "{origins:?}");
    let seen = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<&str> = seen.lines().collect();
    lines.sort_unstable();
    assert_eq!(lines, [format!("plugin {}", plugin.display()).as_str(), "project"]);
}

/// `updated_mcp_tool_output` replaces the output of an MCP tool's call, and never a shell call's
/// or another tool's (docs/cursor.md#exit-codes-and-output).
#[tokio::test]
async fn updated_mcp_tool_output_rewrites_an_mcp_calls_output_only() {
    let p = Project::new();
    let hook = p.script(
        "rewrite.sh",
        "cat > /dev/null; printf '%s' '{\"updated_mcp_tool_output\": \"rewritten\"}'",
    );
    p.hooks(&json!({"postToolUse": [{"command": hook}]}));
    let engine = p.engine();
    for (tool, rewritten) in [("MCP:create_issue", true), ("Shell", false), ("Read", false)] {
        let input = json!({"tool_name": tool, "tool_input": {}, "tool_output": "original"});
        let input = test_support::object(input);
        let run = engine.run_json(EventName::PostToolUse, input).await;
        let texts: Vec<&str> = run.shown.model.iter().map(|m| m.text.as_str()).collect();
        let want: &[&str] = if rewritten { &["rewritten"] } else { &[] };
        assert_eq!(texts, want, "{tool}");
    }
}

/// `continue` decides a prompt: `true` is an allow, `false` blocks it with `user_message`
/// (docs/cursor.md#exit-codes-and-output).
#[tokio::test]
async fn before_submit_prompt_continue_true_allows_and_false_blocks() {
    for (answer, decision) in [
        (r#"{"continue": true}"#, Some(Decision::Allow)),
        (r#"{"continue": false, "user_message": "not that"}"#, Some(Decision::Deny)),
        ("{}", None),
    ] {
        let p = Project::new();
        let hook = p.script("gate.sh", &format!("cat > /dev/null; printf '%s' '{answer}'"));
        p.hooks(&json!({"beforeSubmitPrompt": [{"command": hook}]}));
        let input = test_support::object(json!({"prompt": "hello"}));
        let run = p.engine().run_json(EventName::BeforeSubmitPrompt, input).await;
        assert_eq!(run.report.merged.decision, decision, "{answer}");
    }
}
