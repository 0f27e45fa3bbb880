//! Which step may come when: a session starts, runs, ends; a step out of order is a typed
//! error.

use serde::Serialize;

/// Where a session is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Phase {
    /// No `SessionStart` yet.
    #[default]
    NotStarted,
    /// Between `SessionStart` and `SessionEnd`.
    Running,
    /// After `SessionEnd`; a new `SessionStart` (a `clear`, a `resume`) starts it again.
    Ended,
}

/// A session step called when the session cannot take it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SessionError {
    /// An event before the session started.
    #[error("`{event}` before the session started: the first step is `SessionStart`")]
    NotStarted {
        /// The event.
        event: String,
    },
    /// An event after the session ended.
    #[error("`{event}` after the session ended: only a new `SessionStart` can follow `SessionEnd`")]
    Ended {
        /// The event.
        event: String,
    },
    /// A permission answer for a call the session never saw reach its permission step.
    #[error(
        "no tool call `{tool_use_id}` waits for a permission answer: the session saw no \
         PreToolUse step for it that let it go on"
    )]
    UnknownCall {
        /// The call's `tool_use_id`.
        tool_use_id: String,
    },
    /// An interrupt for a call that is not running: no `PreToolUse` step of the session let
    /// it go on, or it was refused, or its result came.
    #[error(
        "tool call `{tool_use_id}` is not running: the session saw no PreToolUse step that let \
         it go on, or it was refused, or its result came"
    )]
    NotRunning {
        /// The call's `tool_use_id`.
        tool_use_id: String,
    },
    /// A second permission answer for one call.
    #[error("tool call `{tool_use_id}` was answered already")]
    AlreadyAnswered {
        /// The call's `tool_use_id`.
        tool_use_id: String,
    },
    /// A typed step with no `transcript_path` while the session has none: hooks would get an
    /// empty path.
    #[error(
        "`{event}` has no `transcript_path` and the session has none yet: give the transcript's \
         path in `SessionStart`'s input (or the first step's, after `Session::resume`)"
    )]
    NoTranscriptPath {
        /// The event.
        event: String,
    },
    /// A `SessionStart` while the session runs, with a source other than `compact`.
    #[error(
        "`SessionStart` with source `{session_source}` while the session runs: end it first \
         (`SessionEnd`); only `compact` starts a running session again"
    )]
    AlreadyStarted {
        /// The `source` it gave.
        session_source: String,
    },
}

impl Phase {
    /// Whether a session whose first event is `event` begins mid-session: anything but its
    /// start (`SessionStart`) and what may come before it (`Setup`).
    pub fn begins_mid_session(event: &str) -> bool {
        !matches!(event, "SessionStart" | "Setup")
    }

    /// The phase after `event` (with its `source`, for `SessionStart`), or why it cannot come
    /// now. `Setup` (Claude Code's `--init`) may come before the session starts.
    ///
    /// # Errors
    ///
    /// [`SessionError`] for an event out of order.
    pub fn after(self, event: &str, source: Option<&str>) -> Result<Phase, SessionError> {
        match (self, event) {
            (Phase::Running, "SessionStart") if source == Some("compact") => Ok(Phase::Running),
            (Phase::Running, "SessionStart") => Err(SessionError::AlreadyStarted {
                session_source: source.unwrap_or_default().to_owned(),
            }),
            (_, "SessionStart") => Ok(Phase::Running),
            (Phase::NotStarted, "Setup") => Ok(Phase::NotStarted),
            (Phase::NotStarted, _) => Err(SessionError::NotStarted { event: event.to_owned() }),
            (Phase::Ended, _) => Err(SessionError::Ended { event: event.to_owned() }),
            (Phase::Running, "SessionEnd") => Ok(Phase::Ended),
            (Phase::Running, _) => Ok(Phase::Running),
        }
    }
}

/// Checks the order of a whole session's events (name and `SessionStart` source) before any
/// runs, as `hooks replay` does: the index of the first event out of order, and why.
///
/// # Errors
///
/// The index and [`SessionError`] of the first event out of order.
pub fn check_order<'a>(
    events: impl IntoIterator<Item = (&'a str, Option<&'a str>)>,
) -> Result<(), (usize, SessionError)> {
    check_order_from(Phase::NotStarted, events)
}

/// [`check_order`] from `phase`: [`Phase::Running`] for a recording that begins mid-session
/// (see [`Session::resume`](crate::Session::resume)).
///
/// # Errors
///
/// The index and [`SessionError`] of the first event out of order.
pub fn check_order_from<'a>(
    phase: Phase,
    events: impl IntoIterator<Item = (&'a str, Option<&'a str>)>,
) -> Result<(), (usize, SessionError)> {
    let mut phase = phase;
    for (i, (event, source)) in events.into_iter().enumerate() {
        phase = phase.after(event, source).map_err(|e| (i, e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_life_of_a_session() {
        let p = Phase::NotStarted;
        assert_eq!(p.after("Setup", None), Ok(Phase::NotStarted));
        assert_eq!(
            p.after("PostToolUse", None),
            Err(SessionError::NotStarted { event: "PostToolUse".into() })
        );
        assert!(matches!(p.after("SessionEnd", None), Err(SessionError::NotStarted { .. })));
        let p = p.after("SessionStart", Some("startup")).unwrap();
        assert_eq!(p.after("SessionStart", Some("compact")), Ok(Phase::Running));
        assert_eq!(
            p.after("SessionStart", Some("clear")),
            Err(SessionError::AlreadyStarted { session_source: "clear".into() })
        );
        let p = p.after("SessionEnd", None).unwrap();
        assert_eq!(p, Phase::Ended);
        let twice = p.after("SessionEnd", None).unwrap_err();
        assert_eq!(
            twice.to_string(),
            "`SessionEnd` after the session ended: only a new `SessionStart` can follow `SessionEnd`"
        );
        assert_eq!(p.after("SessionStart", Some("clear")), Ok(Phase::Running));
    }

    #[test]
    fn a_whole_session_is_checked_before_it_runs() {
        let ok = [("SessionStart", Some("startup")), ("Stop", None), ("SessionEnd", None)];
        assert_eq!(check_order(ok), Ok(()));
        let bad = [("PreToolUse", None), ("SessionStart", Some("startup"))];
        assert_eq!(
            check_order(bad),
            Err((0, SessionError::NotStarted { event: "PreToolUse".into() }))
        );
    }
}
