//! What a harness's loop gets from a session, with real `sh` hooks: one interrupt handle for
//! every step, `PostToolBatch`'s `tool_calls` filled from the batch's calls, and a typed error
//! for a session that was never told where its transcript is.

use std::time::{Duration, Instant};

use hook_protocol::{HookStatus, ToolPermission};
use hooks_claude::input::{
    Base, BatchCall, PostToolBatch, PostToolUse, PostToolUseFailure, SessionStart, Stop,
};
use hooks_claude::{Phase, PromptAnswer, SessionError};
use serde_json::{Value, json};

use crate::session::{Project, bash, command, gone, lines, start};

#[tokio::test]
async fn the_interrupt_handle_stops_the_running_step_and_no_later_one() {
    let p = Project::new("loop-interrupt");
    let pids = p.dir.join("pids");
    let slow = p.script(
        "slow.sh",
        &format!(
            "case \"$(cat)\" in *make*) ;; *) exit 0;; esac\nsleep 300 &\necho $! >> '{pids}'\necho $$ >> '{pids}'\nwait",
            pids = pids.display()
        ),
    );
    let mut s = p.session(json!({"PreToolUse": [{"hooks": [command(&slow)]}]}));
    s.session_start(&start("interrupt-1"), None).await.unwrap();
    // Taken once, used from another task: no token per step.
    let interrupter = s.interrupter();
    let watch = pids.clone();
    let pressed = tokio::spawn(async move {
        lines(&watch, 2).await;
        interrupter.interrupt();
    });
    let started = Instant::now();
    let step = s.pre_tool_use(&bash("make", "toolu_1"), None).await.unwrap();
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
    pressed.await.unwrap();
    assert!(step.cancelled());
    assert_eq!(step.decision.permission, ToolPermission::Interrupted);
    assert_eq!(step.shown.tool_result().map(|r| r.is_error), Some(true));
    for pid in lines(&pids, 2).await {
        assert!(gone(&pid).await, "process {pid} of the interrupted hook's tree is gone");
    }
    // The interrupt was for that step: the next one runs its hooks to the end.
    s.interrupter().interrupt();
    let next = s.pre_tool_use(&bash("ls", "toolu_2"), None).await.unwrap();
    assert!(!next.cancelled());
    assert_eq!(next.records()[0].status, HookStatus::Success);
    assert_eq!(next.decision.permission, ToolPermission::NoOpinion);
}

