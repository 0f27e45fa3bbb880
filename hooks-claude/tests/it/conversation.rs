//! A model request built from a session's steps with real `sh` hooks: the environment message,
//! one batch of three calls with contexts and a late background result, a Stop that continues,
//! a later turn's prompt context, and a refusal joined to the next prompt, checked against the
//! Messages API's adjacency rules.

use std::time::Duration;

use hook_protocol::ToolPermission;
use hooks_claude::conversation::{
    Block, Conversation, ConversationError, Message, Role, check_request,
};
use hooks_claude::input::{
    PostToolBatch, PostToolUse, Stop, UserPromptExpansion, UserPromptSubmit,
};
use hooks_claude::present::templates;
use hooks_claude::{PromptAnswer, Session};
use serde_json::{Value, json};

use crate::session::{Project, bash, command, start};

/// The Messages API's rule for tool calls, as `check_request` checks it.
fn assert_adjacency(messages: &[Message]) {
    if let Err(e) = check_request(messages) {
        unreachable!("{e}");
    }
}

fn texts(message: &Message) -> Vec<String> {
    message
        .content
        .iter()
        .map(|b| match b {
            Block::Text { text } => text.clone(),
            Block::ToolResult { tool_use_id, content, is_error } => {
                format!("result {tool_use_id} error={is_error}: {}", content.as_str().unwrap_or(""))
            }
            Block::ToolUse { id, .. } => format!("use {id}"),
            _ => String::new(),
        })
        .collect()
}

fn post(command: &str, id: &str, output: &str) -> PostToolUse {
    PostToolUse {
        tool_name: "Bash".into(),
        tool_input: json!({"command": command}),
        tool_response: json!(output),
        tool_use_id: id.into(),
        ..PostToolUse::default()
    }
}

