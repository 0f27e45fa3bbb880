//! A dialect's event table: the names its agent's configuration spells, and the seams they map
//! to.

use std::fmt;

use hook_protocol::{DialectError, On, Seam};

/// The events of one agent, as its configuration names them.
pub trait EventTable: Copy + Eq + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// What an event of this agent is called in errors (`Codex event`).
    const WHAT: &'static str;

    /// Every event, in the agent's order.
    fn all() -> &'static [Self];

    /// The event's name as the configuration spells it (case-sensitive).
    fn as_str(self) -> &'static str;

    /// The neutral seam the event maps to, or `None` for an event raised as a custom event.
    fn seam(self) -> Option<Seam>;

    /// The input field a matcher is tested against, when the event has a subject.
    fn subject_field(self) -> Option<&'static str> {
        None
    }

    /// The event a name nearly spells (another case), for the hint of an unknown name.
    fn near(name: &str) -> Option<Self> {
        Self::all().iter().copied().find(|e| e.as_str().eq_ignore_ascii_case(name))
    }

    /// The hint an unknown name gets: ` (event names are case-sensitive: did you mean `X`?)`
    /// when it nearly spells one, else nothing.
    fn hint(name: &str) -> String {
        Self::near(name)
            .map(|e| format!(" (event names are case-sensitive: did you mean `{e}`?)"))
            .unwrap_or_default()
    }

    /// The event of a name, or the door's error naming the agent and, when one is near, the
    /// event it nearly spells.
    ///
    /// # Errors
    ///
    /// [`DialectError::UnknownEvent`] for a name the agent does not have.
    fn known(name: &str) -> Result<Self, DialectError> {
        Self::all().iter().copied().find(|e| e.as_str() == name).ok_or_else(|| {
            DialectError::UnknownEvent {
                what: Self::WHAT.to_owned(),
                event: name.to_owned(),
                hint: Self::hint(name),
            }
        })
    }

    /// Where a hook of the event is registered: its seam, else a custom event of its name.
    fn on(self) -> On {
        match self.seam() {
            Some(seam) => On::seam(seam),
            None => On::Custom(self.as_str().to_owned()),
        }
    }
}
