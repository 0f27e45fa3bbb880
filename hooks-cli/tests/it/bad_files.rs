//! The program's own inputs, as a careless or hostile user gives them: a named pipe, an endless
//! device, a directory, a symbolic link loop, a file over its cap, text that is not UTF-8, an
//! endless standard input. Every command refuses at once with one line that names the file and
//! says what it is, exits 1, and never hangs nor grows.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::home;

/// What a run of `hooks` did, and how long it took.
struct Ran {
    status: i32,
    stdout: String,
    stderr: String,
    took: Duration,
}

/// Runs `hooks ARGS` in `cwd` with `stdin`, killed (and the test failed) after 20 s.
fn run(args: &[&str], cwd: &std::path::Path, stdin: Stdio) -> Ran {
    #[expect(clippy::disallowed_methods, reason = "the tests drive the hooks binary itself")]
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hooks"));
    cmd.args(args).current_dir(cwd).env("HOME", home()).stdin(stdin);
    let started = Instant::now();
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if started.elapsed() > Duration::from_secs(20) {
            child.kill().unwrap();
        }
        assert!(started.elapsed() < Duration::from_secs(20), "`hooks {}` hung", args.join(" "));
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    Ran {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
        took: started.elapsed(),
    }
}

/// A directory with one of each kind of bad file.
struct Bad {
    dir: tempfile::TempDir,
}

impl Bad {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path();
        #[expect(clippy::disallowed_methods, reason = "a test fixture: `mkfifo` makes the pipe")]
        let made = Command::new("mkfifo").arg(p.join("fifo")).status().unwrap();
        assert!(made.success());
        std::fs::create_dir(p.join("dir")).unwrap();
        std::os::unix::fs::symlink(p.join("loop-b"), p.join("loop-a")).unwrap();
        std::os::unix::fs::symlink(p.join("loop-a"), p.join("loop-b")).unwrap();
        // Sparse: its size is past every cap, and nothing of it is ever read.
        let big = std::fs::File::create(p.join("big")).unwrap();
        big.set_len(300 * 1024 * 1024).unwrap();
        std::fs::write(p.join("latin1"), b"{\"hooks\": {}}\n{\"caf\xe9\": 1}\n").unwrap();
        std::fs::write(p.join("settings.json"), r#"{"hooks": {}}"#).unwrap();
        std::fs::write(p.join("hooks.test.yaml"), "cases: []\n").unwrap();
        Self { dir }
    }

    fn path(&self) -> &std::path::Path {
        self.dir.path()
    }
}

/// The one line every refusal is, for the file `name` of the bad directory.
fn expected(name: &str) -> String {
    match name {
        "fifo" => "`fifo` is a named pipe (FIFO), not a regular file".to_owned(),
        "/dev/zero" => "`/dev/zero` is a character device, not a regular file".to_owned(),
        "dir" => "`dir` is a directory, not a regular file".to_owned(),
        "loop-a" => {
            "cannot read `loop-a`: too many levels of symbolic links (os error 40)".to_owned()
        }
        "latin1" => "`latin1`:2: not UTF-8 text (the first bad byte is on this line)".to_owned(),
        "missing" => "`missing` does not exist".to_owned(),
        _ => String::new(),
    }
}

#[test]
fn every_command_refuses_a_bad_file_by_what_it_is() {
    let bad = Bad::new();
    let files = ["fifo", "/dev/zero", "dir", "loop-a", "latin1", "missing"];
    for file in files {
        let commands: [Vec<&str>; 3] = [
            vec!["run", "--event", "Stop", "--settings", "settings.json", "--input", file],
            vec!["replay", file, "--settings", "settings.json"],
            vec!["test", file, "--settings", "settings.json"],
        ];
        for args in commands {
            let out = run(&args, bad.path(), Stdio::null());
            let shown = format!("`hooks {}`: {}{}", args.join(" "), out.stdout, out.stderr);
            assert_eq!(out.status, 1, "{shown}");
            assert_eq!(out.stderr, format!("hooks: {}\n", expected(file)), "{shown}");
            assert!(out.took < Duration::from_secs(10), "{shown}");
        }
        let out = run(&["check", file], bad.path(), Stdio::null());
        assert_eq!(out.status, 1, "{}", out.stderr);
        let reason = expected(file);
        let quoted = format!("`{file}`");
        let reason = reason.strip_prefix(&quoted).map_or(reason.clone(), |r| r.trim().to_owned());
        let line = if file == "latin1" { ":2:1" } else { "" };
        let reason = if file == "latin1" {
            "not UTF-8 text (the first bad byte is on this line)".to_owned()
        } else if file == "dir" {
            // A folder is a project: every agent's hook files in it are checked.
            "no agent's hook files in this folder (.claude/settings.json, .codex/hooks.json, \
             .github/hooks/*.json, .cursor/hooks.json, .gemini/settings.json)"
                .to_owned()
        } else if file == "loop-a" {
            "cannot be read: too many levels of symbolic links (os error 40)".to_owned()
        } else {
            reason.trim_start_matches(':').to_owned()
        };
        assert_eq!(out.stdout, format!("{file}{line}: error: {reason}\n"), "check {file}");
    }
    // A settings file that is one of them stops `run` before any hook runs.
    let out = run(&["run", "--event", "Stop", "--settings", "fifo"], bad.path(), Stdio::null());
    assert_eq!(out.status, 1);
    assert_eq!(
        out.stderr,
        format!(
            "hooks: settings file `{}` is a named pipe (FIFO), not a regular file\n",
            bad.path().join("fifo").display()
        )
    );
}

