//! The events first recorded from Claude Code 2.1.332, with real scripts: which reject
//! `hookSpecificOutput`, what Setup, TaskCreated, TaskCompleted, ConfigChange, WorktreeCreate
//! and UserPromptExpansion do with an answer and show, and the 34th event name.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use hook_protocol::HookStatus;
use hooks_claude::input::{
    Base, ConfigChange, InstructionsLoaded, PostModelSwitch, PreModelSwitch, PreSkillShellCommand,
    Setup, TaskCompleted, TaskCreated, UserPromptExpansion, WorktreeCreate,
};
use hooks_claude::{Engine, Placement, Shown};
use serde_json::{Value, json};

use crate::support::{Scratch, engine, load, settings, temp_dir};

/// A project whose `.claude/settings.json` runs `body` as the one hook of `event`.
fn one_hook(name: &str, event: &str, body: &str) -> (Engine, Scratch) {
    let dir = temp_dir(name);
    let script = dir.join("hook.sh");
    std::fs::write(&script, format!("#!/bin/sh\ncat > /dev/null\n{body}\n")).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let hooks =
        json!({event: [{"hooks": [{"type": "command", "command": script.display().to_string()}]}]});
    (engine(load(&dir, &settings(hooks)), &dir), dir)
}

fn base(dir: &Path) -> Base {
    let mut b = Base::new("s-rec", "/t", dir.display().to_string());
    b.prompt_id = Some("p-1".into());
    b
}

fn model(shown: &Shown) -> Vec<(Placement, &str, bool)> {
    shown.model.iter().map(|m| (m.placement, m.text.as_str(), m.is_error)).collect()
}

fn specific(event: &str) -> String {
    format!(
        "echo '{{\"hookSpecificOutput\": {{\"hookEventName\": \"{event}\", \"additionalContext\": \"ctx\"}}}}'"
    )
}

#[tokio::test]
async fn events_without_a_specific_output_reject_one_as_a_non_blocking_error() {
    // InstructionsLoaded, TaskCreated and ConfigChange reject it; Setup accepts it (and ignores
    // it); the 34th event name accepts its own.
    let (e, dir) = one_hook("rec-il", "InstructionsLoaded", &specific("InstructionsLoaded"));
    let input = InstructionsLoaded { base: base(&dir), ..InstructionsLoaded::default() };
    let fired = e.instructions_loaded(&input).await;
    let record = &fired.records()[0];
    assert_eq!(record.status, HookStatus::Failed);
    assert!(
        record
            .message
            .as_deref()
            .unwrap_or_default()
            .contains("`hookSpecificOutput` is not accepted on `InstructionsLoaded`"),
        "{record:?}"
    );

    let (e, dir) = one_hook("rec-tc-specific", "TaskCreated", &specific("TaskCreated"));
    let input = TaskCreated { base: base(&dir), ..TaskCreated::default() };
    let fired = e.task_created(&input).await;
    assert_eq!(fired.records()[0].status, HookStatus::Failed);
    assert_eq!(fired.decision.blocked, None, "the action goes ahead");

    let (e, dir) = one_hook("rec-setup-specific", "Setup", &specific("Setup"));
    let fired = e.setup(&Setup { base: base(&dir), trigger: "init".into() }).await;
    assert_eq!(fired.records()[0].status, HookStatus::Success);
    assert!(fired.shown().is_empty(), "Setup's context reaches no one: {:?}", fired.shown());

    let (e, dir) = one_hook("rec-pssc", "PreSkillShellCommand", &specific("PreSkillShellCommand"));
    let fired = e.pre_skill_shell_command(&PreSkillShellCommand { base: base(&dir) }).await;
    assert_eq!(fired.records().len(), 1, "its hooks load and run");
    assert_eq!(fired.records()[0].status, HookStatus::Success);
}

#[tokio::test]
async fn setup_answers_have_no_effect_in_a_run_without_a_person() {
    let answers = [
        "echo 'plain stdout'",
        "echo 'stderr' >&2; exit 2",
        "echo '{\"continue\": false, \"stopReason\": \"stop\", \"systemMessage\": \"hi\"}'",
    ];
    for (i, body) in answers.iter().enumerate() {
        let (e, dir) = one_hook(&format!("rec-setup-{i}"), "Setup", body);
        let fired = e.setup(&Setup { base: base(&dir), trigger: "init".into() }).await;
        assert!(fired.shown().model.is_empty(), "{body}: {:?}", fired.shown());
        assert_eq!(fired.decision.control.halt, None, "{body}");
    }
}

