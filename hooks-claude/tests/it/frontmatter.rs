//! Hooks in skill and sub-agent frontmatter: registration by invocation or by sub-agent,
//! `once`, `Stop` as `SubagentStop`, positions, dedup and managed policies.

use hook_protocol::HookStatus;
use hooks_claude::input::{Base, PreToolUse, SubagentStop, UserPromptSubmit};
use hooks_claude::{EventName, Loader, Scope, StopGuard};
use serde_json::json;

use crate::support::*;

fn prompt(dir: &std::path::Path) -> UserPromptSubmit {
    UserPromptSubmit {
        base: Base::new("s-1", "/t.jsonl", dir.display().to_string()),
        prompt: "hi".into(),
        ..UserPromptSubmit::default()
    }
}

fn tool(dir: &std::path::Path, agent_type: Option<&str>) -> PreToolUse {
    let mut base = Base::new("s-1", "/t.jsonl", dir.display().to_string());
    base.agent_type = agent_type.map(str::to_owned);
    base.agent_id = agent_type.map(|_| "agent-1".to_owned());
    PreToolUse {
        base,
        tool_name: "Bash".into(),
        tool_input: json!({"command": "ls"}),
        tool_use_id: "toolu_1".into(),
        mcp_server: None,
    }
}

/// Lines appended by hooks to `log`, as `tag` lines.
fn logged(log: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(log).unwrap_or_default().lines().map(str::to_owned).collect()
}

#[tokio::test]
async fn a_skills_hooks_run_once_it_is_invoked_and_once_hooks_retire_after_a_success() {
    let dir = temp_dir("skill");
    let log = dir.join("log");
    let skill = format!(
        "---\nname: formatter\ndescription: Formats\nhooks:\n  UserPromptSubmit:\n    - hooks:\n        - type: command\n          command: echo always >> '{log}'\n        - type: command\n          command: echo once >> '{log}'\n          once: true\n        - type: command\n          command: echo failing-once >> '{log}'; exit 1\n          once: true\n---\n# Formatter\n",
        log = log.display()
    );
    let config =
        Loader::new().skill_text(dir.join("skills/fmt/SKILL.md"), &skill).finish().unwrap();
    assert!(config.diagnostics.is_empty(), "{:?}", config.diagnostics);
    assert_eq!(config.entries[0].source.label(), "skill:formatter");
    let engine = engine(config, &dir);

    let fired = engine.user_prompt_submit(&prompt(&dir)).await;
    assert!(fired.records().is_empty(), "not invoked yet: not registered, no record");
    assert!(engine.activate_skill("formatter"));
    assert!(!engine.activate_skill("formatter"), "already registered");
    assert!(engine.skill_active("formatter"));

    let fired = engine.user_prompt_submit(&prompt(&dir)).await;
    let statuses: Vec<HookStatus> = fired.records().iter().map(|r| r.status).collect();
    assert_eq!(statuses, [HookStatus::Success, HookStatus::Success, HookStatus::Failed]);
    let fired = engine.user_prompt_submit(&prompt(&dir)).await;
    assert_eq!(fired.records().len(), 2, "the successful once hook retired; the failing one stays");
    let mut lines = logged(&log);
    lines.sort();
    assert_eq!(lines, ["always", "always", "failing-once", "failing-once", "once"]);
}

#[tokio::test]
async fn a_sub_agents_hooks_run_on_its_events_only_and_its_stop_is_subagent_stop() {
    let dir = temp_dir("agent");
    let log = dir.join("log");
    let agent = format!(
        "---\ndescription: Reviews\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: echo pre >> '{log}'\n  Stop:\n    - hooks:\n        - type: command\n          command: echo stop >> '{log}'\n---\nYou review.\n",
        log = log.display()
    );
    // A user's sub-agent (outside the project: no trust needed).
    let home = temp_dir("agent-home");
    let config =
        Loader::new().agent_text(home.join("agents/reviewer.md"), &agent).finish().unwrap();
    assert!(config.diagnostics.is_empty(), "{:?}", config.diagnostics);
    let events: Vec<EventName> = config.entries.iter().map(|e| e.event).collect();
    assert_eq!(events, [EventName::PreToolUse, EventName::SubagentStop]);
    assert_eq!(config.entries[1].source.label(), "agent:reviewer", "named after the file");
    let engine = engine(config, &dir);

    assert!(engine.pre_tool_use(&tool(&dir, None)).await.records().is_empty());
    assert!(engine.pre_tool_use(&tool(&dir, Some("other"))).await.records().is_empty());
    let fired = engine.pre_tool_use(&tool(&dir, Some("reviewer"))).await;
    assert_eq!(fired.records()[0].status, HookStatus::Success);

    let mut stop = SubagentStop {
        base: Base::new("s-1", "/t.jsonl", dir.display().to_string()),
        ..SubagentStop::default()
    };
    stop.base.agent_type = Some("reviewer".into());
    stop.base.agent_id = Some("agent-1".into());
    let fired = engine.subagent_stop(&stop, &mut StopGuard::default()).await;
    assert_eq!(fired.records().len(), 1);
    assert_eq!(logged(&log), ["pre", "stop"]);
}

