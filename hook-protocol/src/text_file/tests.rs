use std::os::unix::fs::PermissionsExt;

use super::*;

fn temp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn uid() -> Option<u32> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("Uid:"))?;
    line.split_whitespace().nth(2)?.parse().ok()
}

#[test]
fn a_regular_file_is_read() {
    let dir = temp();
    let path = dir.path().join("a.json");
    std::fs::write(&path, "{\"a\": 1}\n").unwrap();
    assert_eq!(read_text(&path, Cap::CONFIG).unwrap(), "{\"a\": 1}\n");
}

#[test]
fn what_is_not_a_regular_file_is_refused_before_it_is_opened() {
    let dir = temp();
    let cases: [(PathBuf, &str); 2] =
        [(dir.path().to_owned(), "a directory"), ("/dev/zero".into(), "a character device")];
    for (path, what) in cases {
        let e = read_text(&path, Cap::CONFIG).unwrap_err();
        assert_eq!(e.to_string(), format!("`{}` is {what}, not a regular file", path.display()));
    }
    // A named pipe nobody writes to: opening it would wait forever.
    let fifo = dir.path().join("fifo");
    #[expect(clippy::disallowed_methods, reason = "a test fixture: `mkfifo` makes the pipe")]
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let e = read_text(&fifo, Cap::CONFIG).unwrap_err();
    assert!(matches!(e, ReadError::NotAFile { what: "a named pipe (FIFO)", .. }), "{e}");
}

#[test]
fn missing_loops_and_permissions_say_so() {
    let dir = temp();
    let missing = dir.path().join("nope.json");
    let e = read_text(&missing, Cap::CONFIG).unwrap_err();
    assert!(e.is_missing());
    assert_eq!(e.to_string(), format!("`{}` does not exist", missing.display()));
    assert_eq!(e.reason(), "does not exist");

    let a = dir.path().join("a");
    let b = dir.path().join("b");
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    let e = read_text(&a, Cap::CONFIG).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("cannot read `{}`: too many levels of symbolic links (os error 40)", a.display())
    );

    let locked = dir.path().join("locked.json");
    std::fs::write(&locked, "{}").unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    match (uid(), read_text(&locked, Cap::CONFIG)) {
        // The superuser reads any file: there is no refusal to see.
        (Some(0), read) => assert_eq!(read.unwrap(), "{}"),
        (_, read) => {
            let e = read.unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("`{}` cannot be read: permission denied", locked.display())
            );
        }
    }
    let denied = io::Error::from(io::ErrorKind::PermissionDenied);
    assert!(matches!(ReadError::of(&locked, &denied), ReadError::Denied { .. }));
}

#[test]
fn a_file_over_its_cap_is_refused_without_reading_it_all() {
    let dir = temp();
    let path = dir.path().join("big.json");
    std::fs::write(&path, vec![b' '; 2048]).unwrap();
    let cap = Cap { bytes: 1024, kind: "a test file" };
    let e = read_text(&path, cap).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "`{}` is larger than 1024 bytes (the cap for a test file); it was not read",
            path.display()
        )
    );
    let endless = std::io::repeat(b'x');
    let e = read_stream(endless, Path::new("<stdin>"), Cap::CONFIG).unwrap_err();
    assert_eq!(
        e.to_string(),
        "`<stdin>` is larger than 16 MiB (the cap for a configuration file); it was not read"
    );
    let exact = read_stream(&[b'x'; 1024][..], Path::new("<stdin>"), cap).unwrap();
    assert_eq!(exact.len(), 1024, "the cap itself is allowed");
}

#[test]
fn text_that_is_not_utf8_names_its_line() {
    let dir = temp();
    let path = dir.path().join("bad.json");
    std::fs::write(&path, b"{\n  \"a\": \"ok\",\n  \"b\": \"\xff\"\n}\n").unwrap();
    let e = read_text(&path, Cap::CONFIG).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("`{}`:3: not UTF-8 text (the first bad byte is on this line)", path.display())
    );
    assert_eq!(
        (e.line(), e.reason().as_str()),
        (Some(3), "not UTF-8 text (the first bad byte is on this line)")
    );
}
