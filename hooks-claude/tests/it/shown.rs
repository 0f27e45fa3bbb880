use std::path::{Path, PathBuf};

use hooks_claude::input::{Base, PostToolUse, PreToolUse, Stop, UserPromptSubmit};
use hooks_claude::present::cwd_slug;
use hooks_claude::{Engine, HostEnv, Placement, StopGuard};
use serde_json::{Value, json};

use crate::support::*;

fn engine_in(dir: &Path, hooks: Value, home: &Path) -> Engine {
    Engine::builder(load(dir, &settings(hooks)))
        .host(HostEnv::new(dir))
        .claude_home(home)
        .build()
        .unwrap()
}

fn base(dir: &Path) -> Base {
    Base::new("s-shown", "/t", dir.display().to_string())
}

fn pre_tool_use(dir: &Path) -> PreToolUse {
    PreToolUse {
        base: base(dir),
        tool_name: "Bash".into(),
        tool_input: json!({"command": "rm -rf build"}),
        tool_use_id: "toolu_e2e".into(),
        mcp_server: None,
    }
}

fn saved_path(text: &str) -> PathBuf {
    let marker = "Full output saved to: ";
    let at = text.find(marker).unwrap() + marker.len();
    PathBuf::from(&text[at..at + text[at..].find('\n').unwrap()])
}

fn results_dir(home: &Path, dir: &Path) -> PathBuf {
    home.join("projects").join(cwd_slug(&dir.display().to_string())).join("s-shown/tool-results")
}

#[tokio::test]
async fn a_200000_character_context_is_whole_in_the_decision_and_saved_for_the_model() {
    let dir = temp_dir("shown-context");
    let home = dir.join("claude-home");
    let command = r#"printf '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"'; head -c 200000 /dev/zero | tr '\0' a; printf '"}}'"#;
    let engine = engine_in(
        &dir,
        json!({"PostToolUse": [{"hooks": [{"type": "command", "command": command}]}]}),
        &home,
    );
    let input = PostToolUse {
        base: base(&dir),
        tool_name: "Bash".into(),
        tool_input: json!({"command": "ls"}),
        tool_response: json!({"stdout": ""}),
        tool_use_id: "toolu_post".into(),
        ..PostToolUse::default()
    };
    let fired = engine.post_tool_use(&input).await;
    let long = "a".repeat(200_000);
    assert_eq!(fired.decision.context.len(), 1);
    assert!(fired.decision.context[0].text == long, "the decision holds the whole context");
    let shown = fired.shown();
    assert_eq!(shown.model.len(), 1);
    let text = &shown.model[0].text;
    let path = saved_path(text);
    assert_eq!(
        *text,
        format!(
            "PostToolUse:Bash hook additional context: <persisted-output>\nOutput too large (195.3KB). Full output saved to: {}\n\nPreview (first 2KB):\n{}\n...\n</persisted-output>",
            path.display(),
            &long[..2000]
        )
    );
    assert_eq!(shown.model[0].placement, Placement::System);
    assert_eq!(path.parent(), Some(results_dir(&home, &dir).as_path()));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), long);
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
}

#[tokio::test]
async fn a_60000_character_deny_reason_is_verbatim_in_the_decision_and_cut_for_the_model() {
    let dir = temp_dir("shown-deny");
    let home = dir.join("claude-home");
    let command = "head -c 60000 /dev/zero | tr '\\0' d >&2; exit 2";
    let engine = engine_in(
        &dir,
        json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}),
        &home,
    );
    let fired = engine.pre_tool_use(&pre_tool_use(&dir)).await;
    let stderr = "d".repeat(60_000);
    assert_eq!(
        fired.decision.permission,
        hook_protocol::ToolPermission::Deny { reason: Some(stderr.clone()) },
        "stderr verbatim, with no framing"
    );
    let shown = fired.shown();
    let result = shown.tool_result().unwrap();
    assert!(result.is_error);
    let blocking = format!("[{command}]: {stderr}");
    let path = saved_path(&result.text);
    assert_eq!(
        result.text,
        format!(
            "PreToolUse:Bash hook error: {}\n\n... [{}] ...\n\n{}\n\n<persisted-output>\nOutput too large (58.6KB). Full output saved to: {}\n\nPreview (first 2KB):\n{}\n...\n</persisted-output>",
            &blocking[..25_000],
            format_args!("{} characters truncated", blocking.len() - 50_000),
            &blocking[blocking.len() - 25_000..],
            path.display(),
            &blocking[..2000]
        )
    );
    let name = path.file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with("hook-toolu_e2e-PreToolUse-") && name.ends_with("-blockingError.txt"),
        "{name}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), blocking, "the whole blocking text");
}