#[test]
fn files_over_their_cap_are_refused_unread() {
    let bad = Bad::new();
    let cases: [(&[&str], &str); 4] = [
        (
            &["check", "big"],
            "big: error: is larger than 16 MiB (the cap for a configuration file); it was not read\n",
        ),
        (
            &["run", "--event", "Stop", "--settings", "settings.json", "--input", "big"],
            "hooks: `big` is larger than 64 MiB (the cap for an event's input); it was not read\n",
        ),
        (
            &["replay", "big", "--settings", "settings.json"],
            "hooks: `big` is larger than 256 MiB (the cap for a recording or test file); it was not read\n",
        ),
        (
            &["run", "--event", "Stop", "--settings", "big"],
            "hooks: {dir}/big: error: is larger than 16 MiB (the cap for a configuration file); it was not read; no hook was run\n",
        ),
    ];
    for (args, said) in cases {
        let out = run(args, bad.path(), Stdio::null());
        assert_eq!(out.status, 1, "{}", out.stderr);
        let text = if args[0] == "check" { &out.stdout } else { &out.stderr };
        let text = text.replace("hooks: 1 error in the configuration; no hook was run\n", "");
        // A `--settings` file is named by its absolute path.
        let said = said.replace("{dir}", &bad.path().display().to_string());
        assert_eq!(text, said, "`hooks {}`", args.join(" "));
        assert!(out.took < Duration::from_secs(5), "unread: {:?}", out.took);
    }
}

#[test]
fn an_endless_standard_input_stops_at_its_cap() {
    let bad = Bad::new();
    let zero = std::fs::File::open("/dev/zero").unwrap();
    let args = ["run", "--event", "Stop", "--settings", "settings.json", "--input", "-"];
    let out = run(&args, bad.path(), Stdio::from(zero));
    assert_eq!(out.status, 1);
    assert_eq!(
        out.stderr,
        "hooks: `<stdin>` is larger than 64 MiB (the cap for an event's input); it was not read\n"
    );
}

#[test]
fn a_relative_path_option_is_named_by_its_absolute_path() {
    let bad = Bad::new();
    let dir = bad.path().display().to_string();
    let cases: [(&[&str], String); 6] = [
        (&["--settings", "x.json"], format!("settings file `{dir}/x.json` does not exist")),
        (&["--config", "x.json"], format!("settings file `{dir}/x.json` does not exist")),
        (&["--skill", "x.md"], format!("skill file `{dir}/x.md` does not exist")),
        (&["--agent", "x.md"], format!("sub-agent file `{dir}/x.md` does not exist")),
        (
            &["--plugin", "x"],
            format!("plugin `{dir}/x` has neither hooks/hooks.json nor .claude-plugin/plugin.json"),
        ),
        // `..` is resolved, not kept.
        (&["--settings", "dir/../y.json"], format!("settings file `{dir}/y.json` does not exist")),
    ];
    for (option, said) in cases {
        let mut args = vec!["run", "--event", "Stop"];
        args.extend(option);
        let out = run(&args, bad.path(), Stdio::null());
        assert_eq!(out.status, 1, "{}", out.stderr);
        assert_eq!(out.stderr, format!("hooks: {said}\n"), "`hooks {}`", args.join(" "));
    }
}

/// The id of the user running the tests.
fn uid() -> Option<u32> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("Uid:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn an_unreadable_file_says_permission_denied() {
    use std::os::unix::fs::PermissionsExt;
    let bad = Bad::new();
    let locked = bad.path().join("locked.json");
    std::fs::write(&locked, r#"{"hooks": {}}"#).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    // The superuser reads any file: the command runs as an ordinary user (nobody) instead.
    let mut prefix: Vec<&str> = Vec::new();
    if uid() == Some(0) {
        if !std::path::Path::new("/usr/bin/setpriv").exists() {
            eprintln!("skipping: running as root without setpriv, no file is unreadable here");
            return;
        }
        prefix = vec!["--reuid=65534", "--regid=65534", "--clear-groups"];
    }
    let cases: [(&[&str], String); 3] = [
        (
            &["check", "locked.json"],
            "locked.json: error: cannot be read: permission denied\n".into(),
        ),
        (
            &["run", "--event", "Stop", "--settings", "locked.json"],
            format!(
                "hooks: {}: error: cannot be read: permission denied; no hook was run\n",
                locked.display()
            ),
        ),
        (
            &["run", "--event", "Stop", "--settings", "settings.json", "--input", "locked.json"],
            "hooks: `locked.json` cannot be read: permission denied\n".into(),
        ),
    ];
    for (args, said) in cases {
        #[expect(clippy::disallowed_methods, reason = "the tests drive the hooks binary itself")]
        let mut cmd = if prefix.is_empty() {
            Command::new(env!("CARGO_BIN_EXE_hooks"))
        } else {
            let mut c = Command::new("/usr/bin/setpriv");
            c.args(&prefix).arg(env!("CARGO_BIN_EXE_hooks"));
            c
        };
        let out = cmd
            .args(args)
            .current_dir(bad.path())
            .env("HOME", bad.path())
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "`hooks {}`", args.join(" "));
        let text = if args[0] == "check" { out.stdout } else { out.stderr };
        let text = String::from_utf8(text).unwrap();
        let text = text.replace("hooks: 1 error in the configuration; no hook was run\n", "");
        assert_eq!(text, said, "`hooks {}`", args.join(" "));
    }
}
