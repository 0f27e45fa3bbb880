use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use hook_protocol::{
    Common, Continuation, Custom, Decision, Dispatcher, Event, FailurePolicy, Hook, HookStatus,
    Matcher, Mode, Payload, PermissionDecision, PostToolDecision, PreToolDecision,
    PromptPermission, PromptSubmit, PromptSubmitDecision, Report, RequestPermission, Seam, Source,
    ToolCall, ToolPermission, ToolResult, TurnEnd, TurnEndDecision,
};
use hooks_native::{Answer, DIALECT, SeamHook};
use serde_json::{Value, json};

fn common() -> Common {
    Common::new("s1", "/repo")
}

fn pre_tool(tool: &str, input: Value) -> Event {
    Event::new(common(), Payload::PreTool(ToolCall::new(tool, input)))
}

fn bash(command: &str) -> Event {
    pre_tool("Bash", json!({ "command": command }))
}

async fn dispatch(hooks: Vec<SeamHook>, mode: Mode, event: &Event) -> Report {
    let mut builder = Dispatcher::builder().mode(mode);
    for hook in hooks {
        builder = builder.hook(hook);
    }
    builder.build().unwrap().dispatch(event).await
}

async fn parallel(hooks: Vec<SeamHook>, event: &Event) -> Report {
    dispatch(hooks, Mode::default(), event).await
}

fn command(call: &ToolCall) -> &str {
    call.tool_input.get("command").and_then(Value::as_str).unwrap_or("")
}

fn ids(report: &Report) -> Vec<&str> {
    report.records.iter().map(|r| r.id.as_str()).collect()
}

#[tokio::test]
async fn a_native_deny_beside_a_native_allow_denies() {
    let allow = SeamHook::pre_tool("allow-all", |_: &ToolCall, _: &Common| Answer::allow());
    let deny = SeamHook::pre_tool("no-rm", |call: &ToolCall, _: &Common| {
        if command(call).contains("rm -rf") {
            Answer::deny("`rm -rf` is not allowed")
        } else {
            Answer::no_opinion()
        }
    });
    let report = parallel(vec![allow, deny], &bash("rm -rf /")).await;
    let decision = report.decision::<PreToolDecision>();
    assert_eq!(
        decision.permission,
        ToolPermission::Deny { reason: Some("`rm -rf` is not allowed".into()) }
    );
    assert_eq!(ids(&report), ["allow-all", "no-rm"]);
    assert!(report.records.iter().all(|r| r.status == HookStatus::Success));
    assert!(report.records.iter().all(|r| r.source.dialect == DIALECT));

    let allow = SeamHook::pre_tool("allow-all", |_: &ToolCall, _: &Common| Answer::allow());
    let deny = SeamHook::pre_tool("no-rm", |call: &ToolCall, _: &Common| {
        if command(call).contains("rm -rf") { Answer::deny("no") } else { Answer::no_opinion() }
    });
    let report = parallel(vec![allow, deny], &bash("ls")).await;
    assert_eq!(
        report.decision::<PreToolDecision>().permission,
        ToolPermission::Allow { reason: None }
    );
}

#[tokio::test]
async fn priority_orders_native_hooks_then_registration() {
    let ctx = |id: &'static str, priority: i32| {
        SeamHook::pre_tool(id, move |_: &ToolCall, _: &Common| Answer::context(id))
            .priority(priority)
    };
    let hooks = vec![ctx("zero-a", 0), ctx("late", 5), ctx("zero-b", 0), ctx("first", -10)];
    let report = parallel(hooks, &bash("ls")).await;
    assert_eq!(ids(&report), ["first", "zero-a", "zero-b", "late"]);
    let context: Vec<_> =
        report.decision::<PreToolDecision>().context.into_iter().map(|c| c.text).collect();
    assert_eq!(context, ["first", "zero-a", "zero-b", "late"]);
}

#[tokio::test]
async fn matchers_filter_native_hooks() {
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = |id: &'static str, matcher: Matcher| {
        let calls = calls.clone();
        SeamHook::pre_tool(id, move |_: &ToolCall, _: &Common| {
            calls.fetch_add(1, Ordering::SeqCst);
            Answer::deny(id)
        })
        .matcher(matcher)
    };
    let hooks = vec![
        counted("write-only", Matcher::exact(["Write", "Edit"])),
        counted("mcp", Matcher::pattern("^mcp__").unwrap()),
        counted("bash", Matcher::exact(["Bash"])),
    ];
    let report = parallel(hooks, &bash("ls")).await;
    assert_eq!(ids(&report), ["bash"]);
    assert_eq!(calls.load(Ordering::SeqCst), 1, "filtered hooks are not called");
    assert_eq!(report.merged.reason().as_deref(), Some("bash"));
}

