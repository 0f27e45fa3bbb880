//! Problems found in a dialect's configuration, with the file, line and column of the offending
//! value: one type for every dialect, printed as `FILE:LINE:COL: error|warning: message`.

use std::fmt;
use std::path::PathBuf;

use serde::Serialize;

/// A place in a text file: line and column from 1, the column in characters; 0 when unknown
/// (a problem of the whole file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize)]
pub struct Position {
    /// Line, from 1; 0 when unknown.
    pub line: usize,
    /// Column, from 1, in characters; 0 when unknown.
    pub column: usize,
}

impl Position {
    /// A position.
    pub fn new(line: usize, column: usize) -> Self {
        Self { line, column }
    }

    /// Whether the position is known (a line was given).
    pub fn is_known(self) -> bool {
        self.line > 0
    }
}

impl fmt::Display for Position {
    /// `LINE:COL`, or `LINE` when the column is unknown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            0 => write!(f, "{}", self.line),
            column => write!(f, "{}:{column}", self.line),
        }
    }
}

/// Byte offsets to lines and columns for one text: where a parser's offset is, for a
/// [`Diagnostic`].
#[derive(Debug)]
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// The index of `text`.
    pub fn new(text: &'a str) -> Self {
        // A byte loop: configuration lines are short, and a search per line costs more than it
        // skips.
        let mut starts = Vec::with_capacity(text.len() / 16 + 1);
        starts.push(0);
        for (i, &b) in text.as_bytes().iter().enumerate() {
            if b == b'\n' {
                starts.push(i + 1);
            }
        }
        Self { text, starts }
    }

    /// The position of byte `offset` (clamped to the text); the column counts characters.
    pub fn position(&self, offset: usize) -> Position {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1];
        let column = self.text.get(start..offset).map_or(1, |s| s.chars().count() + 1);
        Position { line, column }
    }
}

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Worth knowing; everything still works as the agent would make it work.
    Warning,
    /// Something did not register (a file, an event, a group or a hook).
    Error,
}

impl Level {
    /// `warning` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Warning => "warning",
            Level::Error => "error",
        }
    }
}

/// What a problem makes a loader leave out, as data: a harness that loads everything else
/// says it; a program that stops on the problem leaves it unsaid ([`Diagnostic::problem`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Skipped {
    /// A value: a setting is ignored, and the rest of its hook loads.
    Value,
    /// One hook (a handler).
    Hook,
    /// A matcher group and its hooks.
    Group,
    /// An event's hooks.
    Event,
    /// A whole file (a settings file, a plugin's hook file or manifest).
    File,
}

/// What a problem left out, and the words its dialect says it in (`this handler is skipped`),
/// which end the diagnostic's message after `; `.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Skip {
    /// What was left out.
    pub skipped: Skipped,
    /// How the dialect says it.
    pub words: String,
}

/// The words of a problem: what is wrong and, when the loader leaves something out because of
/// it, what ([`skipping`]). A string is a problem that leaves nothing out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    message: String,
    skip: Option<Skip>,
}

impl From<String> for Problem {
    fn from(message: String) -> Self {
        Self { message, skip: None }
    }
}

impl From<&str> for Problem {
    fn from(message: &str) -> Self {
        Self { message: message.to_owned(), skip: None }
    }
}

/// A problem that makes the loader leave `skipped` out, said as `words` after the message
/// (`skipping("`timeout` must be a number", Skipped::Hook, "this handler is skipped")`).
pub fn skipping(message: impl Into<String>, skipped: Skipped, words: &str) -> Problem {
    Problem { message: message.into(), skip: Some(Skip { skipped, words: words.to_owned() }) }
}

/// One problem in one configuration file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Diagnostic {
    /// The file.
    pub file: PathBuf,
    /// The line of the offending value, from 1 (0 when the problem is the whole file).
    pub line: usize,
    /// The column of the offending value, from 1, in characters (0 when unknown).
    pub column: usize,
    /// Warning or error.
    pub level: Level,
    /// What is wrong, naming the value, and what the loader left out because of it (the
    /// words of [`Diagnostic::skip`], after `; `).
    pub message: String,
    /// What the loader left out because of it, when it left something out.
    pub skip: Option<Skip>,
}

