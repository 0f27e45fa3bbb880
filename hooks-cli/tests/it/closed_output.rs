//! A closed stdout or stderr (a pager quit, `| head`): every subcommand ends by itself, quietly,
//! with the exit status it would have had, and never with a Rust panic.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{copy_of, home, hooks};

/// Which of the command's streams is closed before it starts.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Closed {
    Stdout,
    Stderr,
}

/// Runs `hooks ARGS` in `cwd` with one stream a pipe whose reading end is already closed, and
/// returns the exit status and what it wrote on the other stream.
fn with_closed(closed: Closed, args: &[&str], cwd: &std::path::Path) -> (i32, String) {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    #[expect(clippy::disallowed_methods, reason = "the tests drive the hooks binary itself")]
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hooks"));
    cmd.args(args).current_dir(cwd).env("HOME", home()).stdin(Stdio::null());
    match closed {
        Closed::Stdout => cmd.stdout(writer).stderr(Stdio::piped()),
        Closed::Stderr => cmd.stderr(writer).stdout(Stdio::piped()),
    };
    let mut child = cmd.spawn().unwrap();
    drop(cmd);
    let mut open = match closed {
        Closed::Stdout => Box::new(child.stderr.take().unwrap()) as Box<dyn Read + Send>,
        Closed::Stderr => Box::new(child.stdout.take().unwrap()),
    };
    let reading = std::thread::spawn(move || {
        let mut text = String::new();
        open.read_to_string(&mut text).unwrap();
        text
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
        }
        assert!(
            Instant::now() <= deadline,
            "`hooks {}` did not end with its {closed:?} closed",
            args.join(" ")
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    (status.code().unwrap_or(-1), reading.join().unwrap())
}

#[test]
fn every_subcommand_ends_quietly_on_a_closed_stream() {
    let project = copy_of("examples/claude-project");
    let dir = project.path();
    let replay = ["replay", "session.jsonl", "--project-dir", "."];
    let replay_json = ["replay", "session.jsonl", "--project-dir", ".", "--format", "json"];
    let deny = r#"{"tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t1"}"#;
    let input = dir.join("deny.json");
    std::fs::write(&input, deny).unwrap();
    let run = ["run", "--event", "PreToolUse", "--input", "deny.json"];
    let run_json = ["run", "--event", "PreToolUse", "--input", "deny.json", "--format", "json"];
    let cases: [(&[&str], i32); 9] = [
        (&run, 2),
        (&run_json, 2),
        (&["check", ".claude/settings.json"], 0),
        (&["list", "--event", "PreToolUse", "--subject", "Bash"], 0),
        (&replay, 0),
        (&replay_json, 0),
        (&["test", "hooks.test.yaml"], 0),
        (&["--help"], 0),
        (&["check", "missing.json"], 1),
    ];
    for closed in [Closed::Stdout, Closed::Stderr] {
        for (args, status) in cases {
            let (code, other) = with_closed(closed, args, dir);
            let shown = format!("`hooks {}` with {closed:?} closed: {other}", args.join(" "));
            assert_eq!(code, status, "{shown}");
            assert!(!other.contains("panicked") && !other.contains("RUST_BACKTRACE"), "{shown}");
            let open = hooks(args, dir, None);
            assert_eq!(open.status, status, "{open:?}");
            if closed == Closed::Stdout {
                assert_eq!(other, open.stderr, "{shown}: nothing said about the closed stdout");
            }
        }
    }
}
