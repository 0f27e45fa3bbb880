//! A project holding hooks of Claude Code, Codex, Copilot (its own form and Claude Code's),
//! Cursor and TNSAI, plus a native hook, every script writing its stdin to a file: one
//! neutral event at a time through all of them, each hook given its own agent's payload.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers fail the test by unwrapping"
)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use hook_protocol::{
    Common, DecisionWord, Event, FileKind, Hook, LoadRequest, Payload, PromptSubmit, ToolCall,
    TurnEnd,
};
use hooks_claude::conversation::{Block, Conversation};
use hooks_mixed::{Mixed, Project};
use hooks_native::{Answer, SeamHook};
use serde_json::{Value, json};
use test_support::{Scratch, script};

/// A recording hook: appends its stdin as one line to `out/NAME.jsonl`, then prints `answer`
/// when its stdin holds `trigger`.
fn recorder(dir: &Path, name: &str, trigger: &str, answer: &str) -> PathBuf {
    let out = dir.join("out").join(format!("{name}.jsonl"));
    script(
        dir.join("bin").join(format!("{name}.sh")),
        &format!(
            "input=$(cat)\nprintf '%s\\n' \"$input\" >> '{}'\ncase \"$input\" in\n  *'{trigger}'*) printf '%s' '{answer}' ;;\nesac",
            out.display()
        ),
    )
}

/// The project: every agent's files side by side, and a TNSAI list.
fn project(dir: &Path) {
    for sub in ["out", "bin", ".claude", ".codex", ".github/hooks", ".cursor", ".gemini", "tnsai"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let claude = recorder(
        dir,
        "claude",
        "rm -rf",
        r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "claude says no"}}"#,
    );
    let settings = json!({"hooks": {
        "PreToolUse": [{"matcher": "Bash|Edit|mcp__.*", "hooks": [{"type": "command", "command": claude}]}],
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": claude}]}],
        "Stop": [{"hooks": [{"type": "command", "command": claude}]}]
    }});
    std::fs::write(dir.join(".claude/settings.json"), settings.to_string()).unwrap();
    let codex = recorder(
        dir,
        "codex",
        "secret.env",
        r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "codex says no"}}"#,
    );
    let hooks = json!({"hooks": {
        "PreToolUse": [{"matcher": "Bash|apply_patch", "hooks": [{"type": "command", "command": codex}]}],
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": codex}]}]
    }});
    std::fs::write(dir.join(".codex/hooks.json"), hooks.to_string()).unwrap();
    let copilot = recorder(
        dir,
        "copilot",
        "github-create_issue",
        r#"{"permissionDecision": "deny", "permissionDecisionReason": "copilot says no"}"#,
    );
    let native = json!({"version": 1, "hooks": {
        "preToolUse": [{"type": "command", "bash": copilot}],
        "agentStop": [{"type": "command", "bash": copilot}]
    }});
    std::fs::write(dir.join(".github/hooks/guard.json"), native.to_string()).unwrap();
    let copilot_claude = recorder(dir, "copilot-claude", "never", "");
    let claude_form = json!({"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": copilot_claude}]}]
    }});
    std::fs::write(dir.join(".github/hooks/claude-form.json"), claude_form.to_string()).unwrap();
    let cursor_tool = recorder(dir, "cursor-pre-tool", "never", "");
    let cursor_shell = recorder(dir, "cursor-shell", "never", "");
    let cursor_mcp = recorder(dir, "cursor-mcp", "never", "");
    let cursor_prompt = recorder(
        dir,
        "cursor-prompt",
        "forbidden",
        r#"{"continue": false, "user_message": "cursor says no"}"#,
    );
    let cursor = json!({"version": 1, "hooks": {
        "preToolUse": [{"command": cursor_tool}],
        "beforeShellExecution": [{"command": cursor_shell}],
        "beforeMCPExecution": [{"command": cursor_mcp}],
        "beforeSubmitPrompt": [{"command": cursor_prompt}]
    }});
    std::fs::write(dir.join(".cursor/hooks.json"), cursor.to_string()).unwrap();
    let gemini = recorder(dir, "gemini", "never", "");
    let gemini =
        json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": gemini}]}]}});
    std::fs::write(dir.join(".gemini/settings.json"), gemini.to_string()).unwrap();
    let tnsai = recorder(
        dir,
        "tnsai",
        "\"Stop\"",
        r#"{"hook_protocol_version": "1", "decision": "block", "reason": "tnsai says the tests come first"}"#,
    );
    std::fs::write(
        dir.join("tnsai/hooks.yaml"),
        format!(
            "trusted_roots: [/]\nhooks:\n  - id: recorder\n    event_type: PreToolUse\n    executable: {0}\n  - id: stop\n    event_type: Stop\n    executable: {0}\n",
            tnsai.display()
        ),
    )
    .unwrap();
}