#[tokio::test]
async fn a_hook_is_only_run_on_its_seam() {
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    let hook = SeamHook::prompt_submit("prompt", move |_: &PromptSubmit, _: &Common| {
        counter.fetch_add(1, Ordering::SeqCst);
        Answer::block("no")
    });
    assert_eq!(hook.info().on, hook_protocol::On::seam(Seam::PromptSubmit));
    let direct = hook.run_now(&bash("ls"));
    assert_eq!(direct.status, HookStatus::Skipped);
    let report = parallel(vec![hook], &bash("ls")).await;
    assert!(report.records.is_empty());
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn an_err_is_a_failure_and_the_failure_policy_applies() {
    let failing = |id: &'static str| {
        SeamHook::pre_tool(id, |_: &ToolCall, _: &Common| -> Result<Answer<_>, String> {
            Err("policy store unreachable".into())
        })
    };
    let allow = || SeamHook::pre_tool("allow", |_: &ToolCall, _: &Common| Answer::allow());

    // Fail open (the default): the failure is no opinion; the allow stands.
    let report = parallel(vec![failing("open"), allow()], &bash("ls")).await;
    assert_eq!(report.merged.decision, Some(Decision::Allow));
    let rec = &report.records[0];
    assert_eq!(rec.status, HookStatus::Failed);
    assert_eq!(rec.failure.as_deref(), Some("policy store unreachable"));
    assert_eq!(rec.verdict.decision, None);

    // Fail closed: the failure is a deny naming the hook and the error.
    let report = parallel(vec![failing("closed").fail_closed(), allow()], &bash("ls")).await;
    let decision = report.decision::<PreToolDecision>();
    let ToolPermission::Deny { reason: Some(reason) } = decision.permission else {
        panic!("expected a deny, got {:?}", decision.permission);
    };
    assert!(reason.contains("`closed`") && reason.contains("policy store unreachable"), "{reason}");
    let explicit = failing("explicit").failure_policy(FailurePolicy::CLOSED).run_now(&bash("ls"));
    assert_eq!(explicit.status, HookStatus::Failed);
}

#[tokio::test]
async fn a_panic_is_a_failure_too() {
    let panics = SeamHook::pre_tool("panics", |call: &ToolCall, _: &Common| -> Answer<_> {
        panic!("unexpected tool `{}`", call.tool_name)
    })
    .fail_closed();
    let report = parallel(vec![panics], &bash("ls")).await;
    assert_eq!(report.records[0].status, HookStatus::Failed);
    assert_eq!(report.records[0].failure.as_deref(), Some("panicked: unexpected tool `Bash`"));
    assert_eq!(report.merged.decision, Some(Decision::Deny));
}

