//! A hook list as one hook: its pipeline on a dispatcher of any mode.

use std::path::Path;
use std::sync::Arc;

use async_trait::async_trait;
use hook_protocol::{
    Decision, Dispatcher, Event, Hook, HookInfo, HookOutcome, HookStatus, Matcher, On, Source,
    Verdict,
};

use crate::DIALECT;
use crate::envelope::Stamp;

/// A [`crate::HookList`] as one [`Hook`] ([`crate::HookList::as_hook`]): it runs the list's
/// hooks as the list's pipeline, whatever the mode of the dispatcher (or `Engine`) it sits on,
/// and answers with their fold.
///
/// Its priority is the lowest of the list's hooks (0 for an empty list); it is registered for
/// every event and takes part only in those where one of the list's hooks matches. Its verdict
/// is the pipeline's fold (decision, reasons joined, contexts, the rewrite, halt, messages,
/// severity); each inner hook's record is kept in the outcome's metadata (`records`), and its
/// warnings are the outcome's, prefixed with the hook's id.
#[derive(Debug)]
pub struct ListHook {
    info: HookInfo,
    dispatcher: Arc<Dispatcher>,
}

impl ListHook {
    pub(crate) fn new(file: &Path, dispatcher: Arc<Dispatcher>) -> Self {
        let name = file.display().to_string();
        let mut info =
            HookInfo::new(format!("tnsai-list:{name}"), Source::new(DIALECT, Some(name)));
        info.priority = dispatcher.hooks().iter().map(|h| h.info().priority).min().unwrap_or(0);
        info.on = On::Every;
        info.matcher = Matcher::any();
        Self { info, dispatcher }
    }
}

#[async_trait]
impl Hook for ListHook {
    fn info(&self) -> &HookInfo {
        &self.info
    }

    /// Only where one of the list's hooks would run.
    fn active(&self, event: &Event) -> bool {
        !self.dispatcher.matching(event).is_empty()
    }

    async fn run(&self, event: &Event) -> HookOutcome {
        let report = if event.extensions.get::<Stamp>().is_some() {
            self.dispatcher.dispatch(event).await
        } else {
            let mut stamped = event.clone();
            Stamp::attach(&mut stamped);
            self.dispatcher.dispatch(&stamped).await
        };
        let merged = &report.merged;
        let mut verdict = Verdict::no_opinion();
        verdict.decision = merged.decision;
        verdict.reason = merged.reason();
        verdict.context = merged.context.iter().map(|c| c.value.clone()).collect();
        verdict.updated_input = merged.updated_input.as_ref().map(|u| u.value.clone());
        verdict.halt = merged.halt.as_ref().map(|h| h.value.clone());
        verdict.messages = merged.messages.iter().map(|m| m.value.clone()).collect();
        verdict.severity = merged.severity.as_ref().map(|s| s.value);
        let status = if merged.decision == Some(Decision::Deny) {
            HookStatus::Blocked
        } else {
            HookStatus::Success
        };
        let mut outcome = HookOutcome::with_status(status, verdict);
        outcome.warnings = report
            .records
            .iter()
            .flat_map(|r| r.warnings.iter().map(move |w| format!("{}: {w}", r.id)))
            .collect();
        // Each of the list's hooks is a record of its own.
        outcome.inner = report.records;
        outcome
    }
}
