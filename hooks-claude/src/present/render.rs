//! Which of Claude Code's texts applies to what the hooks of an event said. The texts
//! themselves are in `templates.rs`.

use std::borrow::Cow;

use hook_protocol::{Decision, HookRecord, HookStatus, Report};

use super::persist::Saver;
use super::templates as t;
use super::{ModelText, Placement, Presenter, Shown};
use crate::output::Specific;
use crate::wire::decision::shown_reason_record;
use crate::wire::decode::RunRecord;
use crate::wire::lookup::Texts;
use crate::{AsyncResult, EventName, Exit2, GuardOverride};

/// How a hook's decision came about, which decides the words around its reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum How {
    /// Exit 2: the reason is stderr, shown as `[{cmd}]: {stderr}`.
    Exit2,
    /// A failure `onFailure: "block"` turned into a block (`failed` or `timed out`).
    OnFailure(&'static str),
    /// An answer: JSON, or a hook of another kind.
    Answer,
}

/// The view of the hook whose verdict gave the merged decision, whose reason is shown.
fn deciding_view<'v, 'a>(report: &Report, views: &'v [View<'a>]) -> Option<&'v View<'a>> {
    let decider = shown_reason_record(report)?;
    views.iter().find(|v| v.record.position == decider.position)
}

/// One hook's run, as the renderer reads it.
struct View<'a> {
    record: &'a HookRecord,
    meta: Option<Cow<'a, RunRecord>>,
}

impl View<'_> {
    fn how(&self) -> How {
        match &self.meta {
            Some(m) if m.blocked_on_failure => {
                How::OnFailure(if m.status == HookStatus::TimedOut {
                    "timed out"
                } else {
                    "failed"
                })
            }
            Some(m) if m.status == HookStatus::Blocked => How::Exit2,
            _ => How::Answer,
        }
    }

    fn cmd(&self) -> &str {
        &self.record.label
    }

    fn reason(&self) -> Option<&str> {
        self.record.verdict.reason.as_deref().filter(|r| !r.is_empty())
    }

    fn decided(&self, decision: Decision) -> bool {
        self.record.verdict.decision == Some(decision)
    }

    /// The blocking text: `[{cmd}]: {stderr}` for exit 2, the `onFailure` form, or the reason
    /// (`absent` when there is none).
    fn blocking(&self, absent: &str) -> String {
        match self.how() {
            How::Exit2 => t::exit2_blocking(self.cmd(), self.reason().unwrap_or(t::NO_STDERR)),
            How::OnFailure(what) => {
                t::on_failure_blocking(self.cmd(), what, self.reason().unwrap_or_default())
            }
            How::Answer => self.reason().unwrap_or(absent).to_owned(),
        }
    }

    /// Whether its context is plain stdout (not an `additionalContext`).
    fn plain(&self) -> bool {
        self.meta.as_ref().is_some_and(|m| m.plain_stdout.is_some() && m.output.is_none())
    }

    fn contexts(&self) -> impl Iterator<Item = &str> {
        self.record.verdict.context.iter().map(String::as_str)
    }

    fn specific(&self) -> Option<Specific> {
        self.meta.as_deref().and_then(RunRecord::parsed_output).and_then(|o| o.specific)
    }
}

/// The hooks whose answers count: every one that ran, up to the one that ended the chain.
fn views(report: &Report) -> Vec<View<'_>> {
    let end = report.merged.chain_ended_by.as_ref().map(|a| a.position);
    report
        .records
        .iter()
        .filter(|r| r.status != HookStatus::Skipped && end.is_none_or(|e| r.position <= e))
        .map(|record| View { record, meta: RunRecord::of_metadata(record.metadata.as_ref()) })
        .collect()
}

fn text<'a>(input: &'a dyn Texts, key: &str) -> Option<&'a str> {
    input.text(key)
}

/// One rendering.
struct Renderer<'a> {
    event: &'a str,
    name: Option<EventName>,
    input: &'a dyn Texts,
    /// `{Event}:{Tool}`, `SessionStart:{source}` or `{Event}`.
    hook_name: String,
    /// The label of context paragraphs.
    context_label: String,
    saver: Saver<'a>,
    model: Vec<ModelText>,
    user: Vec<String>,
}

impl<'a> Renderer<'a> {
    fn push(&mut self, placement: Placement, text: String, is_error: bool) {
        self.model.push(ModelText::new(placement, text, is_error));
    }

