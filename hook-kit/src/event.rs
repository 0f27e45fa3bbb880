//! A dialect's event table: the names its agent's configuration spells, and the seams they map
//! to.

use std::fmt;

use hook_protocol::{DialectError, On, Seam};

/// The events of one agent, as its configuration names them.
pub trait EventTable: Copy + Eq + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// What an event of this agent is called in errors (`Codex event`).
    const WHAT: &'static str;

    /// How the agent's event names are spelled, for the hint of an unknown one.
    const SPELLING: &'static str = "event names are case-sensitive";

    /// Whether an unknown name that nearly spells none is told [`EventTable::SPELLING`] too
    /// (an agent whose spelling lists its names).
    const SPELLING_ALWAYS: bool = false;

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

    /// The agent's event for a harness's neutral event: the first of its seam, or for a custom
    /// event the one of that name; `None` when the agent has none.
    fn of_event(event: &hook_protocol::Event) -> Option<Self> {
        match event.custom_name() {
            Some(name) => Self::all().iter().copied().find(|e| e.as_str() == name),
            None => Self::all().iter().copied().find(|e| e.seam() == Some(event.seam())),
        }
    }

    /// The event a name nearly spells (another case), for the hint of an unknown name.
    fn near(name: &str) -> Option<Self> {
        Self::all().iter().copied().find(|e| e.as_str().eq_ignore_ascii_case(name))
    }

    /// The hint an unknown name gets: ` ({SPELLING}: did you mean `X`?)` when it nearly spells
    /// one, else ` ({SPELLING})` where [`EventTable::SPELLING_ALWAYS`], else nothing.
    fn hint(name: &str) -> String {
        match Self::near(name) {
            Some(e) => format!(" ({}: did you mean `{e}`?)", Self::SPELLING),
            None if Self::SPELLING_ALWAYS => format!(" ({})", Self::SPELLING),
            None => String::new(),
        }
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

/// Makes a dialect's event enum its [`EventTable`] from its inherent `ALL`, `as_str` and `seam`
/// (and `subject_field` and `near` when named), and gives it the `Display` of its name and an
/// inherent `parse` (the event with this exact name).
///
/// ```ignore
/// hook_kit::event_table!(EventName, "Codex event", [subject_field]);
/// // With how the names are spelled, for the hint of an unknown one:
/// hook_kit::event_table!(EventName, "Copilot event", [near], "event names are camelCase");
/// ```
#[macro_export]
macro_rules! event_table {
    ($name:ty, $what:literal, [$($method:ident),*] $(, $spelling:literal)? $(, always = $always:literal)?) => {
        impl $crate::EventTable for $name {
            const WHAT: &'static str = $what;
            $(const SPELLING: &'static str = $spelling;)?
            $(const SPELLING_ALWAYS: bool = $always;)?

            fn all() -> &'static [Self] {
                &<$name>::ALL
            }

            fn as_str(self) -> &'static str {
                <$name>::as_str(self)
            }

            fn seam(self) -> Option<::hook_protocol::Seam> {
                <$name>::seam(self)
            }

            $($crate::event_table!(@ $method);)*
        }

        impl $name {
            /// The event with this exact name.
            pub fn parse(name: &str) -> Option<Self> {
                <Self>::ALL.into_iter().find(|e| e.as_str() == name)
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
    (@ subject_field) => {
        fn subject_field(self) -> Option<&'static str> {
            Self::subject_field(self)
        }
    };
    (@ near) => {
        fn near(name: &str) -> Option<Self> {
            Self::near(name)
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An agent of two events, one with a subject.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Name {
        BeforeTool,
        Stop,
    }

    impl Name {
        const ALL: [Name; 2] = [Name::BeforeTool, Name::Stop];

        fn as_str(self) -> &'static str {
            match self {
                Name::BeforeTool => "beforeTool",
                Name::Stop => "stop",
            }
        }

        fn seam(self) -> Option<Seam> {
            match self {
                Name::BeforeTool => Some(Seam::PreTool),
                Name::Stop => None,
            }
        }

        fn subject_field(self) -> Option<&'static str> {
            (self == Name::BeforeTool).then_some("toolName")
        }
    }

    #[allow(unreachable_pub, reason = "the macro's `parse` is `pub`, as a dialect's enum is")]
    mod table {
        crate::event_table!(
            super::Name,
            "Example event",
            [subject_field],
            "event names are camelCase"
        );
    }

    #[test]
    fn the_table_parses_every_name_it_spells_and_only_those() {
        for e in Name::ALL {
            assert_eq!(Name::parse(e.as_str()), Some(e));
            assert_eq!(Name::known(&e.to_string()).ok(), Some(e));
        }
        assert_eq!(Name::parse("BeforeTool"), None, "names are case-sensitive");
        let error = Name::known("BeforeTool").err().map(|e| e.to_string()).unwrap_or_default();
        assert!(error.contains("event names are camelCase: did you mean `beforeTool`?"), "{error}");
        assert_eq!(EventTable::subject_field(Name::BeforeTool), Some("toolName"));
        assert_eq!(Name::Stop.on(), On::Custom("stop".to_owned()));
    }
}
