//! Test support: a hook whose outcome is what the outcome rules make of a canned process
//! outcome, for the tests of the decisions and of the presentation.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use hook_protocol::{Event, Hook, HookInfo, HookOutcome, HookStatus, On, RawOutcome, Source};

use crate::wire::decode::{DecodeCtx, decode};
use crate::{EventName, OnFailure};

#[derive(Debug)]
struct Canned {
    info: HookInfo,
    outcome: HookOutcome,
}

#[async_trait]
impl Hook for Canned {
    fn info(&self) -> &HookInfo {
        &self.info
    }

    async fn run(&self, _event: &Event) -> HookOutcome {
        self.outcome.clone()
    }
}

/// Hook `hook-{i}` of `event`, labelled `label`, from `file`, answering what `raw` decodes to
/// under `on_failure`.
pub(crate) fn canned(
    event: EventName,
    i: usize,
    label: &str,
    file: Option<&str>,
    raw: &RawOutcome,
    on_failure: OnFailure,
) -> Arc<dyn Hook> {
    let ctx = DecodeCtx::of(event, on_failure, Duration::from_secs(600));
    let d = decode(&ctx, raw);
    let mut info = HookInfo::new(format!("hook-{i}"), Source::new("claude", file.map(Into::into)));
    info.label = label.to_owned();
    info.on = match event.seam() {
        Some(seam) => On::seam(seam),
        None => On::Custom(event.as_str().to_owned()),
    };
    let status = if d.meta.blocked_on_failure { HookStatus::Blocked } else { d.meta.status };
    let mut outcome = HookOutcome::with_status(status, d.verdict);
    outcome.metadata = Some(d.meta.to_metadata());
    Arc::new(Canned { info, outcome })
}
