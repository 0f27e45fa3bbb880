//! A hook's timeout, decided once, when the hook is built
//! ([Timeouts](crate::compatibility#timeouts),
//! [SessionEnd budget](crate::compatibility#sessionend-budget)).

use std::time::Duration;

use crate::{Config, EventName, Handler, HandlerType};

/// The shared time budget of the `SessionEnd` hooks of one firing.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SessionEndBudget {
    /// The whole firing's budget.
    pub(crate) budget: Duration,
    /// The timeout of a hook that sets none.
    default: Duration,
}

impl SessionEndBudget {
    /// 1.5 s, raised to the highest `timeout` of a settings file's `SessionEnd` hook (plugin
    /// timeouts do not raise it), at most 60 s; an override sets both the budget and the
    /// default.
    pub(crate) fn of(config: &Config, over: Option<Duration>) -> Self {
        let base = EventName::SessionEnd.default_timeout(HandlerType::Command);
        if let Some(over) = over {
            return Self { budget: over, default: over };
        }
        let max = EventName::SessionEnd.max_timeout().unwrap_or(base);
        let highest = config
            .active()
            .filter(|e| e.event == EventName::SessionEnd && e.source.plugin().is_none())
            .filter_map(|e| e.handler.timeout)
            .max()
            .unwrap_or(base);
        Self { budget: highest.clamp(base, max), default: base }
    }
}

/// The timeout a `handler` of `event` runs with:
///
/// - a background (`async`) hook, which Claude Code lets run as long as it takes, gets the
///   `backstop` only (an `asyncRewake` hook keeps its own timeout);
/// - a `SessionEnd` hook gets its own timeout (else the budget's default), within the firing's
///   budget;
/// - any other hook gets its own timeout, else the event's default for its type, at most the
///   event's maximum.
pub(crate) fn timeout(
    handler: &Handler,
    event: EventName,
    backstop: Duration,
    session_end: SessionEndBudget,
) -> Duration {
    if handler.runs_async() && !handler.async_rewake {
        return backstop;
    }
    if event == EventName::SessionEnd && !handler.runs_async() {
        return handler.timeout.unwrap_or(session_end.default).min(session_end.budget);
    }
    let own = handler.timeout.unwrap_or_else(|| event.default_timeout(handler.kind));
    match event.max_timeout() {
        Some(max) => own.min(max),
        None => own,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Loader, Scope};

    /// The configuration of a settings text.
    fn config(hooks: &str) -> Config {
        let mut loader = Loader::new();
        loader.settings_text(
            std::path::PathBuf::from("settings.json"),
            &format!(r#"{{"hooks": {hooks}}}"#),
            Scope::Explicit,
        );
        loader.finish().unwrap()
    }

    fn command(extra: &str) -> String {
        format!(r#"{{"type": "command", "command": "true"{extra}}}"#)
    }

    #[test]
    fn one_function_gives_every_timeout() {
        let backstop = Duration::from_secs(86_400);
        let config = config(&format!(
            r#"{{"PreToolUse": [{{"hooks": [{}, {}, {}, {}]}}],
                "SessionEnd": [{{"hooks": [{}, {}]}}]}}"#,
            command(""),
            command(r#", "timeout": 5"#),
            command(r#", "async": true, "timeout": 5"#),
            command(r#", "asyncRewake": true, "timeout": 7"#),
            command(""),
            command(r#", "timeout": 3"#),
        ));
        let budget = SessionEndBudget::of(&config, None);
        let got: Vec<Duration> =
            config.entries.iter().map(|e| timeout(&e.handler, e.event, backstop, budget)).collect();
        assert_eq!(
            got,
            [
                Duration::from_secs(600),
                Duration::from_secs(5),
                backstop,
                Duration::from_secs(7),
                // The default of a SessionEnd hook, within the budget the 3 s hook raised.
                Duration::from_millis(1500),
                Duration::from_secs(3),
            ]
        );
        assert_eq!(budget.budget, Duration::from_secs(3));
        let over = SessionEndBudget::of(&config, Some(Duration::from_millis(200)));
        let last = config.entries.last().unwrap();
        assert_eq!(timeout(&last.handler, last.event, backstop, over), Duration::from_millis(200));
    }

    #[test]
    fn a_session_end_timeout_past_the_maximum_is_cut_to_it() {
        let config = config(&format!(
            r#"{{"SessionEnd": [{{"hooks": [{}]}}]}}"#,
            command(r#", "timeout": 600"#)
        ));
        let budget = SessionEndBudget::of(&config, None);
        let entry = &config.entries[0];
        let got = timeout(&entry.handler, entry.event, Duration::MAX, budget);
        assert_eq!(got, Duration::from_secs(60));
    }
}
