//! What Claude Code shows the model and the user after an event: its own texts around what
//! the hooks said, word for word, where it puts them; and the Stop loop guard, whose override
//! ends a turn with Claude Code's notice. In come a dispatch report, the event's stdin object
//! and a Stop decision; out go the [`Shown`] texts. It reads what the hooks answered and never
//! runs, registers or fires a hook: the engine and the session, above it, do.
//!
//! A decision ([`crate::ToolCallDecision`], ...) carries the hooks' own words. The texts a
//! model sees under Claude Code are different: a deny's reason is the tool result
//! `PreToolUse:Bash hook error: ...`, a Stop block is a user message wrapped in a
//! `<system-reminder>` preamble, a context over 10,000 characters is saved to a file and
//! replaced by a `<persisted-output>` preview. [`Shown`] holds those texts, in the order
//! Claude Code adds them, each with its [`Placement`]; [`crate::Fired::shown`] renders them
//! for a fired event, [`Presenter::shown`] for a dispatch report and its input, and
//! [`Presenter::late`] for what a background hook said when it ended.
//!
//! Every template is in [`templates`], with the Claude Code release it follows
//! ([`templates::CLAUDE_CODE_VERSION`]). The texts are those Claude Code gives in a run
//! without a person to ask (`claude -p`, the SDK): there a PreToolUse `ask` refuses the call
//! with its reason alone; an interactive harness shows its own prompt instead.
//!
//! Where Claude Code was not recorded, the rendering follows the nearest recorded form and
//! says so here: the exit-2 notices of SessionStart, SubagentStart, PostModelSwitch,
//! CwdChanged, FileChanged and PostCompact take SessionEnd's (`{Event} hook [{cmd}] failed:
//! {stderr}`); contexts of other events (PostToolBatch, ...) are a system message of
//! `{Event} hook additional context: {ctx}` paragraphs; SubagentStop's context block names
//! SubagentStop; SessionStart's `systemMessage` is `SessionStart:{source} says: {msg}`, with
//! the hook name of its `hook success` texts; a late `asyncRewake` wake-up is a bare system
//! message like a late context. Blocking texts of the events that show none in the recordings
//! (TeammateIdle, PostToolBatch, ConfigChange, Elicitation, WorktreeRemove) are
//! not rendered: their decisions carry the reason.
//!
//! Long texts are saved where Claude Code saves them: `<claude home>/projects/<cwd
//! slug>/<session id>/tool-results/`, the Claude home being `~/.claude` unless the harness
//! chooses another ([`crate::EngineBuilder::claude_home`]), the slug the event's `cwd` with
//! every character but ASCII letters and digits replaced by `-` ([`cwd_slug`]). A file that
//! cannot be written leaves a preview that says so, and a warning in [`Shown::warnings`].

mod persist;
mod render;
pub(crate) mod stop_guard;
pub use crate::wire::templates;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use hook_protocol::Report;
pub use hook_protocol::{ModelText, Placement, Shown};
use serde_json::{Map, Value};

use crate::AsyncResult;
pub use persist::cwd_slug;

/// Renders the texts of fired events, and saves long ones under a Claude home.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Presenter {
    home: PathBuf,
}

impl Presenter {
    /// A presenter saving long texts under `claude_home` (Claude Code's `~/.claude`).
    pub fn new(claude_home: impl Into<PathBuf>) -> Self {
        Self { home: claude_home.into() }
    }

    /// The presenter of a user whose home directory is `home` (`home/.claude`); without one,
    /// `$HOME/.claude`, else `.claude` under the temporary directory.
    pub fn for_home(home: Option<&Path>) -> Self {
        let home = home
            .map(Path::to_path_buf)
            .or_else(|| std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from))
            .unwrap_or_else(std::env::temp_dir);
        Self::new(home.join(".claude"))
    }

    /// The Claude home.
    pub fn claude_home(&self) -> &Path {
        &self.home
    }

    /// The directory where a session's long texts are saved:
    /// `<claude home>/projects/<cwd slug>/<session id>/tool-results`.
    pub fn tool_results_dir(&self, cwd: &str, session_id: &str) -> PathBuf {
        persist::tool_results_dir(&self.home, cwd, session_id)
    }

    /// What Claude Code shows after a dispatch whose hooks received `input` (the event's stdin
    /// object, with `hook_event_name`). For a harness that dispatches Claude hooks on its own
    /// [`hook_protocol::Dispatcher`]; [`crate::Fired::shown`] is this on a fired event.
    pub fn shown(&self, report: &Report, input: &Map<String, Value>) -> Shown {
        render::render(self, report, input, None)
    }

    /// [`Presenter::shown`], with the Stop loop guard's override when it ended the turn.
    pub(crate) fn shown_with(
        &self,
        report: &Report,
        input: &dyn crate::wire::lookup::Texts,
        guard: Option<&crate::GuardOverride>,
    ) -> Shown {
        render::render(self, report, input, guard)
    }

    /// What the model gets from a background hook that ended after its event: each
    /// `additionalContext` and `systemMessage` as a bare `role: "system"` message holding
    /// only the text (saved when long), and an `asyncRewake` hook's wake-up text likewise.
    pub fn late(&self, result: &AsyncResult) -> Shown {
        render::late(self, result)
    }
}

impl Default for Presenter {
    /// [`Presenter::for_home`] of the current user.
    fn default() -> Self {
        Self::for_home(None)
    }
}
