//! Bad input: typed errors naming the offending value, never a panic, never a hang.

use std::time::Duration;

use hook_exec::{CommandSpec, Env, ExecError, run};

use super::support::{TempDir, shell};

#[tokio::test]
async fn a_missing_program_in_exec_form_is_not_found() {
    let mut inv = shell("");
    inv.command = CommandSpec::exec("no-such-hook-4242", ["a"]);
    let err = run(&inv).await.unwrap_err();
    assert!(matches!(&err, ExecError::NotFound { program } if program == "no-such-hook-4242"));
    assert_eq!(err.to_string(), "command not found: `no-such-hook-4242`");

    inv.command = CommandSpec::exec("/no/such/hook", Vec::<String>::new());
    let err = run(&inv).await.unwrap_err();
    assert!(
        matches!(&err, ExecError::NotFound { program } if program == "/no/such/hook"),
        "{err:?}"
    );
}

#[tokio::test]
async fn a_program_that_is_not_executable_is_permission_denied() {
    let dir = TempDir::new();
    let file = dir.path().join("not-executable");
    std::fs::write(&file, "#!/bin/sh\n").unwrap();
    let mut inv = shell("");
    inv.command = CommandSpec::exec(file.to_str().unwrap(), Vec::<String>::new());
    let err = run(&inv).await.unwrap_err();
    assert!(matches!(&err, ExecError::PermissionDenied { .. }), "{err:?}");
    assert!(err.to_string().contains("not-executable"), "{err}");
}

#[tokio::test]
async fn a_missing_working_directory_is_reported_with_its_path() {
    for command in [CommandSpec::shell("true"), CommandSpec::exec("true", Vec::<String>::new())] {
        let mut inv = shell("");
        inv.command = command;
        inv.cwd = "/no/such/dir-4242".into();
        let err = run(&inv).await.unwrap_err();
        assert!(matches!(&err, ExecError::MissingCwd { .. }), "{err:?}");
        assert_eq!(err.to_string(), "working directory `/no/such/dir-4242` does not exist");
    }
}

#[tokio::test]
async fn a_working_directory_that_is_a_file_is_missing() {
    let mut inv = shell("true");
    inv.cwd = "/etc/passwd".into();
    let err = run(&inv).await.unwrap_err();
    assert!(matches!(&err, ExecError::MissingCwd { path } if path.as_os_str() == "/etc/passwd"));
}

#[tokio::test]
async fn a_zero_timeout_is_refused() {
    let mut inv = shell("true");
    inv.timeout = Duration::ZERO;
    let err = run(&inv).await.unwrap_err();
    assert!(matches!(err, ExecError::ZeroTimeout { .. }), "{err:?}");
    assert!(err.to_string().contains("0ns"), "{err}");
}

#[tokio::test]
async fn nul_bytes_and_bad_variable_names_are_refused_with_the_value() {
    let err = run(&shell("echo a\0b")).await.unwrap_err();
    assert!(matches!(&err, ExecError::NulInArgument { argument } if argument == "echo a\0b"));
    assert_eq!(err.to_string(), r#"argument "echo a\0b" holds a NUL byte"#);

    let mut inv = shell("true");
    inv.command = CommandSpec::exec("true", ["x\0"]);
    assert!(matches!(run(&inv).await.unwrap_err(), ExecError::NulInArgument { .. }));

    let mut inv = shell("true");
    inv.env = Env::empty();
    inv.env.set("A=B", "x");
    let err = run(&inv).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"environment variable "A=B" cannot be passed to a process: its name is empty or holds `=`"#
    );
    inv.env = Env::inherit();
    inv.env.set("HOOK_IT_NUL", "x\0y");
    let err = run(&inv).await.unwrap_err();
    assert!(
        matches!(&err, ExecError::InvalidEnvVar { name, .. } if name == "HOOK_IT_NUL"),
        "{err:?}"
    );
    assert!(err.to_string().ends_with("its name or value holds a NUL byte"), "{err}");
}
