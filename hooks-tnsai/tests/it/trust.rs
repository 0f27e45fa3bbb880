//! Trust roots accepted and refused, with real files, symlinks and modes.

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};

use hooks_tnsai::{BuildError, EventType, ScriptHook, TrustError, TrustRoots};

use crate::support::Sandbox;

fn build(s: &Sandbox, exe: impl AsRef<std::path::Path>) -> Result<ScriptHook, BuildError> {
    ScriptHook::builder("h")
        .event_type(EventType::PreToolUse)
        .executable(exe.as_ref())
        .trusted_root(s.root())
        .build()
}

fn refused(r: Result<ScriptHook, BuildError>) -> (TrustError, String) {
    match r {
        Err(BuildError::Trust { error, .. }) => {
            let message = error.to_string();
            (error, message)
        }
        other => panic!("expected a trust refusal, got {other:?}"),
    }
}

#[test]
fn a_file_under_a_root_is_accepted_and_resolved() {
    let s = Sandbox::new();
    let exe = s.script("guard", "exit 0");
    let hook = build(&s, &exe).unwrap();
    assert_eq!(hook.executable(), exe.canonicalize().unwrap());
    // A symlink inside the root to a file inside the root resolves to the file.
    fs::create_dir(s.root().join("bin")).unwrap();
    symlink(&exe, s.root().join("bin/guard-link")).unwrap();
    let hook = build(&s, s.root().join("bin/guard-link")).unwrap();
    assert_eq!(hook.executable(), exe.canonicalize().unwrap(), "runs the target, not the link");
    // A root reached through a symlink resolves too.
    symlink(s.root(), s.path().join("roots-link")).unwrap();
    let via = ScriptHook::builder("h")
        .event_type(EventType::PreToolUse)
        .executable(&exe)
        .trusted_root(s.path().join("roots-link"))
        .build();
    assert!(via.is_ok(), "{via:?}");
}

#[test]
fn outside_every_root_is_refused() {
    let s = Sandbox::new();
    let outside = s.path().join("elsewhere");
    fs::write(&outside, "#!/bin/sh\n").unwrap();
    fs::set_permissions(&outside, fs::Permissions::from_mode(0o755)).unwrap();
    let (e, message) = refused(build(&s, &outside));
    assert!(matches!(e, TrustError::OutsideRoots { .. }));
    assert!(message.contains("is not under any trusted root"), "{message}");
    assert!(message.contains(&outside.canonicalize().unwrap().display().to_string()), "{message}");

    // A link inside the root that points outside is refused: the target decides.
    symlink(&outside, s.root().join("sneaky")).unwrap();
    let (e, _) = refused(build(&s, s.root().join("sneaky")));
    assert!(matches!(e, TrustError::OutsideRoots { .. }));

    // A sibling whose name starts with the root's is not under it.
    let evil = s.path().join("hooks-evil");
    fs::create_dir(&evil).unwrap();
    let exe = evil.join("x");
    fs::write(&exe, "#!/bin/sh\n").unwrap();
    fs::set_permissions(&exe, fs::Permissions::from_mode(0o755)).unwrap();
    assert!(matches!(refused(build(&s, &exe)).0, TrustError::OutsideRoots { .. }));

    // `..` does not escape either.
    let escaped = s.root().join("../elsewhere");
    assert!(matches!(refused(build(&s, &escaped)).0, TrustError::OutsideRoots { .. }));
}

#[test]
fn writable_by_group_or_others_is_refused() {
    let s = Sandbox::new();
    for (mode, who) in [(0o775, "group"), (0o757, "others"), (0o777, "group and others")] {
        let exe = s.script(&format!("w{mode:o}"), "exit 0");
        fs::set_permissions(&exe, fs::Permissions::from_mode(mode)).unwrap();
        let (e, message) = refused(build(&s, &exe));
        assert!(matches!(e, TrustError::Writable { .. }), "{message}");
        assert!(message.contains(&format!("is writable by {who} (mode 0{mode:o})")), "{message}");
        assert!(message.contains("must not be writable by group or others"), "{message}");
    }
    let exe = s.script("readonly", "exit 0");
    fs::set_permissions(&exe, fs::Permissions::from_mode(0o500)).unwrap();
    assert!(build(&s, &exe).is_ok());
}

#[test]
fn missing_files_directories_and_roots_are_refused() {
    let s = Sandbox::new();
    let (e, message) = refused(build(&s, s.root().join("absent")));
    assert!(matches!(e, TrustError::Unresolvable { .. }), "{message}");
    assert!(message.starts_with("executable `"), "{message}");
    let (e, _) = refused(build(&s, s.root()));
    assert!(matches!(e, TrustError::NotAFile { .. }));
    let no_roots =
        ScriptHook::builder("h").event_type(EventType::Stop).executable("/bin/sh").build();
    let (e, message) = refused(no_roots);
    assert!(matches!(e, TrustError::NoRoots { .. }));
    assert_eq!(message, "executable `/bin/sh` is refused: no trusted roots are configured");
    let err = TrustRoots::new([s.path().join("nope")]).unwrap_err();
    assert!(err.to_string().starts_with("trusted root `"), "{err}");
    let file_root = TrustRoots::new([s.script("f", "")]).unwrap_err();
    assert!(file_root.to_string().ends_with("not a directory"), "{file_root}");
}
