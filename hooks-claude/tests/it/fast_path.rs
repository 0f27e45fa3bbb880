//! The no-shell fast path against `sh -c`: each command runs through an engine with the fast
//! path on and through one with it off (which runs `/bin/sh -c`), and every observable result
//! must be the same: records, decision, and what the hook saw (arguments, stdin, working
//! directory, its exact starting environment). Where the fast path applies, the hook's parent
//! is the harness instead of `sh`, which also proves it was taken.

use std::path::{Path, PathBuf};

use hook_protocol::HookStatus;
use hooks_claude::input::{Base, UserPromptSubmit};
use hooks_claude::{Engine, HostEnv, Loader, Scope};
use serde_json::{Value, json};

use crate::support::*;

/// One record without what differs by nature (duration, id): status, exit code, message,
/// warnings, the end of stderr.
type Record = (HookStatus, Option<i32>, Option<String>, Vec<String>, String);

/// What one run gave.
#[derive(Debug, PartialEq)]
struct Seen {
    records: Vec<Record>,
    decision: String,
    /// The observation file's text, when the hook wrote one.
    observed: Option<String>,
}

struct Case {
    dir: Scratch,
    /// The event's `cwd` (default: the project directory).
    cwd: Option<PathBuf>,
    env: Vec<(String, String)>,
    prefix: Option<String>,
}

impl Case {
    fn new(name: &str) -> Self {
        let dir = temp_dir(name);
        // Under /proc/PID/comm a parent `sh` is `sh`; the test binary is anything else.
        Self { dir, cwd: None, env: Vec::new(), prefix: None }
    }

    fn out(&self) -> PathBuf {
        self.dir.join("observed")
    }

    /// Where a hook that records its parent's name writes it, relative to its working
    /// directory (`observe.sh` writes `OUT.parent` instead).
    fn parent_file(&self) -> PathBuf {
        self.cwd.as_deref().unwrap_or(&self.dir).join("parent-comm")
    }

    /// Runs `command` with the fast path on or off; the parent's name when observed.
    async fn run(&self, command: &str, fast: bool) -> (Seen, Option<String>) {
        let _ = std::fs::remove_file(self.out());
        let _ = std::fs::remove_file(self.out().with_extension("parent"));
        let _ = std::fs::remove_file(self.parent_file());
        let mut settings = json!({"hooks": {"UserPromptSubmit": [{"hooks": [
            {"type": "command", "command": command}
        ]}]}});
        if !self.env.is_empty() {
            let env: serde_json::Map<String, Value> =
                self.env.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect();
            settings["env"] = Value::Object(env);
        }
        let config = Loader::new()
            .settings_text(
                self.dir.join(".claude/settings.json"),
                &settings.to_string(),
                Scope::Project,
            )
            .finish()
            .unwrap();
        assert!(config.diagnostics.is_empty(), "{:?}", config.diagnostics);
        let mut host = HostEnv::new(&self.dir);
        host.shell_fast_path = fast;
        host.shell_prefix = self.prefix.clone();
        let engine = Engine::builder(config).host(host).build().unwrap();
        let cwd = self.cwd.as_deref().unwrap_or(&self.dir);
        let input = UserPromptSubmit {
            base: Base::new("s-fast", "/t.jsonl", cwd.display().to_string()),
            prompt: "the prompt".into(),
            ..UserPromptSubmit::default()
        };
        let fired = engine.user_prompt_submit(&input).await;
        let records = fired
            .records()
            .into_iter()
            .map(|r| (r.status, r.exit_code, r.message, r.warnings, r.stderr_tail))
            .collect();
        let observed = std::fs::read_to_string(self.out()).ok();
        let parent = std::fs::read_to_string(self.out().with_extension("parent"))
            .or_else(|_| std::fs::read_to_string(self.parent_file()))
            .ok()
            .map(|p| p.trim().to_owned());
        (Seen { records, decision: format!("{:?}", fired.decision), observed }, parent)
    }

    /// Asserts that `command` gives the same with and without the fast path, and that the
    /// fast path ran it without a shell exactly when `direct`.
    async fn same(&self, command: &str, direct: bool) -> Seen {
        let (shell, shell_parent) = self.run(command, false).await;
        let (fast, fast_parent) = self.run(command, true).await;
        assert_eq!(fast, shell, "`{command}`: the fast path differs from sh -c");
        if let Some(parent) = shell_parent {
            assert_eq!(parent, "sh", "`{command}` without the fast path");
            assert_eq!(fast_parent.as_deref() != Some("sh"), direct, "`{command}`: direct?");
        }
        fast
    }
}