/// The project loaded with its files named (a named Codex file is vouched for, as Codex's
/// `--dangerously-bypass-hook-trust`), a TNSAI list and a native hook.
fn load(dir: &Path) -> Mixed {
    let mut request = LoadRequest::new(dir);
    request.home = Some(dir.join("home"));
    for file in [
        ".claude/settings.json",
        ".codex/hooks.json",
        ".github/hooks/guard.json",
        ".github/hooks/claude-form.json",
        ".cursor/hooks.json",
        ".gemini/settings.json",
    ] {
        request.files.push((FileKind::Config, dir.join(file)));
    }
    let no_dotenv = SeamHook::pre_tool("no-dotenv", |call: &ToolCall, _: &Common| {
        match call.tool_input["file_path"].as_str() {
            Some(path) if path.ends_with("prod.env") => Answer::deny("native says no"),
            _ => Answer::no_opinion(),
        }
    });
    let native: Arc<dyn Hook> = no_dotenv.shared();
    Project::with_request(request)
        .tnsai_list(dir.join("tnsai/hooks.yaml"))
        .native_hooks([native])
        .load()
}

fn event(dir: &Path, payload: Payload) -> Event {
    Event::new(Common::new("session-1", dir), payload)
}

fn pre_tool(dir: &Path, tool: &str, input: Value) -> Event {
    let mut call = ToolCall::new(tool, input);
    call.tool_use_id = Some("call-1".into());
    event(dir, Payload::PreTool(call))
}

