//! A payload's compact JSON, byte for byte what `serde_json::to_writer` prints (key order,
//! escapes and numbers alike; a property test compares the two), written faster: `serde_json`
//! inspects every byte of every string one at a time, while here a string is checked in
//! blocks the compiler turns into vector compares (a short string in two words), and the runs
//! that need no escape are copied whole. A tool call's input is mostly such runs (a command, a file's new text), and printing
//! it was the largest cost of an event in the engine.

use serde_json::{Map, Value};

/// How many bytes of a string are checked at once for one that needs an escape: four vector
/// registers of the baseline x86-64 (SSE2), or of NEON.
const BLOCK: usize = 64;

/// The width of one vector register, the step of a string's last bytes.
const LANE: usize = 16;

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

/// Whether a byte needs an escape inside a JSON string: a control character, `"` or `\\`.
///
/// Written as two compares instead of three: `b ^ 2` maps the control characters onto
/// themselves and `"` (0x22) onto 0x20, and nothing else below 0x21 (a test checks all 256
/// bytes against the plain rule).
#[inline(always)]
fn needs_escape(b: u8) -> bool {
    (b ^ 2) <= 0x20 || b == b'\\'
}

/// Whether any byte of `chunk` needs an escape. No early exit, so that the compiler turns it
/// into vector compares and one mask test.
#[inline(always)]
fn any_escape<const N: usize>(chunk: &[u8; N]) -> bool {
    chunk.iter().fold(0u8, |hit, &b| hit | u8::from(needs_escape(b))) != 0
}

/// A byte in every byte of a word.
const ONES: u64 = 0x0101_0101_0101_0101;

/// Whether any byte of a word needs an escape, by [`needs_escape`]'s rule on all eight bytes at
/// once: a byte of `x ^ 2` below 0x21, or a byte of `x` equal to `\\`. Each test is the
/// classic "some byte is below n" (n at most 0x80) and "some byte is zero" of a word: exact
/// about whether any byte is one, which is all that is asked.
#[inline(always)]
fn word_has_escape(x: u64) -> bool {
    let low = x ^ (ONES * 2);
    let below = low.wrapping_sub(ONES * 0x21) & !low;
    let slash = x ^ (ONES * u64::from(b'\\'));
    let zero = slash.wrapping_sub(ONES) & !slash;
    (below | zero) & (ONES * 0x80) != 0
}

/// Whether any byte of a string shorter than a lane needs an escape, without copying it: two
/// words that overlap cover it (four bytes each below eight bytes), one byte at a time below
/// four.
#[inline(always)]
fn short_has_escape(bytes: &[u8]) -> bool {
    if let (Some(first), Some(last)) = (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
        word_has_escape(u64::from_le_bytes(*first)) || word_has_escape(u64::from_le_bytes(*last))
    } else if let (Some(first), Some(last)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        let word =
            u64::from(u32::from_le_bytes(*first)) | (u64::from(u32::from_le_bytes(*last)) << 32);
        word_has_escape(word)
    } else {
        bytes.iter().any(|&b| needs_escape(b))
    }
}

/// Appends one string, quoted and escaped.
///
/// Whole blocks of [`BLOCK`] bytes are checked at once, then the rest by [`LANE`]s, the last
/// one ending at the string's end (a string shorter than a lane is checked by words); only a
/// block or lane that holds an escape is read byte by byte.
/// Every run between escapes is copied with one `extend_from_slice`.
pub(crate) fn write_str(s: &str, out: &mut Vec<u8>) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    // `bytes[..copied]` is written (escaped where needed); the rest is not yet.
    let mut copied = 0;
    let (blocks, rest) = bytes.as_chunks::<BLOCK>();
    for (n, block) in blocks.iter().enumerate() {
        if any_escape(block) {
            copied = escape_run(bytes, n * BLOCK, block, copied, out);
        }
    }
    let start = blocks.len() * BLOCK;
    let (lanes, tail) = rest.as_chunks::<LANE>();
    for (n, lane) in lanes.iter().enumerate() {
        if any_escape(lane) {
            copied = escape_run(bytes, start + n * LANE, lane, copied, out);
        }
    }
    if !tail.is_empty() {
        // The last lane of the string, overlapping bytes already checked (a hit among those
        // finds nothing new in the tail), or a string shorter than a lane by words.
        let hit = match bytes.last_chunk::<LANE>() {
            Some(last) => any_escape(last),
            None => short_has_escape(tail),
        };
        if hit {
            copied = escape_run(bytes, bytes.len() - tail.len(), tail, copied, out);
        }
    }
    out.extend_from_slice(&bytes[copied..]);
    out.push(b'"');
}