fn observe() -> String {
    hook("observe.sh")
}

fn write_script(path: &Path, text: &str, mode: u32) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(mode)).unwrap();
}

#[tokio::test]
async fn arguments_stdin_cwd_and_environment_are_the_shells() {
    let case = Case::new("fast-args");
    let out = case.out().display().to_string();
    let seen = case
        .same(&format!("{} {out} plain 'two words' \"ü ñ 日本\" x=1 -- '' é", observe()), true)
        .await;
    let observed = seen.observed.unwrap();
    for line in ["argc=7", "arg=[two words]", "arg=[ü ñ 日本]", "arg=[x=1]", "arg=[]", "arg=[é]"]
    {
        assert!(observed.lines().any(|l| l == line), "no `{line}` in\n{observed}");
    }
    assert!(observed.contains("stdin={\"session_id\":\"s-fast\""), "{observed}");
    assert!(observed.contains(&format!("\nPWD={}\n", case.dir.display())), "{observed}");
}

#[tokio::test]
async fn the_project_directory_variable_is_expanded_as_the_shell_does() {
    let case = Case::new("fast-project dir");
    let script = case.dir.join("observe here.sh");
    std::fs::copy(observe(), &script).unwrap();
    let out = case.out().display().to_string();
    case.same(&format!("\"$CLAUDE_PROJECT_DIR\"/'observe here.sh' {out} a"), true).await;
    case.same(&format!("\"${{CLAUDE_PROJECT_DIR}}/observe here.sh\" {out} b"), true).await;
    // Unquoted, the value (with a space) would be split: the shell runs it, and fails alike.
    case.same(&format!("$CLAUDE_PROJECT_DIR/'observe here.sh' {out} c"), false).await;
}

#[tokio::test]
async fn the_environment_is_the_one_the_shell_passes_on() {
    let mut case = Case::new("fast-env");
    case.env = [("IFS", "x"), ("OPTIND", "7"), ("PPID", "1"), ("not-a-name", "v"), ("A_B", "é")]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    let out = case.out().display().to_string();
    let seen = case.same(&format!("{} {out}", observe()), true).await;
    let observed = seen.observed.unwrap();
    assert!(observed.contains("\nIFS= \t\n") && observed.contains("\nOPTIND=1\n"), "{observed}");
    assert!(observed.contains(&format!("\nPPID={}\n", std::process::id())), "{observed}");
    assert!(!observed.contains("not-a-name") && observed.contains("\nA_B=é\n"), "{observed}");
}

#[tokio::test]
async fn pwd_follows_the_shells_rule_through_a_symbolic_link() {
    let mut case = Case::new("fast-pwd");
    let real = case.dir.join("real");
    std::fs::create_dir(&real).unwrap();
    let link = case.dir.join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    case.cwd = Some(link.clone());
    let out = case.out().display().to_string();
    // The inherited PWD names another directory: the physical path.
    let seen = case.same(&format!("{} {out}", observe()), true).await;
    let physical = std::fs::canonicalize(&real).unwrap();
    assert!(seen.observed.unwrap().contains(&format!("\nPWD={}\n", physical.display())));
    // A PWD that names the directory through the link is kept.
    case.env = vec![("PWD".to_owned(), link.display().to_string())];
    let seen = case.same(&format!("{} {out}", observe()), true).await;
    assert!(seen.observed.unwrap().contains(&format!("\nPWD={}\n", link.display())));
}

#[tokio::test]
async fn a_bare_name_is_searched_on_the_path() {
    let mut case = Case::new("fast-path-search");
    let bin = case.dir.join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::fs::copy(observe(), bin.join("observe-hook")).unwrap();
    let path = std::env::var("PATH").unwrap();
    case.env = vec![("PATH".to_owned(), format!("/nonexistent:{}:{path}", bin.display()))];
    let out = case.out().display().to_string();
    case.same(&format!("observe-hook {out} x"), true).await;
}