#[tokio::test]
async fn task_blocks_are_the_task_tools_result_an_error_only_for_task_created() {
    struct Case {
        event: &'static str,
        body: &'static str,
        text: &'static str,
        is_error: bool,
    }
    let cases = [
        Case {
            event: "TaskCreated",
            body: "echo 'TC-EXIT2-STDERR' >&2; exit 2",
            // docs/claude-code.md#what-claude-code-shows: TaskCreated's exit-2 text drops
            // stderr's last newline.
            text: "TaskCreated hook feedback:\n[{cmd}]: TC-EXIT2-STDERR",
            is_error: true,
        },
        Case {
            event: "TaskCreated",
            body: "echo '{\"decision\": \"block\", \"reason\": \"TC-BLOCK-REASON\", \"continue\": false}'",
            text: "TaskCreated hook feedback:\nTC-BLOCK-REASON",
            is_error: true,
        },
        Case {
            event: "TaskCompleted",
            body: "echo 'TD-EXIT2-STDERR' >&2; exit 2",
            text: "TaskCompleted hook feedback:\n[{cmd}]: TD-EXIT2-STDERR\n",
            is_error: false,
        },
        // TaskCompleted honours `decision: "block"` as TaskCreated does.
        Case {
            event: "TaskCompleted",
            body: "echo '{\"decision\": \"block\", \"reason\": \"TD-BLOCK-REASON\"}'",
            text: "TaskCompleted hook feedback:\nTD-BLOCK-REASON",
            is_error: false,
        },
    ];
    for (i, case) in cases.iter().enumerate() {
        let (e, dir) = one_hook(&format!("rec-task-{i}"), case.event, case.body);
        let cmd = dir.join("hook.sh").display().to_string();
        let (blocked, shown) = if case.event == "TaskCreated" {
            let input = TaskCreated { base: base(&dir), ..TaskCreated::default() };
            let fired = e.task_created(&input).await;
            (fired.decision.blocked.clone(), fired.shown())
        } else {
            let input = TaskCompleted { base: base(&dir), ..TaskCompleted::default() };
            let fired = e.task_completed(&input).await;
            (fired.decision.blocked.clone(), fired.shown())
        };
        assert!(blocked.is_some(), "case {i}: blocked");
        let text = case.text.replace("{cmd}", &cmd);
        assert_eq!(model(&shown), [(Placement::ToolResult, text.as_str(), case.is_error)], "{i}");
    }
}

/// docs/claude-code.md#json-output: `continue: false` on a TaskCompleted fired by TaskUpdate
/// in the main session (no `teammate_name`) is ignored; a teammate's is honoured.
#[tokio::test]
async fn task_completed_continue_false_halts_a_teammate_only() {
    let body = "echo '{\"continue\": false, \"stopReason\": \"done for today\"}'";
    let (e, dir) = one_hook("rec-task-halt", "TaskCompleted", body);
    let main = TaskCompleted { base: base(&dir), ..TaskCompleted::default() };
    let fired = e.task_completed(&main).await;
    assert_eq!(fired.decision.control.halt, None, "the main session's task completes");
    assert!(fired.decision.blocked.is_none());
    let teammate = TaskCompleted {
        base: base(&dir),
        teammate_name: Some("reviewer".into()),
        ..TaskCompleted::default()
    };
    let fired = e.task_completed(&teammate).await;
    assert_eq!(fired.decision.control.halt, Some(Some("done for today".to_owned())));
}

#[tokio::test]
async fn a_config_change_block_keeps_the_change_out_and_shows_nothing() {
    for (i, body) in [
        "echo 'no' >&2; exit 2",
        "echo '{\"decision\": \"block\", \"reason\": \"no\", \"systemMessage\": \"hidden\"}'",
    ]
    .iter()
    .enumerate()
    {
        let (e, dir) = one_hook(&format!("rec-cc-{i}"), "ConfigChange", body);
        let input = ConfigChange {
            base: base(&dir),
            source: "local_settings".into(),
            file_path: Some(dir.join(".claude/settings.local.json").display().to_string()),
        };
        let fired = e.config_change(&input).await;
        assert!(fired.decision.blocked.is_some(), "{body}");
        assert!(fired.shown().is_empty(), "{body}: {:?}", fired.shown());
    }
}

