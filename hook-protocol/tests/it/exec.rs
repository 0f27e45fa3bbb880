//! Execution with real processes.

use std::time::Duration;

use hook_protocol::Exit;
use hook_protocol::exec::{CommandSpec, Invocation, run};

#[tokio::test]
async fn shell_form_echoes_stdin() {
    let mut inv = Invocation::new(
        CommandSpec::shell("cat; echo err >&2; exit 3"),
        "/",
        Duration::from_secs(5),
    );
    inv.stdin = b"{\"a\":1}\n".to_vec().into();
    let out = run(&inv).await.unwrap();
    assert_eq!(out.exit, Exit::Code { code: 3 });
    assert_eq!(out.stdout, b"{\"a\":1}\n");
    assert_eq!(out.stderr, b"err\n");
}
