//! `hookSpecificOutput`, per event.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{Fields, OutputError, short};
use crate::EventName;

/// PreToolUse's (and PreModelSwitch's) `permissionDecision`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PermissionDecisionValue {
    /// Skip the permission prompt.
    Allow,
    /// Block the call.
    Deny,
    /// Ask the user.
    Ask,
    /// Defer to whoever drives a headless run.
    Defer,
}

/// PermissionRequest's `decision.behavior`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PermissionBehavior {
    /// Grant.
    Allow,
    /// Refuse.
    Deny,
}

/// An elicitation `action`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElicitationAction {
    /// Accept with `content`.
    Accept,
    /// Cancel.
    Cancel,
    /// Decline (wins over every other hook's answer).
    Decline,
}

/// PreToolUse's specific output.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct PreToolUseOutput {
    /// `permissionDecision`.
    pub permission_decision: Option<PermissionDecisionValue>,
    /// `permissionDecisionReason`.
    pub permission_decision_reason: Option<String>,
    /// `updatedInput`: replaces the whole input.
    pub updated_input: Option<Map<String, Value>>,
    /// `additionalContext`.
    pub additional_context: Option<String>,
}

/// UserPromptSubmit's (and UserPromptExpansion's) specific output.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct PromptOutput {
    /// `additionalContext`.
    pub additional_context: Option<String>,
    /// `sessionTitle`.
    pub session_title: Option<String>,
    /// `suppressOriginalPrompt`.
    pub suppress_original_prompt: Option<bool>,
}

/// SessionStart's specific output.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct SessionStartOutput {
    /// `additionalContext`.
    pub additional_context: Option<String>,
    /// `initialUserMessage` (headless runs only).
    pub initial_user_message: Option<String>,
    /// `sessionTitle`.
    pub session_title: Option<String>,
    /// `watchPaths`.
    pub watch_paths: Option<Vec<String>>,
    /// `reloadSkills`.
    pub reload_skills: Option<bool>,
}

/// The specific output of the events that can only add context.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct ContextOutput {
    /// `additionalContext`.
    pub additional_context: Option<String>,
}

/// PostToolUse's specific output.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct PostToolUseOutput {
    /// `additionalContext`.
    pub additional_context: Option<String>,
    /// `classifierContext`.
    pub classifier_context: Option<String>,
    /// `updatedToolOutput`: what the model sees instead of the tool's output.
    pub updated_tool_output: Option<Value>,
    /// `updatedMCPToolOutput` (deprecated spelling of the above for MCP tools).
    pub updated_mcp_tool_output: Option<Value>,
}

/// PermissionRequest's specific output.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct PermissionRequestOutput {
    /// `decision.behavior`.
    pub behavior: Option<PermissionBehavior>,
    /// `decision.updatedInput` (allow).
    pub updated_input: Option<Map<String, Value>>,
    /// `decision.updatedPermissions` (allow): `PermissionUpdate` objects.
    pub updated_permissions: Option<Vec<Value>>,
    /// `decision.message` (deny).
    pub message: Option<String>,
    /// `decision.interrupt` (deny): stop the agent too.
    pub interrupt: Option<bool>,
}

/// PermissionDenied's specific output.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct PermissionDeniedOutput {
    /// `retry`: let the model try again.
    pub retry: Option<bool>,
}

/// Elicitation's and ElicitationResult's specific output.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct ElicitationOutput {
    /// `action`.
    pub action: Option<ElicitationAction>,
    /// `content`.
    pub content: Option<Map<String, Value>>,
}

/// CwdChanged's and FileChanged's specific output.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct WatchOutput {
    /// `watchPaths`: replaces the watch list.
    pub watch_paths: Option<Vec<String>>,
}

/// WorktreeCreate's specific output (HTTP hooks; command hooks print the path).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct WorktreeCreateOutput {
    /// `worktreePath`.
    pub worktree_path: Option<String>,
}

/// MessageDisplay's specific output.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct MessageDisplayOutput {
    /// `displayContent`: what is shown instead.
    pub display_content: Option<String>,
}

/// PreModelSwitch's specific output.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct ModelSwitchOutput {
    /// `permissionDecision` (`allow`, `deny` or `ask`).
    pub permission_decision: Option<PermissionDecisionValue>,
    /// `permissionDecisionReason`.
    pub permission_decision_reason: Option<String>,
}

/// A validated `hookSpecificOutput`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum Specific {
    /// PreToolUse.
    PreToolUse(PreToolUseOutput),
    /// UserPromptSubmit, UserPromptExpansion.
    Prompt(PromptOutput),
    /// SessionStart.
    SessionStart(SessionStartOutput),
    /// Events that only add context.
    Context(ContextOutput),
    /// PostToolUse.
    PostToolUse(PostToolUseOutput),
    /// PermissionRequest.
    PermissionRequest(PermissionRequestOutput),
    /// PermissionDenied.
    PermissionDenied(PermissionDeniedOutput),
    /// Elicitation, ElicitationResult.
    Elicitation(ElicitationOutput),
    /// CwdChanged, FileChanged.
    Watch(WatchOutput),
    /// WorktreeCreate.
    WorktreeCreate(WorktreeCreateOutput),
    /// MessageDisplay.
    MessageDisplay(MessageDisplayOutput),
    /// PreModelSwitch.
    ModelSwitch(ModelSwitchOutput),
    /// An event with no specific fields, or one this crate does not know: kept as written.
    Other(Map<String, Value>),
}

