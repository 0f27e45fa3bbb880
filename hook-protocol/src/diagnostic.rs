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
    /// What is wrong, naming the value.
    pub message: String,
}

impl Diagnostic {
    /// A diagnostic at a position.
    pub fn new(
        file: impl Into<PathBuf>,
        position: Position,
        level: Level,
        message: impl Into<String>,
    ) -> Self {
        Self {
            file: file.into(),
            line: position.line,
            column: position.column,
            level,
            message: message.into(),
        }
    }

    /// An error at a position.
    pub fn error(file: impl Into<PathBuf>, position: Position, message: impl Into<String>) -> Self {
        Self::new(file, position, Level::Error, message)
    }

    /// A warning at a position.
    pub fn warning(
        file: impl Into<PathBuf>,
        position: Position,
        message: impl Into<String>,
    ) -> Self {
        Self::new(file, position, Level::Warning, message)
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