/// The objects a recorder was given, one per line.
fn seen(dir: &Path, name: &str) -> Vec<Value> {
    let text =
        std::fs::read_to_string(dir.join("out").join(format!("{name}.jsonl"))).unwrap_or_default();
    text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn clear(dir: &Path) {
    std::fs::remove_dir_all(dir.join("out")).unwrap();
    std::fs::create_dir_all(dir.join("out")).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_shell_command_reaches_every_agent_in_its_own_words_and_a_deny_wins() {
    let scratch = Scratch::new("mixed-shell");
    let dir = scratch.path();
    project(dir);
    let mixed = load(dir);
    assert!(mixed.diagnostics().iter().all(|d| !d.is_error()), "{:?}", mixed.diagnostics());
    assert_eq!(
        mixed.dialects(),
        ["claude", "codex", "copilot", "cursor", "gemini", "tnsai", "native"]
    );

    let run = mixed
        .run(&pre_tool(dir, "Bash", json!({"command": "rm -rf build", "description": "clean"})))
        .await
        .unwrap();
    assert_eq!(run.run.decision, DecisionWord::Deny);
    assert_eq!(run.run.reason.as_deref(), Some("claude says no"));
    let decided = run.run.decided_by.clone().unwrap();
    assert_eq!(decided.source.unwrap().dialect, "claude");

    let claude = &seen(dir, "claude")[0];
    assert_eq!(
        (&claude["hook_event_name"], &claude["tool_name"]),
        (&json!("PreToolUse"), &json!("Bash"))
    );
    assert_eq!(claude["tool_input"]["description"], "clean", "Claude Code's input as it is");
    let codex = &seen(dir, "codex")[0];
    assert_eq!(
        codex["tool_input"],
        json!({"command": "rm -rf build"}),
        "Codex's shell tool takes only its command"
    );
    assert_eq!(codex["turn_id"], "", "Codex's own fields");
    let copilot = &seen(dir, "copilot")[0];
    assert_eq!(
        (&copilot["toolName"], &copilot["toolArgs"]["command"]),
        (&json!("bash"), &json!("rm -rf build"))
    );
    assert!(copilot.get("hook_event_name").is_none(), "Copilot's own form: {copilot}");
    let claude_form = &seen(dir, "copilot-claude")[0];
    assert_eq!(
        claude_form["tool_name"], "Bash",
        "a Claude-shaped Copilot hook gets Claude Code's name"
    );
    assert!(claude_form["timestamp"].is_string(), "as Copilot writes that form: {claude_form}");
    assert_eq!(seen(dir, "cursor-pre-tool")[0]["tool_name"], "Shell");
    assert_eq!(seen(dir, "cursor-shell")[0]["command"], "rm -rf build");
    assert!(seen(dir, "cursor-mcp").is_empty(), "no MCP event for a shell command");
    let gemini = &seen(dir, "gemini")[0];
    assert_eq!(
        (&gemini["hook_event_name"], &gemini["tool_name"]),
        (&json!("BeforeTool"), &json!("run_shell_command"))
    );
    assert_eq!(gemini["tool_input"], json!({"command": "rm -rf build"}), "Gemini's shell tool");
    let tnsai = &seen(dir, "tnsai")[0];
    assert_eq!(tnsai["hook_protocol_version"], "1", "the TNSAI envelope: {tnsai}");

    // Every hook's line names its dialect; each dialect's run is kept.
    let dialects: Vec<String> =
        run.run.hooks.iter().map(|h| h.source.clone().unwrap().dialect).collect();
    for name in ["claude", "codex", "copilot", "cursor", "gemini", "tnsai", "native"] {
        assert!(dialects.iter().any(|d| d == name), "{name} in {dialects:?}");
    }
    let cursor = run.parts.iter().find(|p| p.dialect == "cursor").unwrap();
    let events: Vec<&str> = cursor.runs.iter().map(|r| r.event.as_str()).collect();
    assert_eq!(events, ["preToolUse", "beforeShellExecution"]);
    // What the model sees: Claude Code's refusal, in its words, as the call's result in
    // Claude Code's layout.
    let shown = run.run.shown.clone().unwrap();
    assert!(shown.model.iter().any(|m| m.text.contains("claude says no")), "{shown:?}");
    let mut chat = Conversation::new("");
    chat.user("clean up").unwrap();
    let input = json!({"command": "rm -rf build"});
    chat.assistant(vec![Block::tool_use("call-1", "Bash", input)]).unwrap();
    chat.shown(&shown, Some("call-1")).unwrap();
    let request = chat.request().unwrap();
    let result = request.iter().flat_map(|m| &m.content).find_map(|b| match b {
        Block::ToolResult { content, is_error, .. } => Some((content.clone(), *is_error)),
        _ => None,
    });
    let (content, is_error) = result.unwrap();
    assert!(is_error && content.to_string().contains("claude says no"), "{content}");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_edit_is_codexs_patch_and_an_mcp_call_copilots_server_tool() {
    let scratch = Scratch::new("mixed-edit");
    let dir = scratch.path();
    project(dir);
    let mixed = load(dir);

    let edit = json!({"file_path": "secret.env", "old_string": "A=1", "new_string": "A=2"});
    let run = mixed.run(&pre_tool(dir, "Edit", edit)).await.unwrap();
    assert_eq!(
        (run.run.decision, run.run.reason.as_deref()),
        (DecisionWord::Deny, Some("codex says no"))
    );
    assert_eq!(run.run.decided_by.unwrap().source.unwrap().dialect, "codex");
    // What the model sees: Codex's refusal, in its words, with the patch as the command.
    let texts: Vec<String> =
        run.run.shown.clone().unwrap().model.iter().map(|m| m.text.clone()).collect();
    let patch = "*** Begin Patch\n*** Update File: secret.env\n@@\n-A=1\n+A=2\n*** End Patch\n";
    assert_eq!(
        texts,
        [format!("Command blocked by PreToolUse hook: codex says no. Command: {patch}")]
    );
    let codex = &seen(dir, "codex")[0];
    assert_eq!(codex["tool_name"], "apply_patch");
    assert_eq!(
        codex["tool_input"]["command"],
        "*** Begin Patch\n*** Update File: secret.env\n@@\n-A=1\n+A=2\n*** End Patch\n"
    );
    let gemini = &seen(dir, "gemini")[0];
    assert_eq!(gemini["tool_name"], "replace");
    assert_eq!(
        gemini["tool_input"],
        json!({"file_path": "secret.env", "old_string": "A=1", "new_string": "A=2"})
    );
    let copilot = &seen(dir, "copilot")[0];
    assert_eq!(copilot["toolName"], "edit");
    assert_eq!(
        copilot["toolArgs"],
        json!({"path": "secret.env", "old_str": "A=1", "new_str": "A=2"})
    );
    assert_eq!(seen(dir, "cursor-pre-tool")[0]["tool_name"], "Write");

    clear(dir);
    let mcp = pre_tool(dir, "mcp__github__create_issue", json!({"title": "t"}));
    let run = mixed.run(&mcp).await.unwrap();
    assert_eq!(
        (run.run.decision, run.run.reason.as_deref()),
        (DecisionWord::Deny, Some("copilot says no"))
    );
    assert_eq!(seen(dir, "copilot")[0]["toolName"], "github-create_issue");
    let texts: Vec<String> =
        run.run.shown.clone().unwrap().model.iter().map(|m| m.text.clone()).collect();
    assert_eq!(texts, ["Denied by preToolUse hook: copilot says no"], "Copilot's words");
    assert_eq!(seen(dir, "claude")[0]["tool_name"], "mcp__github__create_issue");
    let cursor = &seen(dir, "cursor-mcp")[0];
    assert_eq!(
        (&cursor["tool_name"], &cursor["tool_input"]),
        (&json!("create_issue"), &json!("{\"title\":\"t\"}"))
    );
    assert!(seen(dir, "codex").is_empty(), "the Codex matcher names Bash and apply_patch only");

    // The native hook's deny wins too.
    clear(dir);
    let write = pre_tool(dir, "Write", json!({"file_path": "prod.env", "content": "x"}));
    let run = mixed.run(&write).await.unwrap();
    assert_eq!(
        (run.run.decision, run.run.reason.as_deref()),
        (DecisionWord::Deny, Some("native says no"))
    );
    assert_eq!(
        seen(dir, "codex")[0]["tool_input"]["command"],
        "*** Begin Patch\n*** Add File: prod.env\n+x\n*** End Patch\n"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_prompt_and_a_stop_go_through_every_session() {
    let scratch = Scratch::new("mixed-session");
    let dir = scratch.path();
    project(dir);
    let mut session = load(dir).into_session();

    let prompt = event(dir, Payload::PromptSubmit(PromptSubmit::new("a forbidden word")));
    let step = session.step(&prompt).await.unwrap();
    assert_eq!(step.step.run.decision, DecisionWord::Block);
    assert_eq!(step.step.run.decided_by.clone().unwrap().source.unwrap().dialect, "cursor");
    assert_eq!(seen(dir, "claude")[0]["prompt"], "a forbidden word");
    assert_eq!(seen(dir, "codex")[0]["prompt"], "a forbidden word");
    assert_eq!(seen(dir, "cursor-prompt")[0]["prompt"], "a forbidden word");
    let user = step.step.run.shown.clone().unwrap().user;
    assert!(user.iter().any(|u| u.contains("cursor says no")), "{user:?}");

    let stop = event(dir, Payload::TurnEnd(TurnEnd::new()));
    let step = session.step(&stop).await.unwrap();
    assert_eq!(step.step.run.decision, DecisionWord::Block, "TNSAI blocks, the others let it end");
    assert_eq!(step.step.run.reason.as_deref(), Some("tnsai says the tests come first"));
    let claude = seen(dir, "claude");
    assert_eq!(claude.last().unwrap()["hook_event_name"], "Stop");
    let copilot = seen(dir, "copilot");
    assert_eq!(copilot.last().unwrap()["stop_hook_active"], false);
}

#[tokio::test(flavor = "multi_thread")]
async fn one_broken_file_is_a_diagnostic_naming_its_dialect_and_the_rest_runs() {
    let scratch = Scratch::new("mixed-broken");
    let dir = scratch.path();
    project(dir);
    std::fs::write(dir.join(".cursor/hooks.json"), "{\"version\": 1, \"hooks\": {").unwrap();
    let mixed = load(dir);
    let errors: Vec<String> =
        mixed.diagnostics().iter().filter(|d| d.is_error()).map(ToString::to_string).collect();
    assert!(!errors.is_empty() && errors.iter().all(|e| e.contains("Cursor: ")), "{errors:?}");
    assert!(errors[0].contains(".cursor/hooks.json:1:"), "at its line and column: {errors:?}");
    let run = mixed.run(&pre_tool(dir, "Bash", json!({"command": "rm -rf x"}))).await.unwrap();
    assert_eq!(run.run.decision, DecisionWord::Deny);
    assert_eq!(seen(dir, "codex").len(), 1);
    assert!(seen(dir, "cursor-pre-tool").is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn discovery_finds_every_agents_files_and_runs_claudes_settings_once() {
    let scratch = Scratch::new("mixed-discover");
    let dir = scratch.path();
    project(dir);
    let mixed = Project::new(dir).home(dir.join("home")).load();
    // Codex reads a project's `.codex/` only once the user trusts the project.
    assert_eq!(mixed.dialects(), ["claude", "copilot", "cursor", "gemini"]);
    let codex: Vec<&String> = mixed.notes().iter().filter(|n| n.starts_with("Codex: ")).collect();
    assert!(codex.iter().any(|n| n.contains("trust_level = \"trusted\"")), "{codex:?}");
    let run = mixed.run(&pre_tool(dir, "Bash", json!({"command": "ls"}))).await.unwrap();
    // `.claude/settings.json` is read by Claude Code and by Copilot: it runs once.
    assert_eq!(seen(dir, "claude").len(), 1, "{:?}", run.run.hooks);
    let by_copilot = Project::new(dir)
        .home(dir.join("home"))
        .claude_files(hooks_mixed::ClaudeFiles::Copilot)
        .load();
    clear(dir);
    by_copilot.run(&pre_tool(dir, "Bash", json!({"command": "ls"}))).await.unwrap();
    let claude = seen(dir, "claude");
    assert_eq!(claude.len(), 1);
    assert!(claude[0]["timestamp"].is_string(), "run by Copilot, in its form: {}", claude[0]);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_neutral_event_missing_a_field_an_agent_needs_names_the_agent() {
    let scratch = Scratch::new("mixed-missing");
    let dir = scratch.path();
    project(dir);
    let mixed = load(dir);
    let e = mixed.run(&pre_tool(dir, "Edit", json!({"file_path": "a"}))).await.unwrap_err();
    assert!(e.to_string().contains("Codex needs `tool_input.old_string`"), "{e}");
    assert!(seen(dir, "claude").is_empty(), "nothing ran");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_fifo_and_a_plugin_of_no_known_agent_are_diagnostics_and_the_rest_runs() {
    let scratch = Scratch::new("mixed-fifo");
    let dir = scratch.path();
    project(dir);
    std::fs::remove_file(dir.join(".cursor/hooks.json")).unwrap();
    #[expect(clippy::disallowed_methods, reason = "a test fixture: `mkfifo` makes the pipe")]
    let made = std::process::Command::new("mkfifo").arg(dir.join(".cursor/hooks.json")).status();
    assert!(made.unwrap().success());
    std::fs::create_dir_all(dir.join("some-plugin/hooks")).unwrap();
    let mut request = LoadRequest::new(dir);
    request.files.push((FileKind::Plugin, dir.join("some-plugin")));
    let mixed = Project::with_request(request).only(&["claude", "cursor"]).load();
    let errors: Vec<String> =
        mixed.diagnostics().iter().filter(|d| d.is_error()).map(ToString::to_string).collect();
    assert!(errors.iter().any(|e| e.contains("Cursor: ") && e.contains("FIFO")), "{errors:?}");
    assert!(
        errors.iter().any(|e| e.contains("some-plugin") && e.contains("name its agent")),
        "{errors:?}"
    );
    assert_eq!(mixed.dialects(), ["claude"], "Cursor has no file it can read");
    let run = mixed.run(&pre_tool(dir, "Bash", json!({"command": "rm -rf x"}))).await.unwrap();
    assert_eq!(run.run.decision, DecisionWord::Deny, "Claude Code's hooks still run");
}

#[tokio::test(flavor = "multi_thread")]
async fn kill_running_ends_every_dialects_hooks() {
    let scratch = Scratch::new("mixed-kill");
    let dir = scratch.path();
    std::fs::create_dir_all(dir.join(".claude")).unwrap();
    std::fs::create_dir_all(dir.join(".cursor")).unwrap();
    let slow = script(dir.join("slow.sh"), "cat > /dev/null; sleep 30");
    let claude =
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": slow}]}]}});
    std::fs::write(dir.join(".claude/settings.json"), claude.to_string()).unwrap();
    let cursor = json!({"version": 1, "hooks": {"preToolUse": [{"command": slow}]}});
    std::fs::write(dir.join(".cursor/hooks.json"), cursor.to_string()).unwrap();
    let mixed = Arc::new(Project::new(dir).home(dir.join("home")).load());
    assert_eq!(mixed.dialects(), ["claude", "cursor"]);
    let killer = Arc::clone(&mixed);
    let kill = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(500));
        killer.kill_running(std::time::Duration::from_millis(200))
    });
    let started = std::time::Instant::now();
    let run = mixed.run(&pre_tool(dir, "Bash", json!({"command": "ls"}))).await.unwrap();
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
    assert_eq!(kill.join().unwrap(), 2, "one hook of each dialect was running");
    assert_eq!(run.run.hooks.len(), 2);
}
