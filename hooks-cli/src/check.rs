//! `hooks check`: every problem of every file, as `FILE:LINE:COL: error|warning: message`.

use std::path::{Path, PathBuf};

use crate::cli::CheckArgs;
use crate::error::CliError;
use crate::input::read_file;

/// One problem found in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Problem {
    pub(crate) file: String,
    pub(crate) line: Option<u64>,
    pub(crate) column: Option<u64>,
    pub(crate) error: bool,
    pub(crate) message: String,
}

impl Problem {
    fn render(&self) -> String {
        let severity = if self.error { "error" } else { "warning" };
        match (self.line, self.column) {
            (Some(l), Some(c)) => format!("{}:{l}:{c}: {severity}: {}", self.file, self.message),
            (Some(l), None) => format!("{}:{l}: {severity}: {}", self.file, self.message),
            _ => format!("{}: {severity}: {}", self.file, self.message),
        }
    }
}

/// Which dialect a file is written in, from its name and shape.
fn is_tnsai(path: &Path, text: &str) -> bool {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if matches!(ext, "yaml" | "yml") {
        return true;
    }
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(map)) => {
            map.contains_key("trusted_roots")
                || map.get("hooks").is_some_and(serde_json::Value::is_array)
        }
        _ => false,
    }
}

fn check_tnsai(path: &Path) -> Vec<Problem> {
    match hooks_tnsai::HookList::load(path) {
        Ok(_) => Vec::new(),
        Err(errors) => errors
            .errors()
            .iter()
            .map(|e| Problem {
                file: path.display().to_string(),
                line: e.position.map(|p| p.line),
                column: e.position.map(|p| p.column),
                error: true,
                message: e.message(),
            })
            .collect(),
    }
}

/// The project a file belongs to when no `--project-dir` is given: the folder above the
/// nearest `.claude/` folder holding it (`p/.claude/settings.json`, `p/.claude/agents/a.md`),
/// or `None` when the file is not inside one.
fn project_of(path: &Path) -> Option<PathBuf> {
    let absolute = std::path::absolute(path).ok()?;
    absolute
        .ancestors()
        .skip(1)
        .find(|dir| dir.file_name().is_some_and(|n| n == ".claude"))
        .and_then(Path::parent)
        .map(Path::to_path_buf)
}

/// Runs `hooks check`; exit status 1 when any file has an error.
pub(crate) fn run(args: &CheckArgs) -> Result<u8, CliError> {
    let given =
        args.project_dir.as_ref().map(|d| crate::backend::project_dir(Some(d))).transpose()?;
    let current = crate::backend::project_dir(None)?;
    let mut problems = Vec::new();
    for path in &args.files {
        let project_dir =
            given.clone().or_else(|| project_of(path)).unwrap_or_else(|| current.clone());
        let text = match read_file(path) {
            Ok(text) => text,
            Err(e) => {
                problems.push(Problem {
                    file: path.display().to_string(),
                    line: None,
                    column: None,
                    error: true,
                    message: e.0,
                });
                continue;
            }
        };
        let mut found = if is_tnsai(path, &text) {
            check_tnsai(path)
        } else {
            crate::claude::check(path, &text, &project_dir)
        };
        found.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
        found.dedup();
        problems.extend(found);
    }
    let errors = problems.iter().filter(|p| p.error).count();
    let warnings = problems.len() - errors;
    for p in &problems {
        println!("{}", p.render());
    }
    let files = args.files.len();
    eprintln!(
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
