//! A model request built from a session's steps, in Claude Code's layout. In come the
//! harness's prompts, the model's replies, the tools' results and the session's [`Step`]s; out
//! go the messages of the next request ([`Message`]). It reads steps and never fires hooks or
//! changes the session: it sits beside the session stage, above it.
//!
//! A [`Conversation`] is the harness's side of the loop written down: the person's prompts,
//! the model's replies and tool calls, the tools' results, and everything the session's
//! [`Step`]s add for the model, each put where Claude Code puts it
//! ([What Claude Code shows](crate::compatibility#what-claude-code-shows)). Its
//! [`Conversation::request`] is the list of messages for the next model request:
//!
//! - **The person's first prompt**, then **the environment message**: a system message made
//!   of the `SessionStart` hooks' context, then the harness's own environment text (what it
//!   tells the model about the machine, the project and the date, as Claude Code's environment
//!   message does; empty if it has none), then the first turn's `UserPromptSubmit` and
//!   `UserPromptExpansion` context, a paragraph each. Claude Code sends the two in that order;
//!   before the first prompt, the environment message is the only one.
//! - **A later turn's `UserPromptSubmit` context**, which has no environment message to join,
//!   is a system message right before the person's prompt.
//! - **Tool results**: the results of every call of one assistant message go together in the
//!   one user message that follows it, in the order of the calls, whether the tool ran (the
//!   harness's [`Conversation::tool_result`]) or the hooks, the permission prompt or an
//!   interrupt refused it (the refusal text, from the step). Text blocks of those steps
//!   (Claude Code's interrupt block, a `PermissionDenied` retry) follow the results in the same
//!   message; when the person's next prompt comes before anything else, it joins that message
//!   too, as Claude Code sends it.
//! - **System texts** of those steps (contexts, PostToolUse blocks, `PostToolBatch` context)
//!   come after that user message, one system message each, in the order the steps came.
//! - **Late results** of background hooks ([`Step::late`]) are bare system messages where
//!   they arrive; during a batch they wait until its results are in, never landing between a
//!   `tool_use` and its `tool_result`.
//! - **A `Stop` that continues the turn**: its user message (the hooks' feedback), then its
//!   system message.
//!
//! A sub-agent's conversation is a `Conversation` of its own (its environment message starts
//! with the `SubagentStart` context).

mod message;

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::session::Step;
use crate::{ModelText, Placement, Shown};
pub use message::{Block, Message, Role};

/// Why a request cannot be built, or a result cannot be taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConversationError {
    /// Calls of the last assistant message have no result yet: the Messages API refuses a
    /// `tool_use` without its `tool_result`.
    #[error("tool calls without a result yet: {}", tool_use_ids.join(", "))]
    MissingResults {
        /// The calls, in the order the model made them.
        tool_use_ids: Vec<String>,
    },
    /// A result for a call the last assistant message did not make.
    #[error("no tool call `{tool_use_id}` waits for a result")]
    UnknownCall {
        /// The call.
        tool_use_id: String,
    },
    /// A second result for one call.
    #[error("tool call `{tool_use_id}` has its result already")]
    DuplicateResult {
        /// The call.
        tool_use_id: String,
    },
    /// In a request: the message after an assistant message's calls does not open with their
    /// results, in order, or a result answers no call of the message before it.
    #[error(
        "message {message}: the results of the calls before it must open it, in order \
         (expected {expected:?}, found {found:?})"
    )]
    Misplaced {
        /// The message at fault, from 0.
        message: usize,
        /// The calls of the assistant message before it.
        expected: Vec<String>,
        /// The results it holds.
        found: Vec<String>,
    },
}