    /// The context paragraphs of every hook, in configuration order: plain stdout as
    /// `hook success`, `additionalContext` as `hook additional context`.
    fn context_paragraphs(&mut self, views: &[View<'_>]) -> Vec<String> {
        let mut out = Vec::new();
        for v in views {
            for ctx in v.contexts() {
                let ctx = self.saver.context(ctx);
                out.push(if v.plain() {
                    t::hook_success(&self.hook_name, &ctx)
                } else {
                    t::additional_context(&self.context_label, &ctx)
                });
            }
        }
        out
    }

    /// Paragraphs as one system message, when there are any.
    fn system(&mut self, paragraphs: &[String]) {
        if !paragraphs.is_empty() {
            self.push(Placement::System, paragraphs.join(t::PARAGRAPH), false);
        }
    }

    fn says(&mut self, views: &[View<'_>]) {
        for v in views {
            for msg in &v.record.verdict.messages {
                self.user.push(t::says(&self.hook_name, msg));
            }
        }
    }

    /// An interrupted call (the harness cancelled its PreToolUse or PermissionRequest hooks):
    /// Claude Code's refusal as the tool result and its interrupt block, nothing the finished
    /// hooks said.
    fn interrupted(&mut self) {
        self.push(Placement::ToolResult, t::REFUSED.to_owned(), true);
        self.push(Placement::User, t::INTERRUPTED.to_owned(), false);
    }

    fn pre_tool_use(&mut self, report: &Report, views: &[View<'_>]) {
        let chosen = deciding_view(report, views);
        match report.merged.decision {
            Some(Decision::Deny) => {
                let blocking = chosen.map_or_else(
                    || t::BLOCKED_BY_HOOK.to_owned(),
                    |v| v.blocking(t::BLOCKED_BY_HOOK),
                );
                let id = text(self.input, "tool_use_id").unwrap_or_default().to_owned();
                let blocking = self.saver.pre_tool_blocking(blocking, &id);
                let text = t::hook_error(&self.hook_name, &blocking);
                self.push(Placement::ToolResult, text, true);
            }
            Some(Decision::Ask) => {
                // Non-interactive, as recorded: the reason alone refuses the call.
                let reason = chosen.and_then(View::reason).unwrap_or_default().to_owned();
                self.push(Placement::ToolResult, reason, true);
            }
            _ => {}
        }
        let paragraphs = self.context_paragraphs(views);
        self.system(&paragraphs);
    }

    fn permission_request(&mut self, report: &Report, views: &[View<'_>]) {
        if report.merged.decision != Some(Decision::Deny) {
            return;
        }
        let chosen = deciding_view(report, views);
        let text = match chosen {
            Some(v) if matches!(v.how(), How::OnFailure(_)) => {
                t::hook_error(&self.hook_name, &v.blocking(""))
            }
            Some(v) => v.reason().unwrap_or_default().to_owned(),
            None => String::new(),
        };
        self.push(Placement::ToolResult, text, true);
    }

    fn permission_denied(&mut self, views: &[View<'_>]) {
        let retry = views.iter().any(|v| {
            matches!(v.specific(), Some(Specific::PermissionDenied(p)) if p.retry == Some(true))
        });
        if retry {
            self.push(Placement::User, t::PERMISSION_RETRY.to_owned(), false);
        }
    }

    /// PostToolUse / PostToolUseFailure: every block, then every context, in one system
    /// message.
    fn post_tool_use(&mut self, views: &[View<'_>]) {
        let mut paragraphs: Vec<String> = views
            .iter()
            .filter(|v| v.decided(Decision::Deny))
            .map(|v| t::blocking_error_from_command(&self.hook_name, v.cmd(), &v.blocking("")))
            .collect();
        paragraphs.extend(self.context_paragraphs(views));
        self.system(&paragraphs);
    }

    fn prompt(&mut self, report: &Report, views: &[View<'_>]) {
        let merged = &report.merged;
        if let Some(halt) = &merged.halt {
            self.user.push(t::operation_stopped(halt.value.reason.as_deref()));
            return;
        }
        if merged.decision == Some(Decision::Deny) {
            let chosen = deciding_view(report, views);
            let suppress = views.iter().any(|v| {
                matches!(v.specific(), Some(Specific::Prompt(p)) if p.suppress_original_prompt == Some(true))
            });
            let prompt = (!suppress).then(|| text(self.input, "prompt").unwrap_or_default());
            let (blocking, exit2) = match chosen {
                Some(v) => (v.blocking(""), v.how() == How::Exit2),
                None => (String::new(), false),
            };
            self.user.push(t::prompt_blocked(self.event, &blocking, exit2, prompt));
            return;
        }
        let paragraphs = self.context_paragraphs(views);
        if paragraphs.is_empty() {
            return;
        }
        // UserPromptSubmit's context and UserPromptExpansion's (which runs after it) join the
        // environment message, in that order.
        self.push(Placement::EnvironmentEnd, paragraphs.join(t::PARAGRAPH), false);
    }

    /// SessionStart: the plain-stdout paragraphs, then one paragraph of every
    /// `additionalContext`, at the start of the environment message.
    fn session_start(&mut self, views: &[View<'_>]) {
        let mut paragraphs = Vec::new();
        let mut contexts = Vec::new();
        for v in views {
            for ctx in v.contexts() {
                let ctx = self.saver.context(ctx);
                if v.plain() {
                    paragraphs.push(t::hook_success(&self.hook_name, &ctx));
                } else {
                    contexts.push(ctx);
                }
            }
        }
        if !contexts.is_empty() {
            let joined = contexts.join(t::SESSION_START_CONTEXT_JOIN);
            paragraphs.push(t::additional_context(&self.context_label, &joined));
        }
        self.environment_start(&paragraphs);
    }

    fn environment_start(&mut self, paragraphs: &[String]) {
        if !paragraphs.is_empty() {
            let mut text = paragraphs.join(t::PARAGRAPH);
            text.push_str(t::ENVIRONMENT_START_END);
            self.push(Placement::EnvironmentStart, text, false);
        }
    }

    /// Stop / SubagentStop: one user message (a block per blocking hook, then a block per
    /// context), then the system message of the JSON blocks.
    fn stop(&mut self, report: &Report, views: &[View<'_>], guard: Option<&GuardOverride>) {
        if let Some(guard) = guard {
            self.user.push(guard.message.clone());
            return;
        }
        if report.merged.halt.is_some() {
            return;
        }
        let mut blocks = Vec::new();
        let mut system = Vec::new();
        for v in views.iter().filter(|v| v.decided(Decision::Deny)) {
            blocks.push(t::stop_feedback(&v.blocking("")));
            if v.how() == How::Answer {
                let reason = v.reason().unwrap_or_default();
                system.push(t::stop_blocking_error(self.event, v.cmd(), reason));
            }
        }
        for v in views {
            for ctx in v.contexts() {
                let ctx = self.saver.context(ctx);
                blocks.push(t::stop_context(self.event, &ctx));
            }
        }
        let last = blocks.len().saturating_sub(1);
        for (i, mut block) in blocks.into_iter().enumerate() {
            if i < last {
                block.push_str(t::STOP_BLOCK_SEPARATOR);
            }
            self.push(Placement::User, block, false);
        }
        self.system(&system);
    }

    fn pre_compact(&mut self, report: &Report, views: &[View<'_>]) {
        if report.merged.decision != Some(Decision::Deny) {
            return;
        }
        let blocking = deciding_view(report, views).map(|v| v.blocking("")).unwrap_or_default();
        self.user.push(t::compaction_blocked(&blocking));
    }

    /// PreModelSwitch: a block is shown to the user with the blocking hook's
    /// `systemMessage`s on lines of their own (and not as `says` lines).
    fn pre_model_switch(&mut self, report: &Report, views: &[View<'_>]) {
        if report.merged.decision != Some(Decision::Deny) {
            return;
        }
        let Some(v) = deciding_view(report, views) else {
            return;
        };
        let messages = &v.record.verdict.messages;
        let said: Vec<String> = messages.iter().map(|m| t::says(&self.hook_name, m)).collect();
        self.user.retain(|line| !said.contains(line));
        self.user.push(t::model_switch_blocked(&v.blocking(""), messages));
    }

    /// PostModelSwitch: every context, plain stdout or `additionalContext`, in one paragraph
    /// `PostModelSwitch hook additional context: {a}\n{b}`, a system message.
    fn post_model_switch(&mut self, views: &[View<'_>]) {
        let contexts: Vec<String> =
            views.iter().flat_map(|v| v.contexts()).map(|c| self.saver.context(c)).collect();
        if contexts.is_empty() {
            return;
        }
        let joined = contexts.join(t::POST_MODEL_SWITCH_CONTEXT_JOIN);
        let text = t::additional_context(&self.context_label, &joined);
        self.push(Placement::System, text, false);
    }

    /// TaskCreated / TaskCompleted: a block is the task tool's result, `{Event} hook
    /// feedback:\n...`; an error for TaskCreated (the task is rolled back), not for
    /// TaskCompleted (the task stays in progress).
    fn task(&mut self, report: &Report, views: &[View<'_>]) {
        if report.merged.decision != Some(Decision::Deny) {
            return;
        }
        let created = self.name == Some(EventName::TaskCreated);
        let blocking = deciding_view(report, views)
            .map(|v| match v.how() {
                // TaskCreated's exit-2 text drops stderr's last newline; TaskCompleted's keeps it.
                How::Exit2 if created => {
                    t::task_created_exit2(v.cmd(), v.reason().unwrap_or(t::NO_STDERR))
                }
                _ => v.blocking(""),
            })
            .unwrap_or_default();
        let is_error = created;
        self.push(Placement::ToolResult, t::task_feedback(self.event, &blocking), is_error);
    }

    /// WorktreeCreate: a hook that failed (any non-zero exit) or whose path Claude Code
    /// refuses is the result of the call that wanted the worktree, as an error.
    fn worktree_create(&mut self, report: &Report, views: &[View<'_>]) {
        if report.merged.decision != Some(Decision::Deny) {
            return;
        }
        let Some(v) = deciding_view(report, views) else {
            return;
        };
        let reason = v.reason().unwrap_or(t::NO_STDERR);
        let failed = v
            .meta
            .as_ref()
            .is_some_and(|m| !matches!(m.status, HookStatus::Success) && m.worktree_path.is_none());
        let text = if failed { t::worktree_failed(v.cmd(), reason) } else { reason.to_owned() };
        self.push(Placement::ToolResult, text, true);
    }

    /// Exit 2 on the events that show its stderr to the user.
    fn notices(&mut self, views: &[View<'_>]) {
        for v in views.iter().filter(|v| v.how() == How::Exit2) {
            let stderr = v.meta.as_ref().and_then(|m| m.message.as_deref()).unwrap_or(t::NO_STDERR);
            self.user.push(t::hook_failed_notice(self.event, v.cmd(), stderr));
        }
    }
}

/// What Claude Code shows after a dispatch on the event whose stdin object is `input`.
pub(super) fn render(
    presenter: &Presenter,
    report: &Report,
    input: &dyn Texts,
    guard: Option<&GuardOverride>,
) -> Shown {
    let event = text(input, "hook_event_name").unwrap_or_default();
    let name = EventName::parse(event);
    let tool_event = name.is_some_and(EventName::is_tool_event);
    let subject = crate::wire::conversion::subject_in(name, input);
    let cwd = text(input, "cwd").unwrap_or_default();
    let session_id = text(input, "session_id").unwrap_or_default();
    let mut warnings = Vec::new();
    let views = views(report);
    let mut r = Renderer {
        event,
        name,
        input,
        hook_name: t::hook_name(event, tool_event, subject.as_deref()),
        context_label: t::context_label(event, tool_event, subject.as_deref()),
        saver: Saver { home: presenter.claude_home(), cwd, session_id, warnings: &mut warnings },
        model: Vec::new(),
        user: Vec::new(),
    };
    r.says(&views);
    use EventName as E;
    match r.name {
        // What the finished hooks of an interrupted event said never reaches the model; a
        // tool call gets Claude Code's refusal and interrupt texts.
        Some(E::PreToolUse | E::PermissionRequest) if report.merged.interrupted => r.interrupted(),
        _ if report.merged.interrupted => {}
        Some(E::PreToolUse) => r.pre_tool_use(report, &views),
        Some(E::PermissionRequest) => r.permission_request(report, &views),
        Some(E::PermissionDenied) => r.permission_denied(&views),
        Some(E::PostToolUse | E::PostToolUseFailure) => r.post_tool_use(&views),
        Some(E::UserPromptSubmit | E::UserPromptExpansion) => r.prompt(report, &views),
        Some(E::SessionStart) => r.session_start(&views),
        Some(E::SubagentStart) => {
            let paragraphs = r.context_paragraphs(&views);
            r.environment_start(&paragraphs);
        }
        Some(E::Stop | E::SubagentStop) => r.stop(report, &views, guard),
        Some(E::PreCompact) => r.pre_compact(report, &views),
        Some(E::TaskCreated | E::TaskCompleted) => r.task(report, &views),
        Some(E::WorktreeCreate) => r.worktree_create(report, &views),
        Some(E::PreModelSwitch) => r.pre_model_switch(report, &views),
        Some(E::PostModelSwitch) => r.post_model_switch(&views),
        _ => {
            let paragraphs = r.context_paragraphs(&views);
            r.system(&paragraphs);
        }
    }
    if r.name.is_some_and(|n| n.exit2() == Exit2::UserNotice) {
        r.notices(&views);
    }
    let (model, user) = (r.model, r.user);
    Shown::new(model, user, warnings)
}

/// What the model gets from a background hook's end.
pub(super) fn late(presenter: &Presenter, result: &AsyncResult) -> Shown {
    let mut warnings = Vec::new();
    let mut saver = Saver {
        home: presenter.claude_home(),
        cwd: &result.cwd,
        session_id: &result.session_id,
        warnings: &mut warnings,
    };
    let model = result
        .context
        .iter()
        .chain(result.rewake.iter())
        .map(|text| ModelText::new(Placement::System, saver.context(text), false))
        .collect();
    Shown::new(model, Vec::new(), warnings)
}
