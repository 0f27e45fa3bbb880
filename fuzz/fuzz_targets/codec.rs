//! The stdout codec: whatever bytes a hook prints, `sniff`, `parse_object` and `classify`
//! never panic, and what they report is consistent.
#![no_main]

use hook_protocol::Exit;
use hook_protocol::codec::{ExitClass, Stdout, classify, parse_object, sniff, trim};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let trimmed = trim(data);
    match sniff(data) {
        Stdout::Empty => assert!(trimmed.is_empty()),
        Stdout::Object(object) => {
            assert_eq!(parse_object(trimmed).ok(), Some(object.clone()));
            // What was decoded prints and decodes to the same value.
            let printed = serde_json::to_vec(&object).unwrap_or_default();
            assert_eq!(parse_object(&printed).ok(), Some(object));
        }
        Stdout::ObjectLine { object, line } => {
            let text = trimmed.split(|&b| b == b'\n').nth(line - 1).unwrap_or_default();
            assert_eq!(parse_object(trim(text)).ok(), Some(object));
            assert!(parse_object(trimmed).is_err());
        }
        Stdout::Text(text) => assert!(!text.is_empty()),
        _ => {}
    }
    if let Some((&first, rest)) = data.split_first() {
        let value = rest.iter().take(4).fold(0i32, |acc, &b| acc.wrapping_shl(8) | i32::from(b));
        let exit = match first % 3 {
            0 => Exit::Code { code: value },
            1 => Exit::Signal { signal: value },
            _ => Exit::TimedOut { escalated: value & 1 == 1 },
        };
        let class = classify(exit, 2);
        assert_eq!(class == Some(ExitClass::Success), exit == Exit::Code { code: 0 });
        assert_eq!(class == Some(ExitClass::Block), exit == Exit::Code { code: 2 });
        assert_eq!(class.is_none(), matches!(exit, Exit::TimedOut { .. }));
    }
});
