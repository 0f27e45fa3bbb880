//! The hooks of a configuration on a dispatcher, and an event run from its Cursor input.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use hook_kit::Core;
use hook_protocol::{
    Common, Custom, Event, Payload, PreCompact, PromptSubmit, Report, Scrub, SessionEnd,
    SessionStart, SubagentEnd, SubagentStart, ToolCall, ToolFailure, ToolResult, TurnEnd,
};
use serde_json::{Map, Value};

use crate::decode::RunRecord;
use crate::hook::{CommandHook, SessionEnv};
use crate::payload::InputObject;
use crate::{Config, EventName};

/// A loaded Cursor configuration, ready to run events. It keeps what Cursor keeps between the
/// events of a session: the `env` its `sessionStart` hooks gave.
#[derive(Debug)]
pub struct Engine {
    config: Config,
    core: Core<CommandHook>,
    project_dir: PathBuf,
    session_env: SessionEnv,
}

/// One event run from its Cursor input: what the hooks received, the fold, what Cursor shows.
pub type Run = hook_kit::Run<EventName>;

impl Engine {
    hook_kit::engine_new! {
        /// The hooks of `config`, for a project (its root is where project hooks run, and
        /// `CURSOR_PROJECT_DIR`); `cursor_home` (`~/.cursor`) is where user hooks run. They run in
        /// parallel, as Cursor runs them. `scrub` keeps credentials from the environment they
        /// inherit.
        new(config: Config, project_dir: impl Into<PathBuf>, cursor_home: Option<PathBuf>, scrub: Option<Scrub>) in group => {
            let project_dir: PathBuf = project_dir.into();
            let project_dir = std::path::absolute(&project_dir).unwrap_or(project_dir);
            let session_env: SessionEnv = Arc::new(Mutex::new(Vec::new()));
            let hooks = config.entries.iter().enumerate().map(|(i, e)| {
                let home = cursor_home.clone();
                let env = Arc::clone(&session_env);
                CommandHook::new(e.clone(), i, project_dir.clone(), home, env, scrub.clone())
                    .in_group(group)
            });
            let core = Core::new(hooks, group, |d| d)?;
            Ok(Self { config, core, project_dir, session_env })
        }
    }

    hook_kit::engine_methods! {
        core, config: Config;
        /// The dispatcher of the hooks.
        dispatcher;
        /// The hooks, to register on a harness's own dispatcher beside other kinds. On a neutral
        /// event, each runs when Cursor would fire its event for it.
        hooks;
    }

    /// What a report's `sessionStart` hooks gave as `env`, kept for every later hook of the
    /// session.
    pub fn keep_session_env(&self, report: &Report) {
        let given: Vec<(String, String)> = report
            .records
            .iter()
            .filter_map(|r| r.metadata.as_ref().and_then(|m| m.downcast_ref::<RunRecord>()))
            .flat_map(|r| r.env.iter().cloned())
            .collect();
        if let (false, Ok(mut env)) = (given.is_empty(), self.session_env.lock()) {
            for (key, value) in given {
                env.retain(|(k, _)| *k != key);
                env.push((key, value));
            }
        }
    }

    /// The neutral event of a Cursor input object for one Cursor event: only that event's
    /// hooks run on it, and they get the object as it is (with `conversation_id` and
    /// `hook_event_name` added when absent).
    pub fn event(&self, name: EventName, mut input: Map<String, Value>) -> Event {
        input.entry("hook_event_name").or_insert_with(|| Value::from(name.as_str()));
        input.entry("conversation_id").or_insert_with(|| Value::from("hooks-cli"));
        input.entry("workspace_roots").or_insert_with(|| {
            Value::from(vec![Value::from(self.project_dir.display().to_string())])
        });
        let text =
            |key: &str| input.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
        let mut common = Common::new(text("conversation_id"), self.project_dir.clone());
        common.transcript_path =
            input.get("transcript_path").and_then(Value::as_str).map(PathBuf::from);
        let call = |tool_key: &str| {
            let tool_input = match input.get("tool_input") {
                Some(Value::String(s)) => {
                    serde_json::from_str(s).unwrap_or(Value::String(s.clone()))
                }
                Some(v) => v.clone(),
                None => Value::Null,
            };
            let mut call = ToolCall::new(text(tool_key), tool_input);
            call.tool_use_id = input.get("tool_use_id").and_then(Value::as_str).map(str::to_owned);
            call
        };
        let shell = || ToolCall::new("Shell", serde_json::json!({"command": text("command")}));
        let count = input
            .get("loop_count")
            .and_then(Value::as_u64)
            .map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX));
        let payload: Payload = match name {
            EventName::SessionStart => SessionStart::new("startup").into(),
            EventName::SessionEnd => SessionEnd::new(text("reason")).into(),
            EventName::PreToolUse | EventName::BeforeMcpExecution => {
                Payload::PreTool(call("tool_name"))
            }
            EventName::BeforeShellExecution => Payload::PreTool(shell()),
            EventName::BeforeReadFile => Payload::PreTool(ToolCall::new(
                "Read",
                serde_json::json!({"file_path": text("file_path")}),
            )),
            EventName::PostToolUse | EventName::AfterMcpExecution => {
                let output = input.get("tool_output").or_else(|| input.get("result_json"));
                ToolResult::new(call("tool_name"), output.cloned().unwrap_or(Value::Null)).into()
            }
            EventName::AfterShellExecution => {
                ToolResult::new(shell(), input.get("output").cloned().unwrap_or(Value::Null)).into()
            }
            EventName::AfterFileEdit => ToolResult::new(
                ToolCall::new("Write", serde_json::json!({"file_path": text("file_path")})),
                Value::Null,
            )
            .into(),
            EventName::PostToolUseFailure => {
                ToolFailure::new(call("tool_name"), text("error_message")).into()
            }
            EventName::SubagentStart => {
                SubagentStart::new(text("subagent_id"), text("subagent_type")).into()
            }
            EventName::SubagentStop => {
                let mut end = SubagentEnd::new(text("subagent_id"), text("subagent_type"));
                end.continuations = count;
                end.into()
            }
            EventName::BeforeSubmitPrompt => PromptSubmit::new(text("prompt")).into(),
            EventName::PreCompact => PreCompact::new(text("trigger")).into(),
            EventName::Stop => {
                let mut end = TurnEnd::new();
                end.continuations = count;
                end.continuing = count > 0;
                end.into()
            }
            EventName::AfterAgentResponse
            | EventName::AfterAgentThought
            | EventName::BeforeTabFileRead
            | EventName::AfterTabFileEdit
            | EventName::WorkspaceOpen => Custom::new(name.as_str(), input.clone()).into(),
        };
        InputObject::new(name, input).event(common, payload)
    }

    /// Runs one event from its Cursor input.
    pub async fn run_json(&self, name: EventName, input: Map<String, Value>) -> Run {
        let event = self.event(name, input);
        let run =
            self.core.run(name, &event, |report, _| crate::present::shown(name, report)).await;
        if name == EventName::SessionStart {
            self.keep_session_env(&run.report);
        }
        run
    }

    /// The project's root.
    pub fn project_dir(&self) -> &Path {
        &self.project_dir
    }
}