#[tokio::test]
async fn typed_decisions_read_back_from_the_report() {
    // Pre-tool: rewritten input and context, with the native source and the label as origin.
    let rewrite = SeamHook::pre_tool("quiet", |call: &ToolCall, _: &Common| {
        Answer::allow()
            .with_input(json!({ "command": format!("{} --quiet", command(call)) }))
            .with_context("ran quietly")
    })
    .label("my_harness::hooks::quiet");
    let report = parallel(vec![rewrite], &bash("cargo build")).await;
    let d = report.decision::<PreToolDecision>();
    assert_eq!(d.permission, ToolPermission::Allow { reason: None });
    assert_eq!(d.updated_input, Some(json!({ "command": "cargo build --quiet" })));
    assert_eq!(d.context.len(), 1);
    assert_eq!(d.context[0].text, "ran quietly");
    assert_eq!(d.context[0].hook_id, "quiet");
    assert_eq!(d.context[0].source, Source::new("native", Some("my_harness::hooks::quiet".into())));
    assert_eq!(report.records[0].label, "my_harness::hooks::quiet");

    // Without a label, the origin is the id.
    let hook = SeamHook::pre_tool("ask", |_: &ToolCall, _: &Common| Answer::ask("sure?"));
    assert_eq!(hook.info().source, Source::new("native", Some("ask".into())));
    let d = parallel(vec![hook], &bash("ls")).await.decision::<PreToolDecision>();
    assert_eq!(d.permission, ToolPermission::Ask { reason: Some("sure?".into()) });

    // Prompt: block with context; the session facts are there to read.
    let prompt = SeamHook::prompt_submit("secrets", |p: &PromptSubmit, c: &Common| {
        assert_eq!(c.session_id, "s1");
        if p.prompt.contains("AKIA") {
            Answer::block("the prompt holds an access key")
        } else {
            Answer::context("no secrets found")
        }
    });
    let event = Event::new(common(), PromptSubmit::new("key AKIA123"));
    let d = parallel(vec![prompt], &event).await.decision::<PromptSubmitDecision>();
    assert_eq!(
        d.permission,
        PromptPermission::Block { reason: Some("the prompt holds an access key".into()) }
    );

    // Turn end: continue with the next instruction; halt carries its reason.
    let keep_going = SeamHook::turn_end("tests", |t: &TurnEnd, _: &Common| {
        if t.continuing { Answer::no_opinion() } else { Answer::continue_with("run the tests") }
    });
    let halt = SeamHook::turn_end("budget", |_: &TurnEnd, _: &Common| {
        Answer::no_opinion().halt("budget spent").with_message("stopping: budget spent")
    });
    let d = parallel(vec![keep_going, halt], &Event::new(common(), TurnEnd::new()))
        .await
        .decision::<TurnEndDecision>();
    assert_eq!(d.continuation, Continuation::Continue { reason: Some("run the tests".into()) });
    assert_eq!(d.control.halt, Some(Some("budget spent".into())));
    assert_eq!(d.control.messages, ["stopping: budget spent"]);

    // Permission request: allow with a rewritten input.
    let grant = SeamHook::permission_request("grant", |_: &ToolCall, _: &Common| {
        Answer::allow().with_input(json!({ "file_path": "/repo/safe" }))
    });
    let event = Event::new(
        common(),
        Payload::PermissionRequest(ToolCall::new("Write", json!({ "file_path": "/etc" }))),
    );
    let d = parallel(vec![grant], &event).await.decision::<PermissionDecision>();
    assert_eq!(
        d.permission,
        RequestPermission::Allow { updated_input: Some(json!({ "file_path": "/repo/safe" })) }
    );

    // Post-tool: blocking feedback for the model.
    let lint = SeamHook::post_tool("lint", |r: &ToolResult, _: &Common| {
        if r.tool_response.get("warnings").is_some() {
            Answer::block("fix the warnings first")
        } else {
            Answer::no_opinion()
        }
    });
    let result = ToolResult::new(ToolCall::new("Bash", json!({})), json!({ "warnings": 3 }));
    let d =
        parallel(vec![lint], &Event::new(common(), result)).await.decision::<PostToolDecision>();
    assert_eq!(d.feedback.as_deref(), Some("fix the warnings first"));
}

#[tokio::test]
async fn in_a_pipeline_a_native_rewrite_reaches_the_next_native_hook() {
    let rewrite = SeamHook::pre_tool("rewrite", |_: &ToolCall, _: &Common| {
        Answer::no_opinion().with_input(json!({ "command": "ls -la" }))
    })
    .priority(-1);
    let check = SeamHook::pre_tool("check", |call: &ToolCall, _: &Common| {
        Answer::context(format!("saw `{}`", command(call)))
    });
    let report = dispatch(vec![check, rewrite], Mode::Pipeline, &bash("ls")).await;
    let d = report.decision::<PreToolDecision>();
    assert_eq!(d.context[0].text, "saw `ls -la`");
    assert_eq!(d.updated_input, Some(json!({ "command": "ls -la" })));
}

#[tokio::test]
async fn end_chain_stops_later_hooks_in_a_pipeline() {
    let stop = SeamHook::pre_tool("stop", |_: &ToolCall, _: &Common| Answer::allow().end_chain());
    let later = SeamHook::pre_tool("later", |_: &ToolCall, _: &Common| Answer::deny("late"));
    let report = dispatch(vec![stop, later], Mode::Pipeline, &bash("ls")).await;
    assert_eq!(report.merged.decision, Some(Decision::Allow));
    assert_eq!(report.records[1].status, HookStatus::Skipped);
}

#[tokio::test]
async fn custom_events_are_routed_by_name() {
    let hook = SeamHook::custom("deploy-gate", "Deploy", |e: &Custom, _: &Common| {
        match e.fields.get("env").and_then(Value::as_str) {
            Some("prod") => Answer::deny("no deploys to prod on a Friday"),
            _ => Answer::allow(),
        }
    });
    let mut fields = serde_json::Map::new();
    fields.insert("env".into(), json!("prod"));
    let deploy = Event::new(common(), Custom::new("Deploy", fields.clone()));
    let other = Event::new(common(), Custom::new("Rollback", fields));
    let dispatcher = Dispatcher::builder().shared(hook.shared()).build().unwrap();
    assert_eq!(dispatcher.dispatch(&deploy).await.merged.decision, Some(Decision::Deny));
    assert!(dispatcher.dispatch(&other).await.records.is_empty());
}