#[tokio::test]
async fn programs_that_cannot_start_fail_as_under_the_shell() {
    let case = Case::new("fast-missing");
    let plain = case.dir.join("plain.txt");
    write_script(&plain, "not a program\n", 0o644);
    let no_shebang = case.dir.join("no-shebang");
    write_script(
        &no_shebang,
        "cat /proc/$PPID/comm > parent-comm\necho \"from a script without #!: $1\"\n",
        0o755,
    );
    for command in [
        "definitely-not-a-command-4242 arg".to_owned(),
        "./no-such-hook.sh".to_owned(),
        plain.display().to_string(),
        case.dir.display().to_string(),
        format!("{} é", no_shebang.display()),
    ] {
        let seen = case.same(&command, true).await;
        assert_eq!(seen.records.len(), 1, "{command}");
    }
    let seen = case.same("definitely-not-a-command-4242 arg", true).await;
    assert_eq!(seen.records[0].1, Some(127), "{seen:?}");
    assert!(seen.records[0].4.contains("not found"), "{seen:?}");
    let seen = case.same(&plain.display().to_string(), true).await;
    assert_eq!(seen.records[0].1, Some(126), "{seen:?}");
    let seen = case.same(&format!("{} é", no_shebang.display()), true).await;
    assert!(seen.decision.contains("from a script without #!: é"), "{seen:?}");
}

#[tokio::test]
async fn exit_statuses_and_signals_are_the_shells() {
    let case = Case::new("fast-exit");
    let status = hook("status.sh");
    for code in [0, 1, 2, 3, 126, 127, 255] {
        let seen = case.same(&format!("{status} {code} err-{code}"), true).await;
        assert_eq!(seen.records[0].1, Some(code), "{seen:?}");
    }
    let die = hook("die.sh");
    for (signal, code, notice) in [
        ("TERM", 143, "Terminated"),
        ("KILL", 137, "Killed"),
        ("SEGV", 139, "Segmentation fault"),
        ("USR1", 138, "User defined signal 1"),
        ("INT", 130, ""),
        ("PIPE", 141, ""),
    ] {
        let seen = case.same(&format!("{die} {signal}"), true).await;
        assert_eq!(seen.records[0].1, Some(code), "{signal}: {seen:?}");
        assert_eq!(seen.records[0].4.trim(), format!("dying\n{notice}").trim(), "{signal}");
    }
    // A core dump, where cores go to a file in the working directory.
    let pattern = std::fs::read_to_string("/proc/sys/kernel/core_pattern").unwrap_or_default();
    if pattern.trim() == "core" {
        let seen = case.same(&format!("{die} SEGV core"), true).await;
        assert!(seen.records[0].4.ends_with("Segmentation fault (core dumped)"), "{seen:?}");
    }
}

#[tokio::test]
async fn the_shell_prefix_runs_without_a_shell_when_it_is_plain() {
    let mut case = Case::new("fast-prefix");
    let wrapper = case.dir.join("wrap.sh");
    write_script(
        &wrapper,
        "#!/bin/sh\ncat /proc/$PPID/comm > parent-comm\nexec /bin/sh -c \"$1\"\n",
        0o755,
    );
    case.prefix = Some(wrapper.display().to_string());
    // The wrapper gets the command as one word and runs it with its own shell (a pipeline
    // here): it is the wrapper that runs without a shell before it.
    let command = format!("{} 'a b' 3 | cat", hook("respond.sh"));
    let seen = case.same(&command, true).await;
    assert!(seen.decision.contains("a b"), "{seen:?}");
}

#[tokio::test]
async fn shell_syntax_and_builtins_keep_the_shell() {
    let case = Case::new("fast-syntax");
    let out = case.out().display().to_string();
    for command in [
        format!("{} {out} $HOME", observe()),
        format!("{} {out} *", observe()),
        format!("{} {out} ~", observe()),
        format!("A=1 {} {out}", observe()),
        format!("{} {out}; true", observe()),
        format!("{} {out} # comment", observe()),
    ] {
        case.same(&command, false).await;
    }
    let seen = case.same("echo builtin", false).await;
    assert!(seen.decision.contains("builtin"), "{seen:?}");
}

#[tokio::test]
async fn the_setting_turns_the_fast_path_off() {
    let case = Case::new("fast-off");
    let out = case.out().display().to_string();
    let (_, parent) = case.run(&format!("{} {out}", observe()), false).await;
    assert_eq!(parent.as_deref(), Some("sh"));
    let (_, parent) = case.run(&format!("{} {out}", observe()), true).await;
    assert_ne!(parent.as_deref(), Some("sh"));
}
