//! The credential scrub: which inherited environment variables are credentials, by name.

use std::ffi::OsStr;

/// Which variables are credentials, by name: those the process engine keeps from the
/// environment a hook inherits when asked to (`hook_exec::Env::scrub_credentials`).
///
/// A name is a credential when it ends in one of [`Scrub::SUFFIXES`] (`GITHUB_TOKEN`,
/// `OPENAI_API_KEY`) or is one of them without its underscore (`TOKEN`, `API_KEY`), or when it
/// is one of the extra names: an exact name (`DATABASE_URL`), or `*SUFFIX` for every name
/// ending in `SUFFIX` (`*_CREDENTIALS`). Names compare without regard to ASCII case.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Scrub {
    extra: Vec<String>,
}

impl Scrub {
    /// The name endings that mark a credential.
    pub const SUFFIXES: [&'static str; 4] = ["_API_KEY", "_TOKEN", "_SECRET", "_PASSWORD"];

    /// The four suffixes, no extra name.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an extra name: exact, or `*SUFFIX` for a suffix.
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.extra.push(name.into());
        self
    }

    /// Adds extra names.
    pub fn names<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.extra.extend(names.into_iter().map(Into::into));
        self
    }

    /// The extra names, as given.
    pub fn extra(&self) -> &[String] {
        &self.extra
    }

    /// Whether a variable of this name is a credential.
    pub fn matches(&self, name: &OsStr) -> bool {
        let name = name.as_encoded_bytes();
        let ends_with = |suffix: &[u8]| {
            name.len() >= suffix.len()
                && name[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
        };
        Self::SUFFIXES
            .iter()
            .any(|s| ends_with(s.as_bytes()) || name.eq_ignore_ascii_case(&s.as_bytes()[1..]))
            || self.extra.iter().any(|e| match e.strip_prefix('*') {
                Some(suffix) => !suffix.is_empty() && ends_with(suffix.as_bytes()),
                None => name.eq_ignore_ascii_case(e.as_bytes()),
            })
    }
}