#[test]
fn run_now_is_what_the_dispatcher_gets() {
    let hook = SeamHook::pre_tool("guard", |call: &ToolCall, _: &Common| {
        Answer::deny(format!("no `{}`", call.tool_name))
    });
    let outcome = hook.run_now(&bash("ls"));
    assert_eq!(outcome.status, HookStatus::Success);
    assert_eq!(
        outcome.verdict,
        Answer::<hooks_native::seam::PreTool>::deny("no `Bash`").into_verdict()
    );
    assert!(format!("{hook:?}").contains("guard"));
}

#[tokio::test]
async fn an_async_hook_answers_after_awaiting_and_folds_with_sync_ones() {
    let (tx, rx) = tokio::sync::watch::channel(false);
    let policy = SeamHook::pre_tool_async("policy-service", move |call: ToolCall, _: Common| {
        let mut rx = rx.clone();
        async move {
            // The answer waits on something outside the hook.
            rx.wait_for(|ready| *ready).await.map_err(|e| e.to_string())?;
            Ok::<_, String>(if command(&call).contains("deploy") {
                Answer::deny("deploys go through the release train")
            } else {
                Answer::no_opinion()
            })
        }
    })
    .priority(-1);
    assert!(policy.is_async());
    let allow = SeamHook::pre_tool("allow-all", |_: &ToolCall, _: &Common| Answer::allow());
    let release = async {
        tokio::task::yield_now().await;
        tx.send(true).unwrap();
    };
    let event = bash("make deploy");
    let (report, ()) = tokio::join!(parallel(vec![allow, policy], &event), release);
    assert_eq!(ids(&report), ["policy-service", "allow-all"]);
    assert_eq!(
        report.decision::<PreToolDecision>().permission,
        ToolPermission::Deny { reason: Some("deploys go through the release train".into()) }
    );
}

#[tokio::test]
async fn an_async_hook_that_errs_or_panics_is_a_failure_under_its_policy() {
    let errs = SeamHook::pre_tool_async("errs", |_: ToolCall, _: Common| async {
        tokio::task::yield_now().await;
        Err::<Answer<hooks_native::seam::PreTool>, _>("the policy service is down")
    })
    .fail_closed();
    let panics = SeamHook::pre_tool_async("panics", |_: ToolCall, _: Common| async {
        tokio::task::yield_now().await;
        if true {
            panic!("bug in the hook");
        }
        Answer::<hooks_native::seam::PreTool>::no_opinion()
    });
    let report = parallel(vec![errs, panics], &bash("ls")).await;
    let statuses: Vec<_> = report.records.iter().map(|r| (r.status, r.failure.clone())).collect();
    assert_eq!(
        statuses,
        [
            (HookStatus::Failed, Some("the policy service is down".to_owned())),
            (HookStatus::Failed, Some("panicked: bug in the hook".to_owned())),
        ]
    );
    assert!(matches!(
        report.decision::<PreToolDecision>().permission,
        ToolPermission::Deny { reason: Some(r) } if r.contains("the policy service is down")
    ));
}

#[tokio::test]
async fn an_async_hook_is_dropped_when_the_dispatch_is_cancelled() {
    struct Flag(Arc<AtomicUsize>);
    impl Drop for Flag {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
    let dropped = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&dropped);
    let stuck = SeamHook::pre_tool_async("stuck", move |_: ToolCall, _: Common| {
        let flag = Flag(Arc::clone(&seen));
        async move {
            let _flag = flag;
            std::future::pending::<()>().await;
            Answer::<hooks_native::seam::PreTool>::allow()
        }
    });
    let dispatcher = Dispatcher::builder().hook(stuck).build().unwrap();
    let report = dispatcher.dispatch_until(&bash("ls"), tokio::task::yield_now()).await;
    assert_eq!(report.records[0].status, HookStatus::Cancelled);
    assert_eq!(dropped.load(Ordering::SeqCst), 1);
}

#[test]
fn an_async_hook_cannot_run_now_and_ignores_other_seams() {
    let hook = SeamHook::turn_end_async("later", |_: TurnEnd, _: Common| async {
        Answer::continue_with("more")
    });
    let outcome = hook.run_now(&Event::new(common(), TurnEnd::new()));
    assert_eq!(outcome.status, HookStatus::Failed);
    assert_eq!(
        outcome.failure.as_deref(),
        Some("native hook `later` is asynchronous and cannot run synchronously")
    );
    assert_eq!(hook.run_now(&bash("ls")).status, HookStatus::Skipped);
}

#[tokio::test]
async fn a_native_deny_says_how_serious_it_is() {
    let deny = SeamHook::pre_tool("no-secrets", |_: &ToolCall, _: &Common| {
        Answer::deny("reads the key store").with_severity(hook_protocol::Severity::Critical)
    });
    let d = parallel(vec![deny], &bash("cat ~/.ssh/id_rsa")).await.decision::<PreToolDecision>();
    assert_eq!(d.control.severity, Some(hook_protocol::Severity::Critical));
}
