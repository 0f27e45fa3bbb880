//! The dialect behind a command: loaded once, then asked to run or list events.

use std::path::PathBuf;

use serde_json::{Map, Value};

use crate::claude::Claude;
use crate::cli::{Dialect, Sources};
use crate::document::RunDocument;
use crate::error::{CliError, cli_error};
use crate::tnsai::Tnsai;

/// A hook that would run, as `hooks list` prints it.
#[derive(Debug, Clone)]
pub(crate) struct Listed {
    pub(crate) command: String,
    pub(crate) source: String,
}

/// The loaded hooks of one dialect.
#[derive(Debug)]
pub(crate) enum Backend {
    Claude(Box<Claude>),
    Tnsai(Tnsai),
}

impl Backend {
    /// Loads the hooks the sources name; `verbose` notes go to stderr.
    pub(crate) fn load(sources: &Sources, verbose: bool) -> Result<Self, CliError> {
        let project_dir = project_dir(sources.project_dir.as_ref())?;
        match sources.dialect {
            Dialect::Tnsai => {
                if !sources.settings.is_empty()
                    || !sources.plugins.is_empty()
                    || !sources.skills.is_empty()
                    || !sources.agents.is_empty()
                {
                    return Err(cli_error!(
                        "--settings, --plugin, --skill and --agent are for --dialect claude; a TNSAI hook list is given with --config"
                    ));
                }
                Ok(Backend::Tnsai(Tnsai::load(sources, project_dir)?))
            }
            Dialect::Claude => {
                if sources.config.is_some() {
                    return Err(cli_error!(
                        "--config is for --dialect tnsai; Claude Code configurations are given with --settings or --plugin"
                    ));
                }
                Ok(Backend::Claude(Box::new(Claude::load(sources, project_dir, verbose)?)))
            }
        }
    }

    /// Runs one event given as a JSON object.
    pub(crate) async fn run(
        &self,
        event: &str,
        input: Map<String, Value>,
    ) -> Result<RunDocument, CliError> {
        match self {
            Backend::Claude(c) => c.run(event, input).await,
            Backend::Tnsai(t) => t.run(event, input).await,
        }
    }

    /// The hooks that would run for an event (and subject).
    pub(crate) fn list(
        &self,
        event: &str,
        subject: Option<&str>,
        verbose: bool,
    ) -> Result<Vec<Listed>, CliError> {
        match self {
            Backend::Claude(c) => c.list(event, subject, verbose),
            Backend::Tnsai(t) => t.list(event, subject),
        }
    }
}

/// The project directory: as given (it must exist), else the current directory.
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
