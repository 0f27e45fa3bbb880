//! Errors of a hook list: each names the file, the hook and the key, with a position.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::TrustError;
use hook_protocol::{Diagnostic, MatcherError, Position};

/// Which hook of a list an error is about.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HookRef {
    /// Its index in `hooks`, from 0.
    pub index: usize,
    /// Its id, when it has a usable one.
    pub id: Option<String>,
}

impl fmt::Display for HookRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.id {
            Some(id) => write!(f, "hook `{id}`"),
            None => write!(f, "hook `hooks[{}]`", self.index),
        }
    }
}

/// What is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ListErrorKind {
    /// The file cannot be read.
    Read {
        /// The system's explanation.
        message: String,
    },
    /// The file is not valid YAML (or JSON).
    Syntax {
        /// The parser's explanation.
        message: String,
    },
    /// The document, or a hook, is not a mapping.
    NotAMapping {
        /// What was found instead.
        found: &'static str,
    },
    /// A key the format does not have.
    UnknownKey,
    /// A required key is absent.
    MissingKey,
    /// A value of the wrong type.
    WrongType {
        /// What the key takes.
        expected: &'static str,
        /// What was found.
        found: &'static str,
    },
    /// A value of the right type that is not allowed.
    InvalidValue {
        /// Why.
        message: String,
    },
    /// A second hook with an id already used.
    DuplicateId {
        /// Where the id was first used.
        first: Position,
    },
    /// The matcher does not compile.
    Matcher(MatcherError),
    /// The executable, or a trusted root, is refused.
    Trust(TrustError),
}

/// One problem in a hook list.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ListError {
    /// The file.
    pub file: PathBuf,
    /// Where in it, when known.
    pub position: Option<Position>,
    /// The hook it is about, if any.
    pub hook: Option<HookRef>,
    /// The key it is about (`timeout_ms`, `env.MODE`, `trusted_roots[0]`), if any.
    pub key: Option<String>,
    /// What is wrong.
    pub kind: ListErrorKind,
}

impl ListError {
    pub(crate) fn new(file: &Path, position: Option<Position>, kind: ListErrorKind) -> Self {
        Self { file: file.to_owned(), position, hook: None, key: None, kind }
    }

    /// The message without the file and position (`hook `guard`: unknown key `timeout``).
    pub fn message(&self) -> String {
        let key = self.key.as_deref().unwrap_or("");
        let what = match &self.kind {
            ListErrorKind::Read { message } => format!("cannot read the hook list: {message}"),
            ListErrorKind::Syntax { message } => format!("invalid YAML: {message}"),
            ListErrorKind::NotAMapping { found } if self.hook.is_some() => {
                format!("must be a mapping, found {found}")
            }
            ListErrorKind::NotAMapping { found } => {
                format!("expected a mapping with `trusted_roots` and `hooks`, found {found}")
            }
            ListErrorKind::UnknownKey => format!("unknown key `{key}`"),
            ListErrorKind::MissingKey => format!("missing required key `{key}`"),
            ListErrorKind::WrongType { expected, found } => {
                format!("`{key}` must be {expected}, found {found}")
            }
            ListErrorKind::InvalidValue { message } => format!("`{key}` {message}"),
            ListErrorKind::DuplicateId { first } => {
                format!("duplicate id (first used at line {}, column {})", first.line, first.column)
            }
            ListErrorKind::Matcher(e) => format!("`{key}`: {e}"),
            ListErrorKind::Trust(e) => e.to_string(),
        };
        match &self.hook {
            Some(hook) => format!("{hook}: {what}"),
            None => what,
        }
    }
}

impl fmt::Display for ListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some(p) => {
                write!(f, "{}:{}:{}: {}", self.file.display(), p.line, p.column, self.message())
            }
            None => write!(f, "{}: {}", self.file.display(), self.message()),
        }
    }
}

impl std::error::Error for ListError {}

impl From<&ListError> for Diagnostic {
    /// The error as the diagnostic every dialect reports: an error at its position.
    fn from(e: &ListError) -> Self {
        Diagnostic::error(e.file.clone(), e.position.unwrap_or_default(), e.message())
    }
}

/// Every problem found in a hook list, in file order (never empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadErrors {
    errors: Vec<ListError>,
}

impl LoadErrors {
    pub(crate) fn new(mut errors: Vec<ListError>) -> Self {
        errors.sort_by_key(|e| e.position);
        Self { errors }
    }

    /// The problems.
    pub fn errors(&self) -> &[ListError] {
        &self.errors
    }

    /// The problems as diagnostics, in file order.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.errors.iter().map(Diagnostic::from).collect()
    }
}

impl fmt::Display for LoadErrors {
    /// One problem per line, `FILE:LINE:COL: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadErrors {}
