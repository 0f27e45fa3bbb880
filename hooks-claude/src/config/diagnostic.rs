//! Problems found in configuration, with the file, line and column of the offending value.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DiagnosticSeverity {
    /// Worth knowing; everything still works as Claude Code would make it work.
    Warning,
    /// Something did not register (a file, an event, a group or a handler).
    Error,
}

impl DiagnosticSeverity {
    /// `warning` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            DiagnosticSeverity::Warning => "warning",
            DiagnosticSeverity::Error => "error",
        }
    }
}

/// One problem in one configuration file, printed as `FILE:LINE:COL: error|warning: message`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Diagnostic {
    /// The file.
    pub file: PathBuf,
    /// The line of the offending value, from 1 (0 when the problem is the whole file).
    pub line: usize,
    /// The column of the offending value, from 1, in characters (0 for the whole file).
    pub column: usize,
    /// Warning or error.
    pub severity: DiagnosticSeverity,
    /// What is wrong, naming the value.
    pub message: String,
}

impl Diagnostic {
    /// A diagnostic at a position.
    pub fn new(
        file: impl Into<PathBuf>,
        pos: Pos,
        severity: DiagnosticSeverity,
        message: impl Into<String>,
    ) -> Self {
        Self {
            file: file.into(),
            line: pos.line,
            column: pos.column,
            severity,
            message: message.into(),
        }
    }

    /// Whether it is an error.
    pub fn is_error(&self) -> bool {
        self.severity == DiagnosticSeverity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}: {}",
            self.file.display(),
            self.line,
            self.column,
            self.severity.as_str(),
            self.message
        )
    }
}

/// A position in a configuration file: line and column from 1 (column in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Pos {
    /// Line, from 1; 0 when unknown.
    pub line: usize,
    /// Column, from 1, in characters; 0 when unknown.
    pub column: usize,
}

impl Pos {
    /// A position.
    pub fn new(line: usize, column: usize) -> Self {
        Self { line, column }
    }
}

/// Byte offsets to lines and columns for one text.
#[derive(Debug)]
pub(crate) struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        // A byte loop: settings lines are short, and a search per line costs more than it
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

    /// The position of byte `offset` (clamped to the text).
    pub(crate) fn pos(&self, offset: usize) -> Pos {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1];
        let column = self.text.get(start..offset).map_or(1, |s| s.chars().count() + 1);
        Pos { line, column }
    }
}

/// Collects diagnostics for one file.
#[derive(Debug)]
pub(crate) struct Sink<'a> {
    pub(crate) file: &'a Path,
    pub(crate) out: &'a mut Vec<Diagnostic>,
}

impl Sink<'_> {
    pub(crate) fn error(&mut self, pos: Pos, message: impl Into<String>) {
        self.out.push(Diagnostic::new(self.file, pos, DiagnosticSeverity::Error, message));
    }

    pub(crate) fn warning(&mut self, pos: Pos, message: impl Into<String>) {
        self.out.push(Diagnostic::new(self.file, pos, DiagnosticSeverity::Warning, message));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_lines_and_columns() {
        let idx = LineIndex::new("{\n  \"é\": 1\n}");
        assert_eq!(idx.pos(0), Pos::new(1, 1));
        assert_eq!(idx.pos(2), Pos::new(2, 1));
        assert_eq!(idx.pos(10), Pos::new(2, 8), "columns count characters");
        assert_eq!(idx.pos(999), Pos::new(3, 2));
    }

    #[test]
    fn displays_as_file_line_col() {
        let d = Diagnostic::new("a.json", Pos::new(3, 7), DiagnosticSeverity::Warning, "msg");
        assert_eq!(d.to_string(), "a.json:3:7: warning: msg");
    }
}
