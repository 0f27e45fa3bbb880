use std::sync::Mutex;
use std::time::Duration;

use async_trait::async_trait;
use serde_json::json;

use super::*;
use crate::{
    Common, Decision, Matcher, Payload, PreToolDecision, PromptSubmit, Source, ToolCall,
    ToolPermission,
};
use crate::{Continuation, FailMode, FailurePolicy, FromReport, TurnEnd, TurnEndDecision};

#[derive(Debug)]
struct Fake {
    info: HookInfo,
    delay_ms: u64,
    outcome: HookOutcome,
    seen: Mutex<Vec<serde_json::Value>>,
}

fn fake(id: &str, delay_ms: u64, outcome: HookOutcome) -> Fake {
    let mut info = HookInfo::new(id, Source::new("fake", None));
    info.on = On::seam(Seam::PreTool);
    Fake { info, delay_ms, outcome, seen: Mutex::new(Vec::new()) }
}

#[async_trait]
impl Hook for Fake {
    fn info(&self) -> &HookInfo {
        &self.info
    }

    async fn run(&self, event: &Event) -> HookOutcome {
        if let Some(call) = event.payload.tool_call() {
            self.seen.lock().unwrap().push(call.tool_input.clone());
        }
        tokio::time::sleep(Duration::from_millis(self.delay_ms)).await;
        self.outcome.clone()
    }
}

fn bash(command: &str) -> Event {
    Event::new(
        Common::new("s1", "/tmp"),
        Payload::PreTool(ToolCall::new("Bash", json!({"command": command}))),
    )
}

fn ok(v: Verdict) -> HookOutcome {
    HookOutcome::success(v)
}

#[tokio::test]
async fn parallel_fold_is_in_configuration_order_whatever_finishes_first() {
    // The first hook finishes last.
    let d = Dispatcher::builder()
        .hook(fake("slow", 60, ok(Verdict::deny("slow says no"))))
        .hook(fake("fast", 0, ok(Verdict::deny("fast says no"))))
        .hook(fake("ctx", 10, ok(Verdict::context("c"))))
        .build()
        .unwrap();
    let report = d.dispatch(&bash("ls")).await;
    assert_eq!(report.merged.decision, Some(Decision::Deny));
    assert_eq!(report.merged.reason().as_deref(), Some("slow says no\n\nfast says no"));
    let ids: Vec<_> = report.records.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["slow", "fast", "ctx"]);
}

#[tokio::test]
async fn hooks_run_concurrently_up_to_the_limit() {
    let mut b = Dispatcher::builder();
    for i in 0..4 {
        b = b.hook(fake(&format!("h{i}"), 100, ok(Verdict::no_opinion())));
    }
    let parallel = b.build().unwrap();
    let started = Instant::now();
    parallel.dispatch(&bash("ls")).await;
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_millis(350), "4 × 100 ms hooks took {elapsed:?}");

    let mut b = Dispatcher::builder().mode(Mode::Parallel { limit: 1 });
    for i in 0..3 {
        b = b.hook(fake(&format!("h{i}"), 50, ok(Verdict::no_opinion())));
    }
    let started = Instant::now();
    b.build().unwrap().dispatch(&bash("ls")).await;
    assert!(started.elapsed() >= Duration::from_millis(150), "limit 1 runs one at a time");
}

#[tokio::test]
async fn priority_orders_before_registration() {
    let mut late = fake("registered-last", 0, ok(Verdict::context("first by priority")));
    late.info.priority = -10;
    let d = Dispatcher::builder()
        .hook(fake("a", 0, ok(Verdict::context("a"))))
        .hook(fake("b", 0, ok(Verdict::context("b"))))
        .hook(late)
        .build()
        .unwrap();
    let report = d.dispatch(&bash("ls")).await;
    let ctx: Vec<_> = report.merged.context.iter().map(|c| c.value.as_str()).collect();
    assert_eq!(ctx, ["first by priority", "a", "b"]);
}

