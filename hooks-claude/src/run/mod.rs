//! Stage 3, the runs: one configured handler and an event's stdin payload come in; a decoded
//! outcome goes out (a background hook's later, as an `AsyncResult`). The five handler types
//! (`command`, `http`, `prompt`, `agent`, `mcp_tool`) and their environment live here. It reads
//! the configuration and the wire formats; it never registers hooks, renders or keeps session
//! state.

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
