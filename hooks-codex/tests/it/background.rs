//! `async` hooks: started with the event and never waited for; what they say is queued and
//! delivered with the next accepted user turn, in Codex's words.

use std::time::{Duration, Instant};

use hooks_codex::{EventName, Loader, Scope};
use serde_json::json;

use crate::support::*;

/// The pid an endless hook wrote to `file` once it started.
async fn started(file: &std::path::Path) -> u32 {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        if let Ok(pid) = text.trim().parse::<u32>() {
            return pid;
        }
        assert!(Instant::now() < deadline, "the hook did not start");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// An engine whose `async` Stop hook runs for a minute, started: the engine, the hook's
/// command and its pid.
async fn endless_async_hook(p: &Project) -> (hooks_codex::Engine, String, u32) {
    let pid_file = p.path().join("pid");
    let endless = p.script(
        "endless.sh",
        &format!("cat > /dev/null; echo $$ > '{}'; exec sleep 60", pid_file.display()),
    );
    let engine = p.engine(async_on("Stop", &endless));
    engine.run_json(EventName::Stop, object(json!({"stop_hook_active": false}))).await;
    (engine, endless, started(&pid_file).await)
}

/// Waits up to 5 s for `pid` to be gone, and says whether it is.
async fn gone(pid: u32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while test_support::alive(pid) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    !test_support::alive(pid)
}

/// An `async` handler on `event`.
fn async_on(event: &str, command: &str) -> serde_json::Value {
    json!({ event: [{"hooks": [{"type": "command", "command": command, "async": true}]}] })
}

fn merge(a: serde_json::Value, b: serde_json::Value) -> serde_json::Value {
    let mut a = a.as_object().cloned().unwrap();
    a.extend(b.as_object().cloned().unwrap());
    serde_json::Value::Object(a)
}

#[tokio::test(flavor = "multi_thread")]
async fn an_async_hook_never_holds_up_or_changes_the_event_and_its_context_comes_later() {
    let p = Project::new();
    let slow = p.script(
        "slow.sh",
        "cat > /dev/null; sleep 0.3; \
         echo '{\"decision\": \"block\", \"reason\": \"ignored\", \"hookSpecificOutput\": \
         {\"hookEventName\": \"PostToolUse\", \"additionalContext\": \"lint found 2 warnings\"}}'",
    );
    let engine = p.engine(async_on("PostToolUse", &slow));
    let input = test_support::object(
        json!({"tool_name": "Bash", "tool_input": {"command": "make"}, "tool_response": "ok"}),
    );
    let started = Instant::now();
    let run = engine.run_json(EventName::PostToolUse, input).await;
    assert!(started.elapsed() < Duration::from_millis(250), "not waited for");
    assert!(run.report.records.is_empty(), "no record: it is not part of the event");
    assert!(run.report.merged.decision.is_none(), "its block is not the event's");
    assert_eq!(engine.async_running(), 1);
    assert_eq!(engine.take_async_output(), None, "nothing yet");

    let (outputs, ended) = engine.settle_async(Duration::from_secs(5)).await;
    assert!(ended.is_empty());
    assert_eq!(outputs.len(), 1);
    assert_eq!(outputs[0].text, "lint found 2 warnings");
}

#[tokio::test(flavor = "multi_thread")]
async fn what_async_hooks_say_is_delivered_once_oldest_first_in_one_developer_message() {
    let p = Project::new();
    let say = |name: &str, body: &str| p.script(name, &format!("cat > /dev/null; {body}"));
    // Each waits for the one before it to have ended (a marker file, then a moment), so that
    // they end in this order.
    let (first, second) = (p.path().join("first"), p.path().join("second"));
    let wait_for = |file: &std::path::Path| {
        format!("while [ ! -e '{}' ]; do sleep 0.05; done; sleep 0.3;", file.display())
    };
    let context = say(
        "context.sh",
        &format!(
            "echo '{{\"hookSpecificOutput\": {{\"hookEventName\": \"UserPromptSubmit\", \
             \"additionalContext\": \"branch is main\"}}}}'; : > '{}'",
            first.display()
        ),
    );
    let fails =
        say("fails.sh", &format!("{} : > '{}'; exit 3", wait_for(&first), second.display()));
    let plain = say("plain.sh", &format!("{} echo not json", wait_for(&second)));
    let silent = say("silent.sh", "true");
    let stop = say("stop.sh", "echo '{\"hookSpecificOutput\": {\"additionalContext\": \"x\"}}'");
    let hooks = merge(
        json!({"UserPromptSubmit": [{"hooks": [
            {"type": "command", "command": context, "async": true},
            {"type": "command", "command": fails, "async": true},
            {"type": "command", "command": plain, "async": true},
            {"type": "command", "command": silent, "async": true},
        ]}]}),
        async_on("Stop", &stop),
    );
    let engine = p.engine(hooks);
    engine.run_json(EventName::UserPromptSubmit, object(json!({"prompt": "go"}))).await;
    engine.run_json(EventName::Stop, object(json!({"stop_hook_active": false}))).await;
    let deadline = Instant::now() + Duration::from_secs(5);
    while engine.async_running() > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let message = engine.take_async_output().unwrap();
    assert_eq!(
        message,
        "<async_hook_outputs>\n\
         <async_hook_output event=\"UserPromptSubmit\">\nbranch is main\n</async_hook_output>\n\
         <async_hook_output event=\"UserPromptSubmit\">\nAsync hook exited with code 3\n</async_hook_output>\n\
         <async_hook_output event=\"UserPromptSubmit\">\nAsync UserPromptSubmit hook returned invalid JSON output\n</async_hook_output>\n\
         </async_hook_outputs>",
        "in the order they ended; a silent hook and a Stop hook's context say nothing"
    );
    assert_eq!(engine.take_async_output(), None, "delivered once");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_batch_holds_what_fits_and_the_rest_waits_for_the_next_turn() {
    let p = Project::new();
    // Each says about 1,600 bytes (400 approximate tokens): two fit in a batch, not three.
    let long = p.script(
        "long.sh",
        "cat > /dev/null; text=$(printf 'w%.0s' $(seq 1 1600)); \
         printf '{\"hookSpecificOutput\": {\"additionalContext\": \"%s\"}}' \"$text\"",
    );
    let engine = p.engine(async_on("SessionStart", &long));
    for _ in 0..3 {
        engine.run_json(EventName::SessionStart, object(json!({"source": "startup"}))).await;
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    while engine.async_running() > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let first = engine.take_async_output().unwrap();
    assert_eq!(first.matches("<async_hook_output ").count(), 2, "{}", first.len());
    assert!(first.len().div_ceil(4) <= 1_000);
    let second = engine.take_async_output().unwrap();
    assert_eq!(second.matches("<async_hook_output ").count(), 1);
    assert_eq!(engine.take_async_output(), None);
}

#[tokio::test(flavor = "multi_thread")]
async fn settling_ends_what_still_runs_and_names_it() {
    let p = Project::new();
    let (engine, endless, pid) = endless_async_hook(&p).await;
    let (outputs, ended) = engine.settle_async(Duration::from_millis(100)).await;
    assert!(outputs.is_empty());
    assert_eq!(ended, [endless]);
    assert_eq!(engine.async_running(), 0);
    assert!(gone(pid).await, "its process was killed");
}

#[test]
fn an_async_hook_loads_without_a_warning() {
    let p = Project::new();
    let path = p.hooks_json(async_on("Stop", "true"));
    let mut loader = Loader::new().trust_all(true);
    loader.hooks_json(&path, Scope::Project);
    let config = loader.finish();
    assert!(config.diagnostics.is_empty(), "{:?}", config.diagnostics);
    assert!(config.entries[0].is_async);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_engine_that_goes_ends_its_async_hooks() {
    let p = Project::new();
    let (engine, _, pid) = endless_async_hook(&p).await;
    drop(engine);
    assert!(gone(pid).await, "its process was killed with the engine");
}
