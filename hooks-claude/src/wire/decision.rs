//! Typed decisions, one shape per group of events
//! ([JSON output](crate::compatibility#json-output)), read off a dispatch [`Report`]: the neutral
//! fold gives the verdict, and each hook's Claude record (kept in its metadata) gives what only
//! Claude Code has (`updatedPermissions`, `watchPaths`, `updatedToolOutput`, ...).
//!
//! A decision carries what the hooks said in their own words: a JSON reason verbatim, an
//! exit-2 hook's stderr verbatim (`No stderr output` when it wrote none), whole contexts.
//! Where several hooks gave the winning decision, the reason is the one Claude Code shows:
//! for a deny or block, the hook last in configuration order, whatever form its answer took
//! (exit 2, JSON, `onFailure`); for an ask, the first. Every hook's reason stays in
//! its record and in [`hook_protocol::Merged::reasons`].

use std::borrow::Cow;
use std::path::PathBuf;

use hook_protocol::{
    ContextDecision, Continuation, Control, Decision, FromReport, HookRecord, Injected, Merged,
    PermissionDecision, PreToolDecision, PromptPermission, Report, RequestPermission,
    ToolPermission,
};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::output::{ElicitationAction, HookOutput, PermissionBehavior, Specific};
use crate::wire::decode::{RunRecord, worktree_path};

/// The record whose reason Claude Code shows for the merged decision, whatever form the
/// answers took (exit 2, a JSON deny, a legacy block, `onFailure`): among the hooks that gave
/// it (up to one that ended the chain), for a deny or defer the last in configuration order,
/// for an ask or allow the first ([`hook_protocol::ReasonRule::One`]).
pub(crate) fn shown_reason_record(report: &Report) -> Option<&HookRecord> {
    let decider = report.merged.decider()?;
    report.records.iter().find(|r| r.position == decider.position)
}

/// The reason Claude Code shows for the merged decision, in the hook's own words.
pub(crate) fn shown_reason(report: &Report) -> Option<String> {
    shown_reason_record(report).and_then(|r| r.verdict.reason.clone())
}

/// A permission with the reason Claude Code shows.
fn with_reason(permission: ToolPermission, reason: Option<String>) -> ToolPermission {
    match permission {
        ToolPermission::Allow { .. } => ToolPermission::Allow { reason },
        ToolPermission::Ask { .. } => ToolPermission::Ask { reason },
        ToolPermission::Defer { .. } => ToolPermission::Defer { reason },
        ToolPermission::Deny { .. } => ToolPermission::Deny { reason },
        other => other,
    }
}

/// Each hook's Claude record and parsed output, in configuration order.
fn outputs(report: &Report) -> impl Iterator<Item = (Cow<'_, RunRecord>, Option<HookOutput>)> {
    report.records.iter().filter_map(|r| {
        let meta = RunRecord::of_metadata(r.metadata.as_ref())?;
        let out = meta.parsed_output();
        Some((meta, out))
    })
}

fn specifics(report: &Report) -> impl Iterator<Item = Specific> + '_ {
    outputs(report).filter_map(|(_, o)| o.and_then(|o| o.specific))
}

/// PreToolUse's decision: allow / ask / defer / deny, a rewrite, context.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ToolCallDecision {
    /// The answer about the call (`NoOpinion`: the harness's own rules decide).
    pub permission: ToolPermission,
    /// The replacement input (from the hook last in configuration order; never with deny).
    pub updated_input: Option<Value>,
    /// The hooks that rewrote the input, when more than one did (a conflict).
    pub rewrite_conflict: Vec<String>,
    /// Context for the model, next to the tool result (delivered even with a deny).
    pub context: Vec<Injected>,
    /// `continue: false` and user messages.
    pub control: Control,
}

impl FromReport for ToolCallDecision {
    fn from_report(report: &Report) -> Self {
        let d = PreToolDecision::from_merged(&report.merged);
        Self {
            permission: with_reason(d.permission, shown_reason(report)),
            updated_input: d.updated_input,
            rewrite_conflict: conflict(&report.merged),
            context: d.context,
            control: d.control,
        }
    }
}

fn conflict(merged: &Merged) -> Vec<String> {
    if merged.rewrite_conflict() {
        merged.rewriters.iter().map(|a| a.hook_id.clone()).collect()
    } else {
        Vec::new()
    }
}

