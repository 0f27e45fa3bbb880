//! The outcome of a TNSAI run in TNSAI's own terms, for a command line or a Java-style caller.

use hook_protocol::{Decision, Report};
use serde::Serialize;
use serde_json::Value;

use crate::{ResponseSeverity, RunRecord};

/// `allow` or `block`: the only two answers a TNSAI chain gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChainDecision {
    /// The event proceeds (every hook allowed, skipped or modified, or failed open).
    Allow,
    /// A hook blocked it (or failed closed).
    Block,
}

/// What a TNSAI run decided, as the `hooks` command prints it with `--format json`.
///
/// ```json
/// {"decision": "block", "reason": "rm -rf is not allowed", "severity": "HIGH"}
/// {"decision": "allow", "updated_input": {"command": "ls"}}
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Summary {
    /// `allow` or `block`.
    pub decision: ChainDecision,
    /// Why it was blocked (the blocking hooks' reasons, in configuration order).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// How serious the block is: the highest severity among the blocking hooks (a block that
    /// names none, and a hook that failed closed, count as `HIGH`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub severity: Option<ResponseSeverity>,
    /// What an applied `modify` rewrote: the tool input for a pending tool call, the payload for
    /// other events; never with a block.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Value>,
}

impl Summary {
    /// Reads a dispatch report of TNSAI hooks.
    pub fn from_report(report: &Report) -> Self {
        if report.merged.decision == Some(Decision::Deny) {
            let ignored = report.merged.chain_ended_by.as_ref().map(|a| a.position);
            let severity = report
                .records
                .iter()
                .filter(|r| ignored.is_none_or(|end| r.position <= end))
                .filter(|r| r.verdict.decision == Some(Decision::Deny))
                .map(|r| RunRecord::of(r).and_then(|m| m.severity).unwrap_or_default())
                .max()
                .unwrap_or_default();
            return Self {
                decision: ChainDecision::Block,
                reason: report.merged.reason(),
                severity: Some(severity),
                updated_input: None,
            };
        }
        Self {
            decision: ChainDecision::Allow,
            reason: None,
            severity: None,
            updated_input: report.merged.updated_input.as_ref().map(|u| u.value.clone()),
        }
    }

    /// The exit status a command reports: 0 for allow, 2 for block.
    pub fn exit_code(&self) -> i32 {
        match self.decision {
            ChainDecision::Allow => 0,
            ChainDecision::Block => crate::BLOCK_EXIT_CODE,
        }
    }
}
