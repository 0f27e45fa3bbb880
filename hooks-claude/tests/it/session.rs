//! A `Session` driven end to end with real `sh` hooks: the Stop loop guard, skills and
//! `once`, async results on the next step, env files, the current directory, Ctrl-C, steps
//! out of order.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hook_protocol::{Continuation, HookStatus, ToolPermission};
use hooks_claude::input::{
    Base, CwdChanged, PermissionRequest, PostToolUse, PreToolUse, SessionEnd, SessionStart, Stop,
    UserPromptSubmit,
};
use hooks_claude::{CancellationToken, Engine, HostEnv, Placement, Session, SessionError};
use serde_json::{Value, json};

use crate::support::*;

/// A project with `.claude/settings.json` holding `hooks`, and a Claude home of its own.
pub(crate) struct Project {
    pub(crate) dir: Scratch,
}

impl Project {
    pub(crate) fn new(name: &str) -> Self {
        let dir = temp_dir(name);
        std::fs::create_dir_all(dir.join(".claude")).unwrap();
        std::fs::create_dir_all(dir.join("home/.claude")).unwrap();
        Self { dir }
    }

    pub(crate) fn home(&self) -> PathBuf {
        self.dir.join("home/.claude")
    }

    /// Writes an executable `sh` script under the project and returns its path.
    pub(crate) fn script(&self, name: &str, body: &str) -> String {
        test_support::script(self.dir.join(name), body).display().to_string()
    }

    pub(crate) fn session(&self, hooks: Value) -> Session {
        let config = load(&self.dir, &settings(hooks));
        let engine = Engine::builder(config)
            .host(HostEnv::new(&self.dir))
            .claude_home(self.home())
            .build()
            .unwrap();
        Session::new(engine)
    }

    pub(crate) fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.join(name)).unwrap_or_default()
    }
}

pub(crate) fn command(c: &str) -> Value {
    json!({"type": "command", "command": c})
}

pub(crate) fn start(id: &str) -> SessionStart {
    SessionStart {
        base: Base::new(id, "/t/transcript.jsonl", ""),
        source: "startup".into(),
        ..SessionStart::default()
    }
}

pub(crate) fn bash(command: &str, id: &str) -> PreToolUse {
    PreToolUse {
        tool_name: "Bash".into(),
        tool_input: json!({"command": command}),
        tool_use_id: id.into(),
        ..PreToolUse::default()
    }
}

fn alive(pid: &str) -> bool {
    pid.parse().is_ok_and(test_support::alive)
}

