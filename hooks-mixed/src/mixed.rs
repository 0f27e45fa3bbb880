//! Every dialect's hooks for a project, loaded ([`Mixed`]): one neutral event run through all
//! of them at once, each hook given its own agent's payload, folded into one run.

use futures_util::future::join_all;
use hook_protocol::{Diagnostic, DialectError, Event, Listed, LoadRequest, Loaded};

use crate::fold::{PartRun, fold};
use crate::session::MixedSession;
use crate::words::{event_name, naming};

/// One dialect's loaded hooks.
#[derive(Debug)]
pub(crate) struct Part {
    pub(crate) dialect: &'static str,
    pub(crate) title: &'static str,
    pub(crate) loaded: Box<dyn Loaded>,
}

impl Part {
    pub(crate) fn new(dialect: &'static str, title: &'static str, loaded: Box<dyn Loaded>) -> Self {
        Self { dialect, title, loaded }
    }
}

/// Every agent's hooks for a project ([`Project::load`](crate::Project::load)).
#[derive(Debug)]
pub struct Mixed {
    parts: Vec<Part>,
    diagnostics: Vec<Diagnostic>,
    notes: Vec<String>,
    request: LoadRequest,
}

/// One neutral event through every dialect: the folded run, and each dialect's own.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct MixedRun {
    /// The run the dialects' runs make together ([the fold](crate#the-fold)).
    pub run: hook_protocol::EventRun,
    /// Each dialect's runs, in [`ORDER`](crate::ORDER), for a harness that lays them out
    /// itself.
    pub parts: Vec<PartRun>,
}

impl Mixed {
    pub(crate) fn new(
        parts: Vec<Part>,
        diagnostics: Vec<Diagnostic>,
        notes: Vec<String>,
        request: LoadRequest,
    ) -> Self {
        Self { parts, diagnostics, notes, request }
    }

    /// Every problem of every file, errors and warnings, each naming its dialect first
    /// (`Codex: ...`). What an error kept from loading does not run; the rest does.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// What was read and left out, dialect by dialect.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The dialects loaded, in [`ORDER`](crate::ORDER).
    pub fn dialects(&self) -> Vec<&'static str> {
        self.parts.iter().map(|p| p.dialect).collect()
    }

    /// The request the project was loaded with.
    pub fn request(&self) -> &LoadRequest {
        &self.request
    }

    /// The hooks that would run for `event`, dialect by dialect: each hook with its dialect's
    /// name.
    ///
    /// # Errors
    ///
    /// A dialect's [`DialectError`].
    pub fn list(&self, event: &Event) -> Result<Vec<(&'static str, Listed)>, DialectError> {
        let mut out = Vec::new();
        for part in &self.parts {
            out.extend(part.loaded.list_event(event)?.into_iter().map(|l| (part.dialect, l)));
        }
        Ok(out)
    }

    /// Checks that every dialect can take `event` (the fields each agent needs), running
    /// nothing.
    ///
    /// # Errors
    ///
    /// [`DialectError::InvalidInput`] naming the agent and the field.
    pub fn check(&self, event: &Event) -> Result<(), DialectError> {
        for part in &self.parts {
            part.loaded
                .check_event(event, self.request.lenient)
                .map_err(|e| naming(part.title, e))?;
        }
        Ok(())
    }

    /// Runs `event` through every dialect at once, each writing it as its agent does, and
    /// folds their runs. Nothing runs unless every dialect can take the event.
    ///
    /// # Errors
    ///
    /// [`DialectError::InvalidInput`] naming the agent and the field it needs (unless the
    /// request is lenient).
    pub async fn run(&self, event: &Event) -> Result<MixedRun, DialectError> {
        self.check(event)?;
        let lenient = self.request.lenient;
        let runs = join_all(self.parts.iter().map(|p| p.loaded.run_event(event, lenient))).await;
        let mut parts = Vec::with_capacity(runs.len());
        for (part, runs) in self.parts.iter().zip(runs) {
            parts.push(PartRun { dialect: part.dialect, title: part.title, runs: runs? });
        }
        let run = fold(&event_name(event), event.subject(), &parts);
        Ok(MixedRun { run, parts })
    }

    /// Gives every dialect's background hooks up to `wait` to end (see
    /// [`Loaded::settle`]).
    pub async fn settle(&self, wait: std::time::Duration) -> hook_protocol::Settled {
        let settled = join_all(self.parts.iter().map(|p| p.loaded.settle(wait))).await;
        let mut late = Vec::new();
        let mut ended = Vec::new();
        for s in settled {
            late.extend(s.late);
            ended.extend(s.ended);
        }
        hook_protocol::Settled::new(late, ended)
    }

    /// Ends every dialect's running hooks (their process trees), giving them up to `grace`
    /// after SIGTERM; returns how many were running. It blocks for at most `grace` per
    /// dialect: call it from a blocking task or a thread.
    pub fn kill_running(&self, grace: std::time::Duration) -> usize {
        self.parts.iter().map(|p| p.loaded.kill_running(grace)).sum()
    }

    /// The hooks as one session: each dialect keeps what its agent keeps between events.
    pub fn into_session(self) -> MixedSession {
        let lenient = self.request.lenient;
        MixedSession::new(
            self.parts.into_iter().map(|p| (p.dialect, p.title, p.loaded.into_session())).collect(),
            lenient,
        )
    }
}
