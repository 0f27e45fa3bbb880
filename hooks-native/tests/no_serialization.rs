//! The native path builds no JSON: running a native hook on an event with a large tool input
//! allocates a few bytes, not a copy of the input.
//!
//! Its own test binary, because it installs a global allocator that counts the bytes each
//! thread allocates.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use hook_protocol::{
    Common, Dispatcher, Event, Payload, PreToolDecision, ToolCall, ToolPermission,
};
use hooks_native::{Answer, SeamHook};
use serde_json::{Value, json};

thread_local! {
    static ALLOCATED: Cell<usize> = const { Cell::new(0) };
}

struct Counting;

fn count(bytes: usize) {
    // `try_with`: the slot may be gone while the thread is being torn down.
    let _ = ALLOCATED.try_with(|a| a.set(a.get() + bytes));
}

#[expect(unsafe_code, reason = "a global allocator is an unsafe impl; it forwards to `System`")]
// SAFETY: every method forwards to `System` with the arguments it received.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which `System` shares.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size.saturating_sub(layout.size()));
        // SAFETY: as for `dealloc`; `new_size` comes from the caller's contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Bytes this thread allocated while running `f`.
fn allocated<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = ALLOCATED.with(Cell::get);
    let out = f();
    (ALLOCATED.with(Cell::get) - before, out)
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