#[tokio::test]
async fn matchers_and_seams_select_hooks() {
    let mut only_write = fake("write", 0, ok(Verdict::deny("no writes")));
    only_write.info.matcher = Matcher::exact(["Write"]);
    let mut prompt = fake("prompt", 0, ok(Verdict::deny("no prompts")));
    prompt.info.on = On::seam(Seam::PromptSubmit);
    let mut every = fake("every", 0, ok(Verdict::no_opinion()));
    every.info.on = On::Every;
    let d = Dispatcher::builder().hook(only_write).hook(prompt).hook(every).build().unwrap();
    let report = d.dispatch(&bash("ls")).await;
    assert_eq!(report.records.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["every"]);
    assert_eq!(report.merged.decision, None);
    let p = Event::new(Common::new("s", "/"), PromptSubmit::new("hi"));
    let report = d.dispatch(&p).await;
    assert_eq!(report.records.len(), 2);
    assert_eq!(report.merged.decision, Some(Decision::Deny));
}

#[tokio::test]
async fn a_matcher_of_an_alias_selects_the_subject_and_the_hook_still_sees_its_own_name() {
    let mut edit = fake("edit", 0, ok(Verdict::deny("no edits")));
    edit.info.matcher = Matcher::names_or_pattern("Edit|Write").unwrap();
    let mut pattern = fake("pattern", 0, ok(Verdict::context("writes")));
    pattern.info.matcher = Matcher::pattern("^Wr").unwrap();
    let aliases = Aliases::new().alias("apply_patch", ["Edit", "Write"]);
    let d = Dispatcher::builder().hook(edit).hook(pattern).aliases(aliases).build().unwrap();
    let patch = Event::new(
        Common::new("s1", "/tmp"),
        Payload::PreTool(ToolCall::new("apply_patch", json!({"command": "*** Begin Patch"}))),
    );
    let report = d.dispatch(&patch).await;
    let ids: Vec<&str> = report.records.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["edit", "pattern"], "each alias is tested, each hook runs once");
    assert_eq!(report.merged.decision, Some(Decision::Deny));
    assert!(d.dispatch(&bash("ls")).await.records.is_empty(), "Bash has no alias here");
}

#[test]
fn names_or_pattern_is_the_shared_character_rule() {
    assert!(Matcher::names_or_pattern("").unwrap().is_any());
    assert!(Matcher::names_or_pattern("*").unwrap().is_any());
    let names = Matcher::names_or_pattern("Bash|apply_patch").unwrap();
    assert_eq!(names.exact_names(), Some(&["Bash".to_owned(), "apply_patch".to_owned()][..]));
    assert!(!names.is_match("BashOutput"), "exact names are exact");
    let regex = Matcher::names_or_pattern("^Ba.*").unwrap();
    assert!(regex.is_match("Bash") && !regex.is_match("apply_patch"));
    assert!(Matcher::names_or_pattern("[unclosed").is_err());
}

#[tokio::test]
async fn custom_events_reach_their_name_every_event_and_the_custom_seam() {
    let named = |id: &str, on: On| {
        let mut hook = fake(id, 0, ok(Verdict::no_opinion()));
        hook.info.on = on;
        hook
    };
    let d = Dispatcher::builder()
        .hook(named("deploy", On::Custom("Deploy".into())))
        .hook(named("other", On::Custom("Other".into())))
        .hook(named("custom-seam", On::seam(Seam::Custom)))
        .hook(named("every", On::Every))
        .hook(named("pre-tool", On::seam(Seam::PreTool)))
        .build()
        .unwrap();
    let ids =
        |event: &Event| d.matching(event).iter().map(|h| h.info().id.clone()).collect::<Vec<_>>();
    let custom = |name: &str| {
        Event::new(Common::new("s", "/"), crate::Custom::new(name, serde_json::Map::new()))
    };
    let deploy = custom("Deploy");
    assert_eq!(ids(&deploy), ["deploy", "custom-seam", "every"]);
    let unknown = custom("Unregistered");
    assert_eq!(ids(&unknown), ["custom-seam", "every"]);
    for hook in d.hooks() {
        for event in [&deploy, &unknown] {
            let routed = d.matching(event).iter().any(|h| h.info().id == hook.info().id);
            assert_eq!(routed, hook.info().on.applies_to(event), "{}", hook.info().id);
        }
    }
}

/// A hook registered only for `ls` commands, beyond its matcher.
#[derive(Debug)]
struct OnlyLs(Fake);

#[async_trait]
impl Hook for OnlyLs {
    fn info(&self) -> &HookInfo {
        &self.0.info
    }

