//! Conformance against third-party Claude Code hook SDKs (run by `cargo xtask conformance`).
//!
//! Usage: `conformance DIR`, where DIR holds `venv/` (with `cchooks`), `node_modules/` (with
//! `@mizunashi_mana/claude-code-hook-sdk` and `cc-hooks-ts`) and the driver scripts of
//! `hooks-claude/tests/conformance/`. Every event each SDK supports is sent to a hook written
//! with that SDK through this crate's engine; the SDK's parser must accept it, and the SDK's
//! deny / ask / block / context answers must decode to the right decision.
#![allow(clippy::print_stdout, clippy::print_stderr, reason = "a command-line check")]

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use hook_protocol::{Continuation, PromptPermission, ToolPermission};
use hooks_claude::input::TypedInput;
use hooks_claude::{Engine, EventName, HostEnv, Loader, Record, Scope, samples};
use serde_json::{Value, json};

struct Sdk {
    name: &'static str,
    program: Vec<String>,
    events: Vec<EventName>,
}

fn sdks(dir: &Path) -> Vec<Sdk> {
    use EventName::*;
    let node = |script: &str| vec!["node".to_owned(), dir.join(script).display().to_string()];
    vec![
        Sdk {
            name: "cchooks 0.1.5 (PyPI)",
            program: vec![
                dir.join("venv/bin/python3").display().to_string(),
                dir.join("cchooks_driver.py").display().to_string(),
            ],
            events: vec![
                PreToolUse,
                PostToolUse,
                Notification,
                UserPromptSubmit,
                Stop,
                SubagentStop,
                PreCompact,
                SessionStart,
                SessionEnd,
            ],
        },
        Sdk {
            name: "@mizunashi_mana/claude-code-hook-sdk 6.0.0 (npm)",
            program: node("mizunashi_driver.mjs"),
            events: vec![
                PreToolUse,
                PostToolUse,
                Notification,
                Stop,
                SubagentStop,
                UserPromptSubmit,
                PreCompact,
            ],
        },
        Sdk {
            name: "cc-hooks-ts 2.1.251 (npm)",
            program: node("cc_hooks_ts_driver.mjs"),
            // Every event it knows: Claude Code's documented ones (the undocumented
            // `PreSkillShellCommand` is not in its schema).
            events: EventName::ALL.iter().copied().filter(|e| *e != PreSkillShellCommand).collect(),
        },
    ]
}

/// An engine with one hook per event, each running the SDK driver in `mode`.
fn engine(sdk: &Sdk, mode: &str, records: &Path, project: &Path) -> Result<Engine, String> {
    let mut hooks = serde_json::Map::new();
    for event in &sdk.events {
        let record = records.join(format!(
            "{}-{mode}-{event}",
            sdk.name.split(' ').next().unwrap_or("sdk").replace('/', "_")
        ));
        let mut args: Vec<String> = sdk.program[1..].to_vec();
        args.push(mode.to_owned());
        args.push(record.display().to_string());
        hooks.insert(event.as_str().to_owned(), json!([{"hooks": [{"type": "command", "command": sdk.program[0], "args": args, "timeout": 60}]}]));
    }
    let text = json!({ "hooks": hooks }).to_string();
    let config = Loader::new()
        .settings_text(project.join(".claude/settings.json"), &text, Scope::Project)
        .finish()
        .map_err(|e| e.to_string())?;
    Engine::builder(config).host(HostEnv::new(project)).build().map_err(|e| e.to_string())
}

