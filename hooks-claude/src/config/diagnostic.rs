//! The sink a file's problems go to; the problems are the core's `Diagnostic`s, at the
//! positions the core's `LineIndex` gives.

use std::path::Path;

use hook_protocol::{Diagnostic, Level, Position};

/// Collects diagnostics for one file.
#[derive(Debug)]
pub(crate) struct Sink<'a> {
    pub(crate) file: &'a Path,
    pub(crate) out: &'a mut Vec<Diagnostic>,
}

impl Sink<'_> {
    pub(crate) fn error(&mut self, pos: Position, message: impl Into<hook_protocol::Problem>) {
        self.out.push(Diagnostic::new(self.file, pos, Level::Error, message));
    }

    pub(crate) fn warning(&mut self, pos: Position, message: impl Into<hook_protocol::Problem>) {
        self.out.push(Diagnostic::new(self.file, pos, Level::Warning, message));
    }
}