/// Checks a request against the Messages API's rule for tool calls: the message right after
/// an assistant message with `tool_use` blocks is a user message that opens with their
/// `tool_result`s, in the calls' order, and no `tool_result` stands anywhere else. Every
/// [`Conversation::request`] keeps it; a harness that builds or edits requests itself can
/// check its own.
///
/// # Errors
///
/// [`ConversationError::Misplaced`] naming the first message at fault.
pub fn check_request(messages: &[Message]) -> Result<(), ConversationError> {
    let ids = |message: &Message, uses: bool| -> Vec<String> {
        message
            .content
            .iter()
            .filter_map(|b| match b {
                Block::ToolUse { id, .. } if uses => Some(id.clone()),
                Block::ToolResult { tool_use_id, .. } if !uses => Some(tool_use_id.clone()),
                _ => None,
            })
            .collect()
    };
    let mut expected: Vec<String> = Vec::new();
    for (at, message) in messages.iter().enumerate() {
        let found = ids(message, false);
        let opening: Vec<String> = message
            .content
            .iter()
            .take(expected.len())
            .filter_map(|b| match b {
                Block::ToolResult { tool_use_id, .. } => Some(tool_use_id.clone()),
                _ => None,
            })
            .collect();
        let answered = if expected.is_empty() {
            found.is_empty()
        } else {
            message.role == Role::User && opening == expected && found.len() == expected.len()
        };
        if !answered {
            return Err(ConversationError::Misplaced { message: at, expected, found });
        }
        expected = if message.role == Role::Assistant { ids(message, true) } else { Vec::new() };
    }
    Ok(())
}

/// The calls of the last assistant message, until their results are in the request.
#[derive(Debug, Default)]
struct Batch {
    /// The calls in the model's order: id, tool name.
    calls: Vec<(String, String)>,
    results: HashMap<String, Block>,
    /// Text blocks that follow the results in their user message.
    texts: Vec<Block>,
    /// System messages that follow that user message.
    system: Vec<String>,
}

/// The conversation a harness sends its model, built in Claude Code's layout; see the
/// [module documentation](self).
///
/// ```
/// use hooks_claude::conversation::{Block, Conversation, Role};
/// use serde_json::json;
///
/// let mut chat = Conversation::new("Working directory: /work/project");
/// chat.user("Build it.");
/// chat.assistant(vec![Block::tool_use("toolu_1", "Bash", json!({"command": "make"}))]);
/// chat.tool_result("toolu_1", json!("built"), false)?;
/// let request = chat.request()?;
/// let roles: Vec<Role> = request.iter().map(|m| m.role).collect();
/// assert_eq!(roles, [Role::User, Role::System, Role::Assistant, Role::User]);
/// # Ok::<(), hooks_claude::conversation::ConversationError>(())
/// ```
#[derive(Debug, Default)]
pub struct Conversation {
    environment: String,
    /// `SessionStart` context: the start of the environment message.
    environment_start: Vec<String>,
    /// The first turn's `UserPromptSubmit` and `UserPromptExpansion` context: the end of the
    /// environment message.
    environment_end: Vec<String>,
    /// A later turn's `UserPromptSubmit` context, for right before its prompt.
    turn_context: Vec<String>,
    /// Whether the first prompt was taken.
    prompted: bool,
    messages: Vec<Message>,
    batch: Option<Batch>,
}

impl Conversation {
    /// A conversation whose environment message holds the harness's own `environment` text.
    pub fn new(environment: impl Into<String>) -> Self {
        Self { environment: environment.into(), ..Self::default() }
    }

    /// The person's prompt (one that the `UserPromptSubmit` step let through). It closes the
    /// batch of the last assistant message; a prompt that comes right after a refused call's
    /// result joins that user message, as Claude Code sends it.
    ///
    /// # Errors
    ///
    /// [`ConversationError::MissingResults`] when calls of the last assistant message have no
    /// result.
    pub fn user(&mut self, prompt: impl Into<String>) -> Result<(), ConversationError> {
        self.close_batch()?;
        let context = std::mem::take(&mut self.turn_context);
        if !context.is_empty() {
            self.messages.push(Message::system(context.join("\n\n")));
        }
        self.prompted = true;
        let text = Block::text(prompt);
        match self.messages.last_mut() {
            Some(last) if last.role == Role::User => last.content.push(text),
            _ => self.messages.push(Message::new(Role::User, vec![text])),
        }
        Ok(())
    }