impl Diagnostic {
    /// A diagnostic at a position.
    pub fn new(
        file: impl Into<PathBuf>,
        position: Position,
        level: Level,
        problem: impl Into<Problem>,
    ) -> Self {
        let Problem { mut message, skip } = problem.into();
        if let Some(skip) = &skip {
            message.push_str("; ");
            message.push_str(&skip.words);
        }
        Self {
            file: file.into(),
            line: position.line,
            column: position.column,
            level,
            message,
            skip,
        }
    }

    /// An error at a position.
    pub fn error(
        file: impl Into<PathBuf>,
        position: Position,
        problem: impl Into<Problem>,
    ) -> Self {
        Self::new(file, position, Level::Error, problem)
    }

    /// A warning at a position.
    pub fn warning(
        file: impl Into<PathBuf>,
        position: Position,
        problem: impl Into<Problem>,
    ) -> Self {
        Self::new(file, position, Level::Warning, problem)
    }

    /// What is wrong, without what the loader left out: for a program that stops on it.
    pub fn problem(&self) -> &str {
        let words = self.skip.as_ref().map_or(0, |s| s.words.len() + "; ".len());
        self.message.get(..self.message.len().saturating_sub(words)).unwrap_or(&self.message)
    }

    /// The diagnostic as [`Display`](fmt::Display) prints it, with [`Diagnostic::problem`] for
    /// its message.
    pub fn without_skip(&self) -> Self {
        Self { message: self.problem().to_owned(), skip: None, ..self.clone() }
    }

    /// Where in the file.
    pub fn position(&self) -> Position {
        Position::new(self.line, self.column)
    }

    /// Whether it is an error.
    pub fn is_error(&self) -> bool {
        self.level == Level::Error
    }
}

impl fmt::Display for Diagnostic {
    /// `FILE:LINE:COL: error|warning: message`, without the position when it is unknown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if self.position().is_known() {
            write!(f, ":{}", self.position())?;
        }
        write!(f, ": {}: {}", self.level.as_str(), self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_problem_skips_is_data_said_after_it() {
        let problem =
            skipping("`timeout` must be a number", Skipped::Hook, "this handler is skipped");
        let d = Diagnostic::error("/p/s.json", Position::new(3, 4), problem);
        assert_eq!(
            d.to_string(),
            "/p/s.json:3:4: error: `timeout` must be a number; this handler is skipped"
        );
        assert_eq!(d.problem(), "`timeout` must be a number");
        assert_eq!(d.skip.as_ref().map(|s| s.skipped), Some(Skipped::Hook));
        assert_eq!(
            d.without_skip().to_string(),
            "/p/s.json:3:4: error: `timeout` must be a number"
        );
        let plain = Diagnostic::warning("/p/s.json", Position::default(), "odd; but fine");
        assert_eq!((plain.problem(), &plain.skip), ("odd; but fine", &None));
    }

    #[test]
    fn offsets_become_lines_and_columns() {
        let idx = LineIndex::new("{\n  \"é\": 1\n}");
        assert_eq!(idx.position(0), Position::new(1, 1));
        assert_eq!(idx.position(2), Position::new(2, 1));
        assert_eq!(idx.position(10), Position::new(2, 8), "columns count characters");
        assert_eq!(idx.position(999), Position::new(3, 2));
    }

    #[test]
    fn displays_as_file_line_col_and_leaves_out_what_is_unknown() {
        let d = Diagnostic::warning("a.json", Position::new(3, 7), "msg");
        assert_eq!(d.to_string(), "a.json:3:7: warning: msg");
        let d = Diagnostic::error("a.json", Position::new(3, 0), "msg");
        assert_eq!(d.to_string(), "a.json:3: error: msg");
        let d = Diagnostic::error("a.json", Position::default(), "unreadable");
        assert_eq!(d.to_string(), "a.json: error: unreadable");
        assert!(d.is_error());
    }
}