fn err(message: String) -> OutputError {
    OutputError { message }
}

impl Specific {
    /// Parses `hookSpecificOutput` for an event named `name`.
    pub(crate) fn parse(
        event: Option<EventName>,
        name: &str,
        value: &Value,
    ) -> Result<Self, OutputError> {
        let Value::Object(map) = value else {
            return Err(err(format!(
                "`hookSpecificOutput` must be an object (got `{}`)",
                short(value)
            )));
        };
        match crate::wire::lookup::field(map, "hookEventName") {
            None => {
                return Err(err(format!("`hookSpecificOutput` needs `hookEventName`: \"{name}\"")));
            }
            Some(Value::String(s)) if s == name => {}
            Some(other) => {
                return Err(err(format!(
                    "`hookSpecificOutput.hookEventName` is `{}` but the event is `{name}`",
                    short(other)
                )));
            }
        }
        let f = Fields(map);
        let ctx = |f: &Fields<'_>| f.get::<String>("additionalContext");
        use EventName::*;
        let Some(event) = event else { return Ok(Specific::Other(map.clone())) };
        if !event.accepts_specific_output() {
            return Err(err(format!(
                "`hookSpecificOutput` is not accepted on `{name}`: Claude Code takes it only on \
                 the events that define one"
            )));
        }
        Ok(match event {
            PreToolUse => Specific::PreToolUse(PreToolUseOutput {
                permission_decision: f.get("permissionDecision")?,
                permission_decision_reason: f.get("permissionDecisionReason")?,
                updated_input: f.get("updatedInput")?,
                additional_context: ctx(&f)?,
            }),
            UserPromptSubmit | UserPromptExpansion => Specific::Prompt(PromptOutput {
                additional_context: ctx(&f)?,
                session_title: f.get("sessionTitle")?,
                suppress_original_prompt: f.get("suppressOriginalPrompt")?,
            }),
            SessionStart => Specific::SessionStart(SessionStartOutput {
                additional_context: ctx(&f)?,
                initial_user_message: f.get("initialUserMessage")?,
                session_title: f.get("sessionTitle")?,
                watch_paths: f.get("watchPaths")?,
                reload_skills: f.get("reloadSkills")?,
            }),
            Setup | SubagentStart | PostToolUseFailure | PostToolBatch | Stop | SubagentStop
            | Notification | PostModelSwitch => {
                Specific::Context(ContextOutput { additional_context: ctx(&f)? })
            }
            PostToolUse => Specific::PostToolUse(PostToolUseOutput {
                additional_context: ctx(&f)?,
                classifier_context: f.get("classifierContext")?,
                updated_tool_output: map.get("updatedToolOutput").cloned(),
                updated_mcp_tool_output: map.get("updatedMCPToolOutput").cloned(),
            }),
            PermissionRequest => {
                let decision: Option<Map<String, Value>> = f.get("decision")?;
                let mut out = PermissionRequestOutput::default();
                if let Some(d) = decision {
                    let d = Fields(&d);
                    out.behavior =
                        d.get("behavior").map_err(|e| err(format!("`decision`: {}", e.message)))?;
                    if out.behavior.is_none() {
                        return Err(err(
                            "`decision` needs `behavior`: \"allow\" or \"deny\"".to_owned()
                        ));
                    }
                    out.updated_input = d.get("updatedInput")?;
                    out.updated_permissions = d.get("updatedPermissions")?;
                    out.message = d.get("message")?;
                    out.interrupt = d.get("interrupt")?;
                }
                Specific::PermissionRequest(out)
            }
            PermissionDenied => {
                Specific::PermissionDenied(PermissionDeniedOutput { retry: f.get("retry")? })
            }
            Elicitation | ElicitationResult => Specific::Elicitation(ElicitationOutput {
                action: f.get("action")?,
                content: f.get("content")?,
            }),
            CwdChanged | FileChanged => {
                Specific::Watch(WatchOutput { watch_paths: f.get("watchPaths")? })
            }
            WorktreeCreate => Specific::WorktreeCreate(WorktreeCreateOutput {
                worktree_path: f.get("worktreePath")?,
            }),
            MessageDisplay => Specific::MessageDisplay(MessageDisplayOutput {
                display_content: f.get("displayContent")?,
            }),
            PreModelSwitch => {
                let out = ModelSwitchOutput {
                    permission_decision: f.get("permissionDecision")?,
                    permission_decision_reason: f.get("permissionDecisionReason")?,
                };
                if out.permission_decision == Some(PermissionDecisionValue::Defer) {
                    return Err(err("`permissionDecision` on `PreModelSwitch` must be `allow`, `deny` or `ask` (got `\"defer\"`)".to_owned()));
                }
                Specific::ModelSwitch(out)
            }
            _ => Specific::Other(map.clone()),
        })
    }

    /// `additionalContext`, whatever the event.
    pub fn additional_context(&self) -> Option<&str> {
        match self {
            Specific::PreToolUse(o) => o.additional_context.as_deref(),
            Specific::Prompt(o) => o.additional_context.as_deref(),
            Specific::SessionStart(o) => o.additional_context.as_deref(),
            Specific::Context(o) => o.additional_context.as_deref(),
            Specific::PostToolUse(o) => o.additional_context.as_deref(),
            Specific::Other(m) => m.get("additionalContext").and_then(Value::as_str),
            _ => None,
        }
    }
}