/// PermissionRequest's decision: answer the prompt for the user, or show it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct PermissionRequestDecision {
    /// Allow (with a rewrite), deny, or show the prompt.
    #[serde(rename = "answer")]
    pub permission: RequestPermission,
    /// With allow: permission rules to apply (`PermissionUpdate` objects), in configuration
    /// order.
    pub updated_permissions: Vec<Value>,
    /// With deny: whether a hook asked to stop the agent too.
    pub interrupt: bool,
    /// The hooks that rewrote the input, when more than one did.
    pub rewrite_conflict: Vec<String>,
    /// `continue: false` and user messages.
    pub control: Control,
}

impl FromReport for PermissionRequestDecision {
    fn from_report(report: &Report) -> Self {
        let mut d = PermissionDecision::from_merged(&report.merged);
        if let RequestPermission::Deny { reason } = &mut d.permission {
            *reason = shown_reason(report);
        }
        let mut updated_permissions = Vec::new();
        let mut interrupt = false;
        for s in specifics(report) {
            if let Specific::PermissionRequest(p) = s {
                match (p.behavior, &d.permission) {
                    (Some(PermissionBehavior::Allow), RequestPermission::Allow { .. }) => {
                        updated_permissions.extend(p.updated_permissions.unwrap_or_default());
                    }
                    (Some(PermissionBehavior::Deny), RequestPermission::Deny { .. }) => {
                        interrupt |= p.interrupt == Some(true);
                    }
                    _ => {}
                }
            }
        }
        Self {
            permission: d.permission,
            updated_permissions,
            interrupt,
            rewrite_conflict: conflict(&report.merged),
            control: d.control,
        }
    }
}

/// PermissionDenied's decision: let the model retry the call.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct RetryDecision {
    /// Whether a hook said `retry: true`.
    pub retry: bool,
    /// `continue: false` and user messages.
    pub control: Control,
}

impl FromReport for RetryDecision {
    fn from_report(report: &Report) -> Self {
        let retry = specifics(report)
            .any(|s| matches!(s, Specific::PermissionDenied(p) if p.retry == Some(true)));
        Self { retry, control: Control::from_merged(&report.merged) }
    }
}

/// PostToolUse's, PostToolUseFailure's and PostToolBatch's decision: feedback and context.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ToolResultDecision {
    /// A block's reason for the model (on PostToolBatch: stop before the next model call):
    /// the last blocking hook's in configuration order. Claude Code shows every blocking
    /// hook's reason, one paragraph each ([`crate::Fired::shown`]).
    pub feedback: Option<String>,
    /// Context for the model, next to the result.
    pub context: Vec<Injected>,
    /// What the model sees instead of the tool's output (last in configuration order).
    pub updated_tool_output: Option<Value>,
    /// Notes for the permission classifier, joined, at most 2,000 characters.
    pub classifier_context: Option<String>,
    /// `continue: false` and user messages.
    pub control: Control,
}

/// The cap on classifier notes per tool call
/// ([Several hooks on one event](crate::compatibility#several-hooks-on-one-event)).
const CLASSIFIER_CAP: usize = 2000;

impl FromReport for ToolResultDecision {
    fn from_report(report: &Report) -> Self {
        let merged = &report.merged;
        let feedback = (merged.decision == Some(Decision::Deny))
            .then(|| shown_reason(report).unwrap_or_default());
        let mut updated_tool_output = None;
        let mut notes: Vec<String> = Vec::new();
        for s in specifics(report) {
            if let Specific::PostToolUse(p) = s {
                if let Some(out) = p.updated_tool_output.or(p.updated_mcp_tool_output) {
                    updated_tool_output = Some(out);
                }
                notes.extend(p.classifier_context);
            }
        }
        let classifier_context =
            (!notes.is_empty()).then(|| notes.join("\n").chars().take(CLASSIFIER_CAP).collect());
        Self {
            feedback,
            context: ContextDecision::from_merged(merged).context,
            updated_tool_output,
            classifier_context,
            control: Control::from_merged(merged),
        }
    }
}

/// UserPromptSubmit's and UserPromptExpansion's decision.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct UserPromptDecision {
    /// Whether the prompt goes on, or is blocked (the reason is for the user, not the model).
    #[serde(rename = "verdict")]
    pub permission: PromptPermission,
    /// Context added with the prompt (none when the prompt is blocked).
    pub context: Vec<Injected>,
    /// A new session title (last in configuration order).
    pub session_title: Option<String>,
    /// With a block: do not repeat the original prompt to the user.
    pub suppress_original_prompt: bool,
    /// `continue: false` and user messages.
    pub control: Control,
}

