//! The four pairs of the Insika model and the harness's types for them.
//!
//! A pair is a stage of the harness that hooks wrap: a task, a prompt, an agent run, a tool
//! call. Each has a subject (what goes into the stage) and a result (what comes out); the
//! harness chooses both through [`Stages`]. The pair markers [`Task`], [`Prompt`], [`Agent`] and
//! [`Tool`] name a pair at compile time; [`PairName`] names it at run time, from a string.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The harness's types: the subject and result of each pair, and the error its hooks return.
///
/// Implemented once by the harness, usually on a unit struct; a pair the harness does not use
/// can take `()` for both types.
///
/// ```
/// use hooks_native::Stages;
///
/// # #[derive(Debug)] pub struct ToolCall; #[derive(Debug)] pub struct ToolOutput;
/// # #[derive(Debug)] pub struct StageError;
/// pub struct MyHarness;
///
/// impl Stages for MyHarness {
///     type Error = StageError;
///     type TaskSubject = String;
///     type TaskResult = String;
///     type PromptSubject = String;
///     type PromptResult = String;
///     type AgentSubject = ();
///     type AgentResult = ();
///     type ToolSubject = ToolCall;
///     type ToolResult = ToolOutput;
/// }
/// ```
pub trait Stages: 'static {
    /// What a hook returns when it fails; it reaches the caller unchanged.
    type Error: 'static;
    /// What goes into a task.
    type TaskSubject: 'static;
    /// What comes out of a task.
    type TaskResult: 'static;
    /// What goes into a prompt (the request to the model).
    type PromptSubject: 'static;
    /// What comes out of a prompt (the model's answer).
    type PromptResult: 'static;
    /// What goes into an agent run.
    type AgentSubject: 'static;
    /// What comes out of an agent run.
    type AgentResult: 'static;
    /// What goes into a tool call.
    type ToolSubject: 'static;
    /// What comes out of a tool call.
    type ToolResult: 'static;
}

/// The pair markers, sealed: only this crate implements [`Pair`](crate::Pair) for them.
pub(crate) mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Task {}
    impl Sealed for super::Prompt {}
    impl Sealed for super::Agent {}
    impl Sealed for super::Tool {}
}

/// The task pair: a whole task, from its request to its outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Task;

/// The prompt pair: one request to the model and its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Prompt;

/// The agent pair: one agent run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Agent;

/// The tool pair: one tool call and its output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Tool;

/// A pair named at run time (from configuration, a command line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PairName {
    /// `task`.
    Task,
    /// `prompt`.
    Prompt,
    /// `agent`.
    Agent,
    /// `tool`.
    Tool,
}

impl PairName {
    /// Every pair, in the Insika model's order.
    pub const ALL: [PairName; 4] =
        [PairName::Task, PairName::Prompt, PairName::Agent, PairName::Tool];

    /// The pair's name: `task`, `prompt`, `agent` or `tool`.
    pub fn as_str(self) -> &'static str {
        match self {
            PairName::Task => "task",
            PairName::Prompt => "prompt",
            PairName::Agent => "agent",
            PairName::Tool => "tool",
        }
    }
}

impl fmt::Display for PairName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for PairName {
    type Err = UnknownPair;

    /// Parses an exact pair name (case-sensitive).
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        PairName::ALL
            .into_iter()
            .find(|p| p.as_str() == name)
            .ok_or_else(|| UnknownPair { name: name.to_owned() })
    }
}

/// A pair name that is none of the four.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown hook pair `{name}`; known pairs: `task`, `prompt`, `agent`, `tool`")]
#[non_exhaustive]
pub struct UnknownPair {
    /// The name as given.
    pub name: String,
}

/// Which half of a pair a hook is registered on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Half {
    /// Before the stage: the hook alters the subject.
    Before,
    /// After the stage: the hook alters the result.
    After,
}

impl Half {
    /// `before` or `after`.
    pub fn as_str(self) -> &'static str {
        match self {
            Half::Before => "before",
            Half::After => "after",
        }
    }
}

impl fmt::Display for Half {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a registration by name was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum RegisterError {
    /// The pair name is none of the four.
    #[error(transparent)]
    UnknownPair(#[from] UnknownPair),
    /// The hook's type does not fit the pair: a before hook takes and returns the pair's
    /// subject, an after hook its result.
    #[error(
        "{half} hook for pair `{pair}` takes `{found}`, but the pair's {} is `{expected}`",
        if matches!(half, Half::Before) { "subject" } else { "result" }
    )]
    TypeMismatch {
        /// The pair.
        pair: PairName,
        /// Which half.
        half: Half,
        /// The type the pair's hooks take.
        expected: &'static str,
        /// The type the hook takes.
        found: &'static str,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_named() {
        for pair in PairName::ALL {
            assert_eq!(pair.as_str().parse::<PairName>(), Ok(pair));
        }
        let err = "tol".parse::<PairName>().unwrap_err();
        assert_eq!(err.name, "tol");
        assert_eq!(
            err.to_string(),
            "unknown hook pair `tol`; known pairs: `task`, `prompt`, `agent`, `tool`"
        );
        assert!("Tool".parse::<PairName>().is_err(), "names are case-sensitive");
        assert!("".parse::<PairName>().is_err());
    }
}
