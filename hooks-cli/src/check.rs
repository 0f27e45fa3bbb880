//! `hooks check`: every problem of every file, as `FILE:LINE:COL: error|warning: message`.

use std::path::Path;

use hook_protocol::{Claim, Diagnostic, Dialect, Position};

use crate::cli::CheckArgs;
use crate::dialects;
use crate::error::CliError;
use crate::output;
use hook_protocol::text_file::{Cap, read_text};

/// The dialect that checks a file: the one named, else the one that claims it most surely
/// (the first in the list on a tie).
fn dialect_of(
    named: Option<&'static dyn Dialect>,
    path: &Path,
    text: &str,
) -> &'static dyn Dialect {
    named.unwrap_or_else(|| {
        let all = crate::known::all();
        let mut best = all[0];
        let mut best_claim = Claim::No;
        for dialect in all {
            let claim = dialect.claims(path, text);
            if claim > best_claim {
                (best, best_claim) = (dialect, claim);
            }
        }
        best
    })
}

/// Runs `hooks check`; exit status 1 when any file has an error.
pub(crate) fn run(args: &CheckArgs) -> Result<u8, CliError> {
    let given = args.project_dir.as_ref().map(|d| dialects::project_dir(Some(d))).transpose()?;
    let named = args.dialect.as_deref().map(crate::known::named).transpose()?;
    let current = dialects::project_dir(None)?;
    let mut problems = Vec::new();
    // A folder is a project: every agent's hook files in it.
    let mut files = Vec::new();
    for path in &args.files {
        if !path.is_dir() {
            files.push(path.clone());
            continue;
        }
        let found = hooks_mixed::project_files(path);
        if found.is_empty() {
            problems.push(Diagnostic::error(
                path,
                Position::default(),
                "no agent's hook files in this folder (.claude/settings.json, .codex/hooks.json, \
                 .github/hooks/*.json, .cursor/hooks.json, .gemini/settings.json)",
            ));
        }
        files.extend(found.into_iter().map(|(_, file)| file));
    }
    for path in &files {
        let text = match read_text(path, Cap::CONFIG) {
            Ok(text) => text,
            Err(e) => {
                let at = e.line().map_or_else(Position::default, |line| Position::new(line, 1));
                problems.push(Diagnostic::error(path, at, e.reason()));
                continue;
            }
        };
        let dialect = dialect_of(named, path, &text);
        let project_dir =
            given.clone().or_else(|| dialect.project_of(path)).unwrap_or_else(|| current.clone());
        let mut found = dialect.check(path, &text, &project_dir);
        found.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
        found.dedup();
        if let Some(hint) = named.and_then(|d| dialects::looks_like(d, path, &text)) {
            problems.push(Diagnostic::warning(path, Position::default(), hint));
        }
        problems.extend(found);
    }
    let errors = problems.iter().filter(|p| p.is_error()).count();
    let warnings = problems.len() - errors;
    for p in &problems {
        output::outln!("{p}");
    }
    let files = files.len();
    output::errln!(
        "checked {files} file{}: {errors} error{}, {warnings} warning{}",
        plural(files),
        plural(errors),
        plural(warnings)
    );
    Ok(u8::from(errors > 0))
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