    /// The model's reply: its text and `tool_use` blocks. Its tool calls wait for their
    /// results.
    ///
    /// # Errors
    ///
    /// [`ConversationError::MissingResults`] when calls of the previous assistant message have
    /// no result.
    pub fn assistant(&mut self, content: Vec<Block>) -> Result<(), ConversationError> {
        self.close_batch()?;
        let calls: Vec<(String, String)> = content
            .iter()
            .filter_map(|b| match b {
                Block::ToolUse { id, name, .. } => Some((id.clone(), name.clone())),
                _ => None,
            })
            .collect();
        self.messages.push(Message::new(Role::Assistant, content));
        if !calls.is_empty() {
            self.batch = Some(Batch { calls, ..Batch::default() });
        }
        Ok(())
    }

    /// The result of a call that ran (after any rewrite of its output by the hooks).
    ///
    /// # Errors
    ///
    /// [`ConversationError::UnknownCall`] for a call the last assistant message did not make,
    /// [`ConversationError::DuplicateResult`] for a second result.
    pub fn tool_result(
        &mut self,
        tool_use_id: &str,
        content: Value,
        is_error: bool,
    ) -> Result<(), ConversationError> {
        self.set_result(tool_use_id, Block::tool_result(tool_use_id, content, is_error))
    }

    /// What a session step adds for the model ([`Step::for_model`]), each text where Claude
    /// Code puts it. A refusal (by the hooks, at a `PermissionRequest`, or an interrupt)
    /// becomes its call's result.
    ///
    /// # Errors
    ///
    /// [`ConversationError::UnknownCall`] / [`ConversationError::DuplicateResult`] when the
    /// step refuses a call the last assistant message did not make, or one that has its result.
    pub fn step<D>(&mut self, step: &Step<D>) -> Result<(), ConversationError> {
        let call = self.call_of(step.input());
        self.add(&step.for_model(), call.as_deref())
    }

    /// What [`Session::answer_prompt`](crate::Session::answer_prompt) said the model gets for
    /// the person's answer about `tool_use_id`, or
    /// [`Session::interrupt_tool`](crate::Session::interrupt_tool) for its interrupt.
    ///
    /// # Errors
    ///
    /// As for [`Conversation::step`].
    pub fn answer(&mut self, tool_use_id: &str, shown: &Shown) -> Result<(), ConversationError> {
        self.add(&shown.model, Some(tool_use_id))
    }

    /// What any step shows the model, each text where Claude Code puts it: a step of every
    /// agent's hooks (`hooks-mixed`, each dialect's texts gathered), or of a dialect reached
    /// through the core's door. `tool_use_id`: the call the step is about, on the tool events.
    ///
    /// # Errors
    ///
    /// As for [`Conversation::step`].
    pub fn shown(
        &mut self,
        shown: &Shown,
        tool_use_id: Option<&str>,
    ) -> Result<(), ConversationError> {
        self.add(&shown.model, tool_use_id)
    }

    /// The messages of the next request: the conversation, with the environment message
    /// after the person's first prompt (first when there is none yet). The last assistant
    /// message's calls must all have their results.
    ///
    /// # Errors
    ///
    /// [`ConversationError::MissingResults`] for calls without a result.
    pub fn request(&mut self) -> Result<Vec<Message>, ConversationError> {
        self.close_batch()?;
        let mut environment: String = self.environment_start.concat();
        environment.push_str(&self.environment);
        for paragraph in &self.environment_end {
            if !environment.is_empty() {
                environment.push_str("\n\n");
            }
            environment.push_str(paragraph);
        }
        let mut messages = self.messages.clone();
        if !environment.is_empty() {
            // After the person's first message, as Claude Code sends it; first when there is
            // none yet.
            let at = usize::from(messages.first().is_some_and(|m| m.role == Role::User));
            messages.insert(at, Message::system(environment));
        }
        Ok(messages)
    }

