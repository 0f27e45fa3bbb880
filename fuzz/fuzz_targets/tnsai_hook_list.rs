//! The TNSAI hook-list loader: any text loads or yields errors that each name the file and a
//! position inside the text (never a panic).
#![no_main]

use std::path::Path;

use hooks_tnsai::HookList;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let file = Path::new("/nonexistent/fuzz/hooks.yaml");
    if let Err(errors) = HookList::parse(text, file) {
        // Line breaks are `\n`, `\r\n` or a lone `\r`: at most this many lines.
        let lines = text.bytes().filter(|&b| b == b'\n' || b == b'\r').count() + 1;
        for error in errors.errors() {
            let rendered = error.to_string();
            assert!(rendered.contains("hooks.yaml"), "{rendered}");
            if let Some(pos) = error.position {
                assert!(pos.line >= 1 && pos.line <= lines, "{rendered}");
            }
        }
    }
});
