//! The Gemini CLI dialect's readers: any text loads as a `settings.json` into a configuration
//! plus diagnostics (never a panic), every diagnostic inside the text, and an engine builds
//! from whatever loaded; any exit, stdout and stderr decode by Gemini's rules into an outcome
//! with its record.
#![no_main]

use hooks_gemini::{Engine, EventName, Loader, RunRecord, Scope, decode_outcome};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [selector, exit, rest @ ..] = data else { return };
    if selector % 2 == 1 {
        let event = EventName::ALL[usize::from(*exit) % EventName::ALL.len()];
        let raw = common::raw(*exit, rest);
        let outcome = decode_outcome(event, &raw);
        common::has_record::<RunRecord>(&outcome, "Gemini CLI");
        return;
    }
    let text = String::from_utf8_lossy(rest);
    let mut loader = Loader::new();
    loader.text("/fuzz/.gemini/settings.json", &text, Scope::Project);
    let config = loader.finish();
    common::positions_inside(&text, &config.diagnostics);
    let settings =
        hooks_gemini::hooks_config(&[("/fuzz/.gemini/settings.json".into(), text.into_owned())]);
    let _ = Engine::new(config, "/fuzz", None, None, settings);
});

#[path = "common.rs"]
mod common;
