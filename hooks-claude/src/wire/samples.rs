//! A representative input for every event, as the typed API builds it: for documentation,
//! snapshot tests and conformance checks against third-party hook SDKs.

use serde_json::{Map, Value, json};

use crate::EventName;
use crate::input::*;

fn base() -> Base {
    let mut b = Base::new("sess-1", "/home/u/.claude/projects/p/sess-1.jsonl", "/work/project");
    b.permission_mode = Some("default".to_owned());
    b
}

/// The common fields without `permission_mode`: the events first recorded in 2.1.332 (see the
/// Events table of `docs/claude-code.md`) carry none, UserPromptExpansion aside.
fn bare() -> Base {
    Base { permission_mode: None, ..base() }
}

fn tool_base() -> Base {
    let mut b = base();
    b.effort = Some(Effort { level: "high".to_owned() });
    b
}

fn map(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// The stdin object of a representative input of `event`.
pub fn payload_of(event: EventName) -> Map<String, Value> {
    use EventName as E;
    let bash = json!({"command": "cargo test", "description": "Run the tests"});
    match event {
        E::SessionStart => payload(&SessionStart {
            base: Base { permission_mode: None, ..base() },
            source: "startup".into(),
            model: Some("claude-opus-5".into()),
            ..Default::default()
        }),
        E::Setup => payload(&Setup { base: bare(), trigger: "init".into() }),
        E::InstructionsLoaded => payload(&InstructionsLoaded {
            base: bare(),
            file_path: "/work/project/CLAUDE.md".into(),
            memory_type: "Project".into(),
            load_reason: "session_start".into(),
            ..Default::default()
        }),
        E::UserPromptSubmit => payload(&UserPromptSubmit {
            base: base(),
            prompt: "Fix the failing test".into(),
            session_title: None,
        }),
        E::UserPromptExpansion => payload(&UserPromptExpansion {
            base: base(),
            expansion_type: "slash_command".into(),
            command_name: "review".into(),
            command_args: "src/".into(),
            command_source: Some("project".into()),
            prompt: "Review src/".into(),
        }),
        E::PreSkillShellCommand => payload(&PreSkillShellCommand { base: bare() }),
        E::MessageDisplay => payload(&MessageDisplay {
            base: Base { permission_mode: None, ..base() },
            turn_id: "turn-1".into(),
            message_id: "msg-1".into(),
            index: 0,
            is_final: true,
            delta: "Done.".into(),
        }),
        E::PreToolUse => payload(&PreToolUse {
            base: tool_base(),
            tool_name: "Bash".into(),
            tool_input: bash,
            tool_use_id: "toolu_01".into(),
            mcp_server: None,
        }),
        E::PermissionRequest => payload(&PermissionRequest {
            base: tool_base(),
            tool_name: "Bash".into(),
            tool_input: bash,
            permission_suggestions: Some(vec![
                json!({"type": "addRules", "rules": [{"toolName": "Bash", "ruleContent": "cargo test"}], "behavior": "allow", "destination": "localSettings"}),
            ]),
            mcp_server: None,
        }),
        E::PermissionDenied => payload(&PermissionDenied {
            base: tool_base(),
            tool_name: "Bash".into(),
            tool_input: bash,
            tool_use_id: "toolu_01".into(),
            reason: "auto mode denied rm".into(),
            mcp_server: None,
        }),
        E::PostToolUse => payload(&PostToolUse {
            base: tool_base(),
            tool_name: "Bash".into(),
            tool_input: bash,
            tool_response: json!({"stdout": "ok", "stderr": "", "interrupted": false, "isImage": false}),
            tool_use_id: "toolu_01".into(),
            duration_ms: Some(1250),
            mcp_server: None,
        }),
        E::PostToolUseFailure => payload(&PostToolUseFailure {
            base: tool_base(),
            tool_name: "Bash".into(),
            tool_input: bash,
            tool_use_id: "toolu_01".into(),
            error: "Exit code 101\ntest failed".into(),
            is_interrupt: Some(false),
            duration_ms: Some(800),
            mcp_server: None,
        }),
        E::PostToolBatch => payload(&PostToolBatch {
            base: tool_base(),
            tool_calls: vec![BatchCall {
                tool_name: "Read".into(),
                tool_input: json!({"file_path": "/work/project/a.rs"}),
                tool_use_id: "toolu_02".into(),
                tool_response: json!("fn main() {}"),
            }],
        }),
        E::Notification => payload(&Notification {
            base: base(),
            message: "Claude needs your permission to use Bash".into(),
            title: Some("Permission needed".into()),
            notification_type: "permission_prompt".into(),
        }),
        E::SubagentStart => payload(&SubagentStart {
            base: Base {
                agent_id: Some("agent-7".into()),
                agent_type: Some("Explore".into()),
                permission_mode: None,
                ..base()
            },
        }),
        E::SubagentStop => payload(&SubagentStop {
            base: Base {
                agent_id: Some("agent-7".into()),
                agent_type: Some("Explore".into()),
                ..tool_base()
            },
            stop_hook_active: false,
            agent_transcript_path: "/home/u/.claude/projects/p/agent-7.jsonl".into(),
            last_assistant_message: Some("Found 3 call sites.".into()),
            background_tasks: Some(vec![]),
            session_crons: Some(vec![]),
        }),
        E::TaskCreated => payload(&TaskCreated {
            base: bare(),
            task_id: "task-1".into(),
            task_subject: "Write tests".into(),
            task_description: Some("Cover the parser".into()),
            teammate_name: Some("tester".into()),
            team_name: Some("core".into()),
        }),
        E::TaskCompleted => payload(&TaskCompleted {
            base: bare(),
            task_id: "task-1".into(),
            task_subject: "Write tests".into(),
            task_description: None,
            teammate_name: Some("tester".into()),
            team_name: Some("core".into()),
        }),
        E::Stop => payload(&Stop {
            base: tool_base(),
            stop_hook_active: false,
            last_assistant_message: Some("All tests pass.".into()),
            background_tasks: Some(vec![BackgroundTask {
                id: "bash-1".into(),
                kind: "shell".into(),
                status: "running".into(),
                description: "npm run dev".into(),
                command: Some("npm run dev".into()),
                ..Default::default()
            }]),
            session_crons: Some(vec![SessionCron {
                id: "cron-1".into(),
                schedule: "*/5 * * * *".into(),
                recurring: true,
                prompt: "check CI".into(),
            }]),
        }),
        E::StopFailure => payload(&StopFailure {
            base: bare(),
            error: "rate_limit".into(),
            last_assistant_message: Some("API Error: 429 Too Many Requests".into()),
        }),
        E::TeammateIdle => payload(&TeammateIdle {
            base: base(),
            teammate_name: "tester".into(),
            team_name: Some("core".into()),
        }),
        E::ConfigChange => payload(&ConfigChange {
            base: bare(),
            source: "project_settings".into(),
            file_path: Some("/work/project/.claude/settings.json".into()),
        }),
        E::CwdChanged => payload(&CwdChanged {
            base: base(),
            old_cwd: "/work/project".into(),
            new_cwd: "/work/project/sub".into(),
        }),
        E::DirectoryAdded => payload(&DirectoryAdded {
            base: bare(),
            directory: "/work/other".into(),
            source: "slash_command".into(),
        }),
        E::FileChanged => payload(&FileChanged {
            base: bare(),
            file_path: "/work/project/.env".into(),
            event: "change".into(),
        }),
        E::WorktreeCreate => payload(&WorktreeCreate { base: bare(), name: "feature-x".into() }),
        E::WorktreeRemove => {
            payload(&WorktreeRemove { base: bare(), worktree_path: "/work/trees/feature-x".into() })
        }
        E::PreCompact => payload(&PreCompact {
            base: Base { permission_mode: None, ..base() },
            trigger: "manual".into(),
            custom_instructions: Some("Keep the test plan".into()),
        }),
        E::PostCompact => payload(&PostCompact {
            base: Base { permission_mode: None, ..base() },
            trigger: "auto".into(),
            compact_summary: "We fixed the parser.".into(),
        }),
        E::PreModelSwitch => payload(&PreModelSwitch {
            base: bare(),
            from_model: "claude-sonnet-5".into(),
            to_model: "claude-opus-5[1m]".into(),
            requested_model: Some("opus".into()),
            source: "command".into(),
            context_tokens: 42_000,
            prompt_cache_warm: true,
            cache_ttl: "5m".into(),
            estimated_cache_write_usd: 0.21,
            pricing: "catalog".into(),
        }),
        E::PostModelSwitch => payload(&PostModelSwitch {
            base: bare(),
            from_model: "claude-sonnet-5".into(),
            to_model: "claude-opus-5".into(),
            requested_model: None,
            source: "auto".into(),
            context_tokens: 42_000,
            prompt_cache_warm: false,
            cache_ttl: "1h".into(),
            estimated_cache_write_usd: 0.4,
            pricing: "default".into(),
        }),
        E::Elicitation => payload(&Elicitation {
            base: bare(),
            mcp_server_name: "github".into(),
            message: "Which repository?".into(),
            mode: Some("form".into()),
            url: None,
            elicitation_id: Some("el-1".into()),
            requested_schema: Some(map(
                json!({"type": "object", "properties": {"repo": {"type": "string"}}}),
            )),
        }),
        E::ElicitationResult => payload(&ElicitationResult {
            base: bare(),
            mcp_server_name: "github".into(),
            action: "accept".into(),
            mode: Some("form".into()),
            elicitation_id: Some("el-1".into()),
            content: Some(map(json!({"repo": "a/b"}))),
        }),
        E::SessionEnd => payload(&SessionEnd {
            base: Base { permission_mode: None, ..base() },
            reason: "prompt_input_exit".into(),
        }),
    }
}
