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
//! 5. **The door**: implement [`Dialect`] (find and read your agent's hook files into hooks
//!    plus [`Diagnostic`]s, check a file) and [`Loaded`] (list what would run for an event, run
//!    one event from its JSON input into an [`EventRun`]). A program that drives dialects (the
//!    `hooks` command) then runs yours with no code of its own for it: one registration. The
//!    hook file here is the example's own small list (`rubyn-hooks.json`: `event`, `command`,
//!    `args`, `timeout` in seconds); RubynCode itself reads Claude Code's settings files.
//!
//! Run it with `cargo run -p hook-exec --example rubyn_dialect`; its tests, with real `sh`
//! hooks, run with `cargo test -p hook-exec --examples`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use async_trait::async_trait;
use hook_exec::{CommandSpec, Env, Invocation};
use hook_protocol::codec::{self, Stdout};
use hook_protocol::{
    Claim, Common, Decision, DecisionWord, Diagnostic, Dialect, DialectError, Dispatcher, Event,
    EventRun, Exit, FailurePolicy, FileKind, Hook, HookInfo, HookLine, HookOutcome, HookStatus,
    Listed, LoadRequest, Loaded, Payload, Position, ProcessFacts, PromptSubmit, RawOutcome, Seam,
    Session, Source, ToolCall, TurnEnd, Verdict,
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
        info.failure_policy = FailurePolicy::OPEN;
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
        None => return Ok(Verdict::no_opinion()),
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

/// Step 5: the seam of each event name RubynCode uses (the reverse of [`event_name`]).
const EVENTS: [(&str, Seam); 12] = [
    ("SessionStart", Seam::SessionStart),
    ("UserPromptSubmit", Seam::PromptSubmit),
    ("PreToolUse", Seam::PreTool),
    ("PermissionRequest", Seam::PermissionRequest),
    ("PostToolUse", Seam::PostTool),
    ("PostToolUseFailure", Seam::PostToolFailure),
    ("Stop", Seam::TurnEnd),
    ("SubagentStart", Seam::SubagentStart),
    ("SubagentStop", Seam::SubagentEnd),
    ("PreCompact", Seam::PreCompact),
    ("Notification", Seam::Notification),
    ("SessionEnd", Seam::SessionEnd),
];

fn seam_of(event: &str) -> Result<Seam, DialectError> {
    EVENTS.iter().find(|(name, _)| *name == event).map(|(_, seam)| *seam).ok_or_else(|| {
        DialectError::UnknownEvent {
            what: "RubynCode event".to_owned(),
            event: event.to_owned(),
            hint: String::new(),
        }
    })
}

/// Step 5: the dialect, the one value a program that drives dialects registers.
#[derive(Debug, Clone, Copy)]
struct Rubyn;

/// The hooks of a `rubyn-hooks.json`, each with the problems found on the way.
fn read(path: &Path, text: &str, root: &Path) -> (Vec<RubynHook>, Vec<Diagnostic>) {
    let mut problems = Vec::new();
    let list: Vec<Map<String, Value>> = match serde_json::from_str(text) {
        Ok(list) => list,
        Err(e) => {
            let at = Position::new(e.line(), e.column());
            problems.push(Diagnostic::error(path, at, format!("not a list of hooks: {e}")));
            return (Vec::new(), problems);
        }
    };
    let mut hooks = Vec::new();
    for (i, entry) in list.iter().enumerate() {
        let text_of = |key: &str| entry.get(key).and_then(Value::as_str);
        let (Some(event), Some(command)) = (text_of("event"), text_of("command")) else {
            let message = format!("hook {i}: `event` and `command` are required");
            problems.push(Diagnostic::error(path, Position::default(), message));
            continue;
        };
        let seam = match seam_of(event) {
            Ok(seam) => seam,
            Err(e) => {
                problems.push(Diagnostic::error(
                    path,
                    Position::default(),
                    format!("hook {i}: {e}"),
                ));
                continue;
            }
        };
        let args: Vec<&str> = entry
            .get("args")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut hook =
            RubynHook::new(&format!("rubyn:{i}"), vec![seam], command, &args, root.into());
        if let Some(secs) = entry.get("timeout").and_then(Value::as_f64).filter(|s| *s > 0.0) {
            hook = hook.with_timeout(Duration::from_secs_f64(secs));
        }
        hooks.push(hook);
    }
    (hooks, problems)
}

impl Dialect for Rubyn {
    fn name(&self) -> &'static str {
        "rubyn"
    }

    fn title(&self) -> &'static str {
        "RubynCode"
    }

    fn reads(&self, kind: FileKind) -> bool {
        kind == FileKind::Config
    }

    fn claims(&self, path: &Path, _text: &str) -> Claim {
        if path.file_name().is_some_and(|n| n == "rubyn-hooks.json") {
            Claim::Place
        } else {
            Claim::No
        }
    }

    fn check(&self, path: &Path, text: &str, project_dir: &Path) -> Vec<Diagnostic> {
        read(path, text, project_dir).1
    }

    fn load(&self, request: &LoadRequest) -> Result<Box<dyn Loaded>, DialectError> {
        let path = match request.files_of(FileKind::Config).next() {
            Some(path) => path.to_path_buf(),
            None => request.project_dir.join("rubyn-hooks.json"),
        };
        let text = std::fs::read_to_string(&path)
            .map_err(|e| DialectError::load(format!("cannot read `{}`: {e}", path.display())))?;
        let (hooks, diagnostics) = read(&path, &text, &request.project_dir);
        let mut builder = Dispatcher::builder();
        for hook in hooks {
            builder = builder.hook(hook);
        }
        let dispatcher = builder.build().map_err(|e| DialectError::load(e.to_string()))?;
        Ok(Box::new(RubynHooks { dispatcher, diagnostics, root: request.project_dir.clone() }))
    }
}

