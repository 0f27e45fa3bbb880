//! `--verbose`: the core's `hook/started`, `hook/invoked` and `hook/result` events, printed on
//! stderr as they happen.

use tracing::Level;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::fmt;
use tracing_subscriber::prelude::*;

/// Installs a subscriber printing the `hooks` target's events on stderr.
pub(crate) fn install() {
    let layer = fmt::layer()
        .with_writer(std::io::stderr)
        .without_time()
        .with_target(false)
        .with_level(false)
        .compact();
    let filter = Targets::new().with_target("hooks", Level::DEBUG).with_default(Level::WARN);
    let _ = tracing_subscriber::registry().with(layer.with_filter(filter)).try_init();
}
