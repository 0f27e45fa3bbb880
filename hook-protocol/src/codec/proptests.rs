//! Property tests of the codec: whatever JSON object a hook prints, however it is surrounded
//! by whitespace or preceded by log lines, decodes to the value printed.

use proptest::prelude::*;
use serde_json::{Map, Number, Value};

use super::*;

/// Any finite JSON number: integers across the whole `i64` / `u64` range and any finite float.
fn arb_number() -> impl Strategy<Value = Number> {
    prop_oneof![
        any::<i64>().prop_map(Number::from),
        any::<u64>().prop_map(Number::from),
        any::<f64>().prop_filter_map("finite", Number::from_f64),
        (-1e3_f64..1e3).prop_filter_map("finite", Number::from_f64),
    ]
}

/// Any JSON value, nested a few levels, with any Unicode in strings and keys.
fn arb_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        arb_number().prop_map(Value::Number),
        any::<String>().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec((any::<String>(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

fn arb_object() -> impl Strategy<Value = Map<String, Value>> {
    proptest::collection::vec((any::<String>(), arb_value()), 0..6)
        .prop_map(|kv| kv.into_iter().collect())
}

/// Whitespace a hook may print around its answer (ASCII whitespace, as `trim` removes).
fn arb_space() -> impl Strategy<Value = String> {
    proptest::collection::vec(prop_oneof![Just(' '), Just('\t'), Just('\n'), Just('\r')], 0..6)
        .prop_map(|cs| cs.into_iter().collect())
}

/// A log line a hook may print before its answer: never starting with `{`, no newline.
fn arb_log_line() -> impl Strategy<Value = String> {
    "[^{\\s][^\n\r]{0,20}"
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// One object, compact or pretty, with any surrounding whitespace, sniffs to itself.
    #[test]
    fn any_object_with_any_whitespace_decodes_to_itself(
        object in arb_object(),
        pretty in any::<bool>(),
        before in arb_space(),
        after in arb_space(),
    ) {
        let printed = if pretty {
            serde_json::to_string_pretty(&object)
        } else {
            serde_json::to_string(&object)
        };
        let printed = format!("{before}{}{after}", printed.unwrap_or_default());
        prop_assert_eq!(sniff(printed.as_bytes()), Stdout::Object(object.clone()));
        prop_assert_eq!(parse_object(trim(printed.as_bytes())), Ok(object));
    }

    /// After log lines, the first object line is found, on its line.
    #[test]
    fn an_object_after_log_lines_is_found_on_its_line(
        object in arb_object(),
        logs in proptest::collection::vec(arb_log_line(), 1..4),
        trailer in proptest::option::of(arb_object()),
        after in arb_space(),
    ) {
        let mut text = logs.join("\n");
        text.push('\n');
        text.push_str(&serde_json::to_string(&object).unwrap_or_default());
        if let Some(t) = &trailer {
            text.push('\n');
            text.push_str(&serde_json::to_string(t).unwrap_or_default());
        }
        text.push_str(&after);
        let expected = Stdout::ObjectLine { object, line: logs.len() + 1 };
        prop_assert_eq!(sniff(text.as_bytes()), expected);
    }

    /// Any bytes at all: sniffing never panics and agrees with `parse_object` and `trim`.
    #[test]
    fn any_bytes_sniff_consistently(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        match sniff(&bytes) {
            Stdout::Empty => prop_assert!(trim(&bytes).is_empty()),
            Stdout::Object(o) => prop_assert_eq!(parse_object(trim(&bytes)), Ok(o)),
            Stdout::ObjectLine { .. } => prop_assert!(parse_object(trim(&bytes)).is_err()),
            Stdout::Text(t) => prop_assert!(!t.is_empty()),
        }
    }
}

/// Found by the `codec` fuzz target: an integer too large for `u64` is read as a float, and
/// without exact float parsing printing and reading it again gave another float.
#[test]
fn a_huge_integer_prints_and_reads_back_the_same() {
    let input = br#"{"hn":333333333311111111111111111111111111111333333}"#;
    let Stdout::Object(object) = sniff(input) else { unreachable!("one object") };
    let printed = serde_json::to_vec(&object).unwrap();
    assert_eq!(parse_object(&printed), Ok(object));
}
