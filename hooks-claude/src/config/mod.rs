//! Stage 1, configuration: settings files, plugin manifests and frontmatter come in; a
//! [`Config`](crate::Config) of entries (event, matcher, handler, source) and the
//! [`Diagnostic`](crate::Diagnostic)s of what did not load go out, with the event table every
//! later stage reads. It names no later stage: nothing here runs, decodes or presents.

pub(crate) mod diagnostic;
pub(crate) mod event_name;
pub(crate) mod load;
pub mod matcher;
pub(crate) mod permission_rule;
pub(crate) mod settings;