#[test]
fn frontmatter_problems_are_reported_in_the_file() {
    let dir = temp_dir("frontmatter-problems");
    let broken = "---\nname: x\nhooks: [unclosed\n---\n";
    let config =
        Loader::new().skill_text(dir.join("SKILL.md"), broken).finish().unwrap_err().into_config();
    let d = &config.diagnostics[0];
    assert!(d.is_error() && d.message.starts_with("invalid YAML frontmatter"), "{d}");
    assert!(d.line >= 3, "{d}");
    assert!(config.entries.is_empty());

    let unknown = "---\nname: x\ndescription: y\nhooks:\n  Nope: []\n  Stop:\n    - hooks:\n        - type: command\n          command: 'true'\n---\n";
    let config = Loader::new().skill_text(dir.join("SKILL.md"), unknown).finish().unwrap();
    assert_eq!(config.entries.len(), 1);
    let d = &config.diagnostics[0];
    assert_eq!((d.line, d.column), (4, 1), "at the `hooks:` line");
    assert!(d.file.ends_with("SKILL.md"));
    assert!(d.message.starts_with("unknown hook event `Nope`"), "{d}");

    // No frontmatter, or no hooks in it: nothing, and nothing to say.
    for text in ["# Just a skill\n", "---\nname: x\n---\nbody\n"] {
        let config = Loader::new().skill_text(dir.join("SKILL.md"), text).finish().unwrap();
        assert!(config.entries.is_empty() && config.diagnostics.is_empty());
    }
}

#[tokio::test]
async fn a_skills_copy_of_a_settings_hook_stays_separate_and_managed_only_blocks_it() {
    let dir = temp_dir("skill-dedup");
    let log = dir.join("log");
    let command = format!("echo ran >> '{}'", log.display());
    let settings_text = settings(
        json!({"UserPromptSubmit": [{"hooks": [{"type": "command", "command": command}]}]}),
    );
    let skill = format!(
        "---\nname: s\nhooks:\n  UserPromptSubmit:\n    - hooks:\n        - type: command\n          command: \"{command}\"\n---\n"
    );
    let mut loader = Loader::new();
    loader
        .settings_text(dir.join("settings.json"), &settings_text, Scope::Project)
        .skill_text(dir.join("SKILL.md"), &skill);
    let engine = engine(loader.finish().unwrap(), &dir);
    engine.activate_skill("s");
    let fired = engine.user_prompt_submit(&prompt(&dir)).await;
    let statuses: Vec<HookStatus> = fired.records().iter().map(|r| r.status).collect();
    assert_eq!(statuses, [HookStatus::Success, HookStatus::Success], "both copies run");
    assert_eq!(logged(&log).len(), 2);

    let config = Loader::new()
        .settings_text("managed.json", r#"{"allowManagedHooksOnly": true}"#, Scope::Managed)
        .skill_text(dir.join("SKILL.md"), &skill)
        .finish()
        .unwrap();
    assert_eq!(config.active().count(), 0, "a skill's hooks are not managed hooks");
}

#[tokio::test]
async fn an_untrusted_folder_runs_no_hook_and_a_project_sub_agent_needs_real_trust() {
    use hooks_claude::{Engine, HostEnv, WorkspaceTrust};
    let dir = temp_dir("trust");
    let log = dir.join("log");
    let echo = |tag: &str| format!("echo {tag} >> '{}'", log.display());
    let settings_text = settings(
        json!({"PreToolUse": [{"hooks": [{"type": "command", "command": echo("settings")}]}]}),
    );
    let agent = |tag: &str| {
        format!(
            "---\nname: reviewer\nhooks:\n  PreToolUse:\n    - hooks:\n        - type: command\n          command: \"{}\"\n---\n",
            echo(tag)
        )
    };
    let outside = temp_dir("trust-user-agents");
    let build = |trust| {
        let mut loader = Loader::new();
        loader
            .settings_text(dir.join(".claude/settings.json"), &settings_text, Scope::Project)
            .agent_text(dir.join(".claude/agents/reviewer.md"), &agent("project-agent"))
            .agent_text(outside.join("reviewer.md"), &agent("user-agent"));
        Engine::builder(loader.finish().unwrap())
            .host(HostEnv::new(&dir))
            .workspace_trust(trust)
            .build()
            .unwrap()
    };
    let input = tool(&dir, Some("reviewer"));

    let engine = build(WorkspaceTrust::Untrusted);
    assert!(engine.pre_tool_use(&input).await.records().is_empty(), "nothing runs");
    engine.trust_workspace();
    assert_eq!(engine.workspace_trust(), WorkspaceTrust::Trusted);
    assert_eq!(engine.pre_tool_use(&input).await.records().len(), 3, "the user said yes");
    let mut lines = logged(&log);
    lines.sort();
    assert_eq!(lines, ["project-agent", "settings", "user-agent"]);

    std::fs::remove_file(&log).unwrap();
    let engine = build(WorkspaceTrust::default());
    assert_eq!(engine.workspace_trust(), WorkspaceTrust::Implicit);
    assert_eq!(engine.pre_tool_use(&input).await.records().len(), 2);
    let mut lines = logged(&log);
    lines.sort();
    assert_eq!(lines, ["settings", "user-agent"], "a project sub-agent needs the folder trusted");
}