fn record_of(records: &[Record]) -> String {
    records
        .iter()
        .map(|r| {
            format!(
                "{} {:?} {}",
                r.status.as_str(),
                r.exit_code,
                r.message.clone().unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

async fn fire<I: TypedInput>(
    engine: &Engine,
) -> Result<(hooks_claude::Fired<I::Decision>, String), String> {
    let input: I = serde_json::from_value(Value::Object(samples::payload_of(I::EVENT)))
        .map_err(|e| format!("the sample of {} does not read back: {e}", I::EVENT))?;
    let fired = engine.fire(&input).await;
    let records = record_of(&fired.records());
    Ok((fired, records))
}

/// Checks one answer of one SDK on one event; `Err` says what was wrong.
async fn decision(engine: &Engine, event: EventName, mode: &str) -> Result<(), String> {
    use hooks_claude::input::*;
    let fail = |what: String, records: String| Err(format!("{what} (records: {records})"));
    match (event, mode) {
        (EventName::PreToolUse, "deny" | "block") => {
            let (f, r) = fire::<PreToolUse>(engine).await?;
            match f.decision.permission {
                ToolPermission::Deny { .. } => Ok(()),
                other => fail(format!("expected deny, got {other:?}"), r),
            }
        }
        (EventName::PreToolUse, "ask") => {
            let (f, r) = fire::<PreToolUse>(engine).await?;
            match f.decision.permission {
                ToolPermission::Ask { reason: Some(reason) } if reason.contains("ask") => Ok(()),
                other => fail(format!("expected ask, got {other:?}"), r),
            }
        }
        (EventName::Stop, "block") => {
            let (f, r) = fire::<Stop>(engine).await?;
            match f.decision.continuation {
                Continuation::Continue { .. } => Ok(()),
                other => fail(format!("expected the turn to continue, got {other:?}"), r),
            }
        }
        (EventName::UserPromptSubmit, "block") => {
            let (f, r) = fire::<UserPromptSubmit>(engine).await?;
            match f.decision.permission {
                PromptPermission::Block { .. } => Ok(()),
                other => fail(format!("expected the prompt blocked, got {other:?}"), r),
            }
        }
        (EventName::UserPromptSubmit, "context") => {
            let (f, r) = fire::<UserPromptSubmit>(engine).await?;
            if f.decision
                .context
                .iter()
                .any(|c| c.text.contains("context") && c.source.dialect == "claude")
            {
                Ok(())
            } else {
                fail(format!("expected context, got {:?}", f.decision.context), r)
            }
        }
        (EventName::PostToolUse, "block") => {
            let (f, r) = fire::<PostToolUse>(engine).await?;
            if f.decision.feedback.is_some() {
                Ok(())
            } else {
                fail("expected blocking feedback".to_owned(), r)
            }
        }
        (EventName::PostToolUse, "context") => {
            let (f, r) = fire::<PostToolUse>(engine).await?;
            if f.decision.context.iter().any(|c| c.text.contains("context")) {
                Ok(())
            } else {
                fail("expected context".to_owned(), r)
            }
        }
        (EventName::SessionStart, "context") => {
            let (f, r) = fire::<SessionStart>(engine).await?;
            if f.decision.context.iter().any(|c| c.text.contains("context")) {
                Ok(())
            } else {
                fail("expected context".to_owned(), r)
            }
        }
        _ => Err(format!("no check for {event} / {mode}")),
    }
}

/// The (event, answer) pairs checked for an SDK, among the events it supports.
fn answers(sdk: &Sdk) -> Vec<(EventName, &'static str)> {
    use EventName::*;
    let mut out = vec![
        (PreToolUse, "deny"),
        (PreToolUse, "ask"),
        (Stop, "block"),
        (UserPromptSubmit, "block"),
        (PostToolUse, "block"),
    ];
    if sdk.events.contains(&SessionStart) {
        out.push((SessionStart, "context"));
    }
    out.push((UserPromptSubmit, "context"));
    out.push((PostToolUse, "context"));
    out.retain(|(e, _)| sdk.events.contains(e));
    out
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> ExitCode {
    let Some(dir) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: conformance DIR");
        return ExitCode::FAILURE;
    };
    let records = dir.join("records");
    let project = dir.join("project");
    for d in [&records, &project] {
        let _ = std::fs::remove_dir_all(d);
        if let Err(e) = std::fs::create_dir_all(d) {
            eprintln!("cannot create `{}`: {e}", d.display());
            return ExitCode::FAILURE;
        }
    }
    let mut failures = Vec::new();
    let mut passed = 0;
    for sdk in sdks(&dir) {
        let accept = match engine(&sdk, "accept", &records, &project) {
            Ok(e) => e,
            Err(e) => {
                failures.push(format!("{}: {e}", sdk.name));
                continue;
            }
        };
        let mut accepted = 0;
        for &event in &sdk.events {
            let ev = hooks_claude::event_from_payload(event.as_str(), samples::payload_of(event));
            let report = accept.dispatcher().dispatch(&ev).await;
            let record = records.join(format!(
                "{}-accept-{event}",
                sdk.name.split(' ').next().unwrap_or("sdk").replace('/', "_")
            ));
            let seen =
                std::fs::read_to_string(&record).unwrap_or_else(|e| format!("no record: {e}"));
            if seen == format!("accepted: {event}") {
                accepted += 1;
            } else {
                let rec: Vec<_> = report.records.iter().map(Record::from_record).collect();
                failures.push(format!(
                    "{}: {event} payload not accepted: {seen} (records: {})",
                    sdk.name,
                    record_of(&rec)
                ));
            }
        }
        let mut decided = 0;
        let checks = answers(&sdk);
        for &(event, mode) in &checks {
            let result = match engine(&sdk, mode, &records, &project) {
                Ok(engine) => decision(&engine, event, mode).await,
                Err(e) => Err(e),
            };
            match result {
                Ok(()) => decided += 1,
                Err(e) => failures.push(format!("{}: {event} {mode}: {e}", sdk.name)),
            }
        }
        println!(
            "{:<52} payloads accepted {accepted:>2}/{:<2}  answers decoded {decided}/{}",
            sdk.name,
            sdk.events.len(),
            checks.len()
        );
        passed += accepted + decided;
    }
    for f in &failures {
        eprintln!("FAILED {f}");
    }
    println!("conformance: {passed} passed, {} failed", failures.len());
    if failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
