//! Configuration, the bottom stage: settings files, plugin manifests and skill or sub-agent
//! frontmatter come in; a [`Config`](crate::Config) of entries (event, matcher, handler,
//! source) and the [`Diagnostic`](crate::Diagnostic)s of what did not load go out, with the
//! event table every other stage reads. It names no other stage: nothing here runs, decodes or
//! renders.

pub(crate) mod event_name;
pub(crate) mod load;
pub mod matcher;
pub(crate) mod permission_rule;
pub(crate) mod settings;
pub(crate) mod url;
