//! The Claude Code backend.

use std::path::Path;

use crate::check::Problem;

/// Checks a Claude Code settings or hooks.json file.
pub(crate) fn check(path: &Path, _text: &str, _project_dir: &Path) -> Vec<Problem> {
    vec![Problem {
        file: path.display().to_string(),
        line: None,
        column: None,
        error: true,
        message: "Claude Code configurations cannot be checked by this build".to_owned(),
    }]
}