#[tokio::test]
async fn a_worktree_create_command_hook_gives_its_last_stdout_line_checked_as_claude_code_does() {
    let dir = temp_dir("rec-wt");
    let made = dir.join("trees/feature");
    std::fs::create_dir_all(&made).unwrap();
    let fire = |name: &'static str, body: String| async move {
        let (e, project) = one_hook(name, "WorktreeCreate", &body);
        let input = WorktreeCreate { base: base(&project), name: "feature".into() };
        let fired = e.worktree_create(&input).await;
        (fired.decision.clone(), fired.shown(), project)
    };
    // The last line, after a log line; stderr ignored.
    let (d, shown, _) = fire(
        "rec-wt-last",
        format!("echo 'preparing'\necho 'noise' >&2\necho '{}'", made.display()),
    )
    .await;
    assert_eq!(d.path.as_deref(), Some(made.as_path()));
    assert!(shown.is_empty());
    // Relative to the directory it ran in.
    let (d, _, project) = fire("rec-wt-rel", "mkdir -p wt && echo wt".to_owned()).await;
    assert_eq!(d.path, Some(project.join("wt")));
    // Dot segments are refused.
    let dotted = format!("{}/../feature", made.display());
    let (d, shown, _) = fire("rec-wt-dots", format!("echo '{dotted}'")).await;
    assert_eq!(d.path, None);
    let text = format!(
        "Cannot use the WorktreeCreate hook's worktree: the hook emitted a path with dot \
         segments ({dotted})"
    );
    assert_eq!(d.failure.as_deref(), Some(text.as_str()));
    assert_eq!(model(&shown), [(Placement::ToolResult, text.as_str(), true)]);
    // Its JSON is not read: the line is a (relative) path that is not a directory.
    let json_line =
        r#"{"hookSpecificOutput": {"hookEventName": "WorktreeCreate", "worktreePath": "/tmp"}}"#;
    let (d, _, project) = fire("rec-wt-json", format!("echo '{json_line}'")).await;
    assert_eq!(
        d.failure,
        Some(format!(
            "WorktreeCreate hook returned a path that is not a directory: {}/{json_line}. The \
             hook must create the directory before echoing its path.",
            project.display()
        ))
    );
    // A failing hook: its stderr, framed with its command, as the call's result.
    let (d, shown, project) =
        fire("rec-wt-fail", "echo 'WTC-FAIL-STDERR' >&2; exit 1".into()).await;
    assert_eq!(d.failure.as_deref(), Some("WTC-FAIL-STDERR"));
    let text = format!(
        "WorktreeCreate hook failed: {}: WTC-FAIL-STDERR",
        project.join("hook.sh").display()
    );
    assert_eq!(model(&shown), [(Placement::ToolResult, text.as_str(), true)]);
}

