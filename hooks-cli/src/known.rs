//! The dialects the command knows: adding a dialect to the command is one line in [`all`].

use hook_protocol::Dialect;

use crate::error::{CliError, cli_error};

/// Every dialect, the default first; `all` (every agent's hooks on one seam) last.
pub(crate) fn all() -> [&'static dyn Dialect; 7] {
    [
        hooks_claude::dialect(),
        hooks_tnsai::dialect(),
        hooks_codex::dialect(),
        hooks_copilot::dialect(),
        hooks_cursor::dialect(),
        hooks_gemini::dialect(),
        hooks_mixed::dialect(),
    ]
}

/// The names `--dialect` takes, for its help and its parser.
pub(crate) fn names() -> Vec<&'static str> {
    all().iter().map(|d| d.name()).collect()
}

/// The dialect named `name` (a name `--dialect` accepted).
pub(crate) fn named(name: &str) -> Result<&'static dyn Dialect, CliError> {
    all().into_iter().find(|d| d.name() == name).ok_or_else(|| {
        cli_error!("unknown dialect `{name}` (the dialects are {})", names().join(", "))
    })
}
