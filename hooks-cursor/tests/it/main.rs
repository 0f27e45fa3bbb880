//! Cursor hooks end to end with real `sh` scripts: loading, the projection of one action onto
//! Cursor's events, the outputs, `failClosed` and `loop_limit`.

#![allow(clippy::unwrap_used, reason = "test helpers fail the test by unwrapping")]

mod load;
mod run;
mod snapshots;
mod support;
