//! The Claude Code outcome rules per event: any exit, stdout and stderr decode to a status, a
//! verdict and a record (never a panic), and the record reads back.
#![no_main]

use hook_protocol::{Exit, RawOutcome};
use hooks_claude::{EventName, OnFailure, RunRecord, decode_outcome};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [event, exit, policy, rest @ ..] = data else { return };
    let event = EventName::ALL[usize::from(*event) % EventName::ALL.len()];
    let exit = match exit % 8 {
        0..=2 => Exit::Code { code: 0 },
        3 => Exit::Code { code: 2 },
        4 => Exit::Code { code: i32::from(*exit) },
        5 => Exit::Signal { signal: i32::from(*exit % 32) },
        6 => Exit::TimedOut { escalated: false },
        _ => Exit::TimedOut { escalated: true },
    };
    let on_failure = if policy & 1 == 0 { OnFailure::Continue } else { OnFailure::Block };
    let (stdout, stderr) = match rest.iter().position(|&b| b == 0) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let raw = RawOutcome::new(exit, stdout, stderr);
    let outcome = decode_outcome(event, &raw, on_failure);
    let meta = RunRecord::from_metadata(outcome.metadata.as_ref());
    let meta = meta.unwrap_or_else(|| panic!("no Claude record in {:?}", outcome.metadata));
    assert_eq!(meta.event, event.as_str());
    let _ = meta.parsed_output();
    if meta.output.is_some() {
        assert!(meta.parsed_output().is_some(), "a kept output parses again");
    }
});
