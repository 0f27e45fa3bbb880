//! A payload's compact JSON, byte for byte what `serde_json::to_writer` prints (key order,
//! escapes and numbers alike; a property test compares the two), written faster: `serde_json`
//! inspects every byte of every string one at a time, while here a string is checked in
//! blocks the compiler turns into vector compares, and the runs that need no escape are copied
//! whole. A tool call's input is mostly such runs (a command, a file's new text), and printing
//! it was the largest cost of an event in the engine.

use serde_json::{Map, Value};

/// How many bytes of a string are checked together for one that needs an escape.
const BLOCK: usize = 64;

/// The hex digits of a `\u00XX` escape, lower case as `serde_json` writes them.
const HEX: &[u8; 16] = b"0123456789abcdef";

/// Appends `map` as one compact JSON object.
pub(crate) fn write_object(map: &Map<String, Value>, out: &mut Vec<u8>) {
    out.push(b'{');
    for (i, (key, value)) in map.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_str(key, out);
        out.push(b':');
        write_value(value, out);
    }
    out.push(b'}');
}

/// Appends one value.
fn write_value(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        // `Number`'s `Display` is its serialization (itoa, and ryu for floats, which a
        // `Number` always holds finite).
        Value::Number(n) => {
            use std::io::Write as _;
            // Writing into a vector cannot fail.
            let _ = write!(out, "{n}");
        }
        Value::String(s) => write_str(s, out),
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_value(item, out);
            }
            out.push(b']');
        }
        Value::Object(map) => write_object(map, out),
    }
}

/// Whether a byte needs an escape inside a JSON string: a control character, `"` or `\`.
fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// Appends one string, quoted and escaped.
fn write_str(s: &str, out: &mut Vec<u8>) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    // `bytes[..copied]` is written (escaped where needed); the rest is not yet.
    let mut copied = 0;
    for (n, block) in bytes.chunks(BLOCK).enumerate() {
        // No early exit inside the block, so that it compiles to vector compares.
        if !block.iter().fold(false, |hit, &b| hit | needs_escape(b)) {
            continue;
        }
        let start = n * BLOCK;
        for (j, &b) in block.iter().enumerate() {
            if needs_escape(b) {
                out.extend_from_slice(&bytes[copied..start + j]);
                escape(b, out);
                copied = start + j + 1;
            }
        }
    }
    out.extend_from_slice(&bytes[copied..]);
    out.push(b'"');
}

/// Appends the escape of a byte that needs one, as `serde_json` writes it.
fn escape(b: u8, out: &mut Vec<u8>) {
    let short = match b {
        b'"' => b'"',
        b'\\' => b'\\',
        0x08 => b'b',
        0x09 => b't',
        0x0A => b'n',
        0x0C => b'f',
        0x0D => b'r',
        _ => {
            out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 0xF)],
            ]);
            return;
        }
    };
    out.extend_from_slice(&[b'\\', short]);
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    fn ours(value: &Value) -> Vec<u8> {
        let mut out = Vec::new();
        write_value(value, &mut out);
        out
    }

    fn theirs(value: &Value) -> Vec<u8> {
        serde_json::to_vec(value).unwrap_or_default()
    }

    #[test]
    fn every_ascii_byte_and_some_others_print_as_serde_json_prints_them() {
        for b in 0u8..0x80 {
            let s = format!("a{}b", char::from(b));
            let v = Value::String(s);
            assert_eq!(ours(&v), theirs(&v), "byte {b:#04x}");
        }
        for s in ["", "é", "日本語", "\u{7f}", "\u{2028}", "😀\"\\\n", &"x\"".repeat(40)] {
            let v = Value::String(s.to_owned());
            assert_eq!(ours(&v), theirs(&v), "{s:?}");
        }
    }

    #[test]
    fn escapes_on_every_side_of_a_block_boundary_print_as_serde_json_prints_them() {
        for at in 0..(3 * BLOCK) {
            for esc in ["\"", "\n", "\u{1}", "\\"] {
                let mut s = "y".repeat(3 * BLOCK);
                s.replace_range(at..=at, esc);
                let v = json!({ s.clone(): s });
                assert_eq!(ours(&v), theirs(&v), "{s:?}");
            }
        }
    }

    #[test]
    fn numbers_and_nesting_print_as_serde_json_prints_them() {
        let v = json!({
            "u": 18446744073709551615u64, "i": -9223372036854775808i64, "f": 0.1,
            "e": 1e300, "tiny": 5e-324, "neg": -0.0, "one": 1.0,
            "a": [null, true, false, [], {}, [1, [2, {"k": "v"}]]],
            "b": {"z": 1, "a": 2, "m": {"": ""}},
        });
        assert_eq!(ours(&v), theirs(&v));
    }

    fn any_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            any::<String>().prop_map(Value::String),
            "[\"\\\\\\x00-\\x1f a-z]{0,80}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 64, 8, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
                prop::collection::vec((any::<String>(), inner), 0..8)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn any_value_prints_as_serde_json_prints_it(v in any_value()) {
            prop_assert_eq!(ours(&v), theirs(&v));
        }
    }
}
