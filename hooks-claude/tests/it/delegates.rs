use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use hook_protocol::{Continuation, HookStatus, PromptPermission, ToolPermission};
use hooks_claude::delegate::{
    AgentRequest, AgentRunner, DelegateError, McpToolCaller, McpToolRequest, McpToolResult,
    ModelEvaluator, PromptRequest,
};
use hooks_claude::input::{Base, PreToolUse, SessionStart, Stop, UserPromptSubmit};
use hooks_claude::{Engine, EngineBuilder, EventName, HostEnv, StopGuard};
use serde_json::{Value, json};

use crate::support::*;

/// A model double: answers with a fixed reply after a delay, and keeps every request.
#[derive(Debug)]
struct Model {
    reply: String,
    delay: Duration,
    calls: Mutex<Vec<PromptRequest>>,
}

impl Model {
    fn new(reply: Value) -> Arc<Self> {
        Arc::new(Self {
            reply: reply.to_string(),
            delay: Duration::ZERO,
            calls: Mutex::new(Vec::new()),
        })
    }

    fn calls(&self) -> Vec<PromptRequest> {
        self.calls.lock().unwrap().clone()
    }
}

#[async_trait]
impl ModelEvaluator for Model {
    async fn evaluate(&self, request: &PromptRequest) -> Result<String, DelegateError> {
        self.calls.lock().unwrap().push(request.clone());
        tokio::time::sleep(self.delay).await;
        Ok(self.reply.clone())
    }
}

/// An agent double.
#[derive(Debug, Default)]
struct Agent {
    calls: Mutex<Vec<AgentRequest>>,
}

#[async_trait]
impl AgentRunner for Agent {
    async fn run(&self, request: &AgentRequest) -> Result<String, DelegateError> {
        self.calls.lock().unwrap().push(request.clone());
        Ok(json!({"ok": false, "reason": "the agent found a failing test"}).to_string())
    }
}

/// An MCP client double: answers per tool name.
#[derive(Debug, Default)]
struct Mcp {
    calls: Mutex<Vec<McpToolRequest>>,
}

#[async_trait]
impl McpToolCaller for Mcp {
    async fn call(&self, request: &McpToolRequest) -> Result<McpToolResult, DelegateError> {
        self.calls.lock().unwrap().push(request.clone());
        match request.tool.as_str() {
            "deny" => Ok(McpToolResult::text(
                json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "mcp says no"}}).to_string(),
            )),
            "context" => Ok(McpToolResult::text("remember the style guide")),
            "broken" => Ok(McpToolResult::error("tool crashed")),
            _ => Err(DelegateError::NotConnected { server: request.server.clone() }),
        }
    }
}

fn base(dir: &Path) -> Base {
    Base::new("s-d", "/t.jsonl", dir.display().to_string())
}

fn pre_tool(dir: &Path) -> PreToolUse {
    PreToolUse {
        base: base(dir),
        tool_name: "Write".into(),
        tool_input: json!({"file_path": "/p/a.rs", "content": "x"}),
        tool_use_id: "toolu_d".into(),
        mcp_server: None,
    }
}

fn builder(dir: &Path, hooks: Value) -> EngineBuilder {
    let config = load(dir, &settings(hooks));
    assert!(!config.has_errors(), "{:?}", config.diagnostics);
    Engine::builder(config).host(HostEnv::new(dir))
}

#[tokio::test]
async fn prompt_hooks_ask_the_model_with_the_event_json() {
    let dir = temp_dir("prompt");
    let model = Model::new(json!({"ok": false, "reason": "writes to /p need review"}));
    let hooks = json!({"PreToolUse": [{"hooks": [
        {"type": "prompt", "prompt": "Is this safe? $ARGUMENTS (cost: \\$0)", "model": "fast-model"},
    ]}]});
    let engine = builder(&dir, hooks).model_evaluator(model.clone()).build().unwrap();
    let input = pre_tool(&dir);
    let fired = engine.pre_tool_use(&input).await;
    let calls = model.calls();
    assert_eq!(calls.len(), 1);
    let c = &calls[0];
    let json = serde_json::to_string(&hooks_claude::input::payload(&input)).unwrap();
    assert_eq!(c.prompt, format!("Is this safe? {json} (cost: $0)"));
    assert_eq!(c.model.as_deref(), Some("fast-model"));
    assert_eq!(c.timeout, Duration::from_secs(30), "prompt hooks default to 30 s");
    assert_eq!(c.event, EventName::PreToolUse);
    assert_eq!(c.schema["required"], json!(["ok"]));
    assert_eq!(
        fired.decision.permission,
        ToolPermission::Deny { reason: Some("writes to /p need review".into()) }
    );
    assert!(fired.decision.control.halt.is_some(), "without continueOnBlock the turn ends");
}