/// A `rubyn-hooks.json`, loaded.
#[derive(Debug)]
struct RubynHooks {
    dispatcher: Dispatcher,
    diagnostics: Vec<Diagnostic>,
    root: PathBuf,
}

impl RubynHooks {
    /// The neutral event of an input as RubynCode gives it (its own camelCase keys).
    fn event(&self, name: &str, input: &Map<String, Value>) -> Result<Event, DialectError> {
        let seam = seam_of(name)?;
        let text = |key: &str| input.get(key).and_then(Value::as_str).unwrap_or_default();
        let common = Common::new(text("sessionId"), self.root.clone());
        let payload = match seam {
            Seam::PreTool => {
                let tool = input.get("toolInput").cloned().unwrap_or(Value::Null);
                Payload::PreTool(ToolCall::new(text("toolName"), tool))
            }
            Seam::PromptSubmit => PromptSubmit::new(text("prompt")).into(),
            Seam::TurnEnd => TurnEnd::new().into(),
            _ => {
                return Err(DialectError::InvalidInput {
                    event: name.to_owned(),
                    message: "this example builds PreToolUse, UserPromptSubmit and Stop events \
                              only"
                        .to_owned(),
                    lenient_would_run: false,
                });
            }
        };
        Ok(Event::new(common, payload))
    }
}

#[async_trait]
impl Loaded for RubynHooks {
    fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    fn list(&self, event: &str, _subject: Option<&str>) -> Result<Vec<Listed>, DialectError> {
        let probe = self.event(event, &Map::new())?;
        let hooks = self.dispatcher.matching(&probe);
        Ok(hooks.iter().map(|h| Listed::new(h.info().label.clone(), "rubyn-hooks.json")).collect())
    }

    fn check_input(
        &self,
        event: &str,
        input: &Map<String, Value>,
        _filled: &[&str],
    ) -> Result<(), DialectError> {
        self.event(event, input).map(|_| ())
    }

    async fn run(&self, event: &str, input: Map<String, Value>) -> Result<EventRun, DialectError> {
        let report = self.dispatcher.dispatch(&self.event(event, &input)?).await;
        let mut run = EventRun::new(event);
        run.decision = DecisionWord::of(report.merged.decision, DecisionWord::Deny);
        run.reason = report.merged.reason();
        run.hooks = report.records.iter().map(HookLine::of).collect();
        Ok(run)
    }

