//! The Codex dialect's readers: any text loads as a `hooks.json` or a `config.toml` into a
//! configuration plus diagnostics (never a panic), every diagnostic inside the text, and an
//! engine builds from whatever loaded; any exit, stdout and stderr decode by Codex's rules
//! into an outcome with its record.
#![no_main]

use hooks_codex::{Engine, EventName, Loader, RunRecord, Scope, decode_outcome};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [selector, exit, rest @ ..] = data else { return };
    if selector % 3 == 2 {
        let event = EventName::ALL[usize::from(*exit) % EventName::ALL.len()];
        let raw = common::raw(*exit, rest);
        let outcome = decode_outcome(event, &raw);
        common::has_record::<RunRecord>(&outcome, "Codex");
        return;
    }
    let text = String::from_utf8_lossy(rest);
    let mut loader = Loader::new().trust_all(true);
    if selector % 3 == 0 {
        loader.hooks_json_text("/fuzz/.codex/hooks.json", &text, Scope::Project);
    } else {
        loader.config_toml_text("/fuzz/.codex/config.toml", &text, Scope::Project);
    }
    let config = loader.finish();
    common::positions_inside(&text, &config.diagnostics);
    let _ = Engine::new(config, "/fuzz", None);
});

#[path = "common.rs"]
mod common;