impl FromReport for UserPromptDecision {
    fn from_report(report: &Report) -> Self {
        let mut d = hook_protocol::PromptSubmitDecision::from_merged(&report.merged);
        if let PromptPermission::Block { reason } = &mut d.permission {
            *reason = shown_reason(report);
        }
        let mut session_title = None;
        let mut suppress_original_prompt = false;
        for s in specifics(report) {
            if let Specific::Prompt(p) = s {
                session_title = p.session_title.or(session_title);
                suppress_original_prompt |= p.suppress_original_prompt == Some(true);
            }
        }
        // One blocking hook wins over another's context
        // (docs/claude-code.md#several-hooks-on-one-event).
        let context = if matches!(d.permission, PromptPermission::Block { .. }) {
            Vec::new()
        } else {
            d.context
        };
        Self {
            permission: d.permission,
            context,
            session_title,
            suppress_original_prompt,
            control: d.control,
        }
    }
}

/// SessionStart's decision: context, and what the session should set up.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct SessionStartDecision {
    /// Context for the model at the start of the conversation.
    pub context: Vec<Injected>,
    /// The first user message of a headless run (last in configuration order).
    pub initial_user_message: Option<String>,
    /// The session's title (last in configuration order).
    pub session_title: Option<String>,
    /// Files to watch for `FileChanged`, from every hook that gave some.
    pub watch_paths: Option<Vec<String>>,
    /// Whether a hook asked to reload skills.
    pub reload_skills: bool,
    /// `continue: false` and user messages.
    pub control: Control,
}

impl FromReport for SessionStartDecision {
    fn from_report(report: &Report) -> Self {
        let d = ContextDecision::from_merged(&report.merged);
        let mut out = Self {
            context: d.context,
            initial_user_message: None,
            session_title: None,
            watch_paths: None,
            reload_skills: false,
            control: d.control,
        };
        for s in specifics(report) {
            if let Specific::SessionStart(p) = s {
                out.initial_user_message = p.initial_user_message.or(out.initial_user_message);
                out.session_title = p.session_title.or(out.session_title);
                if let Some(paths) = p.watch_paths {
                    out.watch_paths.get_or_insert_with(Vec::new).extend(paths);
                }
                out.reload_skills |= p.reload_skills == Some(true);
            }
        }
        out
    }
}

/// A block the guard overrode.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct GuardOverride {
    /// How many consecutive continuations came before it.
    pub consecutive: u32,
    /// The reason the overridden block gave.
    pub reason: Option<String>,
    /// The notice Claude Code shows the user, word for word; it is also the user text of
    /// [`crate::Fired::shown`] (not one of the decision's messages, which are the hooks').
    pub message: String,
}

/// Stop's and SubagentStop's decision: end the turn, or keep going.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct StopDecision {
    /// Stop, or continue with the reason as the next instruction.
    pub continuation: Continuation,
    /// Context for the model's next step (it also keeps the agent going).
    pub context: Vec<Injected>,
    /// Set when the loop guard overrode a block and ended the turn.
    pub guard_override: Option<GuardOverride>,
    /// `continue: false` and user messages.
    pub control: Control,
}

impl FromReport for StopDecision {
    fn from_report(report: &Report) -> Self {
        let mut d = hook_protocol::TurnEndDecision::from_merged(&report.merged);
        if let Continuation::Continue { reason } = &mut d.continuation {
            *reason = shown_reason(report);
        }
        Self {
            continuation: d.continuation,
            context: d.context,
            guard_override: None,
            control: d.control,
        }
    }
}

impl StopDecision {
    /// The loop guard's override of this decision, when it ended the turn.
    pub fn guard_override(&self) -> Option<&GuardOverride> {
        self.guard_override.as_ref()
    }

    /// The loop guard overrode this decision's block: the turn ends.
    pub(crate) fn override_block(&mut self, by: GuardOverride) {
        self.continuation = Continuation::Stop;
        self.guard_override = Some(by);
    }
}

/// CwdChanged's and FileChanged's decision.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct WatchDecision {
    /// The new watch list, from every hook that gave one (replaces the dynamic list).
    pub watch_paths: Option<Vec<String>>,
    /// User messages (shown as brief notifications).
    pub control: Control,
}

