//! How to write a dialect: RubynCode's subprocess executor protocol, in one file.
//!
//! A dialect is a type that implements [`Hook`]: it says who it is ([`HookInfo`]), and for an
//! event the dispatcher matched to it, it returns a [`HookOutcome`]. Everything else comes from
//! `hook-protocol`. This example depends on nothing else, so it shows exactly what the core
//! gives a dialect author:
//!
//! 1. **The wire payload**: read the neutral [`Event`] (its [`Common`] facts and its seam's
//!    [`Payload`]) and build what your hooks expect on stdin. RubynCode sends one JSON line with
//!    camelCase keys: `hookEventName`, `sessionId`, and `toolName`, `toolInput`, `prompt` when
//!    the event has them.
//! 2. **The run**: describe it as an [`Invocation`] (exec form, explicit env and working
//!    directory, stdin bytes, timeout) and hand it to [`exec::run`], the only place in the
//!    workspace that starts processes. It returns a [`RawOutcome`]; a timeout is an outcome
//!    ([`Exit::TimedOut`]), an error means the process never started.
//! 3. **The output**: pick the [`codec`] rules your protocol uses. RubynCode reads stdout as
//!    one JSON object spanning the output or, failing that, the first parseable line of
//!    newline-delimited JSON: that is [`codec::sniff`]. Stderr is logged, never parsed.
//! 4. **The verdict**: map the answer onto a [`Verdict`] (no opinion, allow, ask, deny, with a
//!    reason, context, a rewritten input) and every failure onto [`HookOutcome::failure`]; the
//!    dispatcher applies the hook's [`FailurePolicy`], folds every hook's verdict most
//!    restrictively and keeps one record per hook.
//!
//! Run it with `cargo run -p hook-protocol --example rubyn_dialect`; its tests, with real `sh`
//! hooks, run with `cargo test -p hook-protocol --examples`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use async_trait::async_trait;
use hook_exec::{CommandSpec, Env, Invocation};
use hook_protocol::codec::{self, Stdout};
use hook_protocol::{
    Common, Decision, Dispatcher, Event, Exit, FailurePolicy, Hook, HookInfo, HookOutcome,
    HookStatus, Payload, PreToolDecision, ProcessFacts, RawOutcome, Seam, Source, ToolCall,
    Verdict,
};
use serde_json::{Map, Value, json};

/// RubynCode's default timeout, used when a hook entry gives none.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// One RubynCode hook: a command (with rarely used arguments), extra environment, a timeout.
#[derive(Debug)]
struct RubynHook {
    info: HookInfo,
    command: String,
    args: Vec<String>,
    env: BTreeMap<String, String>,
    project_root: PathBuf,
    timeout: Duration,
}

impl RubynHook {
    /// A hook on `seams` running `command` in `project_root`, with the default timeout.
    ///
    /// The identity is the core's [`HookInfo`]: an id, a label for records, the [`Source`] that
    /// labels everything the hook injects (never "the user"), the seams it is registered on, a
    /// priority and a failure policy. RubynCode has no matchers, so the default (match all)
    /// stays.
    fn new(
        id: &str,
        seams: Vec<Seam>,
        command: &str,
        args: &[&str],
        project_root: PathBuf,
    ) -> Self {
        let mut info = HookInfo::new(id, Source::new("rubyn", None));
        info.label = command.to_owned();
        info.on = hook_protocol::On::Seams(seams);
        info.failure_policy = FailurePolicy::FailOpen;
        Self {
            info,
            command: command.to_owned(),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            env: BTreeMap::new(),
            project_root,
            timeout: DEFAULT_TIMEOUT,
        }
    }

    fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
}

/// Step 1: the event name RubynCode uses for a seam (Claude Code's names).
fn event_name(event: &Event) -> &str {
    match event.seam() {
        Seam::SessionStart => "SessionStart",
        Seam::PromptSubmit => "UserPromptSubmit",
        Seam::PreTool => "PreToolUse",
        Seam::PermissionRequest => "PermissionRequest",
        Seam::PostTool => "PostToolUse",
        Seam::PostToolFailure => "PostToolUseFailure",
        Seam::TurnEnd => "Stop",
        Seam::SubagentStart => "SubagentStart",
        Seam::SubagentEnd => "SubagentStop",
        Seam::PreCompact => "PreCompact",
        Seam::Notification => "Notification",
        Seam::SessionEnd => "SessionEnd",
        _ => event.custom_name().unwrap_or("Custom"),
    }
}

