//! The runs, above the wire formats: one configured handler and an event's stdin payload come
//! in; its decoded outcome goes out (a background hook's later, as an `AsyncResult`). The five
//! handler types (`command`, `http`, `prompt`, `agent`, `mcp_tool`) and their environment live
//! here. It reads the configuration and the formats; it never decides whether a hook is
//! registered, renders a text or keeps a session's state.

pub(crate) mod background;
pub(crate) mod command;
pub mod delegate;
pub(crate) mod direct;
pub(crate) mod env;
pub(crate) mod env_file;
pub(crate) mod http;
pub(crate) mod mcp;
pub(crate) mod plain;
pub(crate) mod prompt;
pub(crate) mod remote;
pub(crate) mod runner;
