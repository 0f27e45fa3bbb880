//! Loading a dialect from the command line's sources. Every subcommand reaches a dialect
//! through the core's [`Dialect`] door only; the dialects the command knows are in
//! [`known`](crate::known).

use std::path::{Path, PathBuf};

use hook_protocol::text_file::{Cap, read_text};
use hook_protocol::{Claim, Diagnostic, Dialect, DialectError, FileKind, LoadRequest, Loaded};

use crate::cli::Sources;
use crate::error::{CliError, cli_error};
use crate::known::{all, named};
use crate::output;

/// The project directory: as given (it must exist), else the current directory; absolute.
pub(crate) fn project_dir(given: Option<&PathBuf>) -> Result<PathBuf, CliError> {
    match given {
        Some(dir) => {
            if !dir.is_dir() {
                return Err(cli_error!("project directory `{}` does not exist", dir.display()));
            }
            std::path::absolute(dir)
                .map_err(|e| cli_error!("project directory `{}`: {e}", dir.display()))
        }
        None => std::env::current_dir()
            .map_err(|e| cli_error!("cannot read the current directory: {e}")),
    }
}

/// The command-line option that names files of a kind.
fn flag(kind: FileKind) -> &'static str {
    match kind {
        FileKind::Plugin => "--plugin",
        FileKind::Skill => "--skill",
        FileKind::Agent => "--agent",
        _ => "--settings",
    }
}

/// The request the command line makes of a dialect.
fn request(dialect: &dyn Dialect, sources: &Sources) -> Result<LoadRequest, CliError> {
    let mut request = LoadRequest::new(project_dir(sources.project_dir.as_ref())?);
    request.home = std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    let named = [
        (FileKind::Config, &sources.settings),
        (FileKind::Config, &sources.config),
        (FileKind::Plugin, &sources.plugins),
        (FileKind::Skill, &sources.skills),
        (FileKind::Agent, &sources.agents),
    ];
    for (kind, paths) in named {
        if !paths.is_empty() && !dialect.reads(kind) {
            return Err(cli_error!(
                "{} is not for --dialect {}: {} reads no {} files",
                flag(kind),
                dialect.name(),
                dialect.title(),
                kind.as_str()
            ));
        }
        request.files.extend(paths.iter().map(|p| (kind, p.clone())));
    }
    if let (Some(what), false) = (dialect.needs_file(), request.names_files()) {
        return Err(cli_error!("--dialect {} needs --config FILE ({what})", dialect.name()));
    }
    request.agent_home.clone_from(&sources.claude_home);
    request.scrub = sources.scrub();
    request.always_shell = sources.always_shell();
    request.lenient = sources.lenient;
    request.untrusted = sources.untrusted;
    request.surface = sources.surface.surface();
    if !dialect.surfaces().contains(&request.surface) {
        return Err(cli_error!(
            "--surface {} is not for --dialect {}: {} runs its hooks on the developer's machine \
             only",
            request.surface.as_str(),
            dialect.name(),
            dialect.title()
        ));
    }
    Ok(request)
}

/// Loads the hooks the sources name, with the dialect they name. Load notes go to stderr with
/// `verbose`, warnings always; an error stops the command, after every warning was shown.
pub(crate) fn load(sources: &Sources, verbose: bool) -> Result<Box<dyn Loaded>, CliError> {
    let dialect = named(&sources.dialect)?;
    let request = request(dialect, sources)?;
    // Files read now (a file that cannot be read is the dialect's to report).
    let texts: Vec<(PathBuf, String)> = request
        .files_of(FileKind::Config)
        .filter_map(|path| Some((path.to_path_buf(), read_text(path, Cap::CONFIG).ok()?)))
        .collect();
    for (path, text) in &texts {
        if let Some(hint) = looks_like(dialect, path, text) {
            output::errln!("hooks: warning: {hint}");
        }
    }
    let loaded = dialect.load(&request).map_err(|e| match e {
        DialectError::NotFound { .. } => cli_error!("{e}{}", others(dialect, &request)),
        e => cli_error!("{e}"),
    })?;
    if verbose {
        for note in loaded.notes() {
            output::errln!("hooks: {note}");
        }
    }
    report(loaded.diagnostics(), dialect.name() == "all")?;
    Ok(loaded)
}

/// When a dialect finds none of its files, the other agents' files the project holds:
/// `; the project has hooks of Codex and Cursor: --dialect all runs them all`.
fn others(dialect: &dyn Dialect, request: &LoadRequest) -> String {
    let mut names: Vec<&str> = Vec::new();
    for (name, _) in hooks_mixed::project_files(&request.project_dir) {
        if name != dialect.name() && !names.contains(&name) {
            names.push(name);
        }
    }
    let titles: Vec<&str> = names
        .iter()
        .filter_map(|n| all().into_iter().find(|d| d.name() == *n))
        .map(|d| d.title())
        .collect();
    match titles.as_slice() {
        [] => String::new(),
        [one] => format!(
            "; the project has hooks of {one}: --dialect {} runs them, --dialect all runs every              agent's",
            names[0]
        ),
        many => {
            format!("; the project has hooks of {}: --dialect all runs them all", many.join(", "))
        }
    }
}

/// When a file given to `chosen` has the place or the shape of another dialect's files (a
/// Copilot file given to `--dialect codex`), what it looks like.
pub(crate) fn looks_like(chosen: &dyn Dialect, path: &Path, text: &str) -> Option<String> {
    if chosen.name() == hooks_mixed::dialect().name() {
        // Every agent's: each file goes to the dialect that claims it.
        return None;
    }
    let own = chosen.claims(path, text);
    let (other, claim) = all()
        .into_iter()
        .filter(|d| d.name() != chosen.name())
        .map(|d| (d, d.claims(path, text)))
        .max_by_key(|(_, claim)| *claim)?;
    (claim >= Claim::Shape && claim > own).then(|| {
        format!(
            "`{}` looks like a {} hook file (--dialect {}), not a {} one",
            path.display(),
            other.title(),
            other.name(),
            chosen.title()
        )
    })
}

/// A dialect's error as the command says it: with the hint to `--lenient` where it would run
/// the input anyway.
pub(crate) fn say(e: &DialectError) -> CliError {
    match e {
        DialectError::InvalidInput { lenient_would_run: true, .. } => {
            cli_error!("{e} (--lenient runs an input with missing or mistyped fields anyway)")
        }
        _ => cli_error!("{e}"),
    }
}

/// Errors in a configuration stop the command; warnings go to stderr. Each error is printed as
/// `hooks check` prints it, except that what the loader would skip is not said: here nothing
/// runs. With every agent's hooks (`mixed`), an error keeps only what it names from running:
/// it goes to stderr, and the rest runs.
fn report(diagnostics: &[Diagnostic], mixed: bool) -> Result<(), CliError> {
    if mixed {
        for d in diagnostics {
            output::errln!("hooks: {d}");
        }
        return Ok(());
    }
    let errors: Vec<&Diagnostic> = diagnostics.iter().filter(|d| d.is_error()).collect();
    for d in diagnostics.iter().filter(|d| !d.is_error()) {
        output::errln!("hooks: {d}");
    }
    match errors.as_slice() {
        [] => Ok(()),
        [only] => Err(cli_error!("{}; no hook was run", only.without_skip())),
        many => {
            for d in many {
                output::errln!("hooks: {}", d.without_skip());
            }
            Err(cli_error!("{} errors in the configuration; no hook was run", many.len()))
        }
    }
}
