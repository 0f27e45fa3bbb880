//! Fail-closed end to end through a hook list (`on_failure: block`), the event kept off argv,
//! and credentials scrubbed from a real hook's environment.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use hook_protocol::Scrub;
use hooks_tnsai::{ChainDecision, EventType, HookList, LoadOptions, Summary, event_from_parts};
use serde_json::json;

use crate::support::Sandbox;

/// A hook list with one `PreToolUse` hook running `hooks/NAME`.
fn list(s: &Sandbox, name: &str, extra: &str) -> String {
    let path = s.path().join(format!("{name}.yaml"));
    fs::write(
        &path,
        format!(
            "trusted_roots: [./hooks]\n{extra}hooks:\n  - id: {name}\n    event_type: PreToolUse\n    executable: ./hooks/{name}\n    timeout_ms: 500\n    on_failure: block\n"
        ),
    )
    .unwrap();
    path.to_str().unwrap().to_owned()
}

fn event(s: &Sandbox, command: &str) -> hook_protocol::Event {
    let payload = json!({"tool_name": "Bash", "tool_input": {"command": command}});
    event_from_parts(&EventType::PreToolUse, test_support::object(payload), None, s.path()).unwrap()
}

fn summary(list: &HookList, event: &hook_protocol::Event) -> Summary {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    Summary::from_report(&rt.block_on(list.run(event)))
}

/// Every failure path blocks under `on_failure: block`: spawn failure, timeout, crash,
/// garbage output, protocol errors, a failing exit; and none blocks without it.
#[test]
fn every_failure_path_blocks_when_failing_closed() {
    let s = Sandbox::new();
    let cases: &[(&str, &str)] = &[
        ("timeout", "sleep 30"),
        ("crash", "kill -SEGV $$"),
        ("killed", "kill -9 $$"),
        ("garbage", "cat >/dev/null; printf '\\377\\376 not json {'"),
        ("half_json", "cat >/dev/null; printf '{\"hook_protocol_version\": \"1\", \"decis'"),
        ("empty", "cat >/dev/null"),
        ("wrong_version", "printf '{\"hook_protocol_version\": \"2\", \"decision\": \"allow\"}'"),
        (
            "unknown_decision",
            "printf '{\"hook_protocol_version\": \"1\", \"decision\": \"maybe\"}'",
        ),
        (
            "bad_modify",
            "printf '{\"hook_protocol_version\": \"1\", \"decision\": \"modify\", \"modified_payload\": {\"tool_name\": 3}}'",
        ),
        ("exit1", "exit 1"),
    ];
    for (name, body) in cases {
        s.script(name, body);
        let closed = HookList::load(list(&s, name, "")).unwrap();
        let got = summary(&closed, &event(&s, "ls"));
        assert_eq!(got.decision, ChainDecision::Block, "{name}: {got:?}");
        assert!(
            got.reason.as_deref().is_some_and(|r| r.contains("fails closed")),
            "{name}: {got:?}"
        );
        assert_eq!(got.exit_code(), 2, "{name}");
        let open_text = fs::read_to_string(list(&s, name, ""))
            .unwrap()
            .replace("on_failure: block", "on_failure: allow");
        let open_path = s.path().join(format!("{name}-open.yaml"));
        fs::write(&open_path, open_text).unwrap();
        let open = HookList::load(&open_path).unwrap();
        assert_eq!(summary(&open, &event(&s, "ls")).decision, ChainDecision::Allow, "{name} open");
    }
    // Spawn failure: the script passes the trust check but its interpreter does not exist.
    let exe = s.root().join("unstartable");
    fs::write(&exe, "#!/nonexistent/interpreter\n").unwrap();
    fs::set_permissions(&exe, fs::Permissions::from_mode(0o755)).unwrap();
    let closed = HookList::load(list(&s, "unstartable", "")).unwrap();
    let got = summary(&closed, &event(&s, "ls"));
    assert_eq!(got.decision, ChainDecision::Block, "spawn failure: {got:?}");
    // The executable vanished after loading.
    s.script("vanished", "exit 0");
    let closed = HookList::load(list(&s, "vanished", "")).unwrap();
    fs::remove_file(s.root().join("vanished")).unwrap();
    let got = summary(&closed, &event(&s, "ls"));
    assert_eq!(got.decision, ChainDecision::Block, "missing executable: {got:?}");
}

