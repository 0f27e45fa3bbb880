//! The native path builds no JSON: running a native hook on an event with a large tool input
//! allocates a few bytes, not a copy of the input.
//!
//! Its own test binary, because it installs a global allocator that counts the bytes each
//! thread allocates.

use hook_protocol::{
    Common, Dispatcher, Event, Payload, PreToolDecision, ToolCall, ToolPermission,
};
use hooks_native::{Answer, SeamHook};
use serde_json::{Value, json};
use test_support::Counting;

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Bytes this thread allocated while running `f`.
fn allocated<T>(f: impl FnOnce() -> T) -> (usize, T) {
    Counting::start();
    let before = Counting::thread_allocated();
    let out = f();
    ((Counting::thread_allocated() - before) as usize, out)
}

const INPUT_BYTES: usize = 8 << 20;

fn big_event() -> Event {
    let content = "x".repeat(INPUT_BYTES);
    let call = ToolCall::new("Write", json!({ "file_path": "/repo/big.txt", "content": content }));
    Event::new(Common::new("s1", "/repo"), Payload::PreTool(call))
}

fn size_guard() -> SeamHook {
    SeamHook::pre_tool("size-guard", |call: &ToolCall, _: &Common| {
        // Reading the input the event already holds is fine.
        let len = call.tool_input.get("content").and_then(Value::as_str).map_or(0, str::len);
        if len > 1 << 20 {
            Answer::deny(format!("{len} bytes is too large a write"))
        } else {
            Answer::allow()
        }
    })
}

#[test]
fn the_counter_sees_a_serialization() {
    // The control: serializing the event's input would cost at least its size.
    let event = big_event();
    let (bytes, json) = allocated(|| serde_json::to_vec(&event.payload));
    assert!(json.is_ok());
    assert!(bytes >= INPUT_BYTES, "serializing allocated only {bytes} bytes");
}

#[test]
fn running_a_native_hook_serializes_nothing() {
    let event = big_event();
    let hook = size_guard();
    let (bytes, outcome) = allocated(|| hook.run_now(&event));
    assert_eq!(outcome.verdict.decision, Some(hook_protocol::Decision::Deny));
    assert!(bytes < 4 << 10, "running the hook allocated {bytes} bytes");
}

#[test]
fn dispatching_to_native_hooks_serializes_nothing() {
    let event = big_event();
    let dispatcher = Dispatcher::builder()
        .hook(size_guard())
        .hook(SeamHook::pre_tool("note", |_: &ToolCall, _: &Common| Answer::context("checked")))
        .build()
        .unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let (bytes, report) = allocated(|| runtime.block_on(dispatcher.dispatch(&event)));
    let decision = report.decision::<PreToolDecision>();
    assert!(matches!(decision.permission, ToolPermission::Deny { .. }), "{decision:?}");
    assert!(
        bytes < 64 << 10,
        "dispatching allocated {bytes} bytes for an {INPUT_BYTES}-byte input"
    );
}