#[tokio::test]
async fn user_prompt_expansion_blocks_and_context_as_recorded() {
    let input = |dir: &Path| UserPromptExpansion {
        base: base(dir),
        expansion_type: "slash_command".into(),
        command_name: "oracle-cmd".into(),
        command_args: "alpha".into(),
        command_source: Some("projectSettings".into()),
        prompt: "/oracle-cmd alpha".into(),
    };
    let (e, dir) =
        one_hook("rec-upe-exit2", "UserPromptExpansion", "echo 'UPE-EXIT2-STDERR' >&2; exit 2");
    let shown = e.user_prompt_expansion(&input(&dir)).await.shown();
    let cmd = dir.join("hook.sh").display().to_string();
    assert_eq!(
        shown.user,
        [format!(
            "UserPromptExpansion operation blocked by hook:\n[{cmd}]: UPE-EXIT2-STDERR\n\n\nOriginal prompt: /oracle-cmd alpha"
        )]
    );
    assert!(shown.model.is_empty(), "stderr is not sent to the model");
    let (e, dir) = one_hook(
        "rec-upe-block",
        "UserPromptExpansion",
        "echo '{\"decision\": \"block\", \"reason\": \"UPE-BLOCK-REASON\", \"systemMessage\": \"x\"}'",
    );
    let shown = e.user_prompt_expansion(&input(&dir)).await.shown();
    assert_eq!(
        shown.user.last().map(String::as_str),
        Some(
            "UserPromptExpansion operation blocked by hook:\nUPE-BLOCK-REASON\n\nOriginal prompt: /oracle-cmd alpha"
        )
    );
    let (e, dir) = one_hook(
        "rec-upe-stop",
        "UserPromptExpansion",
        "echo '{\"continue\": false, \"stopReason\": \"UPE-STOP-REASON\"}'",
    );
    let shown = e.user_prompt_expansion(&input(&dir)).await.shown();
    assert_eq!(shown.user, ["Operation stopped by hook: UPE-STOP-REASON"]);
    // Its context is a paragraph of the environment message, where UserPromptSubmit's goes
    // (claude-code.md, What Claude Code shows: UserPromptExpansion).
    let (e, dir) = one_hook("rec-upe-ctx", "UserPromptExpansion", &specific("UserPromptExpansion"));
    let shown = e.user_prompt_expansion(&input(&dir)).await.shown();
    assert_eq!(
        model(&shown),
        [(Placement::EnvironmentEnd, "UserPromptExpansion hook additional context: ctx", false)]
    );
    let stdin: Value = serde_json::to_value(input(&dir)).unwrap();
    assert_eq!(stdin["command_name"], "oracle-cmd");
}

#[tokio::test]
async fn a_model_switch_block_and_its_context_as_recorded() {
    let deny = "echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PreModelSwitch\", \"permissionDecision\": \"deny\", \"permissionDecisionReason\": \"PMS-DENY-REASON\"}, \"systemMessage\": \"PMS-DENY-SYSMSG\"}'";
    let (e, dir) = one_hook("rec-pms-deny", "PreModelSwitch", deny);
    let input = PreModelSwitch {
        base: base(&dir),
        from_model: "claude-sonnet-4-5".into(),
        to_model: "claude-haiku-4-5".into(),
        source: "sdk".into(),
        ..PreModelSwitch::default()
    };
    let shown = e.pre_model_switch(&input).await.shown();
    assert_eq!(
        shown.user,
        ["Model switch blocked by a PreModelSwitch hook: PMS-DENY-REASON\nPMS-DENY-SYSMSG"]
    );
    assert!(shown.model.is_empty());
    let (e, dir) =
        one_hook("rec-pms-exit2", "PreModelSwitch", "printf 'PMS-EXIT2-STDERR' >&2; exit 2");
    let input = PreModelSwitch { base: base(&dir), ..input };
    let shown = e.pre_model_switch(&input).await.shown();
    let cmd = dir.join("hook.sh").display().to_string();
    assert_eq!(
        shown.user,
        [format!("Model switch blocked by a PreModelSwitch hook: [{cmd}]: PMS-EXIT2-STDERR")]
    );

    // PostModelSwitch: plain stdout and additionalContext in one paragraph, one system message.
    let dir = temp_dir("rec-post-ms");
    let mut handlers = Vec::new();
    for (name, body) in
        [("json.sh", specific("PostModelSwitch")), ("plain.sh", "echo 'PMS-PLAIN'".to_owned())]
    {
        let script = dir.join(name);
        std::fs::write(&script, format!("#!/bin/sh\ncat > /dev/null\n{body}\n")).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        handlers.push(json!({"type": "command", "command": script.display().to_string()}));
    }
    let e = engine(load(&dir, &settings(json!({"PostModelSwitch": [{"hooks": handlers}]}))), &dir);
    let input = PostModelSwitch {
        base: base(&dir),
        from_model: "claude-sonnet-4-5".into(),
        to_model: "claude-haiku-4-5".into(),
        source: "sdk".into(),
        ..PostModelSwitch::default()
    };
    let shown = e.post_model_switch(&input).await.shown();
    assert_eq!(
        model(&shown),
        [(Placement::System, "PostModelSwitch hook additional context: ctx\nPMS-PLAIN", false)]
    );
}