/// The event travels on stdin only: the hook's command line holds none of it.
#[test]
fn the_event_never_reaches_argv() {
    let s = Sandbox::new();
    let out = s.path().join("seen");
    s.script(
        "argv",
        &format!(
            "cat > '{0}.stdin'\ntr '\\0' ' ' < /proc/$$/cmdline > '{0}.argv'\nprintf '{{\"hook_protocol_version\": \"1\", \"decision\": \"allow\"}}'",
            out.display()
        ),
    );
    let hooks = HookList::load(list(&s, "argv", "")).unwrap();
    let marker = "secret-marker-7f3a";
    let got = summary(&hooks, &event(&s, &format!("echo {marker}")));
    assert_eq!(got.decision, ChainDecision::Allow, "{got:?}");
    let stdin = fs::read_to_string(out.with_extension("stdin")).unwrap();
    let argv = fs::read_to_string(out.with_extension("argv")).unwrap();
    assert!(stdin.contains(marker), "the event is on stdin: {stdin}");
    assert!(argv.contains("hooks/argv"), "the command line was read: {argv}");
    assert!(!argv.contains(marker), "the event reached argv: {argv}");
}

/// With `scrub_credentials` (in the file or from the harness) a hook does not see the
/// harness's credentials; its own `env` still reaches it.
#[test]
fn scrubbed_credentials_do_not_reach_the_hook() {
    let s = Sandbox::new();
    let out = s.path().join("env.txt");
    s.script(
        "printenv",
        &format!(
            "env > '{}'\nprintf '{{\"hook_protocol_version\": \"1\", \"decision\": \"allow\"}}'",
            out.display()
        ),
    );
    // A variable every test process inherits stands for a credential, named as an extra name.
    let (name, value) = std::env::vars()
        .find(|(k, v)| k != "PATH" && !k.starts_with("TNSAI_") && v.len() > 2)
        .expect("the test process has an environment");
    let seen = |list: &HookList| {
        summary(list, &event(&s, "ls"));
        fs::read_to_string(&out).unwrap()
    };
    let plain = HookList::load(list(&s, "printenv", "")).unwrap();
    assert!(seen(&plain).contains(&format!("{name}={value}\n")), "inherited without a scrub");

    let in_file = list(&s, "printenv", &format!("scrub_credentials: [{name}]\n"));
    let text = fs::read_to_string(&in_file).unwrap().replace(
        "    on_failure: block\n",
        "    on_failure: block\n    env: {GIVEN_TOKEN: on-purpose}\n",
    );
    fs::write(&in_file, text).unwrap();
    let scrubbed = HookList::load(&in_file).unwrap();
    assert!(scrubbed.hooks()[0].scrub().is_some());
    let env = seen(&scrubbed);
    assert!(!env.lines().any(|l| l.starts_with(&format!("{name}="))), "{name} reached the hook");
    assert!(env.contains("GIVEN_TOKEN=on-purpose\n"), "the hook's own env is kept:\n{env}");

    let options = LoadOptions::default().scrub_credentials(Scrub::new().name(&name));
    let by_harness = HookList::load_with(list(&s, "printenv", ""), &options).unwrap();
    let env = seen(&by_harness);
    assert!(!env.lines().any(|l| l.starts_with(&format!("{name}="))), "{name} reached the hook");
    assert!(env.contains("PATH="), "ordinary variables stay:\n{env}");

    let bad = list(&s, "printenv", "scrub_credentials: yes please\n");
    let err = HookList::load(&bad).unwrap_err().to_string();
    assert!(err.contains("scrub_credentials"), "{err}");
}