    fn active(&self, event: &Event) -> bool {
        event.payload.tool_call().is_some_and(|c| c.tool_input["command"] == "ls")
    }

    async fn run(&self, event: &Event) -> HookOutcome {
        self.0.run(event).await
    }
}

#[tokio::test]
async fn an_inactive_hook_is_left_out_without_a_record() {
    let only_ls = Arc::new(OnlyLs(fake("only-ls", 0, ok(Verdict::deny("no ls")))));
    let every = fake("every", 0, ok(Verdict::no_opinion()));
    let d = Dispatcher::builder().hook(Arc::clone(&only_ls)).hook(every).build().unwrap();
    let report = d.dispatch(&bash("pwd")).await;
    assert_eq!(report.records.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["every"]);
    assert_eq!(d.matching(&bash("pwd")).len(), 1);
    let report = d.dispatch(&bash("ls")).await;
    assert_eq!(report.records.len(), 2);
    assert_eq!(report.merged.decision, Some(Decision::Deny));
    assert_eq!(only_ls.0.seen.lock().unwrap().len(), 1, "it ran once, on ls");
}

#[tokio::test]
async fn failure_policy_applies_to_failures_only() {
    let mut closed =
        fake("closed", 0, HookOutcome::failure(HookStatus::TimedOut, "timed out after 1s"));
    closed.info.failure_policy = FailurePolicy::CLOSED;
    let open = fake("open", 0, HookOutcome::failure(HookStatus::SpawnFailed, "no such file"));
    let mut closed_ok = fake("closed-ok", 0, ok(Verdict::allow()));
    closed_ok.info.failure_policy = FailurePolicy::CLOSED;
    let d = Dispatcher::builder().hook(open).hook(closed_ok).build().unwrap();
    assert_eq!(d.dispatch(&bash("ls")).await.merged.decision, Some(Decision::Allow));
    let d = Dispatcher::builder().hook(closed).build().unwrap();
    let report = d.dispatch(&bash("ls")).await;
    assert_eq!(report.merged.decision, Some(Decision::Deny));
    let reason = report.merged.reason().unwrap();
    assert!(reason.contains("`closed`") && reason.contains("timed out after 1s"), "{reason}");
    assert_eq!(report.records[0].status, HookStatus::TimedOut);
}

#[tokio::test]
async fn crashes_and_timeouts_each_have_their_mode() {
    // Copilot's preToolUse: a crash denies, a timeout does not.
    let policy = FailurePolicy::new(FailMode::Closed, FailMode::Open);
    let outcomes = [
        (HookStatus::Failed, Some(Decision::Deny)),
        (HookStatus::SpawnFailed, Some(Decision::Deny)),
        (HookStatus::TimedOut, None),
    ];
    for (status, decision) in outcomes {
        let mut hook = fake("h", 0, HookOutcome::failure(status, "it broke"));
        hook.info.failure_policy = policy;
        let d = Dispatcher::builder().hook(hook).build().unwrap();
        assert_eq!(d.dispatch(&bash("ls")).await.merged.decision, decision, "{status:?}");
    }
    // A dialect that read the crash as a deny of its own keeps its reason.
    let mut own = HookOutcome::failure(HookStatus::Failed, "exit 3");
    own.verdict = Verdict::deny("Denied by the dialect's own words");
    let mut hook = fake("own", 0, own);
    hook.info.failure_policy = FailurePolicy::CLOSED;
    let d = Dispatcher::builder().hook(hook).build().unwrap();
    let report = d.dispatch(&bash("ls")).await;
    assert_eq!(report.merged.reason().as_deref(), Some("Denied by the dialect's own words"));
}

#[tokio::test]
async fn a_follow_up_continues_the_turn_until_the_hooks_continuation_limit() {
    let mut follow = Verdict::no_opinion();
    follow.follow_up = Some("now run the tests".into());
    let turn_end = |continuations: u32| {
        let mut end = TurnEnd::new();
        end.continuations = continuations;
        Event::new(Common::new("s1", "/tmp"), Payload::TurnEnd(end))
    };
    let mut hook = fake("cursor-stop", 0, ok(follow));
    hook.info.on = On::seam(Seam::TurnEnd);
    hook.info.continuation_limit = Some(2);
    let d = Dispatcher::builder().hook(hook).build().unwrap();
    let report = d.dispatch(&turn_end(1)).await;
    assert_eq!(
        TurnEndDecision::from_report(&report).continuation,
        Continuation::FollowUp { prompt: "now run the tests".into() }
    );
    let report = d.dispatch(&turn_end(2)).await;
    assert_eq!(TurnEndDecision::from_report(&report).continuation, Continuation::Stop);
    assert!(report.records[0].warnings[0].starts_with("continuation limit reached (2 of 2)"));
}

