//! Gemini CLI hooks run as Gemini runs them, with real scripts: the exit-code rule, the
//! millisecond timeout, the merge, `sequential`, the variables, and what the model sees.

#![allow(clippy::unwrap_used, reason = "test helpers fail the test by unwrapping")]

use std::path::Path;
use std::time::{Duration, Instant};

use hook_protocol::{Decision, HookStatus, Placement};
use hooks_gemini::{Engine, EventName, Loader, Scope, hooks_config};
use serde_json::{Map, Value, json};
use test_support::{Scratch, script};

/// A hook's body, and the decision, reason and message it gives.
type Case<'a> = (&'a str, Option<Decision>, Option<&'a str>, Option<&'a str>);

/// An engine over a project's `.gemini/settings.json` holding `hooks`.
fn gemini(dir: &Path, settings: &Value) -> Engine {
    let file = dir.join(".gemini/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, settings.to_string()).unwrap();
    let mut loader = Loader::new();
    loader.file(&file, Scope::Project);
    let config = loader.finish();
    assert!(config.diagnostics.iter().all(|d| !d.is_error()), "{:?}", config.diagnostics);
    let text = std::fs::read_to_string(&file).unwrap();
    let settings = hooks_config(&[(file, text)]);
    Engine::new(config, dir, Some(dir.join("home")), None, settings).unwrap()
}

/// `{"hooks": {event: [{"matcher", "hooks": [commands…]}]}}`.
fn settings(event: &str, matcher: &str, commands: &[&Path]) -> Value {
    let hooks: Vec<Value> = commands
        .iter()
        .map(|c| json!({"type": "command", "command": c.display().to_string()}))
        .collect();
    json!({"hooks": {event: [{"matcher": matcher, "hooks": hooks}]}})
}

fn shell_call() -> Map<String, Value> {
    json!({"tool_name": "run_shell_command", "tool_input": {"command": "ls"}})
        .as_object()
        .cloned()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn plain_text_is_read_by_the_exit_code_and_json_on_any_exit() {
    let scratch = Scratch::new("gemini-exit");
    let dir = scratch.path();
    let cases: [Case<'_>; 7] = [
        ("echo hello", Some(Decision::Allow), None, Some("hello")),
        ("echo careful; exit 1", Some(Decision::Allow), None, Some("Warning: careful")),
        ("echo no; exit 2", Some(Decision::Deny), Some("no"), None),
        ("echo three; exit 3", Some(Decision::Deny), Some("three"), None),
        (
            "echo '{\"decision\": \"deny\", \"reason\": \"json\"}'; exit 1",
            Some(Decision::Deny),
            Some("json"),
            None,
        ),
        (
            "echo '{\"decision\": \"block\", \"reason\": \"stderr\"}' >&2",
            Some(Decision::Deny),
            Some("stderr"),
            None,
        ),
        ("echo out; echo err >&2; exit 2", Some(Decision::Deny), Some("out"), None),
    ];
    for (i, (body, decision, reason, message)) in cases.into_iter().enumerate() {
        let hook = script(dir.join(format!("h{i}.sh")), &format!("cat > /dev/null\n{body}"));
        let engine = gemini(dir, &settings("BeforeTool", "", &[&hook]));
        let run = engine.run_json(EventName::BeforeTool, shell_call()).await;
        let merged = &run.report.merged;
        assert_eq!(merged.decision, decision, "{body}");
        assert_eq!(merged.reasons.first().map(|r| r.value.as_str()), reason, "{body}");
        assert_eq!(merged.messages.first().map(|m| m.value.as_str()), message, "{body}");
    }
    // A command the shell does not find: bash's exit 127, a deny with its words.
    let engine =
        gemini(dir, &settings("BeforeTool", "", &[Path::new("/nonexistent/hook-binary --flag")]));
    let run = engine.run_json(EventName::BeforeTool, shell_call()).await;
    assert_eq!(run.report.merged.decision, Some(Decision::Deny));
    let texts: Vec<&str> = run.shown.model.iter().map(|m| m.text.as_str()).collect();
    assert!(texts[0].starts_with("Tool execution blocked: bash: "), "{texts:?}");
    assert!(texts[0].contains("/nonexistent/hook-binary"), "{texts:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_timeout_is_in_milliseconds_and_fails_open() {
    let scratch = Scratch::new("gemini-timeout");
    let dir = scratch.path();
    let slow =
        script(dir.join("slow.sh"), "cat > /dev/null; sleep 10; echo '{\"decision\": \"deny\"}'");
    let settings = json!({"hooks": {"BeforeTool": [{"hooks": [
        {"type": "command", "command": slow.display().to_string(), "timeout": 300}
    ]}]}});
    let engine = gemini(dir, &settings);
    let started = Instant::now();
    let run = engine.run_json(EventName::BeforeTool, shell_call()).await;
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    assert_eq!(run.report.records[0].status, HookStatus::TimedOut);
    assert_eq!(run.report.merged.decision, None, "fail-open");
}

#[tokio::test(flavor = "multi_thread")]
async fn every_reason_is_joined_and_the_model_is_told_the_tool_was_blocked() {
    let scratch = Scratch::new("gemini-merge");
    let dir = scratch.path();
    let deny = script(
        dir.join("deny.sh"),
        "cat > /dev/null; echo '{\"decision\": \"deny\", \"reason\": \"BT1-DENY reason\"}'",
    );
    let allow = script(
        dir.join("allow.sh"),
        "cat > /dev/null; echo '{\"decision\": \"allow\", \"reason\": \"BT2-ALLOW reason\"}'",
    );
    let engine = gemini(dir, &settings("BeforeTool", "run_shell_command", &[&deny, &allow]));
    let run = engine.run_json(EventName::BeforeTool, shell_call()).await;
    assert_eq!(run.report.merged.decision, Some(Decision::Deny));
    let model = &run.shown.model;
    assert_eq!(model.len(), 1);
    assert_eq!((model[0].placement, model[0].is_error), (Placement::ToolResult, true));
    assert_eq!(model[0].text, "Tool execution blocked: BT1-DENY reason\nBT2-ALLOW reason");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_sequential_group_pipes_the_rewritten_input_into_the_next_hook() {
    let scratch = Scratch::new("gemini-sequential");
    let dir = scratch.path();
    let rewrite = script(
        dir.join("rewrite.sh"),
        "cat > /dev/null; echo '{\"hookSpecificOutput\": {\"tool_input\": {\"command\": \"ls -a\"}}}'",
    );
    let seen = dir.join("seen.json");
    let record = script(dir.join("record.sh"), &format!("cat > '{}'", seen.display()));
    let hooks: Vec<Value> = [&rewrite, &record]
        .iter()
        .map(|c| json!({"type": "command", "command": c.display().to_string()}))
        .collect();
    let settings = json!({"hooks": {"BeforeTool": [{"sequential": true, "hooks": hooks}]}});
    let engine = gemini(dir, &settings);
    let run = engine.run_json(EventName::BeforeTool, shell_call()).await;
    let seen: Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
    assert_eq!(seen["tool_input"], json!({"command": "ls -a"}), "the second hook saw the rewrite");
    assert_eq!(
        run.report.merged.updated_input.as_ref().map(|u| &u.value),
        Some(&json!({"command": "ls -a"}))
    );
    let texts: Vec<(Placement, &str)> =
        run.shown.model.iter().map(|m| (m.placement, m.text.as_str())).collect();
    assert_eq!(
        texts,
        [(
            Placement::ToolResultEnd,
            "\n\n[System] Tool input parameters were modified by a hook before execution."
        )]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn variables_are_substituted_and_set_and_the_input_has_no_trailing_newline() {
    let scratch = Scratch::new("gemini-env");
    let dir = scratch.path();
    let out = dir.join("out");
    let hook = script(
        dir.join("env.sh"),
        &format!(
            "cat > '{0}.stdin'\nprintf '%s|%s|%s|%s' \"$1\" \"$GEMINI_SESSION_ID\" \"$CLAUDE_PROJECT_DIR\" \"$FROM_CONFIG\" > '{0}.env'",
            out.display()
        ),
    );
    let settings = json!({"hooks": {"BeforeAgent": [{"hooks": [{
        "type": "command", "command": format!("{} $GEMINI_PROJECT_DIR", hook.display()),
        "env": {"FROM_CONFIG": "yes"}
    }]}]}});
    let engine = gemini(dir, &settings);
    let input = json!({"prompt": "please", "session_id": "s-1"}).as_object().cloned().unwrap();
    engine.run_json(EventName::BeforeAgent, input).await;
    let env = std::fs::read_to_string(format!("{}.env", out.display())).unwrap();
    let root = dir.display().to_string();
    assert_eq!(env, format!("{root}|s-1|{root}|yes"));
    let stdin = std::fs::read_to_string(format!("{}.stdin", out.display())).unwrap();
    assert!(!stdin.ends_with('\n'));
    let stdin: Value = serde_json::from_str(&stdin).unwrap();
    assert_eq!(
        (&stdin["hook_event_name"], &stdin["prompt"]),
        (&json!("BeforeAgent"), &json!("please"))
    );
    assert!(stdin["timestamp"].as_str().unwrap().ends_with('Z'));
}

#[tokio::test(flavor = "multi_thread")]
async fn after_tool_context_is_wrapped_and_escaped_and_a_block_replaces_the_output() {
    let scratch = Scratch::new("gemini-after");
    let dir = scratch.path();
    let context = script(
        dir.join("ctx.sh"),
        "cat > /dev/null; echo '{\"hookSpecificOutput\": {\"additionalContext\": \"AT-CTX <extra> & more\"}}'",
    );
    let engine = gemini(dir, &settings("AfterTool", "", &[&context]));
    let mut input = shell_call();
    input.insert("tool_response".into(), json!({"llmContent": "out", "returnDisplay": "out"}));
    let run = engine.run_json(EventName::AfterTool, input.clone()).await;
    let texts: Vec<(Placement, &str)> =
        run.shown.model.iter().map(|m| (m.placement, m.text.as_str())).collect();
    assert_eq!(
        texts,
        [(
            Placement::ToolResultEnd,
            "\n\n<hook_context>AT-CTX &lt;extra&gt; & more</hook_context>"
        )]
    );
    let block = script(dir.join("block.sh"), "cat > /dev/null; echo 'AT blocked' ; exit 2");
    let engine = gemini(dir, &settings("AfterTool", "", &[&block]));
    let run = engine.run_json(EventName::AfterTool, input).await;
    let texts: Vec<(Placement, &str, bool)> =
        run.shown.model.iter().map(|m| (m.placement, m.text.as_str(), m.is_error)).collect();
    assert_eq!(texts, [(Placement::ToolResult, "AT blocked", true)]);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_handler_turned_off_by_name_and_before_tool_context_do_not_reach_anyone() {
    let scratch = Scratch::new("gemini-disabled");
    let dir = scratch.path();
    let deny = script(dir.join("deny.sh"), "cat > /dev/null; exit 2");
    let context = script(
        dir.join("ctx.sh"),
        "cat > /dev/null; echo '{\"hookSpecificOutput\": {\"additionalContext\": \"dropped\"}}'",
    );
    let settings = json!({
        "hooksConfig": {"disabled": ["guard"]},
        "hooks": {"BeforeTool": [{"hooks": [
            {"type": "command", "command": deny.display().to_string(), "name": "guard"},
            {"type": "command", "command": context.display().to_string()}
        ]}]}
    });
    let engine = gemini(dir, &settings);
    let run = engine.run_json(EventName::BeforeTool, shell_call()).await;
    assert_eq!(run.report.records.len(), 1, "the handler named `guard` is off");
    assert_eq!(run.report.merged.decision, None);
    assert!(run.shown.model.is_empty(), "BeforeTool's context is dropped: {:?}", run.shown);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_after_agent_block_is_the_next_prompt_with_no_cap_unless_the_harness_sets_one() {
    use hook_kit::Hooks;
    use hook_protocol::{DecisionWord, Loaded};

    let scratch = Scratch::new("gemini-after-agent");
    let dir = scratch.path();
    let seen = dir.join("seen.jsonl");
    let deny = script(
        dir.join("deny.sh"),
        &format!(
            "cat >> '{}'; echo >> '{}'; echo 'AA-DENY-RETRY please redo'; exit 2",
            seen.display(),
            seen.display()
        ),
    );
    let settings = settings("AfterAgent", "", &[&deny]);
    for (cap, ends_at) in [(None, None), (Some(2), Some(3))] {
        let mut engine = gemini(dir, &settings);
        if let Some(cap) = cap {
            engine = engine.with_retry_cap(cap);
        }
        let mut session = Box::new(Hooks::new(engine, Vec::new())).into_session();
        for round in 1..=4 {
            let input =
                json!({"prompt": "p", "prompt_response": "answer"}).as_object().cloned().unwrap();
            let step = session.step("AfterAgent", input).await.unwrap();
            let ended = ends_at == Some(round);
            let expected = if ended { DecisionWord::NoOpinion } else { DecisionWord::Block };
            assert_eq!(step.run.decision, expected, "cap {cap:?}, round {round}");
            if !ended {
                let model = &step.run.shown.as_ref().unwrap().model;
                assert_eq!(model[0].text, "AA-DENY-RETRY please redo", "the bare reason");
                assert_eq!(model[0].placement, Placement::User);
            }
            if ended {
                break;
            }
        }
    }
    let seen = std::fs::read_to_string(&seen).unwrap();
    let flags: Vec<bool> = seen
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["stop_hook_active"].as_bool().unwrap())
        .collect();
    assert_eq!(flags[..4], [false, true, true, true], "no cap: every retry is a continuation");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_model_events_rewrite_requests_replace_answers_and_narrow_the_tools() {
    use hook_kit::Hooks;
    use hook_protocol::Loaded;

    let scratch = Scratch::new("gemini-model");
    let dir = scratch.path();
    let seen = dir.join("seen.json");
    let rewrite = script(
        dir.join("rewrite.sh"),
        &format!(
            "cat > '{}'; echo '{{\"hookSpecificOutput\": {{\"llm_request\": {{\"model\": \"gemini-2.5-pro\", \"messages\": [{{\"role\": \"user\", \"content\": \"BM-REWRITTEN-PROMPT\"}}]}}}}}}'",
            seen.display()
        ),
    );
    let any = script(
        dir.join("any.sh"),
        "cat > /dev/null; echo '{\"hookSpecificOutput\": {\"toolConfig\": {\"mode\": \"ANY\", \"allowedFunctionNames\": [\"write_file\"]}}}'",
    );
    let auto = script(
        dir.join("auto.sh"),
        "cat > /dev/null; echo '{\"hookSpecificOutput\": {\"toolConfig\": {\"mode\": \"AUTO\", \"allowedFunctionNames\": [\"read_file\"]}}}'",
    );
    let hook = |p: &Path| json!({"type": "command", "command": p.display().to_string()});
    let settings = json!({"hooks": {
        "BeforeModel": [{"hooks": [hook(&rewrite)]}],
        "BeforeToolSelection": [{"hooks": [hook(&any), hook(&auto)]}]
    }});
    let loaded = Hooks::new(gemini(dir, &settings), Vec::new());
    let request = json!({"llm_request": {"model": "gemini-2.5-flash", "messages": [{"role": "user", "content": "please do the task"}], "config": {"temperature": 1}}});
    let run = loaded.run("BeforeModel", request.as_object().cloned().unwrap()).await.unwrap();
    assert_eq!(run.dialect_fields["llm_request"]["messages"][0]["content"], "BM-REWRITTEN-PROMPT");
    let stdin: Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
    assert_eq!(stdin["llm_request"]["config"], json!({"temperature": 1}));
    let run =
        loaded.run("BeforeToolSelection", request.as_object().cloned().unwrap()).await.unwrap();
    assert_eq!(
        run.dialect_fields["tool_config"],
        json!({"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["read_file", "write_file"]}})
    );
}

/// Every field a Gemini hook may answer on any event (each event takes its own).
fn answer(_: &str) -> Value {
    json!({"decision": "deny", "reason": "policy says no", "systemMessage": "shown to the user",
        "hookSpecificOutput": {"additionalContext": "context <from> the hook",
            "tool_input": {"command": "ls"}, "llm_request": {"model": "m", "messages": []},
            "llm_response": {"text": "instead"},
            "toolConfig": {"mode": "ANY", "allowedFunctionNames": ["read_file"]}}})
}

#[tokio::test]
async fn every_event_as_gemini_shows_it() {
    use test_support::{Events, every_event};

    let scratch = Scratch::new("gemini-snapshots");
    let project = scratch.path().to_path_buf();
    let file = |event: &str, command: &str| {
        let path = project.join(".gemini/settings.json");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let hooks =
            json!({"hooks": {event: [{"hooks": [{"type": "command", "command": command}]}]}});
        std::fs::write(&path, hooks.to_string()).unwrap();
        path
    };
    let input = |event: &str| {
        json!({"session_id": "s1", "transcript_path": "/t.jsonl", "hook_event_name": event,
            "timestamp": "2026-12-05T00:00:00.000Z", "source": "startup", "reason": "exit",
            "trigger": "auto", "prompt": "tidy the build", "prompt_response": "done",
            "stop_hook_active": false, "tool_name": "run_shell_command",
            "tool_input": {"command": "rm -rf build"},
            "tool_response": {"llmContent": "removed", "returnDisplay": "removed"},
            "notification_type": "ToolPermission", "message": "allow?", "details": {},
            "llm_request": {"model": "gemini-2.5-flash", "messages": [{"role": "user", "content": "hi"}], "config": {}},
            "llm_response": {"text": "hello", "candidates": []}})
    };
    let names = EventName::ALL.iter().map(|e| e.as_str()).collect();
    let events = Events::new(hooks_gemini::dialect(), &project, names, &file, &input, &answer);
    for (event, runs) in every_event(&events).await {
        insta::assert_json_snapshot!(event, runs);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rewritten_input_the_tool_refuses_is_its_result_and_it_does_not_run() {
    use hook_kit::Hooks;
    use hook_protocol::{DecisionWord, Loaded};

    let scratch = Scratch::new("gemini-invalid-input");
    let dir = scratch.path();
    // As recorded: the second hook's `tool_input` replaces the first's wholesale.
    let first = script(
        dir.join("first.sh"),
        "cat > /dev/null; echo '{\"hookSpecificOutput\": {\"tool_input\": {\"command\": \"ls\"}}}'",
    );
    let second = script(
        dir.join("second.sh"),
        "cat > /dev/null; echo '{\"hookSpecificOutput\": {\"tool_input\": {\"description\": \"d\"}}}'",
    );
    let settings = json!({"hooks": {"BeforeTool": [{"sequential": true, "hooks": [
        {"type": "command", "command": first.display().to_string()},
        {"type": "command", "command": second.display().to_string()}
    ]}]}});
    let loaded = Hooks::new(gemini(dir, &settings), Vec::new());
    let run = loaded.run("BeforeTool", shell_call()).await.unwrap();
    let why = "Tool parameter modification by hook failed validation: params must have required property 'command'";
    assert_eq!((run.decision, run.reason.as_deref()), (DecisionWord::Deny, Some(why)));
    assert_eq!(run.updated_input, None);
    let model = &run.shown.as_ref().unwrap().model;
    assert_eq!(
        (model[0].placement, model[0].text.as_str(), model[0].is_error),
        (Placement::ToolResult, why, true)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tail_call_and_a_cleared_history_are_the_runs_fields() {
    use hook_kit::Hooks;
    use hook_protocol::Loaded;

    let scratch = Scratch::new("gemini-tail");
    let dir = scratch.path();
    let tail = script(
        dir.join("tail.sh"),
        "cat > /dev/null; echo '{\"hookSpecificOutput\": {\"tailToolCallRequest\": {\"name\": \"write_file\", \"args\": {\"file_path\": \"tail.txt\", \"content\": \"x\"}}}}'",
    );
    let clear = script(
        dir.join("clear.sh"),
        "cat > /dev/null; echo '{\"decision\": \"deny\", \"reason\": \"AA-CLEAR-RETRY\", \"hookSpecificOutput\": {\"clearContext\": true}}'",
    );
    let hook = |p: &Path| json!({"type": "command", "command": p.display().to_string()});
    let settings = json!({"hooks": {"AfterTool": [{"hooks": [hook(&tail)]}], "AfterAgent": [{"hooks": [hook(&clear)]}]}});
    let loaded = Hooks::new(gemini(dir, &settings), Vec::new());
    let mut input = shell_call();
    input.insert("tool_response".into(), json!({"llmContent": "out", "returnDisplay": "out"}));
    let run = loaded.run("AfterTool", input).await.unwrap();
    assert_eq!(run.dialect_fields["tail_tool_call_request"]["name"], "write_file");
    let end = json!({"prompt": "p", "prompt_response": "a", "stop_hook_active": false});
    let run = loaded.run("AfterAgent", end.as_object().cloned().unwrap()).await.unwrap();
    assert_eq!(run.dialect_fields["clear_context"], true);
}

#[tokio::test(flavor = "multi_thread")]
async fn megabytes_of_output_and_a_json_array_on_stderr_are_read_within_the_caps() {
    let scratch = Scratch::new("gemini-caps");
    let dir = scratch.path();
    let big = script(
        dir.join("big.sh"),
        "cat > /dev/null; head -c 5000000 /dev/zero | tr '\\0' 'x'; exit 2",
    );
    let engine = gemini(dir, &settings("BeforeTool", "", &[&big]));
    let run = engine.run_json(EventName::BeforeTool, shell_call()).await;
    assert_eq!(run.report.merged.decision, Some(Decision::Deny), "exit 2 still denies");
    let reason = &run.report.merged.reasons[0].value;
    assert!(reason.len() < 5_000_000 && reason.starts_with("xxx"), "capped: {}", reason.len());
    assert!(run.report.records[0].process.as_ref().unwrap().truncated);
    let array = script(dir.join("array.sh"), "cat > /dev/null; echo '[1, 2]' >&2");
    let engine = gemini(dir, &settings("BeforeTool", "", &[&array]));
    let run = engine.run_json(EventName::BeforeTool, shell_call()).await;
    // Not an object: plain text, by the exit code (0: a message for the user).
    assert_eq!(run.report.merged.decision, Some(Decision::Allow));
    assert_eq!(run.report.merged.messages[0].value, "[1, 2]");
}

#[test]
fn project_hooks_gemini_has_not_recorded_are_named_in_a_warning_and_run() {
    use hook_protocol::{FileKind, LoadRequest};

    let scratch = Scratch::new("gemini-detected");
    let dir = scratch.path();
    let file = dir.join(".gemini/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let settings = json!({"hooks": {"BeforeTool": [{"hooks": [
        {"type": "command", "command": "true", "name": "guard"},
        {"type": "command", "command": "echo hi"}
    ]}]}});
    std::fs::write(&file, settings.to_string()).unwrap();
    let home = dir.join("home");
    std::fs::create_dir_all(home.join(".gemini")).unwrap();
    let mut request = LoadRequest::new(dir);
    request.home = Some(home.clone());
    request.files.push((FileKind::Config, file.clone()));
    let loaded = hooks_gemini::dialect().load(&request).unwrap();
    let warning = loaded
        .diagnostics()
        .iter()
        .map(ToString::to_string)
        .find(|d| d.contains("detected"))
        .unwrap();
    assert!(
        warning.contains("have been detected in this workspace:\n  - guard\n  - echo hi\n"),
        "{warning}"
    );
    // Once Gemini recorded them, no warning.
    let trusted = json!({dir.display().to_string(): ["guard:true", ":echo hi"]});
    std::fs::write(home.join(".gemini/trusted_hooks.json"), trusted.to_string()).unwrap();
    let loaded = hooks_gemini::dialect().load(&request).unwrap();
    assert!(loaded.diagnostics().iter().all(|d| !d.to_string().contains("detected")));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_sequential_group_pipes_the_prompt_and_the_model_request_too() {
    let scratch = Scratch::new("gemini-sequential-prompt");
    let dir = scratch.path();
    let context = script(
        dir.join("context.sh"),
        "cat > /dev/null; echo '{\"hookSpecificOutput\": {\"additionalContext\": \"CTX1\", \"llm_request\": {\"model\": \"m2\", \"messages\": []}}}'",
    );
    let seen = dir.join("seen.json");
    let record = script(dir.join("record.sh"), &format!("cat > '{}'", seen.display()));
    let hook = |p: &Path| json!({"type": "command", "command": p.display().to_string()});
    for (event, input, field, expected) in [
        ("BeforeAgent", json!({"prompt": "please"}), "prompt", json!("please\n\nCTX1")),
        (
            "BeforeModel",
            json!({"llm_request": {"model": "m1", "messages": []}}),
            "llm_request",
            json!({"model": "m2", "messages": []}),
        ),
    ] {
        let settings = json!({"hooks": {event: [{"sequential": true, "hooks": [hook(&context), hook(&record)]}]}});
        let engine = gemini(dir, &settings);
        let name = EventName::parse(event).unwrap();
        engine.run_json(name, input.as_object().cloned().unwrap()).await;
        let stdin: Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
        assert_eq!(stdin[field], expected, "{event}");
        // Run at once (no `sequential`), the second hook sees the input as it was.
        let settings = json!({"hooks": {event: [{"hooks": [hook(&context), hook(&record)]}]}});
        gemini(dir, &settings).run_json(name, input.as_object().cloned().unwrap()).await;
        let stdin: Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
        assert_eq!(stdin[field], input[field], "{event}, at once");
    }
}
