//! Where a problem is in a configuration text (lines and columns of byte offsets), and the
//! sink a file's problems go to; the problems themselves are the core's `Diagnostic`s.

use std::path::Path;

use hook_protocol::{Diagnostic, Level, Position};

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
    pub(crate) fn pos(&self, offset: usize) -> Position {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1];
        let column = self.text.get(start..offset).map_or(1, |s| s.chars().count() + 1);
        Position { line, column }
    }
}

/// Collects diagnostics for one file.
#[derive(Debug)]
pub(crate) struct Sink<'a> {
    pub(crate) file: &'a Path,
    pub(crate) out: &'a mut Vec<Diagnostic>,
}

impl Sink<'_> {
    pub(crate) fn error(&mut self, pos: Position, message: impl Into<String>) {
        self.out.push(Diagnostic::new(self.file, pos, Level::Error, message));
    }

    pub(crate) fn warning(&mut self, pos: Position, message: impl Into<String>) {
        self.out.push(Diagnostic::new(self.file, pos, Level::Warning, message));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_lines_and_columns() {
        let idx = LineIndex::new("{\n  \"é\": 1\n}");
        assert_eq!(idx.pos(0), Position::new(1, 1));
        assert_eq!(idx.pos(2), Position::new(2, 1));
        assert_eq!(idx.pos(10), Position::new(2, 8), "columns count characters");
        assert_eq!(idx.pos(999), Position::new(3, 2));
    }
}