#[tokio::test]
async fn continue_on_block_impossible_and_ok() {
    let dir = temp_dir("prompt-map");
    let hooks = json!({"PreToolUse": [{"hooks": [
        {"type": "prompt", "prompt": "check", "continueOnBlock": true, "timeout": 7},
    ]}]});
    let model = Model::new(json!({"ok": false, "reason": "no"}));
    let engine = builder(&dir, hooks).model_evaluator(model.clone()).build().unwrap();
    let fired = engine.pre_tool_use(&pre_tool(&dir)).await;
    assert_eq!(fired.decision.permission, ToolPermission::Deny { reason: Some("no".into()) });
    assert!(fired.decision.control.halt.is_none(), "continueOnBlock: the turn goes on");
    let c = &model.calls()[0];
    assert!(c.prompt.starts_with("check\n\n{"), "no $ARGUMENTS: appended: {}", c.prompt);
    assert_eq!(c.timeout, Duration::from_secs(7));

    let stop_hooks =
        json!({"Stop": [{"hooks": [{"type": "prompt", "prompt": "done? $ARGUMENTS"}]}]});
    let stop = Stop { base: base(&dir), ..Stop::default() };
    let impossible = Model::new(json!({"ok": false, "reason": "cannot", "impossible": true}));
    let engine = builder(&dir, stop_hooks.clone()).model_evaluator(impossible).build().unwrap();
    let d = engine.stop(&stop, &mut StopGuard::default()).await.decision;
    assert_eq!(d.continuation, Continuation::Stop, "impossible lets the stop happen");
    let keep = Model::new(json!({"ok": false, "reason": "tests still fail"}));
    let engine = builder(&dir, stop_hooks).model_evaluator(keep).build().unwrap();
    let d = engine.stop(&stop, &mut StopGuard::default()).await.decision;
    assert_eq!(d.continuation, Continuation::Continue { reason: Some("tests still fail".into()) });

    let ok = Model::new(json!({"ok": true}));
    let hooks = json!({"UserPromptSubmit": [{"hooks": [{"type": "prompt", "prompt": "p"}]}]});
    let engine = builder(&dir, hooks).model_evaluator(ok).build().unwrap();
    let input =
        UserPromptSubmit { base: base(&dir), prompt: "hi".into(), ..UserPromptSubmit::default() };
    let fired = engine.user_prompt_submit(&input).await;
    assert_eq!(fired.decision.permission, PromptPermission::NoOpinion);
}

#[tokio::test]
async fn unreadable_answers_and_slow_models_are_non_blocking() {
    let dir = temp_dir("prompt-fail");
    let hooks =
        json!({"PreToolUse": [{"hooks": [{"type": "prompt", "prompt": "p", "timeout": 0.3}]}]});
    let chatty = Arc::new(Model {
        reply: "Sure, looks fine to me!".into(),
        delay: Duration::ZERO,
        calls: Mutex::new(Vec::new()),
    });
    let engine = builder(&dir, hooks.clone()).model_evaluator(chatty).build().unwrap();
    let fired = engine.pre_tool_use(&pre_tool(&dir)).await;
    assert_eq!(fired.records()[0].status, HookStatus::Failed);
    assert_eq!(fired.decision.permission, ToolPermission::NoOpinion);
    let slow = Arc::new(Model {
        reply: json!({"ok": false, "reason": "late"}).to_string(),
        delay: Duration::from_secs(30),
        calls: Mutex::new(Vec::new()),
    });
    let engine = builder(&dir, hooks).model_evaluator(slow).build().unwrap();
    let started = Instant::now();
    let fired = engine.pre_tool_use(&pre_tool(&dir)).await;
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(fired.records()[0].status, HookStatus::TimedOut);
    assert_eq!(fired.decision.permission, ToolPermission::NoOpinion);
}

