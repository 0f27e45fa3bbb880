//! Running as Copilot runs: the process contract, the outputs, and the failure rules that
//! differ from Claude Code's (sequential hooks, the first deny stops the event, a crash denies
//! on preToolUse and a timeout does not, exit 2's stderr dropped).

use std::time::{Duration, Instant};

use hook_protocol::{Decision, HookStatus, Placement};
use hooks_copilot::EventName;
use serde_json::{Value, json};

use crate::support::Project;

fn bash_call(command: &str) -> Value {
    json!({"toolName": "bash", "toolArgs": {"command": command, "description": "d"}})
}

#[tokio::test]
async fn the_input_and_environment_are_copilots() {
    let p = Project::new();
    let seen = p.script(
        "seen.sh",
        "cat > stdin.json; printf '%s|%s|%s|%s' \"$COPILOT_PROJECT_DIR\" \"$CLAUDE_PROJECT_DIR\" \"$COPILOT_HOOK_DIR\" \"$COPILOT_CLI\" > env.txt; pwd > pwd.txt",
    );
    p.hook_file("a.json", &json!({"preToolUse": [{"bash": seen}]}));
    let run = p.run(EventName::PreToolUse, bash_call("ls")).await;
    assert_eq!(run.report.records[0].status, HookStatus::Success);
    let stdin = p.read("stdin.json");
    assert!(!stdin.ends_with('\n'), "no trailing newline: {stdin:?}");
    let object: Value = serde_json::from_str(&stdin).unwrap();
    assert_eq!(object["toolName"], "bash");
    assert_eq!(object["toolArgs"]["command"], "ls");
    assert!(object["timestamp"].is_u64(), "milliseconds: {object}");
    assert!(object.get("sessionId").is_some() && object.get("hook_event_name").is_none());
    let root = p.root.display().to_string();
    let hook_dir = p.root.join(".github/hooks").display().to_string();
    assert_eq!(p.read("env.txt"), format!("{root}|{root}|{hook_dir}|1"));
    assert_eq!(p.read("pwd.txt").trim(), root);
}

#[tokio::test]
async fn exec_cwd_and_env_are_honoured() {
    let p = Project::new();
    std::fs::create_dir_all(p.root.join("sub")).unwrap();
    let args =
        p.script("args.sh", "cat >/dev/null; printf '%s\\n' \"$@\" > \"$OUT\"; pwd >> \"$OUT\"");
    p.hook_file(
        "a.json",
        &json!({"postToolUse": [{
            "exec": args, "args": ["one arg", "two"], "cwd": "sub",
            "env": {"OUT": p.root.join("out.txt").display().to_string()}
        }]}),
    );
    let input = json!({"toolName": "bash", "toolArgs": {}, "toolResult": {"resultType": "success", "textResultForLlm": "ok"}});
    p.run(EventName::PostToolUse, input).await;
    let sub = p.root.join("sub").display().to_string();
    assert_eq!(p.read("out.txt"), format!("one arg\ntwo\n{sub}\n"));
}

#[tokio::test]
async fn hooks_run_in_sequence_and_the_first_deny_stops_the_rest() {
    let p = Project::new();
    let first = p.script("first.sh", "cat >/dev/null; echo first >> order.txt; sleep 0.3");
    let deny = p.script(
        "deny.sh",
        "cat >/dev/null; echo deny >> order.txt; echo '{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no\"}'",
    );
    let never = p.script("never.sh", "cat >/dev/null; echo never >> order.txt");
    p.hook_file("b.json", &json!({"preToolUse": [{"bash": first}, {"bash": deny}]}));
    p.hook_file("a.json", &json!({"preToolUse": [{"bash": never}]}));
    let run = p.run(EventName::PreToolUse, bash_call("rm -rf /")).await;
    assert_eq!(p.read("order.txt"), "first\ndeny\n", "b.json before a.json; never started");
    assert_eq!(run.report.merged.decision, Some(Decision::Deny));
    assert_eq!(run.report.records[2].status, HookStatus::Skipped);
    let model = &run.shown.model;
    assert_eq!(model[0].placement, Placement::ToolResult);
    assert_eq!(model[0].text, "Denied by preToolUse hook: no");
}

