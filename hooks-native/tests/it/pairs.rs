use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use hooks_native::{
    Agent, Half, Hooks, Pair, PairName, Prompt, RegisterError, Stages, Task, Tool, UnknownPair,
};

/// An error that carries data, to check it reaches the caller unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
struct StageError {
    who: &'static str,
    code: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Call {
    name: String,
    args: Vec<String>,
}

/// Different types per pair, so that a mix-up cannot compile (or register by name).
struct Harness;

impl Stages for Harness {
    type Error = StageError;
    type TaskSubject = String;
    type TaskResult = String;
    type PromptSubject = Vec<String>;
    type PromptResult = Option<String>;
    type AgentSubject = u32;
    type AgentResult = u64;
    type ToolSubject = Call;
    type ToolResult = Option<String>;
}

type Log = Arc<Mutex<Vec<String>>>;

fn log() -> Log {
    Arc::new(Mutex::new(Vec::new()))
}

fn entries(log: &Log) -> Vec<String> {
    log.lock().unwrap().clone()
}

fn call(name: &str) -> Call {
    Call { name: name.into(), args: Vec::new() }
}

/// A before hook that logs and appends its tag to the call's arguments.
fn tag_before(log: &Log, tag: &'static str) -> impl Fn(Call) -> Result<Call, StageError> + use<> {
    let log = log.clone();
    move |mut c: Call| {
        log.lock().unwrap().push(format!("before {tag}"));
        c.args.push(tag.into());
        Ok(c)
    }
}

/// An after hook that logs and appends its tag to the output.
fn tag_after(
    log: &Log,
    tag: &'static str,
) -> impl Fn(Option<String>) -> Result<Option<String>, StageError> + use<> {
    let log = log.clone();
    move |out: Option<String>| {
        log.lock().unwrap().push(format!("after {tag}"));
        Ok(out.map(|o| format!("{o}>{tag}")))
    }
}

#[test]
fn befores_run_in_registration_order_and_afters_in_reverse() {
    let log = log();
    let mut hooks = Hooks::<Harness>::new();
    hooks.register(Tool, tag_before(&log, "a"), tag_after(&log, "a"));
    hooks.before(Tool, tag_before(&log, "b"));
    hooks.after(Tool, tag_after(&log, "c"));
    hooks.register(Tool, tag_before(&log, "d"), tag_after(&log, "d"));
    let body_log = log.clone();
    let out = hooks
        .around(Tool, call("Bash"), |c| {
            body_log.lock().unwrap().push(format!("body {}", c.args.join(",")));
            Ok(Some("out".to_owned()))
        })
        .unwrap();
    assert_eq!(
        entries(&log),
        ["before a", "before b", "before d", "body a,b,d", "after d", "after c", "after a"]
    );
    assert_eq!(out.as_deref(), Some("out>d>c>a"));
}

#[test]
fn each_hook_receives_what_the_previous_returned() {
    let mut hooks = Hooks::<Harness>::new();
    hooks
        .before(Agent, |n: u32| Ok(n * 10))
        .before(Agent, |n: u32| Ok(n + 1))
        .after(Agent, |r: u64| Ok(r * 2))
        .after(Agent, |r: u64| Ok(r + 3));
    // befores: (4 * 10) + 1 = 41; body: 41 -> 41; afters reversed: (41 + 3) * 2 = 88.
    assert_eq!(hooks.around(Agent, 4, |n| Ok(u64::from(n))), Ok(88));
}

#[test]
fn an_empty_value_is_an_alteration_like_any_other() {
    let seen = log();
    let mut hooks = Hooks::<Harness>::new();
    hooks.after(Prompt, {
        let seen = seen.clone();
        move |answer: Option<String>| {
            seen.lock().unwrap().push(format!("{answer:?}"));
            Ok(answer)
        }
    });
    hooks.after(Prompt, |_answer: Option<String>| Ok(None));
    hooks.before(Prompt, |_messages: Vec<String>| Ok(Vec::new()));
    let out = hooks.around(Prompt, vec!["hello".into()], |messages| {
        assert!(messages.is_empty(), "the body sees the emptied subject: {messages:?}");
        Ok(Some("answer".into()))
    });
    // The second after emptied the result; the first received `None`, not the body's answer.
    assert_eq!(out, Ok(None));
    assert_eq!(entries(&seen), ["None"]);
}

#[test]
fn hooks_that_do_not_alter_return_what_they_received() {
    let mut hooks = Hooks::<Harness>::new();
    hooks.before(Task, Ok).after(Task, Ok);
    assert_eq!(hooks.around(Task, "t".into(), |t| Ok(format!("{t}!"))), Ok("t!".into()));
}

#[test]
fn the_public_halves_are_the_two_sides_of_around() {
    let log = log();
    let mut hooks = Hooks::<Harness>::new();
    hooks.register(Tool, tag_before(&log, "a"), tag_after(&log, "a"));
    hooks.register(Tool, tag_before(&log, "b"), tag_after(&log, "b"));
    // A callback-driven tool loop: one callback before the call, one after its result.
    let subject = hooks.run_before(Tool, call("Read")).unwrap();
    assert_eq!(subject.args, ["a", "b"]);
    assert_eq!(entries(&log), ["before a", "before b"]);
    let result = hooks.run_after(Tool, Some("r".into())).unwrap();
    assert_eq!(result.as_deref(), Some("r>b>a"));
    assert_eq!(entries(&log), ["before a", "before b", "after b", "after a"]);

    let mut whole = Hooks::<Harness>::new();
    let log2 = self::log();
    whole.register(Tool, tag_before(&log2, "a"), tag_after(&log2, "a"));
    whole.register(Tool, tag_before(&log2, "b"), tag_after(&log2, "b"));
    let around = whole.around(Tool, call("Read"), |_| Ok(Some("r".into()))).unwrap();
    assert_eq!(around, result);
    assert_eq!(entries(&log2), entries(&log));
}

#[test]
fn with_nothing_registered_around_is_exactly_the_body() {
    let hooks = Hooks::<Harness>::new();
    assert!(hooks.is_empty());
    let calls = AtomicUsize::new(0);
    let ok = hooks.around(Task, "in".into(), |t| {
        calls.fetch_add(1, Ordering::SeqCst);
        Ok(t)
    });
    assert_eq!(ok, Ok("in".to_owned()));
    let failed = hooks.around(Task, "in".into(), |_| {
        calls.fetch_add(1, Ordering::SeqCst);
        Err(StageError { who: "body", code: 7 })
    });
    assert_eq!(failed, Err(StageError { who: "body", code: 7 }));
    assert_eq!(calls.load(Ordering::SeqCst), 2, "the body runs exactly once per call");
    assert_eq!(hooks.run_before(Agent, 5), Ok(5));
    assert_eq!(hooks.run_after(Agent, 6), Ok(6));
    assert_eq!(hooks.chain(Tool).befores(), 0);
    assert_eq!(hooks.chain(Tool).afters(), 0);
}

#[test]
fn pairs_are_independent() {
    let log = log();
    let mut hooks = Hooks::<Harness>::new();
    hooks.register(Tool, tag_before(&log, "tool"), tag_after(&log, "tool"));
    assert!(!hooks.is_empty());
    assert_eq!(hooks.around(Task, "t".into(), Ok), Ok("t".into()));
    assert_eq!(hooks.around(Prompt, vec![], |_| Ok(None)), Ok(None));
    assert!(entries(&log).is_empty(), "{:?}", entries(&log));
}

#[test]
fn a_before_error_stops_everything_and_reaches_the_caller_unchanged() {
    let log = log();
    let mut hooks = Hooks::<Harness>::new();
    hooks.register(Tool, tag_before(&log, "a"), tag_after(&log, "a"));
    hooks.before(Tool, |_c: Call| Err(StageError { who: "before", code: 42 }));
    hooks.register(Tool, tag_before(&log, "c"), tag_after(&log, "c"));
    let body_ran = AtomicUsize::new(0);
    let out = hooks.around(Tool, call("Bash"), |_| {
        body_ran.fetch_add(1, Ordering::SeqCst);
        Ok(None)
    });
    assert_eq!(out, Err(StageError { who: "before", code: 42 }));
    assert_eq!(body_ran.load(Ordering::SeqCst), 0);
    assert_eq!(entries(&log), ["before a"], "no later before, no after");
    assert_eq!(hooks.run_before(Tool, call("Bash")), Err(StageError { who: "before", code: 42 }));
}

#[test]
fn a_body_error_skips_the_afters() {
    let log = log();
    let mut hooks = Hooks::<Harness>::new();
    hooks.register(Tool, tag_before(&log, "a"), tag_after(&log, "a"));
    let out = hooks.around(Tool, call("Bash"), |_| Err(StageError { who: "body", code: 1 }));
    assert_eq!(out, Err(StageError { who: "body", code: 1 }));
    assert_eq!(entries(&log), ["before a"]);
}

#[test]
fn an_after_error_stops_the_remaining_afters() {
    let log = log();
    let mut hooks = Hooks::<Harness>::new();
    hooks.after(Tool, tag_after(&log, "first-registered"));
    hooks.after(Tool, |_r: Option<String>| Err(StageError { who: "after", code: 3 }));
    hooks.after(Tool, tag_after(&log, "last-registered"));
    let out = hooks.around(Tool, call("Bash"), |_| Ok(Some("r".into())));
    assert_eq!(out, Err(StageError { who: "after", code: 3 }));
    // Reverse order: the last registered ran, then the failing one; the first never ran.
    assert_eq!(entries(&log), ["after last-registered"]);
    assert_eq!(hooks.run_after(Tool, None), Err(StageError { who: "after", code: 3 }));
}

#[test]
fn registration_by_name_works_for_the_four_names() {
    let log = log();
    let mut hooks = Hooks::<Harness>::new();
    let push = |tag: &'static str| {
        let log = log.clone();
        move || log.lock().unwrap().push(tag.to_owned())
    };
    let (t, p, a, u) = (push("task"), push("prompt"), push("agent"), push("tool"));
    hooks
        .before_by_name("task", move |s: String| {
            t();
            Ok(s + "+task")
        })
        .unwrap()
        .after_by_name("prompt", move |r: Option<String>| {
            p();
            Ok(r)
        })
        .unwrap()
        .before_by_name("agent", move |n: u32| {
            a();
            Ok(n + 1)
        })
        .unwrap()
        .after_by_name("tool", move |r: Option<String>| {
            u();
            Ok(r.map(|s| s.to_uppercase()))
        })
        .unwrap();
    assert_eq!(hooks.around(Task, "x".into(), Ok), Ok("x+task".into()));
    assert_eq!(hooks.around(Prompt, vec![], |_| Ok(None)), Ok(None));
    assert_eq!(hooks.around(Agent, 1, |n| Ok(u64::from(n))), Ok(2));
    assert_eq!(hooks.around(Tool, call("Bash"), |c| Ok(Some(c.name))), Ok(Some("BASH".into())));
    assert_eq!(entries(&log), ["task", "prompt", "agent", "tool"]);
    // The names are the pairs' own.
    assert_eq!(<Task as Pair<Harness>>::NAME, PairName::Task);
    assert_eq!(<Tool as Pair<Harness>>::NAME.to_string(), "tool");
}