#[tokio::test]
async fn an_unwritable_claude_home_loses_nothing_but_the_file() {
    let dir = temp_dir("shown-unwritable");
    let home = dir.join("not-a-dir");
    std::fs::write(&home, "a file where the Claude home should be").unwrap();
    let command = "head -c 30000 /dev/zero | tr '\\0' u";
    let engine = engine_in(
        &dir,
        json!({"UserPromptSubmit": [{"hooks": [{"type": "command", "command": command}]}]}),
        &home,
    );
    let input =
        UserPromptSubmit { base: base(&dir), prompt: "hi".into(), ..UserPromptSubmit::default() };
    let fired = engine.user_prompt_submit(&input).await;
    assert_eq!(fired.decision.context[0].text, "u".repeat(30_000), "the decision is whole");
    let shown = fired.shown();
    let text = &shown.model[0].text;
    assert_eq!(shown.model[0].placement, Placement::EnvironmentEnd);
    assert!(
        text.starts_with("UserPromptSubmit hook success: <persisted-output>\nOutput too large (29.3KB). The full output could not be saved ("),
        "{}",
        &text[..160]
    );
    assert!(text.contains("only this preview remains.\n\nPreview (first 2KB):\n"), "{text}");
    assert_eq!(shown.warnings.len(), 1, "{:?}", shown.warnings);
    assert!(shown.warnings[0].contains("could not be saved"), "{}", shown.warnings[0]);
}

#[tokio::test]
async fn invalid_utf8_is_shown_with_replacement_characters_and_a_warning() {
    let dir = temp_dir("shown-utf8");
    let command = r"printf 'ok \377\376 then'";
    let engine = engine_in(
        &dir,
        json!({"UserPromptSubmit": [{"hooks": [{"type": "command", "command": command}]}]}),
        &dir.join("h"),
    );
    let input =
        UserPromptSubmit { base: base(&dir), prompt: "hi".into(), ..UserPromptSubmit::default() };
    let fired = engine.user_prompt_submit(&input).await;
    let shown = fired.shown();
    assert_eq!(shown.model[0].text, "UserPromptSubmit hook success: ok \u{fffd}\u{fffd} then");
    let warnings = &fired.records()[0].warnings;
    assert!(warnings.iter().any(|w| w.contains("stdout is not valid UTF-8")), "{warnings:?}");
}

#[tokio::test]
async fn stop_feedback_of_two_real_hooks_under_the_guard() {
    let dir = temp_dir("shown-stop");
    let json_block = r#"printf '{"decision":"block","reason":"tests fail"}'"#;
    let exit2 = "printf 'lint first' >&2; exit 2";
    let hooks = json!({"Stop": [{"hooks": [
        {"type": "command", "command": json_block},
        {"type": "command", "command": exit2},
    ]}]});
    let engine = engine_in(&dir, hooks, &dir.join("h"));
    let input = Stop { base: base(&dir), ..Stop::default() };
    let mut guard = StopGuard::new(1);
    let fired = engine.stop(&input, &mut guard).await;
    let shown = fired.shown();
    let texts: Vec<(Placement, &str)> =
        shown.model.iter().map(|m| (m.placement, m.text.as_str())).collect();
    let w = hooks_claude::present::templates::STOP_WRAPPER;
    assert_eq!(
        texts,
        [
            (
                Placement::User,
                format!("{w}Stop hook feedback:\ntests fail\n</system-reminder>\n").as_str()
            ),
            (
                Placement::User,
                format!("{w}Stop hook feedback:\n[{exit2}]: lint first\n</system-reminder>")
                    .as_str()
            ),
            (
                Placement::System,
                format!("Stop hook blocking error from command: \"{json_block}\": tests fail")
                    .as_str()
            ),
        ]
    );
    let fired = engine.stop(&input, &mut guard).await;
    let shown = fired.shown();
    assert!(shown.model.is_empty(), "the guard ends the turn: {:?}", shown.model);
    assert_eq!(
        shown.user,
        [
            "A hook blocked the turn from ending 2 consecutive times\u{2014}overriding and ending turn. For Stop/SubagentStop hooks, check stop_hook_active in the input and return success while it's true. Set CLAUDE_CODE_STOP_HOOK_BLOCK_CAP to raise this limit."
        ]
    );
}