/// Whether process `pid` is gone within 5 s (a SIGKILL takes a moment to land).
pub(crate) async fn gone(pid: &str) -> bool {
    let started = Instant::now();
    while alive(pid) {
        if started.elapsed() > Duration::from_secs(5) {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    true
}

/// Waits until `path` holds `n` lines, at most 10 s.
pub(crate) async fn lines(path: &Path, n: usize) -> Vec<String> {
    let started = Instant::now();
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let got: Vec<String> = text.lines().map(str::to_owned).collect();
        if got.len() >= n || started.elapsed() > Duration::from_secs(10) {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

const GUARD_NOTICE: &str = "A hook blocked the turn from ending 9 consecutive times\u{2014}overriding and ending turn. For Stop/SubagentStop hooks, check stop_hook_active in the input and return success while it's true. Set CLAUDE_CODE_STOP_HOOK_BLOCK_CAP to raise this limit.";

#[tokio::test]
async fn ten_stop_blocks_in_a_row_are_overridden_on_the_ninth_with_claude_codes_notice() {
    let p = Project::new("session-guard");
    let seen = p.dir.join("seen");
    let hook = p.script(
        "stop.sh",
        &format!(
            "grep -o '\"stop_hook_active\":[a-z]*' >> '{}'\necho '{{\"decision\": \"block\", \"reason\": \"not yet\"}}'",
            seen.display()
        ),
    );
    let mut s = p.session(json!({"Stop": [{"hooks": [command(&hook)]}]}));
    s.session_start(&start("guard-1"), None).await.unwrap();
    let mut outcomes = Vec::new();
    for _ in 0..10 {
        let step = s.stop(&Stop::default(), None).await.unwrap();
        let guard = step.guard.unwrap();
        outcomes.push((
            guard.consecutive_blocks,
            guard.overridden,
            step.decision.continuation.clone(),
        ));
        if guard.overridden {
            assert_eq!(step.shown.user, [GUARD_NOTICE], "Claude Code's notice, once");
            assert!(step.decision.control.messages.is_empty(), "not twice");
            assert_eq!(step.decision.guard_override.as_ref().unwrap().message, GUARD_NOTICE);
            assert!(step.shown.model.is_empty(), "the turn ends: nothing for the model");
        } else {
            assert_eq!(step.shown.model[0].placement, Placement::User, "the block goes on");
        }
    }
    let more = Continuation::Continue { reason: Some("not yet".into()) };
    let expected: Vec<_> = (1..=8)
        .map(|n| (n, false, more.clone()))
        .chain([(9, true, Continuation::Stop), (1, false, more.clone())])
        .collect();
    assert_eq!(outcomes, expected);
    let flags = lines(&seen, 10).await;
    let active: Vec<bool> = flags.iter().map(|l| l.ends_with("true")).collect();
    let mut want = vec![false];
    want.extend([true; 8]);
    want.push(false);
    assert_eq!(active, want, "stop_hook_active as each Stop hook saw it");

    // A tool call starts the count again.
    let step = s.stop(&Stop::default(), None).await.unwrap();
    assert_eq!(step.guard.unwrap().consecutive_blocks, 2);
    s.pre_tool_use(&bash("ls", "toolu_1"), None).await.unwrap();
    let step = s.stop(&Stop::default(), None).await.unwrap();
    assert_eq!(step.guard.unwrap().consecutive_blocks, 1);
    assert_eq!(
        lines(&seen, 12).await.last().map(String::as_str),
        Some("\"stop_hook_active\":false")
    );
}

#[tokio::test]
async fn a_skills_hooks_start_after_its_skill_call_and_once_retires() {
    let p = Project::new("session-skill");
    let log = p.dir.join("log");
    let skill_dir = p.dir.join(".claude/skills/fmt");
    std::fs::create_dir_all(&skill_dir).unwrap();
    std::fs::write(
        skill_dir.join("SKILL.md"),
        format!(
            "---\nname: fmt\ndescription: Formats\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: echo once >> '{log}'\n          once: true\n        - type: command\n          command: echo always >> '{log}'\n---\nFormat the code.\n",
            log = log.display()
        ),
    )
    .unwrap();
    let mut s = p.session(json!({}));
    s.session_start(&start("skill-1"), None).await.unwrap();
    let before = s.pre_tool_use(&bash("ls", "toolu_1"), None).await.unwrap();
    assert!(before.report.records.is_empty(), "no skill hook before the Skill call");

    let call = PreToolUse {
        tool_name: "Skill".into(),
        tool_input: json!({"skill": "fmt"}),
        tool_use_id: "toolu_2".into(),
        ..PreToolUse::default()
    };
    let pre = s.pre_tool_use(&call, None).await.unwrap();
    assert!(pre.report.records.is_empty(), "not during its own call either");
    let post = PostToolUse {
        tool_name: "Skill".into(),
        tool_input: json!({"skill": "fmt"}),
        tool_response: json!({"success": true}),
        tool_use_id: "toolu_2".into(),
        ..PostToolUse::default()
    };
    let ran = s.post_tool_use(&post, None).await.unwrap();
    assert!(ran.warnings.is_empty(), "{:?}", ran.warnings);
    assert!(s.engine().skill_active("fmt"));

    let first = s.pre_tool_use(&bash("ls", "toolu_3"), None).await.unwrap();
    assert_eq!(first.report.records.len(), 2);
    let second = s.pre_tool_use(&bash("ls", "toolu_4"), None).await.unwrap();
    assert_eq!(second.report.records.len(), 1, "the `once` hook retired after its success");
    // The two hooks of the first call run in parallel: their lines come in any order.
    let mut ran = lines(&log, 3).await;
    ran.sort();
    assert_eq!(ran, ["always", "always", "once"]);

    // A skill that is nowhere is a warning, not an error.
    let missing = PostToolUse { tool_input: json!({"skill": "nowhere"}), ..post.clone() };
    let step = s.post_tool_use(&missing, None).await.unwrap();
    assert!(step.warnings[0].starts_with("skill `nowhere` has no SKILL.md"), "{:?}", step.warnings);
}

/// A skill's `PreToolUse` and `PostToolUse` contexts of one call reach the model in one system
/// message, after the tool result: the `PreToolUse` step holds it back for the call's
/// `PostToolUse`; a call the hooks refuse keeps its own; one refused at its permission prompt
/// gets it after the refusal; one without a `PostToolUse` gets it on the next step.
#[tokio::test]
async fn a_calls_pre_and_post_contexts_come_in_one_system_message() {
    let p = Project::new("session-one-message");
    let skill_dir = p.dir.join(".claude/skills/ctx");
    std::fs::create_dir_all(&skill_dir).unwrap();
    let context = |event: &str, text: &str| {
        format!(
            "        - type: command\n          command: >-\n            cat > /dev/null; echo '{{\"hookSpecificOutput\": {{\"hookEventName\": \"{event}\", \"additionalContext\": \"{text}\"}}}}'\n"
        )
    };
    std::fs::write(
        skill_dir.join("SKILL.md"),
        format!(
            "---\nname: ctx\ndescription: Context\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n{}  PostToolUse:\n    - matcher: Bash\n      hooks:\n{}---\nBody.\n",
            context("PreToolUse", "before"),
            context("PostToolUse", "after")
        ),
    )
    .unwrap();
    let deny = p.script("deny.sh", "if grep -q 'rm -rf'; then echo 'no rm' >&2; exit 2; fi");
    let no = p.script(
        "no.sh",
        "cat > /dev/null\necho '{\"hookSpecificOutput\": {\"hookEventName\": \"PermissionRequest\", \"decision\": {\"behavior\": \"deny\", \"message\": \"not now\"}}}'",
    );
    let mut s = p.session(json!({
        "PreToolUse": [{"matcher": "Bash", "hooks": [command(&deny)]}],
        "PermissionRequest": [{"matcher": "Bash", "hooks": [command(&no)]}]
    }));
    s.session_start(&start("one-message"), None).await.unwrap();
    let skill = PostToolUse {
        tool_name: "Skill".into(),
        tool_input: json!({"skill": "ctx"}),
        tool_use_id: "toolu_1".into(),
        ..PostToolUse::default()
    };
    s.post_tool_use(&skill, None).await.unwrap();
    let post = |id: &str| PostToolUse {
        tool_name: "Bash".into(),
        tool_input: json!({"command": "ls"}),
        tool_response: json!({"stdout": ""}),
        tool_use_id: id.into(),
        ..PostToolUse::default()
    };
    let model = |shown: &hooks_claude::Shown| -> Vec<(Placement, String)> {
        shown.model.iter().map(|m| (m.placement, m.text.clone())).collect()
    };

    let pre = s.pre_tool_use(&bash("ls", "toolu_2"), None).await.unwrap();
    let said: Vec<&str> = pre.decision.context.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(said, ["before"], "the decision keeps the hook's words");
    assert!(pre.shown.model.is_empty(), "held for the call's PostToolUse: {:?}", pre.shown);
    let after = s.post_tool_use(&post("toolu_2"), None).await.unwrap();
    assert_eq!(
        model(&after.shown),
        [(
            Placement::System,
            "PreToolUse:Bash hook additional context: before\n\nPostToolUse:Bash hook additional context: after"
                .to_owned()
        )]
    );

    let refused = s.pre_tool_use(&bash("rm -rf x", "toolu_3"), None).await.unwrap();
    assert_eq!(
        model(&refused.shown),
        [
            (Placement::ToolResult, format!("PreToolUse:Bash hook error: [{deny}]: no rm\n")),
            (Placement::System, "PreToolUse:Bash hook additional context: before".to_owned()),
        ],
        "a refused call has no result to wait for"
    );

    s.pre_tool_use(&bash("make", "toolu_5"), None).await.unwrap();
    let prompt = PermissionRequest {
        tool_name: "Bash".into(),
        tool_input: json!({"command": "make"}),
        ..PermissionRequest::default()
    };
    let asked = s.permission_request(&prompt, None).await.unwrap();
    assert_eq!(
        model(&asked.shown),
        [
            (Placement::ToolResult, "not now".to_owned()),
            (Placement::System, "PreToolUse:Bash hook additional context: before".to_owned()),
        ],
        "refused at its prompt: the context follows the refusal"
    );

    s.pre_tool_use(&bash("ls", "toolu_4"), None).await.unwrap();
    let stop = s.stop(&Stop::default(), None).await.unwrap();
    assert_eq!(
        model(&stop.shown),
        [(Placement::System, "PreToolUse:Bash hook additional context: before".to_owned())],
        "a call without a PostToolUse gives its context back on the next step"
    );
}

#[tokio::test]
async fn an_async_post_tool_use_context_arrives_on_the_next_step() {
    let p = Project::new("session-async");
    let hook = p.script(
        "later.sh",
        "cat > /dev/null\nsleep 0.2\necho '{\"hookSpecificOutput\": {\"hookEventName\": \"PostToolUse\", \"additionalContext\": \"the build is green\"}}'",
    );
    let mut handler = command(&hook);
    handler["async"] = json!(true);
    let mut s = p.session(json!({"PostToolUse": [{"hooks": [handler]}]}));
    s.session_start(&start("async-1"), None).await.unwrap();
    let post = PostToolUse { tool_name: "Bash".into(), ..PostToolUse::default() };
    let step = s.post_tool_use(&post, None).await.unwrap();
    assert!(step.late.is_empty() && step.decision.context.is_empty(), "it runs in the background");
    let started = Instant::now();
    while s.engine().background_pending() > 0 && started.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let next = s.user_prompt_submit(&UserPromptSubmit::default(), None).await.unwrap();
    assert_eq!(next.late.len(), 1);
    assert_eq!(next.late[0].result.context, ["the build is green"]);
    let model = &next.late[0].shown.model;
    assert_eq!(
        (model[0].placement, model[0].text.as_str()),
        (Placement::System, "the build is green")
    );
    let after = s.stop(&Stop::default(), None).await.unwrap();
    assert!(after.late.is_empty(), "delivered once");
}

#[tokio::test]
async fn async_hooks_still_running_are_killed_at_session_end() {
    let p = Project::new("session-async-end");
    let pid = p.dir.join("pid");
    let hook = p.script("forever.sh", &format!("echo $$ > '{}'\nexec sleep 300", pid.display()));
    let mut handler = command(&hook);
    handler["async"] = json!(true);
    let mut s = p.session(json!({"UserPromptSubmit": [{"hooks": [handler]}]}));
    s.session_start(&start("async-end"), None).await.unwrap();
    s.user_prompt_submit(&UserPromptSubmit::default(), None).await.unwrap();
    let pid = lines(&pid, 1).await.remove(0);
    assert!(alive(&pid));
    let end = SessionEnd { reason: "other".into(), ..SessionEnd::default() };
    s.session_end(&end, None).await.unwrap();
    assert!(gone(&pid).await, "killed at session end");
    assert_eq!(s.engine().background_pending(), 0);
}

#[tokio::test]
async fn each_session_start_hook_gets_its_own_env_file_whose_exports_later_hooks_do_not_see() {
    let p = Project::new("session-env");
    let a = p.script("a.sh", "set -u\necho 'export A_VAR=one' >> \"$CLAUDE_ENV_FILE\"");
    let b = p.script(
        "b.sh",
        "set -u\necho \"export B_VAR=two PATH_SEEN=\\\"\\$HOME\\\"\" >> \"$CLAUDE_ENV_FILE\"",
    );
    let probe = p.dir.join("probe");
    let later = p.script(
        "later.sh",
        &format!(
            "echo \"A=${{A_VAR-unset}} B=${{B_VAR-unset}} FILE=${{CLAUDE_ENV_FILE-unset}}\" > '{}'",
            probe.display()
        ),
    );
    let mut s = p.session(json!({
        "SessionStart": [{"hooks": [command(&a), command(&b)]}],
        "UserPromptSubmit": [{"hooks": [command(&later)]}]
    }));
    let step = s.session_start(&start("env-1"), None).await.unwrap();
    assert!(step.warnings.is_empty(), "{:?}", step.warnings);
    let folder = p.home().join("session-env/env-1");
    assert_eq!(
        std::fs::read_to_string(folder.join("sessionstart-hook-0.sh")).unwrap(),
        "export A_VAR=one\n"
    );
    assert!(
        std::fs::read_to_string(folder.join("sessionstart-hook-1.sh"))
            .unwrap()
            .starts_with("export B_VAR=two")
    );
    let home = std::env::var("HOME").unwrap_or_default();
    let expected: std::collections::BTreeMap<String, String> = [
        ("A_VAR".to_owned(), "one".to_owned()),
        ("B_VAR".to_owned(), "two".to_owned()),
        ("PATH_SEEN".to_owned(), home),
    ]
    .into_iter()
    .collect();
    assert_eq!(step.env_file_exports, expected);
    assert_eq!(
        s.env_files(),
        [folder.join("sessionstart-hook-0.sh"), folder.join("sessionstart-hook-1.sh")]
    );

    let next = s.user_prompt_submit(&UserPromptSubmit::default(), None).await.unwrap();
    assert_eq!(p.read("probe"), "A=unset B=unset FILE=unset\n", "later hooks see none of it");
    assert_eq!(next.env_file_exports, expected, "the shell tool keeps getting them");

    // The env files survive SessionEnd (docs/claude-code.md#hook-environment): a resume gets
    // the same files, its hooks append, and the shell tool sees both runs' exports.
    let end = SessionEnd { reason: "other".into(), ..SessionEnd::default() };
    let ended = s.session_end(&end, None).await.unwrap();
    assert!(ended.warnings.is_empty(), "{:?}", ended.warnings);
    assert!(folder.join("sessionstart-hook-0.sh").exists(), "the folder outlives the session");
    let resume = SessionStart { source: "resume".into(), ..start("env-1") };
    let resumed = s.session_start(&resume, None).await.unwrap();
    assert_eq!(resumed.env_file_exports["A_VAR"], "one");
    assert_eq!(
        std::fs::read_to_string(folder.join("sessionstart-hook-0.sh")).unwrap(),
        "export A_VAR=one\nexport A_VAR=one\n",
        "the resumed run appends to the first run's file"
    );
    // Within a session, a `compact` keeps what earlier firings wrote: appended to, not emptied.
    let compact = SessionStart { source: "compact".into(), ..start("env-1") };
    s.session_start(&compact, None).await.unwrap();
    assert_eq!(
        std::fs::read_to_string(folder.join("sessionstart-hook-0.sh")).unwrap(),
        "export A_VAR=one\nexport A_VAR=one\nexport A_VAR=one\n",
        "appended to, not emptied"
    );
    // Removing them is the harness's explicit call.
    s.remove_env_files().unwrap();
    assert!(!folder.exists(), "the session's folder is gone");
    assert!(p.home().join("session-env").exists(), "only the session's own folder goes");
    assert!(s.env_file_exports().is_empty());
}

#[tokio::test]
async fn an_env_file_that_cannot_be_created_is_a_warning_and_the_hook_still_runs() {
    let p = Project::new("session-env-broken");
    let seen = p.dir.join("seen");
    let hook = p.script("start.sh", &format!("echo \"$CLAUDE_ENV_FILE\" > '{}'", seen.display()));
    // The Claude home is a regular file: nothing can be created under it.
    let home = p.dir.join("not-a-dir");
    std::fs::write(&home, "").unwrap();
    let config = load(&p.dir, &settings(json!({"SessionStart": [{"hooks": [command(&hook)]}]})));
    let engine =
        Engine::builder(config).host(HostEnv::new(&p.dir)).claude_home(&home).build().unwrap();
    let mut s = Session::new(engine);
    let step = s.session_start(&start("env-2"), None).await.unwrap();
    let record = &step.records()[0];
    assert_eq!(record.status, HookStatus::Success);
    let expected = home.join("session-env/env-2/sessionstart-hook-0.sh");
    assert!(
        record
            .warnings
            .iter()
            .any(|w| w
                .starts_with(&format!("cannot create `CLAUDE_ENV_FILE` `{}`", expected.display()))),
        "{:?}",
        record.warnings
    );
    assert_eq!(
        p.read("seen").trim(),
        expected.display().to_string(),
        "it points there all the same"
    );
}

#[tokio::test]
async fn after_a_cd_hooks_run_in_the_new_directory_and_cwd_changed_exports_are_replaced() {
    let p = Project::new("session-cd");
    let sub = p.dir.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    let pwd = p.dir.join("pwd");
    let here =
        p.script("here.sh", &format!("echo \"$(pwd) $CLAUDE_PROJECT_DIR\" >> '{}'", pwd.display()));
    let cd_hook = p.script(
        "cd.sh",
        "read -r input\ncase \"$input\" in *'\"new_cwd\":\"'*sub'\"'*) echo 'export WHERE=sub' >> \"$CLAUDE_ENV_FILE\";; *) echo 'export OTHER=1' >> \"$CLAUDE_ENV_FILE\";; esac",
    );
    let mut s = p.session(json!({
        "PreToolUse": [{"hooks": [command(&here)]}],
        "CwdChanged": [{"hooks": [command(&cd_hook)]}]
    }));
    s.session_start(&start("cd-1"), None).await.unwrap();
    s.pre_tool_use(&bash("ls", "toolu_1"), None).await.unwrap();
    let cd = CwdChanged { new_cwd: sub.display().to_string(), ..CwdChanged::default() };
    let changed = s.cwd_changed(&cd, None).await.unwrap();
    assert_eq!(changed.input()["old_cwd"], p.dir.display().to_string());
    assert_eq!(changed.env_file_exports.get("WHERE").map(String::as_str), Some("sub"));
    assert_eq!(s.cwd(), sub.display().to_string());
    s.pre_tool_use(&bash("ls", "toolu_2"), None).await.unwrap();
    let runs = lines(&pwd, 2).await;
    let project = p.dir.display().to_string();
    assert_eq!(
        runs,
        [format!("{project} {project}"), format!("{} {project}", sub.display())],
        "the hook runs in the new directory; CLAUDE_PROJECT_DIR stays"
    );
    // Back: the previous CwdChanged's exports are dropped.
    let back = CwdChanged { new_cwd: project.clone(), ..CwdChanged::default() };
    let step = s.cwd_changed(&back, None).await.unwrap();
    assert_eq!(step.env_file_exports.get("WHERE"), None);
    assert_eq!(step.env_file_exports.get("OTHER").map(String::as_str), Some("1"));
}

#[tokio::test]
async fn ctrl_c_in_a_slow_hook_kills_its_tree_and_the_report_says_cancelled() {
    let p = Project::new("session-cancel");
    let pids = p.dir.join("pids");
    let slow = p.script(
        "slow.sh",
        &format!(
            "sleep 300 &\necho $! >> '{pids}'\necho $$ >> '{pids}'\nwait",
            pids = pids.display()
        ),
    );
    // The hook that finished allows the call, rewrites it and adds context: none of it counts.
    let fast = p.script(
        "fast.sh",
        r#"echo '{"systemMessage": "fast was here", "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "true"}, "additionalContext": "ctx"}}'"#,
    );
    let mut s = p.session(json!({"PreToolUse": [{"hooks": [command(&fast), command(&slow)]}]}));
    s.session_start(&start("cancel-1"), None).await.unwrap();
    let token = CancellationToken::new();
    let ctrl_c = token.clone();
    let watch = pids.clone();
    let pressed = tokio::spawn(async move {
        lines(&watch, 2).await;
        ctrl_c.cancel();
    });
    let started = Instant::now();
    let step = s.pre_tool_use(&bash("make", "toolu_1"), Some(&token)).await.unwrap();
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
    pressed.await.unwrap();
    assert!(step.cancelled());
    let statuses: Vec<HookStatus> = step.records().iter().map(|r| r.status).collect();
    assert_eq!(statuses, [HookStatus::Success, HookStatus::Cancelled]);
    assert_eq!(step.decision.control.messages, ["fast was here"], "what finished is kept");
    // A call interrupted while its hooks ran never reads as "go ahead".
    assert_eq!(step.decision.permission, ToolPermission::Interrupted);
    assert!(!step.decision.permission.may_run());
    assert_eq!(step.decision.updated_input, None);
    assert!(step.decision.context.is_empty());
    // The model gets Claude Code's refusal and interrupt texts, nothing the hooks said.
    let model: Vec<(Placement, &str, bool)> =
        step.shown.model.iter().map(|m| (m.placement, m.text.as_str(), m.is_error)).collect();
    assert_eq!(
        model,
        [
            (Placement::ToolResult, hooks_claude::present::templates::REFUSED, true),
            (Placement::User, "[Request interrupted by user for tool use]\n", false),
        ]
    );
    assert_eq!(step.shown.user, ["PreToolUse:Bash says: fast was here"]);
    for pid in lines(&pids, 2).await {
        assert!(gone(&pid).await, "process {pid} of the cancelled hook's tree is gone");
    }
    // The session goes on.
    assert!(s.stop(&Stop::default(), None).await.is_ok());
}

#[tokio::test]
async fn steps_out_of_order_are_typed_errors() {
    let p = Project::new("session-order");
    let mut s = p.session(json!({}));
    let early = s.post_tool_use(&PostToolUse::default(), None).await.unwrap_err();
    assert_eq!(early, SessionError::NotStarted { event: "PostToolUse".into() });
    s.session_start(&start("order-1"), None).await.unwrap();
    let again = s.session_start(&start("order-1"), None).await.unwrap_err();
    assert!(matches!(again, SessionError::AlreadyStarted { .. }), "{again}");
    let end = SessionEnd { reason: "other".into(), ..SessionEnd::default() };
    s.session_end(&end, None).await.unwrap();
    let twice = s.session_end(&end, None).await.unwrap_err();
    assert_eq!(twice, SessionError::Ended { event: "SessionEnd".into() });
    let after = s.stop(&Stop::default(), None).await.unwrap_err();
    assert_eq!(after, SessionError::Ended { event: "Stop".into() });
}

#[tokio::test]
async fn a_sub_agent_has_its_own_loop_guard() {
    use hooks_claude::input::SubagentStop;
    let p = Project::new("session-subagent");
    let block = p.script("block.sh", "echo '{\"decision\": \"block\", \"reason\": \"more\"}'");
    let mut s = p
        .session(json!({
            "Stop": [{"hooks": [command(&block)]}],
            "SubagentStop": [{"hooks": [command(&block)]}]
        }))
        .with_stop_hook_block_cap(1);
    s.session_start(&start("sub-1"), None).await.unwrap();
    let sub = |id: &str| SubagentStop {
        base: Base {
            agent_id: Some(id.into()),
            agent_type: Some("reviewer".into()),
            ..Base::default()
        },
        ..SubagentStop::default()
    };
    let first = s.subagent_stop(&sub("a1"), None).await.unwrap();
    assert_eq!(first.input()["stop_hook_active"], false);
    assert_eq!(first.guard.unwrap().consecutive_blocks, 1);
    // The main agent's count is its own.
    let main = s.stop(&Stop::default(), None).await.unwrap();
    assert_eq!(
        (main.input()["stop_hook_active"].clone(), main.guard.unwrap().consecutive_blocks),
        (json!(false), 1)
    );
    let again = s.subagent_stop(&sub("a1"), None).await.unwrap();
    assert_eq!(again.input()["stop_hook_active"], true);
    assert!(again.overridden(), "a cap of 1: the second block in a row is overridden");
    assert_eq!(again.decision.continuation, Continuation::Stop);
    let other = s.subagent_stop(&sub("a2"), None).await.unwrap();
    assert_eq!(other.input()["stop_hook_active"], false, "another sub-agent starts at 0");
}

#[tokio::test]
async fn a_resumed_session_takes_steps_at_once_without_session_start_hooks() {
    let p = Project::new("session-resume");
    let started = p.script("started.sh", "echo ran >> started.log");
    let seen = p.script("seen.sh", "cat >> seen.log; echo >> seen.log");
    let mut s = p.session(json!({
        "SessionStart": [{"hooks": [command(&started)]}],
        "PreToolUse": [{"hooks": [command(&seen)]}],
        "Stop": [{"hooks": [command(&seen)]}],
    }));
    assert!(s.resume(), "a session not started yet resumes");
    assert!(!s.resume(), "once");
    assert_eq!(s.phase(), hooks_claude::Phase::Running);
    let mut call = bash("ls", "toolu_1");
    call.base = Base::new("resumed-1", "/t/resumed.jsonl", "");
    s.pre_tool_use(&call, None).await.unwrap();
    assert_eq!(s.session_id(), "resumed-1", "the first step's ids become the session's");
    s.stop(&Stop::default(), None).await.unwrap();
    let inputs: Vec<Value> = p
        .read("seen.log")
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(inputs.len(), 2);
    assert_eq!(inputs[1]["session_id"], "resumed-1", "later steps get them filled in");
    assert_eq!(inputs[1]["transcript_path"], "/t/resumed.jsonl");
    assert_eq!(p.read("started.log"), "", "no SessionStart hook ran");
    let end = SessionEnd { reason: "other".into(), ..SessionEnd::default() };
    s.session_end(&end, None).await.unwrap();
    assert!(!s.resume(), "an ended session stays ended");
    let after = s.stop(&Stop::default(), None).await.unwrap_err();
    assert_eq!(after, SessionError::Ended { event: "Stop".into() });
}

#[tokio::test]
async fn an_oversize_env_file_is_a_warning_and_the_others_still_export() {
    let p = Project::new("session-env-big");
    // 2 MiB of comment lines, past the 1 MiB cap, and a small file beside it.
    let big = p.script(
        "big.sh",
        "cat >/dev/null; head -c 2097152 /dev/zero | tr '\\0' '#' >> \"$CLAUDE_ENV_FILE\"",
    );
    let small =
        p.script("small.sh", "cat >/dev/null; echo 'export KEPT=yes' >> \"$CLAUDE_ENV_FILE\"");
    let mut s = p.session(json!({"SessionStart": [{"hooks": [command(&big), command(&small)]}]}));
    let step = s.session_start(&start("env-big"), None).await.unwrap();
    assert_eq!(step.env_file_exports.get("KEPT").map(String::as_str), Some("yes"), "{step:?}");
    let warned: Vec<&String> =
        step.warnings.iter().filter(|w| w.contains("is larger than 1 MiB")).collect();
    assert_eq!(warned.len(), 1, "{:?}", step.warnings);
    assert!(warned[0].contains("sessionstart-hook-0.sh"), "{warned:?}");
    assert!(step.records().iter().all(|r| r.status == HookStatus::Success));
}

#[tokio::test]
async fn the_harness_permission_prompt_answers_as_claude_code_shows_them() {
    let p = Project::new("session-prompt");
    let ask = p.script(
        "ask.sh",
        "cat > /dev/null\necho '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"permissionDecision\": \"ask\", \"permissionDecisionReason\": \"pushes need a person\", \"additionalContext\": \"the remote is shared\"}}'",
    );
    let hooks = json!({"PreToolUse": [{"matcher": "Bash", "hooks": [command(&ask)]}]});
    let mut s = p.session(hooks.clone());
    s.session_start(&start("prompt-1"), None).await.unwrap();
    let model = |shown: &hooks_claude::Shown| -> Vec<(Placement, String, bool)> {
        shown.model.iter().map(|m| (m.placement, m.text.clone(), m.is_error)).collect()
    };
    let post = |id: &str| PostToolUse {
        tool_name: "Bash".into(),
        tool_input: json!({"command": "git push"}),
        tool_response: json!({"stdout": "ok"}),
        tool_use_id: id.into(),
        ..PostToolUse::default()
    };

    // Approved: nothing for the model at once, no trace of the ask's reason; the call's held
    // context comes after its result.
    let step = s.pre_tool_use(&bash("git push", "toolu_a"), None).await.unwrap();
    assert!(matches!(step.decision.permission, ToolPermission::Ask { .. }));
    assert!(step.shown.model.is_empty(), "nothing until the person answers: {:?}", step.shown);
    let shown = s.answer_prompt("toolu_a", &hooks_claude::PromptAnswer::Approved).unwrap();
    assert!(shown.model.is_empty());
    let after = s.post_tool_use(&post("toolu_a"), None).await.unwrap();
    assert_eq!(
        model(&after.shown),
        [(
            Placement::System,
            "PreToolUse:Bash hook additional context: the remote is shared".to_owned(),
            false
        )]
    );

    // Refused: Claude Code's refusal and interrupt block; the held context is dropped.
    s.pre_tool_use(&bash("git push", "toolu_b"), None).await.unwrap();
    let shown = s.answer_prompt("toolu_b", &hooks_claude::PromptAnswer::Refused).unwrap();
    assert_eq!(
        model(&shown),
        [
            (Placement::ToolResult, hooks_claude::present::templates::REFUSED.to_owned(), true),
            (Placement::User, "[Request interrupted by user for tool use]\n".to_owned(), false),
        ]
    );
    let next = s
        .user_prompt_submit(
            &UserPromptSubmit { prompt: "ok".into(), ..UserPromptSubmit::default() },
            None,
        )
        .await
        .unwrap();
    assert!(next.shown.model.iter().all(|m| !m.text.contains("the remote is shared")), "dropped");

    // Refused with words: the refusal carries them; no interrupt block.
    s.pre_tool_use(&bash("git push", "toolu_c"), None).await.unwrap();
    let words = hooks_claude::PromptAnswer::RefusedSaying("push to my fork instead".into());
    let shown = s.answer_prompt("toolu_c", &words).unwrap();
    assert_eq!(model(&shown).len(), 1);
    assert!(
        shown.model[0]
            .text
            .ends_with("To tell you how to proceed, the user said:\npush to my fork instead")
    );

    // A call the session never saw, and a second answer, are typed errors.
    let unknown = s.answer_prompt("toolu_x", &hooks_claude::PromptAnswer::Approved).unwrap_err();
    assert_eq!(unknown, SessionError::UnknownCall { tool_use_id: "toolu_x".into() });
    let twice = s.answer_prompt("toolu_c", &hooks_claude::PromptAnswer::Approved).unwrap_err();
    assert_eq!(twice, SessionError::AlreadyAnswered { tool_use_id: "toolu_c".into() });

    // With no one to ask (`claude -p`), the ask refuses the call with its reason.
    let mut quiet = p.session(hooks).non_interactive();
    quiet.session_start(&start("prompt-2"), None).await.unwrap();
    let step = quiet.pre_tool_use(&bash("git push", "toolu_d"), None).await.unwrap();
    assert_eq!(step.shown.tool_result().map(|t| t.text.as_str()), Some("pushes need a person"));
}

#[tokio::test]
async fn a_tool_interrupted_while_it_runs_is_refused_as_claude_code_refuses_it() {
    // claude-code.md, Interrupts and refusals: "interrupts while the tool itself runs".
    let p = Project::new("session-interrupt-tool");
    let allow = p.script(
        "allow.sh",
        "cat > /dev/null\necho '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"additionalContext\": \"the build is slow\"}}'",
    );
    let hooks = json!({"PreToolUse": [{"matcher": "Bash", "hooks": [command(&allow)]}]});
    let mut s = p.session(hooks);
    s.session_start(&start("interrupt-1"), None).await.unwrap();
    let step = s.pre_tool_use(&bash("make", "toolu_run"), None).await.unwrap();
    assert!(step.decision.permission.may_run());

    // While the tool runs, the person presses Esc: the refusal and the interrupt block.
    let shown = s.interrupt_tool("toolu_run").unwrap();
    let model: Vec<(Placement, &str, bool)> =
        shown.model.iter().map(|m| (m.placement, m.text.as_str(), m.is_error)).collect();
    assert_eq!(
        model,
        [
            (Placement::ToolResult, hooks_claude::present::templates::REFUSED, true),
            (Placement::User, "[Request interrupted by user for tool use]\n", false),
        ]
    );
    // Its held context never reaches the model; the batch lists the refusal as its result.
    let batch =
        s.post_tool_batch(&hooks_claude::input::PostToolBatch::default(), None).await.unwrap();
    assert!(batch.shown.model.iter().all(|m| !m.text.contains("the build is slow")));
    let calls = batch.input()["tool_calls"].as_array().cloned().unwrap_or_default();
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0]["tool_response"], hooks_claude::present::templates::REFUSED);

    // A second interrupt, one for a call never seen, and one after a result are typed errors.
    let twice = s.interrupt_tool("toolu_run").unwrap_err();
    assert_eq!(twice, SessionError::NotRunning { tool_use_id: "toolu_run".into() });
    let unknown = s.interrupt_tool("toolu_none").unwrap_err();
    assert_eq!(unknown, SessionError::NotRunning { tool_use_id: "toolu_none".into() });
    s.pre_tool_use(&bash("ls", "toolu_done"), None).await.unwrap();
    let post = PostToolUse {
        tool_name: "Bash".into(),
        tool_input: json!({"command": "ls"}),
        tool_response: json!({"stdout": "a"}),
        tool_use_id: "toolu_done".into(),
        ..PostToolUse::default()
    };
    s.post_tool_use(&post, None).await.unwrap();
    let done = s.interrupt_tool("toolu_done").unwrap_err();
    assert_eq!(done, SessionError::NotRunning { tool_use_id: "toolu_done".into() });
}
