//! Fail-closed end to end (`onFailure: "block"`), the event kept off argv in both command
//! forms, and credentials scrubbed from a real hook's environment.

use hook_protocol::Scrub;
use hook_protocol::ToolPermission;
use hooks_claude::{Engine, HostEnv};
use serde_json::{Value, json};

use crate::support::*;

fn pre_tool(dir: &std::path::Path, command: &str) -> hooks_claude::input::PreToolUse {
    hooks_claude::input::PreToolUse {
        base: hooks_claude::input::Base::new("s-1", "/t.jsonl", dir.display().to_string()),
        tool_name: "Bash".into(),
        tool_input: json!({"command": command}),
        tool_use_id: "toolu_1".into(),
        mcp_server: None,
    }
}

/// A shell-form handler running `line` with a 1 s timeout and the given `onFailure`.
fn shell(line: &str, on_failure: &str) -> Value {
    json!({"type": "command", "command": line, "timeout": 1, "onFailure": on_failure})
}

/// Every failure path of a command hook blocks the tool call under `onFailure: "block"`:
/// spawn failure, a missing program, timeout, crash, a failing exit, output that breaks the
/// schema, and a protocol error; under the default none of them decides.
#[tokio::test]
async fn every_failure_path_blocks_when_failing_closed() {
    let dir = temp_dir("fail-closed");
    let cases: Vec<(&str, Value)> = vec![
        ("spawn failure", json!({"type": "command", "command": "/nonexistent/hook", "args": []})),
        ("missing program", shell("/nonexistent/hook.sh", "")),
        ("timeout", shell("cat >/dev/null; sleep 30", "")),
        ("crash", shell("kill -SEGV $$", "")),
        ("killed", shell("kill -9 $$", "")),
        ("exit 1", shell("cat >/dev/null; echo oops >&2; exit 1", "")),
        ("garbage json", shell("echo '{\"continue\": \"yes\"}'", "")),
        ("unknown decision", shell("echo '{\"decision\": \"maybe\"}'", "")),
        (
            "protocol error",
            shell("echo '{\"hookSpecificOutput\": {\"hookEventName\": \"Stop\"}}'", ""),
        ),
        ("json with exit 1", shell("echo '{}'; exit 1", "")),
    ];
    for (name, mut handler) in cases {
        for policy in ["block", "continue"] {
            handler["onFailure"] = json!(policy);
            let text = settings(json!({"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}));
            let config = load(&dir, &text);
            assert!(config.diagnostics.is_empty(), "{name}: {:?}", config.diagnostics);
            let fired = engine(config, &dir).pre_tool_use(&pre_tool(&dir, "ls")).await;
            let records = fired.records();
            match policy {
                "block" => {
                    let ToolPermission::Deny { .. } = &fired.decision.permission else {
                        panic!("{name}: not blocked: {:?} {records:?}", fired.decision)
                    };
                    let shown = fired.shown();
                    let text = &shown.tool_result().unwrap().text;
                    assert!(text.contains("onFailure is \"block\"\n"), "{name}: {text}");
                }
                _ => assert_eq!(
                    fired.decision.permission,
                    ToolPermission::NoOpinion,
                    "{name}: fails open by default: {records:?}"
                ),
            }
        }
    }
}

/// The event travels on stdin only: neither the shell form's nor the exec form's command line
/// holds any of it.
#[tokio::test]
async fn the_event_never_reaches_argv() {
    let dir = temp_dir("argv");
    let out = dir.join("seen");
    let out = out.to_str().unwrap();
    let record = format!("cat > '{out}.stdin'; tr '\\0' ' ' < /proc/$$/cmdline > '{out}.argv'");
    let script = dir.join("record-argv.sh");
    std::fs::write(&script, format!("#!/bin/sh\n{record}\n")).unwrap();
    let forms = [
        ("shell", json!({"type": "command", "command": record})),
        (
            "exec",
            json!({"type": "command", "command": "/bin/sh", "args": [script.to_str().unwrap(), "fixed-arg"]}),
        ),
    ];
    let marker = "secret-marker-9c1e";
    for (form, handler) in forms {
        let text = settings(json!({"PreToolUse": [{"hooks": [handler]}]}));
        let fired = engine(load(&dir, &text), &dir)
            .pre_tool_use(&pre_tool(&dir, &format!("echo {marker} '$(id)'")))
            .await;
        assert_eq!(fired.records()[0].exit_code, Some(0), "{form}: {:?}", fired.records());
        let stdin = std::fs::read_to_string(format!("{out}.stdin")).unwrap();
        let argv = std::fs::read_to_string(format!("{out}.argv")).unwrap();
        assert!(stdin.contains(marker), "{form}: the event is on stdin: {stdin}");
        assert!(argv.contains("/proc/$$/cmdline") || argv.contains("fixed-arg"), "{form}: {argv}");
        assert!(!argv.contains(marker), "{form}: the event reached argv: {argv}");
    }
}

/// With [`HostEnv::scrub`] set, a hook does not see the harness's credentials; the settings
/// `env` block still reaches it.
#[tokio::test]
async fn scrubbed_credentials_do_not_reach_the_hook() {
    let dir = temp_dir("scrub");
    let out = dir.join("env.txt");
    let line = format!("cat >/dev/null; env > '{}'", out.display());
    let text = settings(json!({"PreToolUse": [{"hooks": [shell(&line, "continue")]}]}));
    let text = text.replacen('{', "{\"env\": {\"GIVEN_TOKEN\": \"on-purpose\"},", 1);
    // A variable every test process inherits stands for a credential, named as an extra name.
    let (name, value) = std::env::vars()
        .find(|(k, v)| k != "PATH" && !k.starts_with("CLAUDE") && v.len() > 2)
        .expect("the test process has an environment");
    let seen = |engine: Engine| {
        let dir = dir.to_path_buf();
        let out = out.clone();
        async move {
            engine.pre_tool_use(&pre_tool(&dir, "ls")).await;
            std::fs::read_to_string(&out).unwrap()
        }
    };
    let env = seen(engine(load(&dir, &text), &dir)).await;
    assert!(env.contains(&format!("{name}={value}\n")), "inherited without a scrub");

    let mut host = HostEnv::new(&dir);
    host.scrub = Some(Scrub::new().name(&name));
    let env = seen(Engine::builder(load(&dir, &text)).host(host).build().unwrap()).await;
    assert!(!env.lines().any(|l| l.starts_with(&format!("{name}="))), "{name} reached the hook");
    assert!(env.contains("GIVEN_TOKEN=on-purpose\n"), "settings env is kept:\n{env}");
    assert!(env.contains("CLAUDE_PROJECT_DIR="), "Claude's variables are kept:\n{env}");
}