    /// The call a step is about: its `tool_use_id`, else (a `PermissionRequest`) the latest
    /// call of the batch with the step's tool and no result yet, as the session's batch
    /// takes it.
    fn call_of(&self, input: &Map<String, Value>) -> Option<String> {
        if let Some(id) = input.get("tool_use_id").and_then(Value::as_str).filter(|i| !i.is_empty())
        {
            return Some(id.to_owned());
        }
        let tool = input.get("tool_name").and_then(Value::as_str)?;
        let batch = self.batch.as_ref()?;
        batch
            .calls
            .iter()
            .rev()
            .find(|(id, name)| name == tool && !batch.results.contains_key(id))
            .map(|(id, _)| id.clone())
    }

    /// Places texts, in order: a tool result as `call`'s, the rest by their placement;
    /// consecutive user texts outside a batch are the blocks of one message.
    fn add(&mut self, texts: &[ModelText], call: Option<&str>) -> Result<(), ConversationError> {
        let mut user = Vec::new();
        for text in texts {
            if text.placement != Placement::User {
                self.user_blocks(&mut user);
            }
            match text.placement {
                Placement::ToolResult => {
                    let id = call.unwrap_or_default();
                    let content = Value::String(text.text.clone());
                    self.set_result(id, Block::tool_result(id, content, text.is_error))?;
                }
                Placement::User => user.push(Block::text(text.text.clone())),
                Placement::EnvironmentStart if self.messages.is_empty() => {
                    self.environment_start.push(text.text.clone());
                }
                Placement::EnvironmentEnd if !self.prompted => {
                    self.environment_end.push(text.text.clone());
                }
                Placement::EnvironmentEnd => self.turn_context.push(text.text.clone()),
                // A SessionStart mid-conversation (after a compaction): where it arrives.
                Placement::EnvironmentStart => {
                    let paragraph = text.text.trim_end_matches('\n').to_owned();
                    self.messages.push(Message::system(paragraph));
                }
                // `System`, and any placement added later: a system message at this point.
                _ => match &mut self.batch {
                    Some(batch) => batch.system.push(text.text.clone()),
                    None => self.messages.push(Message::system(text.text.clone())),
                },
            }
        }
        self.user_blocks(&mut user);
        Ok(())
    }

    /// Text blocks for the user message: after the batch's results, else a message of their
    /// own.
    fn user_blocks(&mut self, blocks: &mut Vec<Block>) {
        if blocks.is_empty() {
            return;
        }
        let blocks = std::mem::take(blocks);
        match &mut self.batch {
            Some(batch) => batch.texts.extend(blocks),
            None => self.messages.push(Message::new(Role::User, blocks)),
        }
    }

    fn set_result(&mut self, id: &str, block: Block) -> Result<(), ConversationError> {
        let unknown = || ConversationError::UnknownCall { tool_use_id: id.to_owned() };
        let batch = self.batch.as_mut().ok_or_else(unknown)?;
        if !batch.calls.iter().any(|(call, _)| call == id) {
            return Err(unknown());
        }
        if batch.results.contains_key(id) {
            return Err(ConversationError::DuplicateResult { tool_use_id: id.to_owned() });
        }
        batch.results.insert(id.to_owned(), block);
        Ok(())
    }

    /// Writes the batch out once every call has its result: one user message of the results
    /// (in the calls' order) and the steps' text blocks, then the system messages.
    fn close_batch(&mut self) -> Result<(), ConversationError> {
        let Some(batch) = &self.batch else { return Ok(()) };
        let missing: Vec<String> = batch
            .calls
            .iter()
            .filter(|(id, _)| !batch.results.contains_key(id))
            .map(|(id, _)| id.clone())
            .collect();
        if !missing.is_empty() {
            return Err(ConversationError::MissingResults { tool_use_ids: missing });
        }
        let Some(mut batch) = self.batch.take() else { return Ok(()) };
        let mut content: Vec<Block> =
            batch.calls.iter().filter_map(|(id, _)| batch.results.remove(id)).collect();
        content.append(&mut batch.texts);
        self.messages.push(Message::new(Role::User, content));
        self.messages.extend(batch.system.into_iter().map(Message::system));
        Ok(())
    }
}