async fn settle(s: &Session) {
    for _ in 0..500 {
        if s.engine().background_pending() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(s.engine().background_pending(), 0, "the background hook ended");
}

#[tokio::test]
async fn a_session_becomes_requests_in_claude_codes_layout() {
    let p = Project::new("conversation");
    let ctx = |event: &str, text: &str| {
        format!(
            "cat > /dev/null\necho '{{\"hookSpecificOutput\": {{\"hookEventName\": \"{event}\", \"additionalContext\": \"{text}\"}}}}'"
        )
    };
    let session_start = p.script("start.sh", "echo 'project uses cargo'");
    let prompt = p.script("prompt.sh", &ctx("UserPromptSubmit", "ups-ctx"));
    let pre = p.script(
        "pre.sh",
        "case \"$(cat)\" in *secret*) echo 'secrets stay out' >&2; exit 2;; *push*) echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"permissionDecision\": \"ask\"}}';; *) echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"additionalContext\": \"pre-ctx\"}}';; esac",
    );
    let post_hook = p.script("post.sh", &ctx("PostToolUse", "post-ctx"));
    let late = p.script(
        "late.sh",
        "case \"$(cat)\" in *toolu_1*) echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PostToolUse\", \"additionalContext\": \"late-ctx\"}}';; esac",
    );
    let batch = p.script("batch.sh", &ctx("PostToolBatch", "batch-ctx"));
    let expansion = p.script("expansion.sh", &ctx("UserPromptExpansion", "upe-ctx"));
    let expansion_plain = p.script("expansion-plain.sh", "cat > /dev/null; echo upe-plain");
    let stop = p.script(
        "stop.sh",
        "case \"$(cat)\" in *'\"stop_hook_active\":true'*) exit 0;; esac\necho '{\"decision\": \"block\", \"reason\": \"run the tests\"}'",
    );
    let mut async_post = command(&late);
    async_post["async"] = json!(true);
    let mut s = p.session(json!({
        "SessionStart": [{"hooks": [command(&session_start)]}],
        "UserPromptSubmit": [{"hooks": [command(&prompt)]}],
        "UserPromptExpansion": [{"hooks": [command(&expansion), command(&expansion_plain)]}],
        "PreToolUse": [{"hooks": [command(&pre)]}],
        "PostToolUse": [{"hooks": [command(&post_hook), async_post]}],
        "PostToolBatch": [{"hooks": [command(&batch)]}],
        "Stop": [{"hooks": [command(&stop)]}],
    }));
    let mut chat = Conversation::new("Working directory: /work/project");

    chat.step(&s.session_start(&start("chat-1"), None).await.unwrap()).unwrap();
    let submit = UserPromptSubmit { prompt: "Clean up.".into(), ..UserPromptSubmit::default() };
    chat.step(&s.user_prompt_submit(&submit, None).await.unwrap()).unwrap();
    let expanded = UserPromptExpansion {
        expansion_type: "slash_command".into(),
        command_name: "clean".into(),
        prompt: "Clean up.".into(),
        ..UserPromptExpansion::default()
    };
    chat.step(&s.user_prompt_expansion(&expanded, None).await.unwrap()).unwrap();
    chat.user("Clean up.").unwrap();

    // One assistant message, three calls: two run, one is refused by its hook.
    let calls = [("ls", "toolu_1"), ("cat secret", "toolu_2"), ("make", "toolu_3")];
    let mut reply = vec![Block::text("Looking.")];
    reply.extend(calls.iter().map(|(c, id)| Block::tool_use(*id, "Bash", json!({"command": c}))));
    chat.assistant(reply).unwrap();
    assert_eq!(
        chat.request().unwrap_err(),
        ConversationError::MissingResults {
            tool_use_ids: vec!["toolu_1".into(), "toolu_2".into(), "toolu_3".into()]
        }
    );
    for (cmd, id) in calls {
        let step = s.pre_tool_use(&bash(cmd, id), None).await.unwrap();
        chat.step(&step).unwrap();
        if !step.decision.permission.may_run() {
            continue;
        }
        let output = format!("ran {cmd}");
        chat.tool_result(id, json!(output), false).unwrap();
        chat.step(&s.post_tool_use(&post(cmd, id, &output), None).await.unwrap()).unwrap();
        // The first call's background hook ends while the batch is still open.
        settle(&s).await;
    }
    chat.step(&s.post_tool_batch(&PostToolBatch::default(), None).await.unwrap()).unwrap();

    let request = chat.request().unwrap();
    assert_adjacency(&request);
    let roles: Vec<Role> = request.iter().map(|m| m.role).collect();
    use Role::{Assistant, System, User};
    // The person's first prompt, then the environment message (claude-code.md, Model
    // requests: Claude Code's first request).
    assert_eq!(roles, [User, System, Assistant, User, System, System, System, System]);
    assert_eq!(texts(&request[0]), ["Clean up."]);
    assert_eq!(
        texts(&request[1]),
        ["SessionStart:startup hook success: project uses cargo\n\nWorking directory: \
          /work/project\n\nUserPromptSubmit hook additional context: ups-ctx\n\n\
          UserPromptExpansion hook additional context: upe-ctx\n\nUserPromptExpansion hook \
          success: upe-plain"]
    );
    let results = texts(&request[3]);
    assert_eq!(results[0], "result toolu_1 error=false: ran ls");
    assert!(results[1].starts_with("result toolu_2 error=true: PreToolUse:Bash hook error: ["));
    assert!(results[1].ends_with("]: secrets stay out\n"), "{}", results[1]);
    assert_eq!(results[2], "result toolu_3 error=false: ran make");
    let joined = "PreToolUse:Bash hook additional context: pre-ctx\n\nPostToolUse:Bash hook \
                  additional context: post-ctx";
    assert_eq!(texts(&request[4]), [joined]);
    assert_eq!(texts(&request[5]), ["late-ctx"], "late, after the results, never between");
    assert_eq!(texts(&request[6]), [joined]);
    assert_eq!(texts(&request[7]), ["PostToolBatch hook additional context: batch-ctx"]);

    // The model wants to end; a Stop hook continues the turn: user feedback, then system.
    chat.assistant(vec![Block::text("Done.")]).unwrap();
    let stopped = s.stop(&Stop::default(), None).await.unwrap();
    chat.step(&stopped).unwrap();
    let request = chat.request().unwrap();
    let tail: Vec<Role> = request.iter().rev().take(3).rev().map(|m| m.role).collect();
    assert_eq!(tail, [Assistant, User, System]);
    let feedback = texts(&request[request.len() - 2]);
    assert!(feedback[0].starts_with("<system-reminder>\n"), "{feedback:?}");
    assert!(feedback[0].ends_with("Stop hook feedback:\nrun the tests\n</system-reminder>"));
    let last = texts(&request[request.len() - 1]);
    assert!(last[0].starts_with("Stop hook blocking error from command: "), "{last:?}");
    chat.assistant(vec![Block::text("Tests pass.")]).unwrap();
    chat.step(&s.stop(&Stop::default(), None).await.unwrap()).unwrap();

    // A later turn: its prompt context is a system message right before the prompt.
    let submit = UserPromptSubmit { prompt: "Push it.".into(), ..UserPromptSubmit::default() };
    chat.step(&s.user_prompt_submit(&submit, None).await.unwrap()).unwrap();
    chat.user("Push it.").unwrap();
    // Refused at the harness's prompt: the refusal and the interrupt block wait for the
    // person's next prompt, and the three go in one user message.
    chat.assistant(vec![Block::tool_use("toolu_4", "Bash", json!({"command": "git push"}))])
        .unwrap();
    let asked = s.pre_tool_use(&bash("git push", "toolu_4"), None).await.unwrap();
    assert!(matches!(asked.decision.permission, ToolPermission::Ask { .. }));
    chat.step(&asked).unwrap();
    let refused = s.answer_prompt("toolu_4", &PromptAnswer::Refused).unwrap();
    chat.answer("toolu_4", &refused).unwrap();
    chat.user("Not yet.").unwrap();
    let request = chat.request().unwrap();
    assert_adjacency(&request);
    let n = request.len();
    let tail: Vec<Role> = request[n - 4..].iter().map(|m| m.role).collect();
    assert_eq!(tail, [System, User, Assistant, User]);
    assert_eq!(texts(&request[n - 4]), ["UserPromptSubmit hook additional context: ups-ctx"]);
    assert_eq!(texts(&request[n - 3]), ["Push it."]);
    assert_eq!(
        texts(&request[n - 1]),
        [
            format!("result toolu_4 error=true: {}", templates::REFUSED),
            "[Request interrupted by user for tool use]\n".to_owned(),
            "Not yet.".to_owned(),
        ]
    );
    // Serialized in the Messages API's shape.
    let wire: Value = serde_json::to_value(&request[n - 1]).unwrap();
    assert_eq!(wire["role"], "user");
    assert_eq!(wire["content"][0]["type"], "tool_result");
    assert_eq!(wire["content"][0]["tool_use_id"], "toolu_4");
    assert_eq!(wire["content"][1]["type"], "text");
}

#[test]
fn results_for_calls_never_made_or_twice_are_typed_errors() {
    let mut chat = Conversation::new("");
    assert_eq!(
        chat.tool_result("toolu_x", json!("x"), false).unwrap_err(),
        ConversationError::UnknownCall { tool_use_id: "toolu_x".into() }
    );
    chat.assistant(vec![Block::tool_use("toolu_1", "Read", json!({}))]).unwrap();
    chat.tool_result("toolu_1", json!("x"), false).unwrap();
    assert_eq!(
        chat.tool_result("toolu_1", json!("y"), false).unwrap_err(),
        ConversationError::DuplicateResult { tool_use_id: "toolu_1".into() }
    );
    let request = chat.request().unwrap();
    assert_eq!(request.len(), 2, "no environment message when there is nothing in it");
}

#[test]
fn check_request_finds_a_result_out_of_place() {
    let call = |id: &str| Block::tool_use(id, "Bash", json!({}));
    let result = |id: &str| Block::tool_result(id, json!("ok"), false);
    let user = |blocks: Vec<Block>| Message::new(Role::User, blocks);
    let calls = Message::new(Role::Assistant, vec![call("a"), call("b")]);
    // In order, first in the next message: fine.
    let good = [calls.clone(), user(vec![result("a"), result("b"), Block::text("more")])];
    assert_eq!(check_request(&good), Ok(()));
    // Out of order, a system message between, a stray result: each named.
    let swapped = [calls.clone(), user(vec![result("b"), result("a")])];
    assert!(matches!(
        check_request(&swapped),
        Err(ConversationError::Misplaced { message: 1, .. })
    ));
    let between = [calls.clone(), Message::system("x"), user(vec![result("a"), result("b")])];
    assert!(matches!(
        check_request(&between),
        Err(ConversationError::Misplaced { message: 1, .. })
    ));
    let stray = [user(vec![result("z")])];
    assert!(matches!(check_request(&stray), Err(ConversationError::Misplaced { message: 0, .. })));
    let unanswered = [calls];
    assert_eq!(check_request(&unanswered), Ok(()), "calls still waiting are the next request's");
}
