//! Credential scrubbing with a real hook: the test runs again alone in a fresh process whose
//! environment holds credentials (as a harness's would), and a hook prints what it sees.

use hook_exec::{CommandSpec, Env, run};
use hook_protocol::Exit;
use hook_protocol::Scrub;

use super::support::{run_alone_with, running_alone, shell};

/// The credentials the fresh process gets, and one ordinary variable.
const VARS: &[(&str, &str)] = &[
    ("GITHUB_TOKEN", "ghp_secret_1"),
    ("OPENAI_API_KEY", "sk_secret_2"),
    ("aws_secret", "secret_3"),
    ("DB_PASSWORD", "secret_4"),
    ("DATABASE_URL", "postgres://secret_5"),
    ("HOOK_IT_ORDINARY", "visible"),
];

fn this(name: &str) -> String {
    let module = module_path!().split_once("::").map_or(module_path!(), |(_, rest)| rest);
    format!("{module}::{name}")
}

#[expect(clippy::unwrap_used, reason = "test helper: a failed unwrap is a failed test")]
fn hook_environment(env: Env) -> String {
    let mut inv = shell("");
    inv.command = CommandSpec::exec("env", Vec::<String>::new());
    inv.env = env;
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let out = rt.block_on(run(&inv)).unwrap();
    assert_eq!(out.exit, Exit::Code { code: 0 }, "{}", out.stderr_text());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Without a scrub the hook inherits every credential (as Claude Code's hooks do); with one it
/// sees none of them, nor the extra name, but keeps ordinary variables and what the
/// configuration sets on purpose.
#[test]
fn a_hook_cannot_see_scrubbed_credentials() {
    let name = this("a_hook_cannot_see_scrubbed_credentials");
    if !running_alone(&name) {
        run_alone_with(&name, VARS);
        return;
    }
    let inherited = hook_environment(Env::inherit());
    for (key, value) in VARS {
        assert!(inherited.contains(&format!("{key}={value}\n")), "{key} not inherited");
    }

    let mut env = Env::inherit();
    env.scrub_credentials(Scrub::new().name("DATABASE_URL")).set("HOOK_GIVEN_TOKEN", "on_purpose");
    let scrubbed = hook_environment(env);
    for (key, value) in &VARS[..5] {
        assert!(!scrubbed.contains(key), "{key} reached the hook:\n{scrubbed}");
        assert!(!scrubbed.contains(value), "{value} reached the hook:\n{scrubbed}");
    }
    assert!(scrubbed.contains("HOOK_IT_ORDINARY=visible\n"), "{scrubbed}");
    assert!(scrubbed.contains("HOOK_GIVEN_TOKEN=on_purpose\n"), "{scrubbed}");
    assert!(scrubbed.contains("PATH="), "{scrubbed}");
}

/// With `shell_names_only`, inherited variables whose names are no shell names (which `sh`
/// drops before it starts a command) do not reach the hook; the others do.
#[test]
fn only_shell_names_are_inherited_when_asked() {
    let name = this("only_shell_names_are_inherited_when_asked");
    let vars = [("hook-it.dotted", "1"), ("HOOK_IT_SHELL_NAME", "2"), ("9HOOK_IT", "3")];
    if !running_alone(&name) {
        run_alone_with(&name, &vars);
        return;
    }
    let all = hook_environment(Env::inherit());
    assert!(all.contains("hook-it.dotted=1\n") && all.contains("9HOOK_IT=3\n"), "{all}");
    let mut env = Env::inherit();
    env.shell_names_only();
    let shell = hook_environment(env);
    assert!(shell.contains("HOOK_IT_SHELL_NAME=2\n"), "{shell}");
    assert!(!shell.contains("hook-it.dotted") && !shell.contains("9HOOK_IT"), "{shell}");
}

/// What the harness changes in its own environment between two runs reaches the next hook: a
/// variable set, one whose value changed, one removed (the runner reuses the last run's list
/// of inherited variables only while the environment is the same).
#[test]
#[expect(unsafe_code, reason = "the harness's own environment is changed between two runs")]
fn the_harness_changing_its_environment_is_seen_by_the_next_hook() {
    let name = this("the_harness_changing_its_environment_is_seen_by_the_next_hook");
    let vars = [("HOOK_IT_CHANGES", "before"), ("HOOK_IT_GOES", "here")];
    if !running_alone(&name) {
        run_alone_with(&name, &vars);
        return;
    }
    let first = hook_environment(Env::inherit());
    assert!(first.contains("HOOK_IT_CHANGES=before\n") && first.contains("HOOK_IT_GOES=here\n"));
    assert_eq!(hook_environment(Env::inherit()), first, "the same environment, the same list");
    // SAFETY: this test runs alone in a fresh process (`--test-threads=1`), and nothing else
    // in it reads the environment meanwhile.
    unsafe {
        std::env::set_var("HOOK_IT_CHANGES", "after");
        std::env::remove_var("HOOK_IT_GOES");
        std::env::set_var("HOOK_IT_NEW", "new");
    }
    let second = hook_environment(Env::inherit());
    assert!(second.contains("HOOK_IT_CHANGES=after\n"), "{second}");
    assert!(!second.contains("HOOK_IT_GOES") && !second.contains("before"), "{second}");
    assert!(second.contains("HOOK_IT_NEW=new\n"), "{second}");
    // SAFETY: as above.
    unsafe { std::env::set_var("HOOK_IT_CHANGES", "after, again") };
    assert!(hook_environment(Env::inherit()).contains("HOOK_IT_CHANGES=after, again\n"));
}