impl FromReport for WatchDecision {
    fn from_report(report: &Report) -> Self {
        let mut watch_paths: Option<Vec<String>> = None;
        for s in specifics(report) {
            if let Specific::Watch(w) = s
                && let Some(paths) = w.watch_paths
            {
                watch_paths.get_or_insert_with(Vec::new).extend(paths);
            }
        }
        Self { watch_paths, control: Control::from_merged(&report.merged) }
    }
}

/// The decision of events whose hooks only observe.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct ObserveDecision {
    /// `terminalSequence`s to write to the terminal, in configuration order.
    pub terminal_sequences: Vec<String>,
    /// The hooks' `systemMessage`s (an exit-2 hook's stderr, which Claude Code shows the user
    /// on some of these events, is a notice of [`crate::Fired::shown`]).
    pub control: Control,
}

impl FromReport for ObserveDecision {
    fn from_report(report: &Report) -> Self {
        let terminal_sequences =
            outputs(report).filter_map(|(_, o)| o.and_then(|o| o.terminal_sequence)).collect();
        Self { terminal_sequences, control: Control::from_merged(&report.merged) }
    }
}

/// WorktreeCreate's decision: the path, or why creation failed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct WorktreeCreateDecision {
    /// The worktree's path (from the last hook in configuration order that gave one).
    pub path: Option<PathBuf>,
    /// Why creation failed (any non-zero exit, or no path).
    pub failure: Option<String>,
}

impl FromReport for WorktreeCreateDecision {
    fn from_report(report: &Report) -> Self {
        if report.merged.decision == Some(Decision::Deny) {
            return Self {
                path: None,
                failure: Some(
                    shown_reason(report)
                        .unwrap_or_else(|| "a WorktreeCreate hook failed".to_owned()),
                ),
            };
        }
        let path =
            outputs(report).filter_map(|(m, _)| worktree_path(&m)).filter(|p| !p.is_empty()).last();
        match path {
            Some(p) => Self { path: Some(PathBuf::from(p)), failure: None },
            None => Self {
                path: None,
                failure: Some("no WorktreeCreate hook printed a worktree path".to_owned()),
            },
        }
    }
}

/// WorktreeRemove's decision.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct WorktreeRemoveDecision {
    /// Why removal failed (a non-zero exit; it counts only when the directory still exists).
    pub failure: Option<String>,
}

impl FromReport for WorktreeRemoveDecision {
    fn from_report(report: &Report) -> Self {
        let failure = (report.merged.decision == Some(Decision::Deny))
            .then(|| shown_reason(report).unwrap_or_default());
        Self { failure }
    }
}

/// PreModelSwitch's decision (deny > ask > allow; a timeout blocks).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ModelSwitchDecision {
    /// The answer about the switch.
    pub permission: ToolPermission,
    /// `continue: false` and user messages.
    pub control: Control,
}

impl FromReport for ModelSwitchDecision {
    fn from_report(report: &Report) -> Self {
        let d = PreToolDecision::from_merged(&report.merged);
        Self { permission: with_reason(d.permission, shown_reason(report)), control: d.control }
    }
}

/// Elicitation's and ElicitationResult's decision (a decline from any hook wins).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ElicitationDecision {
    /// The action to send instead of asking (or of the user's answer), if a hook gave one.
    pub action: Option<ElicitationAction>,
    /// With accept: the content (from the last accepting hook in configuration order).
    pub content: Option<Map<String, Value>>,
}

impl FromReport for ElicitationDecision {
    fn from_report(report: &Report) -> Self {
        let action = report.merged.decision.map(|d| match d {
            Decision::Deny => ElicitationAction::Decline,
            Decision::Defer | Decision::Ask => ElicitationAction::Cancel,
            Decision::Allow => ElicitationAction::Accept,
        });
        let mut content = None;
        if action == Some(ElicitationAction::Accept) {
            for s in specifics(report) {
                if let Specific::Elicitation(e) = s
                    && e.action == Some(ElicitationAction::Accept)
                {
                    content = e.content.or(content);
                }
            }
        }
        Self { action, content }
    }
}

/// MessageDisplay's decision.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[non_exhaustive]
pub struct MessageDisplayDecision {
    /// What to display instead (last in configuration order); the model still sees the
    /// original.
    pub display_content: Option<String>,
}

impl FromReport for MessageDisplayDecision {
    fn from_report(report: &Report) -> Self {
        let mut display_content = None;
        for s in specifics(report) {
            if let Specific::MessageDisplay(m) = s {
                display_content = m.display_content.or(display_content);
            }
        }
        Self { display_content }
    }
}

#[cfg(test)]
mod tests;