/// Step 1: the JSON line a RubynCode hook reads on stdin.
fn wire_payload(event: &Event) -> Value {
    let mut payload = Map::new();
    payload.insert("hookEventName".into(), json!(event_name(event)));
    payload.insert("sessionId".into(), json!(event.common.session_id));
    if let Some(call) = event.payload.tool_call() {
        payload.insert("toolName".into(), json!(call.tool_name));
        payload.insert("toolInput".into(), call.tool_input.clone());
    }
    if let Payload::PromptSubmit(p) = &event.payload {
        payload.insert("prompt".into(), json!(p.prompt));
    }
    Value::Object(payload)
}

/// Step 3: stdout by RubynCode's rule; an empty output is an empty hash.
fn response(raw: &RawOutcome) -> Result<Map<String, Value>, String> {
    match codec::sniff(&raw.stdout) {
        Stdout::Empty => Ok(Map::new()),
        Stdout::Object(object) | Stdout::ObjectLine { object, .. } => Ok(object),
        Stdout::Text(text) => Err(format!("stdout is not JSON: {text}")),
        _ => Err("stdout could not be read".to_owned()),
    }
}

/// Step 4: the parsed hash as a verdict. RubynCode hands the hash to its caller; this example
/// reads `decision` (`allow`, `ask`, `block` or `deny`) and `reason`.
fn verdict(answer: &Map<String, Value>) -> Result<Verdict, String> {
    let reason = answer.get("reason").and_then(Value::as_str).map(str::to_owned);
    let decision = match answer.get("decision").and_then(Value::as_str) {
        None => return Ok(Verdict::none()),
        Some("allow") => Decision::Allow,
        Some("ask") => Decision::Ask,
        Some("block" | "deny") => Decision::Deny,
        Some(other) => return Err(format!("unknown decision `{other}`")),
    };
    Ok(Verdict::decide(decision, reason))
}

#[async_trait]
impl Hook for RubynHook {
    fn info(&self) -> &HookInfo {
        &self.info
    }

