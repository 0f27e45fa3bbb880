//! The words a mixed run gives what it folds: the neutral event's name, and an input error
//! naming the agent whose dialect refused it.

use hook_protocol::{DialectError, Event};

/// An input error that names the agent whose dialect refused the input.
pub(crate) fn naming(title: &str, e: DialectError) -> DialectError {
    match e {
        DialectError::InvalidInput { event, message, lenient_would_run }
            if !message.starts_with(title) =>
        {
            DialectError::InvalidInput {
                event,
                message: format!("{title}: {message}"),
                lenient_would_run,
            }
        }
        other => other,
    }
}

/// The name a neutral event goes by in a folded run: its custom name, else Claude Code's name
/// for its seam, else the seam's.
pub(crate) fn event_name(event: &Event) -> String {
    match event.custom_name() {
        Some(name) => name.to_owned(),
        None => hooks_claude::EventName::from_seam(event.seam())
            .map_or_else(|| event.seam().as_str().to_owned(), |n| n.as_str().to_owned()),
    }
}