#[tokio::test]
async fn agent_hooks_run_the_agent_and_always_continue() {
    let dir = temp_dir("agent");
    let agent = Arc::new(Agent::default());
    let hooks =
        json!({"PreToolUse": [{"hooks": [{"type": "agent", "prompt": "Review $ARGUMENTS"}]}]});
    let engine = builder(&dir, hooks).agent_runner(agent.clone()).build().unwrap();
    let fired = engine.pre_tool_use(&pre_tool(&dir)).await;
    let calls = agent.calls.lock().unwrap().clone();
    assert_eq!(calls.len(), 1);
    assert_eq!((calls[0].timeout, calls[0].max_turns), (Duration::from_secs(60), 50));
    assert!(calls[0].prompt.starts_with("Review {\"session_id\":\"s-d\""), "{}", calls[0].prompt);
    assert_eq!(
        fired.decision.permission,
        ToolPermission::Deny { reason: Some("the agent found a failing test".into()) }
    );
    assert!(fired.decision.control.halt.is_none(), "agent hooks continue on block");
}

#[tokio::test]
async fn mcp_tool_hooks_call_the_tool_with_substituted_input() {
    let dir = temp_dir("mcp");
    let mcp = Arc::new(Mcp::default());
    let tool = |name: &str| {
        json!({"type": "mcp_tool", "server": "policy", "tool": name,
               "input": {"path": "${tool_input.file_path}", "n": 3, "event": "${hook_event_name}"}})
    };
    let hooks = json!({"PreToolUse": [
        {"matcher": "Write", "hooks": [tool("deny")]},
        {"matcher": "Read", "hooks": [tool("broken")]},
        {"matcher": "Edit", "hooks": [tool("offline")]},
    ]});
    let engine = builder(&dir, hooks).mcp_tool_caller(mcp.clone()).build().unwrap();
    let mut input = pre_tool(&dir);
    let fired = engine.pre_tool_use(&input).await;
    assert_eq!(
        fired.decision.permission,
        ToolPermission::Deny { reason: Some("mcp says no".into()) },
        "text content is read like stdout"
    );
    let call = mcp.calls.lock().unwrap()[0].clone();
    assert_eq!((call.server.as_str(), call.tool.as_str()), ("policy", "deny"));
    assert_eq!(
        call.input,
        test_support::object(json!({"path": "/p/a.rs", "n": 3, "event": "PreToolUse"}))
    );
    assert_eq!(call.timeout, Duration::from_secs(600));
    for (tool, message) in [("Read", "returned an error: tool crashed"), ("Edit", "not connected")]
    {
        input.tool_name = tool.into();
        let fired = engine.pre_tool_use(&input).await;
        let record = &fired.records()[0];
        assert_eq!(record.status, HookStatus::Failed, "{record:?}");
        assert!(record.message.as_deref().is_some_and(|m| m.contains(message)), "{record:?}");
        assert_eq!(fired.decision.permission, ToolPermission::NoOpinion);
    }

    let hooks = json!({"SessionStart": [{"hooks": [
        {"type": "mcp_tool", "server": "s", "tool": "context"},
    ]}]});
    let engine = builder(&dir, hooks).mcp_tool_caller(mcp.clone()).build().unwrap();
    let start = |source: &str| SessionStart {
        base: base(&dir),
        source: source.into(),
        ..SessionStart::default()
    };
    let fired = engine.session_start(&start("startup")).await;
    assert_eq!(fired.records()[0].status, HookStatus::Skipped, "no MCP client at launch");
    let fired = engine.session_start(&start("resume")).await;
    let context: Vec<_> = fired.decision.context.iter().map(|c| c.text.clone()).collect();
    assert_eq!(context, ["remember the style guide"], "plain text is context on SessionStart");
}

#[tokio::test]
async fn without_an_implementation_a_hook_is_skipped_with_a_warning() {
    let dir = temp_dir("no-impl");
    let hooks = json!({"PreToolUse": [{"hooks": [
        {"type": "prompt", "prompt": "p"},
        {"type": "agent", "prompt": "a"},
        {"type": "mcp_tool", "server": "s", "tool": "t"},
    ]}]});
    let engine = builder(&dir, hooks).build().unwrap();
    let fired = engine.pre_tool_use(&pre_tool(&dir)).await;
    let messages: Vec<_> =
        fired.records().iter().map(|r| (r.status, r.message.clone().unwrap_or_default())).collect();
    for ((status, message), what) in
        messages.iter().zip(["model evaluator", "agent runner", "MCP tool caller"])
    {
        assert_eq!(*status, HookStatus::Skipped);
        assert!(message.contains(what), "{message}");
    }
    assert!(fired.records().iter().all(|r| !r.warnings.is_empty()));
}