#[tokio::test]
async fn pipeline_chains_rewrites_and_honours_end_chain() {
    let rewrite = |cmd: &str| {
        let mut v = Verdict::allow();
        v.updated_input = Some(json!({"command": cmd}));
        ok(v)
    };
    let first = fake("first", 0, rewrite("ls -a"));
    let second = fake("second", 0, rewrite("ls -la"));
    let mut stopper = Verdict::no_opinion();
    stopper.end_chain = true;
    let third = fake("third", 0, ok(stopper));
    let fourth = fake("fourth", 0, ok(Verdict::deny("never consulted")));
    let d = Dispatcher::builder()
        .mode(Mode::Pipeline)
        .hook(first)
        .hook(second)
        .hook(third)
        .hook(fourth)
        .build()
        .unwrap();
    let report = d.dispatch(&bash("ls")).await;
    let seen = |i: usize| {
        let h = &d.hooks()[i];
        format!("{h:?}")
    };
    assert!(seen(1).contains("ls -a"), "second saw the first rewrite: {}", seen(1));
    assert!(seen(2).contains("ls -la"), "third saw the second rewrite");
    assert_eq!(report.records[3].status, HookStatus::Skipped);
    let decision: PreToolDecision = report.decision();
    assert_eq!(decision.permission, ToolPermission::Allow { reason: None });
    assert_eq!(decision.updated_input, Some(json!({"command": "ls -la"})));
}

#[tokio::test]
async fn observer_gets_adjacent_pairs_in_configuration_order() {
    let log = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = log.clone();
    let observer = move |e: &HookEvent<'_>| {
        let line = match e {
            HookEvent::Started { id, .. } => format!("started {id}"),
            HookEvent::Invoked { id, .. } => format!("invoked {id}"),
            HookEvent::Result { record, .. } => format!("result {}", record.id),
        };
        sink.lock().unwrap().push(line);
    };
    let d = Dispatcher::builder()
        .hook(fake("a", 50, ok(Verdict::no_opinion())))
        .hook(fake("b", 0, ok(Verdict::no_opinion())))
        .hook(fake("c", 20, ok(Verdict::no_opinion())))
        .observer(Arc::new(observer))
        .build()
        .unwrap();
    d.dispatch(&bash("ls")).await;
    assert_eq!(
        *log.lock().unwrap(),
        [
            "started a",
            "started b",
            "started c",
            "invoked a",
            "result a",
            "invoked b",
            "result b",
            "invoked c",
            "result c"
        ]
    );
}

/// A hook that cannot finish before the observer has seen it start.
#[derive(Debug)]
struct WaitsToBeSeen {
    info: HookInfo,
    seen: Arc<tokio::sync::Notify>,
}

#[async_trait]
impl Hook for WaitsToBeSeen {
    fn info(&self) -> &HookInfo {
        &self.info
    }

    async fn run(&self, _event: &Event) -> HookOutcome {
        self.seen.notified().await;
        ok(Verdict::no_opinion())
    }
}

async fn started_is_observed_while_the_hook_runs() {
    let seen = Arc::new(tokio::sync::Notify::new());
    let signal = Arc::clone(&seen);
    let observer = move |e: &HookEvent<'_>| {
        if let HookEvent::Started { id: "waits", .. } = e {
            signal.notify_one();
        }
    };
    let mut info = HookInfo::new("waits", Source::new("fake", None));
    info.on = On::seam(Seam::PreTool);
    for mode in [Mode::default(), Mode::Pipeline] {
        let d = Dispatcher::builder()
            .hook(fake("other", 0, ok(Verdict::no_opinion())))
            .hook(WaitsToBeSeen { info: info.clone(), seen: Arc::clone(&seen) })
            .mode(mode)
            .observer(Arc::new(observer.clone()))
            .build()
            .unwrap();
        let report = tokio::time::timeout(Duration::from_secs(10), d.dispatch(&bash("ls")))
            .await
            .expect("the hook waits for its own hook/started event");
        assert_eq!(report.records[1].status, HookStatus::Success);
    }
}

