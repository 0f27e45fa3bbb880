//! The harness's own permission prompt, as a step of the session
//! ([Interrupts and refusals](crate::compatibility#interrupts-and-refusals)).
//!
//! A tool call whose `PreToolUse` hooks let it go on may still need the person's approval (a
//! hook asked, or the harness's own rules do). The harness asks them, then tells the session
//! what they answered; the session says what the model gets, in Claude Code's words: nothing
//! for an approval (the call runs; its held context comes after its result), Claude Code's
//! refusal and interrupt block for a refusal, the refusal with the person's words when they
//! typed what to do instead.

use std::collections::HashSet;

use hook_protocol::{ModelText, Placement, Shown};

use crate::SessionError;
use crate::wire::templates as t;

/// What the person answered at the harness's permission prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PromptAnswer {
    /// Yes: the call runs.
    Approved,
    /// No (or Esc): the call does not run, and the turn waits for the person.
    Refused,
    /// No, with what to do instead: the call does not run, and the turn goes on with their
    /// words.
    RefusedSaying(String),
}

/// The calls the session saw reach their permission step, those already answered, and those
/// that may be running (let go on, not refused, no result yet).
#[derive(Debug, Default)]
pub(super) struct Prompts {
    open: HashSet<String>,
    answered: HashSet<String>,
    running: HashSet<String>,
}

impl Prompts {
    /// A call whose `PreToolUse` hooks did not refuse it: it may be asked about, and run.
    pub(super) fn opened(&mut self, tool_use_id: &str) {
        if !self.answered.contains(tool_use_id) {
            self.open.insert(tool_use_id.to_owned());
            self.running.insert(tool_use_id.to_owned());
        }
    }

    /// A call that ended (its result came, or it was refused otherwise).
    pub(super) fn closed(&mut self, tool_use_id: &str) {
        self.open.remove(tool_use_id);
        self.running.remove(tool_use_id);
    }

    /// Takes an interrupt of a running call: an error for a call that is not running.
    pub(super) fn interrupt(&mut self, tool_use_id: &str) -> Result<(), SessionError> {
        if !self.running.remove(tool_use_id) {
            return Err(SessionError::NotRunning { tool_use_id: tool_use_id.to_owned() });
        }
        self.open.remove(tool_use_id);
        self.answered.insert(tool_use_id.to_owned());
        Ok(())
    }

    /// Forgets every call: a new turn, whose calls are new.
    pub(super) fn clear(&mut self) {
        self.open.clear();
        self.answered.clear();
        self.running.clear();
    }

    /// Takes an answer for a call: an error for a call the session never saw, or one answered
    /// already.
    pub(super) fn answer(&mut self, tool_use_id: &str) -> Result<(), SessionError> {
        if self.open.remove(tool_use_id) {
            self.answered.insert(tool_use_id.to_owned());
            Ok(())
        } else if self.answered.contains(tool_use_id) {
            Err(SessionError::AlreadyAnswered { tool_use_id: tool_use_id.to_owned() })
        } else {
            Err(SessionError::UnknownCall { tool_use_id: tool_use_id.to_owned() })
        }
    }
}

/// What the model gets for a call interrupted while it ran: as for a refusal.
pub(super) fn interrupted() -> Shown {
    shown(&PromptAnswer::Refused)
}

/// What the model gets from an answer.
pub(super) fn shown(answer: &PromptAnswer) -> Shown {
    let model = match answer {
        PromptAnswer::Approved => Vec::new(),
        PromptAnswer::Refused => vec![
            ModelText::new(Placement::ToolResult, t::REFUSED, true),
            ModelText::new(Placement::User, t::INTERRUPTED, false),
        ],
        PromptAnswer::RefusedSaying(words) => {
            vec![ModelText::new(Placement::ToolResult, t::refused_saying(words), true)]
        }
    };
    Shown::new(model, Vec::new(), Vec::new())
}