    fn into_session(self: Box<Self>) -> Box<dyn Session> {
        hook_protocol::dialect::alone(self)
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    // A project with one RubynCode hook, read and run through the door as any program would.
    let project = std::env::temp_dir().join(format!("rubyn-example-{}", std::process::id()));
    let list = r#"[{"event": "PreToolUse", "command": "/bin/sh", "timeout": 10,
        "args": ["-c", "grep -q '\"rm ' && echo '{\"decision\": \"deny\", \"reason\": \"no rm\"}' || true"]}]"#;
    let written = std::fs::create_dir_all(&project)
        .and_then(|()| std::fs::write(project.join("rubyn-hooks.json"), list));
    if let Err(e) = written {
        return report(&format!("cannot write the example project: {e}"));
    }
    let dialect: &dyn Dialect = &Rubyn;
    let loaded = match dialect.load(&LoadRequest::new(&project)) {
        Ok(loaded) => loaded,
        Err(e) => return report(&format!("cannot load: {e}")),
    };
    for command in ["ls -la", "rm -rf build"] {
        let input =
            json!({"sessionId": "demo", "toolName": "Bash", "toolInput": {"command": command}});
        let input = input.as_object().cloned().unwrap_or_default();
        match loaded.run("PreToolUse", input).await {
            Ok(run) => {
                report(&format!("{command}: {} {}", run.decision, run.reason.unwrap_or_default()))
            }
            Err(e) => report(&format!("{command}: {e}")),
        }
    }
    let _ = std::fs::remove_dir_all(&project);
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
        assert_eq!(sh("cat >/dev/null").run(&bash("ls")).await.verdict, Verdict::no_opinion());
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
        closed.info.failure_policy = FailurePolicy::CLOSED;
        let d = Dispatcher::builder()
            .hook(sh(r#"echo '{"decision": "allow"}'"#))
            .hook(closed)
            .build()
            .unwrap();
        let report = d.dispatch(&bash("ls")).await;
        assert_eq!(report.merged.decision, Some(Decision::Deny), "the failing hook fails closed");
        assert_eq!(report.records.len(), 2);
    }

    #[tokio::test]
    async fn the_dialect_goes_through_the_door_a_program_drives() {
        let dir = std::env::temp_dir().join(format!("rubyn-door-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let list = r#"[{"event": "PreToolUse", "command": "/bin/sh", "args": ["-c", "grep -q rm && echo '{\"decision\": \"deny\", \"reason\": \"no rm\"}' || true"]},
                        {"event": "Bogus", "command": "x"}]"#;
        std::fs::write(dir.join("rubyn-hooks.json"), list).unwrap();
        // What a program holds: a `&dyn Dialect`, nothing of RubynCode's own.
        let dialect: &dyn Dialect = &Rubyn;
        assert_eq!(dialect.claims(&dir.join("rubyn-hooks.json"), list), Claim::Place);
        let loaded = dialect.load(&LoadRequest::new(&dir)).unwrap();
        let problems: Vec<String> = loaded.diagnostics().iter().map(ToString::to_string).collect();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].ends_with("error: hook 1: unknown RubynCode event `Bogus`"),
            "{problems:?}"
        );
        assert_eq!(loaded.list("PreToolUse", None).unwrap().len(), 1);
        let input =
            json!({"sessionId": "s", "toolName": "Bash", "toolInput": {"command": "rm -rf /"}});
        let run = loaded.run("PreToolUse", input.as_object().unwrap().clone()).await.unwrap();
        assert_eq!((run.decision, run.reason.as_deref()), (DecisionWord::Deny, Some("no rm")));
        assert_eq!(run.hooks[0].status, HookStatus::Success);
        let unknown = loaded.run("Nope", Map::new()).await.unwrap_err();
        assert_eq!(unknown.to_string(), "unknown RubynCode event `Nope`");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
