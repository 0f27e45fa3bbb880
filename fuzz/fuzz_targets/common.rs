//! What the command dialects' targets share.

use hook_protocol::{Diagnostic, Exit, HookOutcome, RawOutcome, RecordData};

/// A run from fuzz bytes: the exit from `exit`, then stdout and stderr split at the first 0.
pub fn raw(exit: u8, rest: &[u8]) -> RawOutcome {
    let exit = match exit % 8 {
        0..=2 => Exit::Code { code: 0 },
        3 => Exit::Code { code: 2 },
        4 => Exit::Code { code: i32::from(exit) },
        5 => Exit::Signal { signal: i32::from(exit % 32) },
        6 => Exit::TimedOut { escalated: false },
        _ => Exit::TimedOut { escalated: true },
    };
    let (stdout, stderr) = match rest.iter().position(|&b| b == 0) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    RawOutcome::new(exit, stdout, stderr)
}

/// Every diagnostic is said, and points inside the text (line breaks are `\n`, `\r\n` or a
/// lone `\r`).
pub fn positions_inside(text: &str, diagnostics: &[Diagnostic]) {
    let lines = text.bytes().filter(|&b| b == b'\n' || b == b'\r').count() + 1;
    for diagnostic in diagnostics {
        let rendered = diagnostic.to_string();
        assert!(!rendered.is_empty());
        assert!(diagnostic.line <= lines, "{rendered}");
    }
}

/// A decoder's outcome carries the dialect's record.
pub fn has_record<R: RecordData>(outcome: &HookOutcome, dialect: &str) {
    let record = outcome.metadata.as_ref().and_then(|m| m.downcast_ref::<R>());
    assert!(record.is_some(), "no {dialect} record in {:?}", outcome.metadata);
}
