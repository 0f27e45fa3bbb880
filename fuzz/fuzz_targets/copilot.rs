//! The Copilot dialect's readers: any text loads as a hook file or a settings file into a
//! configuration plus diagnostics (never a panic), every diagnostic inside the text, and an
//! engine builds from whatever loaded; any exit, stdout and stderr decode by Copilot's rules
//! into an outcome with its record.
#![no_main]

use hooks_copilot::{Engine, EventName, Loader, RunRecord, Scope, decode_outcome};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [selector, exit, rest @ ..] = data else { return };
    if selector % 3 == 2 {
        let event = EventName::ALL[usize::from(*exit) % EventName::ALL.len()];
        let raw = common::raw(*exit, rest);
        let outcome = decode_outcome(event, &raw);
        common::has_record::<RunRecord>(&outcome, "Copilot");
        return;
    }
    let text = String::from_utf8_lossy(rest);
    let mut loader = Loader::new();
    if selector % 3 == 0 {
        loader.text("/fuzz/.github/hooks/hooks.json", &text, Scope::Repo);
    } else {
        loader.text("/fuzz/.github/copilot/settings.json", &text, Scope::Settings);
    }
    let config = loader.finish();
    common::positions_inside(&text, &config.diagnostics);
    let _ = Engine::new(config, "/fuzz", None);
});

#[path = "common.rs"]
mod common;