#[tokio::test]
async fn hook_started_arrives_while_the_hook_runs() {
    started_is_observed_while_the_hook_runs().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hook_started_arrives_while_the_hook_runs_on_workers() {
    started_is_observed_while_the_hook_runs().await;
}

/// A hook that runs until it is dropped, and counts its drops.
#[derive(Debug)]
struct Endless {
    info: HookInfo,
    dropped: Arc<std::sync::atomic::AtomicUsize>,
}

struct CountDrop(Arc<std::sync::atomic::AtomicUsize>);

impl Drop for CountDrop {
    fn drop(&mut self) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
}

#[async_trait]
impl Hook for Endless {
    fn info(&self) -> &HookInfo {
        &self.info
    }

    async fn run(&self, _event: &Event) -> HookOutcome {
        let _guard = CountDrop(Arc::clone(&self.dropped));
        tokio::time::sleep(Duration::from_secs(600)).await;
        ok(Verdict::allow())
    }
}

fn endless(id: &str, dropped: &Arc<std::sync::atomic::AtomicUsize>) -> Endless {
    let mut info = HookInfo::new(id, Source::new("fake", None));
    info.on = On::seam(Seam::PreTool);
    Endless { info, dropped: Arc::clone(dropped) }
}

/// `fast` denies at once, `slow-1` and `slow-2` never end; with room for two at a time,
/// `slow-2` starts when `fast` is done; `never` waits for a slot that never frees.
async fn cancelling_keeps_a_report(mode: Mode) {
    let dropped = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut b = Dispatcher::builder()
        .hook(fake("fast", 0, ok(Verdict::deny("fast says no"))))
        .hook(endless("slow-1", &dropped));
    if mode != Mode::Pipeline {
        b = b.hook(endless("slow-2", &dropped));
    }
    let d = b.hook(endless("never", &dropped)).mode(mode).build().unwrap();
    let started = Instant::now();
    let report =
        d.dispatch_until(&bash("ls"), tokio::time::sleep(Duration::from_millis(100))).await;
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    assert!(report.cancelled());
    let statuses: Vec<_> =
        report.records.iter().map(|r| (r.id.as_str(), r.status, r.warnings.clone())).collect();
    let ran = "cancelled while it ran; its process tree was killed".to_owned();
    let before = "cancelled before it started".to_owned();
    let mut expected = vec![("fast", HookStatus::Success, vec![])];
    expected.push(("slow-1", HookStatus::Cancelled, vec![ran.clone()]));
    if mode == Mode::Pipeline {
        expected.push(("never", HookStatus::Cancelled, vec![before]));
    } else {
        expected.push(("slow-2", HookStatus::Cancelled, vec![ran]));
        expected.push(("never", HookStatus::Cancelled, vec![before]));
    }
    assert_eq!(statuses, expected);
    // What the finished hook said stands; the cancelled ones gave no verdict.
    assert_eq!(report.merged.decision, Some(Decision::Deny));
    assert_eq!(report.merged.reason().as_deref(), Some("fast says no"));
    // Every run that started was dropped before the report came back.
    let runs = if mode == Mode::Pipeline { 1 } else { 2 };
    assert_eq!(dropped.load(std::sync::atomic::Ordering::SeqCst), runs);
}

#[tokio::test]
async fn cancelling_a_parallel_dispatch_keeps_a_report() {
    cancelling_keeps_a_report(Mode::Parallel { limit: 2 }).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_a_spread_dispatch_keeps_a_report() {
    cancelling_keeps_a_report(Mode::Parallel { limit: 2 }).await;
}

#[tokio::test]
async fn cancelling_a_pipeline_keeps_a_report() {
    cancelling_keeps_a_report(Mode::Pipeline).await;
}

/// One matching hook runs in place (no set of futures): cancelling it still drops the run and
/// reports it cancelled.
#[tokio::test]
async fn cancelling_a_lone_hook_keeps_a_report() {
    let dropped = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let d = Dispatcher::builder().hook(endless("slow", &dropped)).build().unwrap();
    let report = d.dispatch_until(&bash("ls"), tokio::time::sleep(Duration::from_millis(50))).await;
    assert!(report.cancelled());
    let statuses: Vec<_> =
        report.records.iter().map(|r| (r.id.as_str(), r.status, r.warnings.clone())).collect();
    let ran = "cancelled while it ran; its process tree was killed".to_owned();
    assert_eq!(statuses, [("slow", HookStatus::Cancelled, vec![ran])]);
    assert_eq!(report.merged.decision, None);
    assert_eq!(dropped.load(std::sync::atomic::Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_cancellation_that_never_comes_changes_nothing() {
    let d = Dispatcher::builder().hook(fake("a", 0, ok(Verdict::deny("no")))).build().unwrap();
    let report = d.dispatch_until(&bash("ls"), std::future::pending()).await;
    assert!(!report.cancelled());
    assert_eq!(report.records[0].status, HookStatus::Success);
    assert_eq!(report.merged.reason().as_deref(), Some("no"));
}

#[tokio::test]
async fn no_hooks_is_no_opinion() {
    let d = Dispatcher::builder().build().unwrap();
    let report = d.dispatch(&bash("ls")).await;
    assert!(report.records.is_empty());
    assert_eq!(report.merged, Merged::default());
}

#[derive(Debug)]
struct Panics {
    info: HookInfo,
}

#[async_trait]
impl Hook for Panics {
    fn info(&self) -> &HookInfo {
        &self.info
    }

    async fn run(&self, _event: &Event) -> HookOutcome {
        tokio::task::yield_now().await;
        panic!("bug in a hook")
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_multi_thread_runtime_hooks_spread_and_fold_the_same() {
    let d = Dispatcher::builder()
        .hook(fake("slow", 60, ok(Verdict::deny("slow says no"))))
        .hook(fake("fast", 0, ok(Verdict::deny("fast says no"))))
        .hook(fake("ctx", 10, ok(Verdict::context("c"))))
        .build()
        .unwrap();
    let report = d.dispatch(&bash("ls")).await;
    assert_eq!(report.merged.reason().as_deref(), Some("slow says no\n\nfast says no"));
    let ids: Vec<_> = report.records.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["slow", "fast", "ctx"]);

    let mut b = Dispatcher::builder().mode(Mode::Parallel { limit: 1 });
    for i in 0..3 {
        b = b.hook(fake(&format!("h{i}"), 50, ok(Verdict::no_opinion())));
    }
    let started = Instant::now();
    b.build().unwrap().dispatch(&bash("ls")).await;
    assert!(started.elapsed() >= Duration::from_millis(150), "the limit holds on workers too");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_hook_is_a_failure_not_a_crash() {
    let mut info = HookInfo::new("buggy", Source::new("fake", None));
    info.on = On::seam(Seam::PreTool);
    info.failure_policy = FailurePolicy::CLOSED;
    let d = Dispatcher::builder()
        .hook(Panics { info })
        .hook(fake("fine", 0, ok(Verdict::context("still here"))))
        .build()
        .unwrap();
    let report = d.dispatch(&bash("ls")).await;
    assert_eq!(report.records[0].status, HookStatus::Failed);
    assert!(
        report.records[0].failure.as_deref().unwrap().contains("panicked"),
        "{:?}",
        report.records[0]
    );
    assert_eq!(report.merged.decision, Some(Decision::Deny), "it fails closed");
    assert_eq!(report.merged.context.len(), 1, "the other hook's answer is kept");
}

#[test]
fn the_records_of_the_slots_keep_their_order_in_the_slots_own_allocation() {
    let info = |id: &str| HookInfo::new(id, Source::new("fake", None));
    let at = Instant::now();
    let slot = |position: usize, id: &str| {
        Some(record(position, &info(id), HookOutcome::success(Verdict::no_opinion()), at))
    };
    let done = vec![slot(0, "a"), None, slot(2, "c"), slot(3, "d"), None];
    let allocation = done.as_ptr().cast::<u8>();
    let records = records_of(done);
    let ids: Vec<&str> = records.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["a", "c", "d"]);
    assert_eq!(records.iter().map(|r| r.position).collect::<Vec<_>>(), [0, 2, 3]);
    assert_eq!(records.as_ptr().cast::<u8>(), allocation, "collected in place");
    assert!(records_of(vec![None, None]).is_empty());
}