    async fn run(&self, event: &Event) -> HookOutcome {
        // Step 2: the invocation. Exec form (no shell), the project root as working
        // directory, the harness's environment plus the hook's, the payload on stdin only.
        let mut line = wire_payload(event).to_string().into_bytes();
        line.push(b'\n');
        let command = CommandSpec::exec(self.command.clone(), self.args.clone());
        let mut inv = Invocation::new(command, self.project_root.clone(), self.timeout);
        let mut env = Env::inherit();
        for (k, v) in &self.env {
            env.set(k, v);
        }
        inv.env = env;
        inv.stdin = line.into();
        let raw = match hook_exec::run(&inv).await {
            Ok(raw) => raw,
            Err(e) => return HookOutcome::failure(HookStatus::SpawnFailed, e.to_string()),
        };
        // Stderr is logged, not parsed.
        if !raw.stderr.is_empty() {
            tracing::info!(target: "hooks", hook = %self.info.id, stderr = %raw.stderr_text(), "rubyn hook stderr");
        }
        let mut outcome = match raw.exit {
            Exit::TimedOut { .. } => HookOutcome::failure(
                HookStatus::TimedOut,
                format!(
                    "hook command `{}` timed out after {}s",
                    self.command,
                    self.timeout.as_secs_f64()
                ),
            ),
            Exit::Code { code: 0 } => match response(&raw).and_then(|answer| verdict(&answer)) {
                Ok(v) => HookOutcome::success(v),
                Err(e) => HookOutcome::failure(HookStatus::Failed, e),
            },
            other => {
                HookOutcome::failure(HookStatus::Failed, format!("hook command failed: {other}"))
            }
        };
        outcome.process = Some(ProcessFacts::from_outcome(&raw));
        outcome
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let guard = RubynHook::new(
        "no-rm",
        vec![Seam::PreTool],
        "/bin/sh",
        &["-c", r#"grep -q '"rm ' && echo '{"decision": "deny", "reason": "no rm"}' || true"#],
        std::env::temp_dir(),
    )
    .with_timeout(Duration::from_secs(10));
    let dispatcher = match Dispatcher::builder().hook(guard).build() {
        Ok(d) => d,
        Err(e) => return report(&format!("cannot build the dispatcher: {e}")),
    };
    for command in ["ls -la", "rm -rf build"] {
        let event = Event::new(
            Common::new("demo", std::env::temp_dir()),
            Payload::PreTool(ToolCall::new("Bash", json!({"command": command}))),
        );
        let decision: PreToolDecision = dispatcher.dispatch(&event).await.decision();
        report(&format!("{command}: {:?}", decision.permission));
    }
}

#[expect(clippy::print_stdout, reason = "the example shows its result")]
fn report(line: &str) {
    println!("{line}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> RubynHook {
        RubynHook::new(
            "t",
            vec![Seam::PreTool, Seam::PromptSubmit],
            "/bin/sh",
            &["-c", script],
            "/".into(),
        )
    }

    fn bash(command: &str) -> Event {
        Event::new(
            Common::new("sess-1", "/"),
            Payload::PreTool(ToolCall::new("Bash", json!({"command": command}))),
        )
    }

    #[test]
    fn payload_is_camel_case() {
        assert_eq!(
            wire_payload(&bash("ls")),
            json!({"hookEventName": "PreToolUse", "sessionId": "sess-1", "toolName": "Bash", "toolInput": {"command": "ls"}})
        );
        let prompt = Event::new(Common::new("s", "/"), hook_protocol::PromptSubmit::new("hi"));
        assert_eq!(
            wire_payload(&prompt),
            json!({"hookEventName": "UserPromptSubmit", "sessionId": "s", "prompt": "hi"})
        );
        assert_eq!(sh("true").timeout, Duration::from_secs(60));
    }

    #[tokio::test]
    async fn the_hook_reads_one_line_on_stdin() {
        let hook = sh(r#"read -r line; case "$line" in
            *'"toolName":"Bash"'*) echo '{"decision": "block", "reason": "no bash"}';;
            *) echo '{}';;
        esac"#);
        let o = hook.run(&bash("ls")).await;
        assert_eq!(o.verdict, Verdict::deny("no bash"));
    }

    #[tokio::test]
    async fn first_parseable_ndjson_line_wins_and_stderr_is_not_parsed() {
        let hook = sh(
            r#"echo 'starting'; echo '{"decision": "ask", "reason": "sure?"}'; echo '{"decision": "deny"}'; echo '{"decision": "deny"}' >&2"#,
        );
        let o = hook.run(&bash("ls")).await;
        assert_eq!(o.status, HookStatus::Success);
        assert_eq!(o.verdict, Verdict::decide(Decision::Ask, Some("sure?".into())));
        assert_eq!(o.process.map(|p| p.stderr_tail), Some(r#"{"decision": "deny"}"#.to_owned()));
    }

    #[tokio::test]
    async fn empty_output_is_no_opinion_and_failures_fail() {
        assert_eq!(sh("cat >/dev/null").run(&bash("ls")).await.verdict, Verdict::none());
        let failed = sh("exit 1").run(&bash("ls")).await;
        assert_eq!(failed.status, HookStatus::Failed);
        assert_eq!(failed.failure.as_deref(), Some("hook command failed: exit status 1"));
        let slow = sh("sleep 30").with_timeout(Duration::from_millis(200)).run(&bash("ls")).await;
        assert_eq!(slow.status, HookStatus::TimedOut);
        assert_eq!(slow.failure.as_deref(), Some("hook command `/bin/sh` timed out after 0.2s"));
        let text = sh("echo hello").run(&bash("ls")).await;
        assert_eq!(text.failure.as_deref(), Some("stdout is not JSON: hello"));
    }

    #[tokio::test]
    async fn it_sits_on_a_dispatcher_like_any_hook() {
        let mut closed = sh("exit 3");
        closed.info.failure_policy = FailurePolicy::FailClosed;
        let d = Dispatcher::builder()
            .hook(sh(r#"echo '{"decision": "allow"}'"#))
            .hook(closed)
            .build()
            .unwrap();
        let report = d.dispatch(&bash("ls")).await;
        assert_eq!(report.merged.decision, Some(Decision::Deny), "the failing hook fails closed");
        assert_eq!(report.records.len(), 2);
    }
}