#[tokio::test]
async fn post_tool_batch_lists_the_calls_of_the_batch_with_what_the_model_got() {
    let p = Project::new("loop-batch");
    let deny = p.script(
        "deny.sh",
        "case \"$(cat)\" in *curl*) echo 'no downloads' >&2; exit 2;; *push*) echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"permissionDecision\": \"ask\"}}';; esac",
    );
    let seen = p.dir.join("batch.json");
    let record = p.script("record.sh", &format!("cat > '{}'", seen.display()));
    let mut s = p.session(json!({
        "PreToolUse": [{"hooks": [command(&deny)]}],
        "PostToolBatch": [{"hooks": [command(&record)]}],
    }));
    s.session_start(&start("batch-1"), None).await.unwrap();

    // Ran, failed, refused by a hook, refused at the prompt, and one still without a result.
    s.pre_tool_use(&bash("cargo build", "toolu_ran"), None).await.unwrap();
    s.pre_tool_use(&bash("cargo test", "toolu_failed"), None).await.unwrap();
    let denied = s.pre_tool_use(&bash("curl x | sh", "toolu_denied"), None).await.unwrap();
    let asked = s.pre_tool_use(&bash("git push", "toolu_refused"), None).await.unwrap();
    assert!(matches!(asked.decision.permission, ToolPermission::Ask { .. }));
    let refusal = s.answer_prompt("toolu_refused", &PromptAnswer::Refused).unwrap();
    s.pre_tool_use(&bash("sleep 1", "toolu_open"), None).await.unwrap();
    let ran = PostToolUse {
        tool_name: "Bash".into(),
        tool_input: json!({"command": "cargo build"}),
        tool_response: json!({"stdout": "built", "stderr": ""}),
        tool_use_id: "toolu_ran".into(),
        ..PostToolUse::default()
    };
    s.post_tool_use(&ran, None).await.unwrap();
    let failed = PostToolUseFailure {
        tool_name: "Bash".into(),
        tool_input: json!({"command": "cargo test"}),
        tool_use_id: "toolu_failed".into(),
        error: "Exit code 101".into(),
        ..PostToolUseFailure::default()
    };
    s.post_tool_use_failure(&failed, None).await.unwrap();

    let step = s.post_tool_batch(&PostToolBatch::default(), None).await.unwrap();
    let sent: Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
    let calls: Vec<(&str, &Value)> = sent["tool_calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["tool_use_id"].as_str().unwrap(), &c["tool_response"]))
        .collect();
    let denied_text = json!(denied.shown.tool_result().unwrap().text);
    let refused_text = json!(refusal.tool_result().unwrap().text);
    assert_eq!(
        calls,
        [
            ("toolu_ran", &json!({"stdout": "built", "stderr": ""})),
            ("toolu_failed", &json!("Exit code 101")),
            ("toolu_denied", &denied_text),
            ("toolu_refused", &refused_text),
        ]
    );
    assert_eq!(sent["tool_calls"][0]["tool_name"], "Bash");
    assert_eq!(sent["tool_calls"][0]["tool_input"], json!({"command": "cargo build"}));
    assert!(denied_text.as_str().unwrap().contains("no downloads"), "{denied_text}");
    let warned: Vec<&String> = step.warnings.iter().filter(|w| w.contains("toolu_open")).collect();
    assert_eq!(warned.len(), 1, "{:?}", step.warnings);
    assert!(warned[0].contains("has no result yet"), "{warned:?}");

    // The batch ended there: the next one starts empty, and a list the harness gives stands.
    s.pre_tool_use(&bash("ls", "toolu_next"), None).await.unwrap();
    let own = PostToolBatch {
        tool_calls: vec![BatchCall {
            tool_name: "Read".into(),
            tool_input: json!({"file_path": "/x"}),
            tool_use_id: "toolu_own".into(),
            tool_response: json!("x"),
        }],
        ..PostToolBatch::default()
    };
    s.post_tool_batch(&own, None).await.unwrap();
    let sent: Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
    assert_eq!(sent["tool_calls"].as_array().unwrap().len(), 1);
    assert_eq!(sent["tool_calls"][0]["tool_use_id"], "toolu_own");
    s.post_tool_batch(&PostToolBatch::default(), None).await.unwrap();
    let sent: Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
    assert_eq!(sent["tool_calls"], json!([]), "toolu_next went with the harness's batch");
}

#[tokio::test]
async fn a_session_never_told_its_transcript_is_a_typed_error() {
    let p = Project::new("loop-transcript");
    let seen = p.dir.join("stop.json");
    let record = p.script("record.sh", &format!("cat > '{}'", seen.display()));
    let mut s = p.session(json!({"Stop": [{"hooks": [command(&record)]}]}));
    let bare = SessionStart { source: "startup".into(), ..SessionStart::default() };
    let err = s.session_start(&bare, None).await.unwrap_err();
    assert_eq!(err, SessionError::NoTranscriptPath { event: "SessionStart".into() });
    assert!(err.to_string().contains("give the transcript's path"), "{err}");
    assert_eq!(s.phase(), Phase::NotStarted, "nothing happened");
    // Resumed without one: the first step is refused the same way.
    assert!(s.resume());
    let err = s.stop(&Stop::default(), None).await.unwrap_err();
    assert_eq!(err, SessionError::NoTranscriptPath { event: "Stop".into() });
    assert!(!seen.exists(), "no hook ran");
    // Once a step names it, later steps may leave it out: hooks get it.
    let named = Stop { base: Base::new("", "/t/transcript.jsonl", ""), ..Stop::default() };
    s.stop(&named, None).await.unwrap();
    std::fs::remove_file(&seen).unwrap();
    s.stop(&Stop::default(), None).await.unwrap();
    let sent: Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
    assert_eq!(sent["transcript_path"], "/t/transcript.jsonl");
}

#[tokio::test]
async fn a_step_says_which_hook_decided_and_every_record_carries_its_verdict() {
    let p = Project::new("loop-decided");
    let deny = |word: &str| {
        format!(
            "cat > /dev/null\necho '{{\"hookSpecificOutput\": {{\"hookEventName\": \"PreToolUse\", \"permissionDecision\": \"deny\", \"permissionDecisionReason\": \"{word}\"}}}}'"
        )
    };
    let first = p.script("first.sh", &deny("first says no"));
    let quiet = p.script("quiet.sh", "cat > /dev/null");
    let last = p.script("last.sh", &deny("last says no"));
    let mut s = p.session(
        json!({"PreToolUse": [{"hooks": [command(&first), command(&quiet), command(&last)]}]}),
    );
    s.session_start(&start("decided-1"), None).await.unwrap();
    let step = s.pre_tool_use(&bash("rm -rf /", "toolu_1"), None).await.unwrap();
    // Between two denies the last in configuration order gives the reason: it decided.
    let who = step.decided_by().unwrap();
    assert_eq!(who.command, last);
    assert_eq!(who.source.dialect, "claude");
    assert_eq!(who.verdict.reason.as_deref(), Some("last says no"));
    let verdicts: Vec<Option<hook_protocol::Decision>> =
        step.records().iter().map(|r| r.verdict.decision).collect();
    use hook_protocol::Decision::Deny;
    assert_eq!(verdicts, [Some(Deny), None, Some(Deny)]);
    // No hook decided: nobody.
    let mut quiet_session = p.session(json!({"PreToolUse": [{"hooks": [command(&quiet)]}]}));
    quiet_session.session_start(&start("decided-2"), None).await.unwrap();
    let step = quiet_session.pre_tool_use(&bash("ls", "toolu_2"), None).await.unwrap();
    assert!(step.decided_by().is_none());
}
