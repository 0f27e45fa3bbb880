//! What the workspace's tests share, written once: a temporary folder that is removed when the
//! test ends ([`Scratch`]), an executable `sh` script ([`script`]), whether a process is alive
//! ([`alive`]), a JSON object from a `json!` value ([`object`]), a counting global allocator
//! ([`Counting`]), and, with the `door` feature, every event of a dialect through its door
//! (`every_event`). A dev-dependency only; nothing
//! here is published. Without its default feature `scratch`, it has no dependency (what
//! `hooks-native`, which builds no process machinery, takes).

mod alloc;
#[cfg(feature = "door")]
mod door;
#[cfg(feature = "scratch")]
mod scratch;

pub use alloc::{Counting, Counts};
#[cfg(feature = "door")]
pub use door::{Events, every_event, run_snapshot};
#[cfg(feature = "scratch")]
pub use scratch::Scratch;

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

/// Writes `body` as an executable `sh` script at `path` (`#!/bin/sh`, then the body) and
/// returns the path.
///
/// # Panics
///
/// When the file cannot be written.
#[expect(clippy::expect_used, reason = "test support: a test stops where it cannot go on")]
pub fn script(path: impl Into<PathBuf>, body: &str) -> PathBuf {
    let path = path.into();
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("the script can be written");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
        .expect("the script can be made executable");
    path
}

/// Whether process `pid` is alive: it exists and is neither a zombie nor dead (a zombie runs
/// nothing and only waits to be reaped).
pub fn alive(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { return false };
    // The state is the first field after the command name, which ends with the last `)`.
    stat.rsplit(')')
        .next()
        .and_then(|rest| rest.trim_start().chars().next())
        .is_some_and(|state| !matches!(state, 'Z' | 'X'))
}

/// The object `value` holds: an event's input or a hook's answer, written with `json!`.
///
/// # Panics
///
/// When `value` is not an object: the test wrote the wrong literal.
#[expect(clippy::panic, reason = "test support: a test stops where it cannot go on")]
pub fn object(value: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
    match value {
        serde_json::Value::Object(map) => map,
        other => panic!("expected a JSON object, got {other}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scratch_folder_goes_with_its_value() {
        let kept;
        {
            let dir = Scratch::new("support");
            let file = script(dir.join("hi.sh"), "echo hi");
            assert!(file.is_file());
            kept = dir.to_path_buf();
            assert!(kept.is_dir());
        }
        assert!(!kept.exists(), "removed at the end");
    }

    #[test]
    fn this_process_is_alive_and_a_reaped_child_is_not() {
        assert!(alive(std::process::id()));
        #[expect(clippy::disallowed_methods, reason = "a test of the helper itself")]
        let mut child = std::process::Command::new("true").spawn().unwrap_or_else(|e| {
            unreachable!("`true` runs: {e}");
        });
        let pid = child.id();
        let _ = child.wait();
        assert!(!alive(pid));
    }
}
