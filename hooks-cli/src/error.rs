//! The command's errors: one line each, exit status 1.

use std::fmt;

/// A usage or configuration error, reported as one line.
#[derive(Debug)]
pub(crate) struct CliError(pub(crate) String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl CliError {
    pub(crate) fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }
}

/// `format!` into a [`CliError`].
macro_rules! cli_error {
    ($($arg:tt)*) => {
        $crate::error::CliError::new(format!($($arg)*))
    };
}

pub(crate) use cli_error;
