//! What an agent shows the model and the user after an event: each text for the model with
//! where it goes in the conversation, and the texts for the user. A dialect's presentation
//! module renders them from what the hooks decided, in its agent's words (`hooks-claude`'s
//! `Presenter` for Claude Code); a dialect whose agent shows nothing of its own has none.

use serde::Serialize;

/// Where a model text goes in the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Placement {
    /// The result of the tool call the event is about (the call did not run); see
    /// [`ModelText::is_error`].
    ToolResult,
    /// A `role: "system"` message at this point of the turn (after the tool result, on tool
    /// events).
    System,
    /// A text block of a user message. Consecutive `User` texts of one event are the blocks
    /// of one message; after a tool result they go in the message that carries it.
    User,
    /// Text at the start of the session's (or sub-agent's) environment message, before its
    /// own text; it ends with the paragraph break that separates it from what follows.
    EnvironmentStart,
    /// A paragraph appended to the end of the environment message (after a blank line).
    EnvironmentEnd,
    /// Text appended to the result of the tool call the event is about, right after the
    /// tool's own output (Gemini CLI's `<hook_context>` after a tool).
    ToolResultEnd,
    /// Text put before the text of the user's prompt, in its block (Gemini CLI's session
    /// context).
    PromptStart,
}

impl Placement {
    /// The placement's name, as in the JSON form.
    pub fn as_str(self) -> &'static str {
        match self {
            Placement::ToolResult => "tool_result",
            Placement::System => "system",
            Placement::User => "user",
            Placement::EnvironmentStart => "environment_start",
            Placement::EnvironmentEnd => "environment_end",
            Placement::ToolResultEnd => "tool_result_end",
            Placement::PromptStart => "prompt_start",
        }
    }
}

/// One text the agent adds to the conversation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ModelText {
    /// Where it goes.
    pub placement: Placement,
    /// Exactly the text.
    pub text: String,
    /// For a [`Placement::ToolResult`]: the result is an error (`is_error: true`).
    pub is_error: bool,
}

impl ModelText {
    /// A text at a placement.
    pub fn new(placement: Placement, text: impl Into<String>, is_error: bool) -> Self {
        Self { placement, text: text.into(), is_error }
    }
}

/// What the agent shows after one event: texts for the model, in order, and texts for the user
/// (never the model).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[non_exhaustive]
pub struct Shown {
    /// One entry per message or text block the agent adds, in order.
    pub model: Vec<ModelText>,
    /// What the user sees: the hooks' messages for the user, as the agent frames them, and
    /// the agent's own notices (a blocked prompt, a loop guard, ...), in order.
    pub user: Vec<String>,
    /// Problems met while rendering (a long text that could not be saved); not shown to
    /// anyone by the agent.
    #[serde(skip)]
    pub warnings: Vec<String>,
}

impl Shown {
    /// Texts for the model and for the user, with the problems met while rendering them.
    pub fn new(model: Vec<ModelText>, user: Vec<String>, warnings: Vec<String>) -> Self {
        Self { model, user, warnings }
    }

    /// Whether nothing is shown to the model or the user.
    pub fn is_empty(&self) -> bool {
        self.model.is_empty() && self.user.is_empty()
    }

    /// The result of the tool call, when the hooks refused it.
    pub fn tool_result(&self) -> Option<&ModelText> {
        self.model.iter().find(|m| m.placement == Placement::ToolResult)
    }
}