/// Writes the escapes of `chunk`, which starts at `bytes[start]`, with the unwritten run before
/// each; returns how much of `bytes` is written now.
fn escape_run(
    bytes: &[u8],
    start: usize,
    chunk: &[u8],
    mut copied: usize,
    out: &mut Vec<u8>,
) -> usize {
    for (j, &b) in chunk.iter().enumerate() {
        if needs_escape(b) {
            out.extend_from_slice(&bytes[copied..start + j]);
            escape(b, out);
            copied = start + j + 1;
        }
    }
    copied
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
pub(crate) mod tests {
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
    fn the_two_compare_rule_is_the_plain_rule_for_every_byte() {
        for b in 0..=u8::MAX {
            let plain = b < 0x20 || b == b'"' || b == b'\\';
            assert_eq!(needs_escape(b), plain, "byte {b:#04x}");
        }
    }

    #[test]
    fn the_word_test_finds_each_byte_that_needs_an_escape_at_each_place_and_no_other() {
        for b in 0..=u8::MAX {
            for at in 0..8 {
                for fill in [b' ', b'y', 0x7f, 0x80, 0xff, b'!', b'#', b'[', b']'] {
                    let mut word = [fill; 8];
                    word[at] = b;
                    let expected = word.iter().any(|&w| needs_escape(w));
                    assert_eq!(word_has_escape(u64::from_le_bytes(word)), expected, "{word:?}");
                }
            }
        }
    }

    #[test]
    fn escapes_at_every_position_of_every_length_through_the_lanes_print_as_serde_json_prints_them()
    {
        // Every length from empty to past a block and two lanes, so that each byte is in turn
        // in a block, a whole lane and the padded tail, at each end of each.
        for len in 0..=(BLOCK + 2 * LANE + 3) {
            let v = Value::String("y".repeat(len));
            assert_eq!(ours(&v), theirs(&v), "{len} bytes");
            for at in 0..len {
                for esc in ["\"", "\\", "\n", "\u{0}", "\u{1f}", "\u{7f}"] {
                    let mut s = "y".repeat(len);
                    s.replace_range(at..=at, esc);
                    let v = Value::String(s);
                    assert_eq!(ours(&v), theirs(&v), "{esc:?} at {at} of {len}");
                }
            }
        }
    }

    #[test]
    fn non_ascii_across_the_boundaries_prints_as_serde_json_prints_it() {
        // Multi-byte characters (2, 3 and 4 bytes, bytes at or above 0x80 that need no escape)
        // straddling every block and lane boundary, with escapes next to them.
        for pad in 0..LANE {
            for c in ["é", "日", "😀", "\u{2028}", "\u{ffff}"] {
                let s = format!("{}{}", "a".repeat(pad), c.repeat(BLOCK / c.len() + 3));
                let with_escapes = s.replace('a', "\"");
                for s in [s, with_escapes] {
                    let v = json!({ s.clone(): s });
                    assert_eq!(ours(&v), theirs(&v), "{s:?}");
                }
            }
        }
    }

    #[test]
    fn a_string_of_only_escapes_prints_as_serde_json_prints_it() {
        let every: String = (0u8..0x20).map(char::from).chain(['"', '\\']).collect();
        for n in [1, 2, 3, 5] {
            let v = Value::String(every.repeat(n));
            assert_eq!(ours(&v), theirs(&v), "{n} copies");
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

    /// Any JSON value, strings with escapes in them often (the writer tests use it too).
    pub(crate) fn any_value() -> impl Strategy<Value = Value> {
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

        #[test]
        fn the_word_test_is_the_byte_rule_on_any_word(x in any::<u64>()) {
            let bytes = x.to_le_bytes();
            prop_assert_eq!(word_has_escape(x), bytes.iter().any(|&b| needs_escape(b)));
        }
    }
}