#[tokio::test]
async fn a_crash_denies_on_pre_tool_use_and_a_timeout_does_not() {
    let p = Project::new();
    let crash = p.script(
        "crash.sh",
        "cat >/dev/null; echo '{\"permissionDecision\":\"allow\"}'; echo boom >&2; exit 3",
    );
    p.hook_file(
        "a.json",
        &json!({"preToolUse": [{"bash": crash}], "postToolUse": [{"bash": crash}]}),
    );
    let run = p.run(EventName::PreToolUse, bash_call("ls")).await;
    assert_eq!(
        run.report.merged.decision,
        Some(Decision::Deny),
        "an allow on stdout does not help"
    );
    assert_eq!(
        run.shown.model[0].text,
        "Denied by preToolUse hook from \".github/hooks/a.json\" (hook errored)"
    );
    let post = json!({"toolName": "bash", "toolArgs": {}, "toolResult": {"resultType": "success", "textResultForLlm": "ok"}});
    let run = p.run(EventName::PostToolUse, post).await;
    assert_eq!(
        (run.report.merged.decision, run.report.records[0].status),
        (None, HookStatus::Failed)
    );

    let q = Project::new();
    let slow = q.script(
        "slow.sh",
        "cat >/dev/null; sleep 5; echo '{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"late\"}'",
    );
    q.hook_file("a.json", &json!({"preToolUse": [{"bash": slow, "timeoutSec": 0.5}]}));
    let started = Instant::now();
    let run = q.run(EventName::PreToolUse, bash_call("ls")).await;
    assert!(started.elapsed() < Duration::from_secs(4), "killed at its timeout");
    assert_eq!(run.report.records[0].status, HookStatus::TimedOut);
    assert_eq!(run.report.merged.decision, None, "a timeout fails open");

    let r = Project::new();
    let missing = r.root.join("nowhere/hook.sh").display().to_string();
    r.hook_file("a.json", &json!({"preToolUse": [{"exec": missing}]}));
    let run = r.run(EventName::PreToolUse, bash_call("ls")).await;
    assert_eq!(run.report.merged.decision, Some(Decision::Deny), "a hook that cannot start denies");
}

#[tokio::test]
async fn exit_2_denies_without_its_stderr_on_pre_tool_use_and_warns_elsewhere() {
    let p = Project::new();
    let two = p.script("two.sh", "cat >/dev/null; echo '{\"permissionDecision\":\"allow\"}'; echo 'secret detail' >&2; exit 2");
    p.hook_file("a.json", &json!({"preToolUse": [{"bash": two}], "agentStop": [{"bash": two}]}));
    let run = p.run(EventName::PreToolUse, bash_call("ls")).await;
    assert_eq!(run.shown.model[0].text, "Denied by preToolUse hook: hook exited with code 2");
    assert!(!run.shown.model.iter().any(|t| t.text.contains("secret detail")));
    let run = p.run(EventName::AgentStop, json!({"stop_hook_active": false})).await;
    assert_eq!(run.report.merged.decision, None, "exit 2 does not block agentStop");
    assert_eq!(run.shown.user, ["secret detail"], "its stderr is a warning for the user");
}

#[tokio::test]
async fn matchers_are_anchored_and_written_for_copilots_tool_names() {
    let p = Project::new();
    let mark = |name: &str| format!("cat >/dev/null; echo {name} >> hit.txt");
    p.hook_file(
        "a.json",
        &json!({"preToolUse": [
            {"bash": mark("exact"), "matcher": "bash"},
            {"bash": mark("prefix"), "matcher": "ba"},
            {"bash": mark("claude"), "matcher": "Bash"},
            {"bash": mark("either"), "matcher": "bash|create"},
            {"bash": mark("all"), "matcher": ".*"}
        ]}),
    );
    p.run(EventName::PreToolUse, bash_call("ls")).await;
    assert_eq!(p.read("hit.txt"), "exact\neither\nall\n");
}

#[tokio::test]
async fn modified_args_reach_the_later_hooks_and_outputs_are_shown_as_copilot_shows_them() {
    let p = Project::new();
    let rewrite = p.script(
        "rewrite.sh",
        "cat >/dev/null; echo '{\"modifiedArgs\":{\"command\":\"ls -la\"},\"additionalContext\":\"listing\"}'",
    );
    let after = p.script("after.sh", "cat > after.json");
    p.hook_file("a.json", &json!({"preToolUse": [{"bash": rewrite}, {"bash": after}]}));
    let run = p.run(EventName::PreToolUse, bash_call("ls")).await;
    let seen: Value = serde_json::from_str(&p.read("after.json")).unwrap();
    assert_eq!(seen["toolArgs"], json!({"command": "ls -la"}), "replaced whole");
    assert_eq!(
        run.report.merged.updated_input.as_ref().unwrap().value,
        json!({"command": "ls -la"})
    );
    assert_eq!(run.shown.model[0].text, "Additional context from preToolUse hook:\nlisting");

    let q = Project::new();
    let redact = q.script(
        "redact.sh",
        "cat >/dev/null; echo '{\"modifiedResult\":{\"resultType\":\"success\",\"textResultForLlm\":\"[hidden]\"},\"additionalContext\":\"no tokens\"}'",
    );
    q.hook_file("a.json", &json!({"postToolUse": [{"bash": redact}]}));
    let post = json!({"toolName": "bash", "toolArgs": {}, "toolResult": {"resultType": "success", "textResultForLlm": "ghp_x"}});
    let run = q.run(EventName::PostToolUse, post).await;
    assert_eq!(
        run.shown.model[0].text,
        "[hidden]\n\nTool \"bash\" succeeded. Additional guidance from postToolUse hooks:\nno tokens"
    );
}
