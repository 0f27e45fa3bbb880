//! The Cursor dialect's readers: any text loads as a `hooks.json` into a configuration plus
//! diagnostics (never a panic), every diagnostic inside the text, and an engine builds from
//! whatever loaded; any exit, stdout and stderr decode by Cursor's rules (a `failClosed` hook
//! or not) into an outcome with its record.
#![no_main]

use hooks_cursor::{Engine, EventName, Loader, RunRecord, Scope, decode_outcome};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [selector, exit, rest @ ..] = data else { return };
    if selector % 2 == 1 {
        let event = EventName::ALL[usize::from(*exit) % EventName::ALL.len()];
        let raw = common::raw(*exit, rest);
        let outcome = decode_outcome(event, &raw, selector & 2 != 0);
        common::has_record::<RunRecord>(&outcome, "Cursor");
        return;
    }
    let text = String::from_utf8_lossy(rest);
    let mut loader = Loader::new();
    loader.text("/fuzz/.cursor/hooks.json", &text, Scope::Project);
    let config = loader.finish();
    common::positions_inside(&text, &config.diagnostics);
    let _ = Engine::new(config, "/fuzz", None, None);
});

#[path = "common.rs"]
mod common;