#[test]
fn an_unknown_pair_name_is_an_error_that_names_it() {
    let mut hooks = Hooks::<Harness>::new();
    let err = hooks.before_by_name("tol", |c: Call| Ok(c)).unwrap_err();
    let RegisterError::UnknownPair(UnknownPair { name, .. }) = &err else {
        panic!("expected an unknown pair, got {err:?}");
    };
    assert_eq!(name, "tol");
    assert_eq!(
        err.to_string(),
        "unknown hook pair `tol`; known pairs: `task`, `prompt`, `agent`, `tool`"
    );
    let err = "tol".parse::<PairName>().unwrap_err();
    assert_eq!(err.to_string(), RegisterError::from(err.clone()).to_string());
    assert!(hooks.after_by_name("Tool", |r: Option<String>| Ok(r)).is_err());
    assert!(hooks.is_empty(), "nothing was registered");
}

#[test]
fn registration_by_name_checks_the_hook_type() {
    let mut hooks = Hooks::<Harness>::new();
    let err = hooks.before_by_name("agent", |s: String| Ok(s)).unwrap_err();
    match &err {
        RegisterError::TypeMismatch { pair, half, expected, found } => {
            assert_eq!((*pair, *half), (PairName::Agent, Half::Before));
            assert_eq!(*expected, "u32");
            assert_eq!(*found, "alloc::string::String");
        }
        other => panic!("expected a type mismatch, got {other:?}"),
    }
    assert_eq!(
        err.to_string(),
        "before hook for pair `agent` takes `alloc::string::String`, but the pair's subject is `u32`"
    );
    let err = hooks.after_by_name("agent", |n: u32| Ok(n)).unwrap_err();
    assert!(err.to_string().contains("the pair's result is `u64`"), "{err}");
    assert!(hooks.is_empty(), "nothing was registered");
}

#[test]
fn hooks_can_be_shared_across_threads() {
    let mut hooks = Hooks::<Harness>::new();
    hooks.before(Agent, |n: u32| Ok(n + 1));
    let hooks = Arc::new(hooks);
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let hooks = hooks.clone();
            std::thread::spawn(move || hooks.around(Agent, i, |n| Ok(u64::from(n))))
        })
        .collect();
    let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(results, [Ok(1), Ok(2), Ok(3), Ok(4)]);
}
