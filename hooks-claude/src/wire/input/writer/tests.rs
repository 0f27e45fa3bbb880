use proptest::prelude::*;
use serde::Serialize;
use serde_json::{Map, Value, json};

use super::write_top;
use crate::EventName;
use crate::input::*;
use crate::samples::payload_of;
use crate::wire::input::compact::tests::any_value;
use crate::wire::input::{compact, stdin_bytes, stdin_straight};

/// What the object path prints for `value` with `hook_event_name` at `at`: `None` when the
/// value is not an object.
fn through_the_object<T: Serialize>(value: &T, name: &str, at: usize) -> Option<Vec<u8>> {
    let Ok(Value::Object(mut map)) = serde_json::to_value(value) else { return None };
    map.shift_insert(at.min(map.len()), "hook_event_name".to_owned(), Value::String(name.into()));
    let mut out = Vec::new();
    compact::write_object(&map, &mut out);
    Some(out)
}

fn straight<T: Serialize>(value: &T, name: &str, at: usize) -> Result<Vec<u8>, super::Unprintable> {
    let mut out = Vec::new();
    write_top(value, name, at, &mut out).map(|_| out)
}

/// The typed input of an event's sample, printed straight and through its object.
fn check<I: TypedInput>() {
    let sample = payload_of(I::EVENT);
    let input: I = match serde_json::from_value(Value::Object(sample.clone())) {
        Ok(input) => input,
        Err(e) => panic!("{}: the sample does not read back: {e}", I::EVENT.as_str()),
    };
    assert!(I::UNIQUE_KEYS, "{}", I::EVENT.as_str());
    let at = input.base().field_count();
    let printed = straight(&input, I::EVENT.as_str(), at)
        .unwrap_or_else(|e| panic!("{}: {e}", I::EVENT.as_str()));
    let mut expected = stdin_bytes(&payload(&input));
    assert_eq!(expected.pop(), Some(b'\n'));
    assert_eq!(
        String::from_utf8_lossy(&printed),
        String::from_utf8_lossy(&expected),
        "{}",
        I::EVENT.as_str()
    );
    let (shared, _) =
        stdin_straight(&input).unwrap_or_else(|| panic!("{}: not printed", I::EVENT.as_str()));
    assert_eq!(&*shared, stdin_bytes(&payload(&input)).as_slice());
    same_texts(&input);
    // The sample itself is the object the input makes.
    assert_eq!(payload(&input), sample, "{}", I::EVENT.as_str());
}

macro_rules! every_input {
    ($($(#[$doc:meta])* $name:ident => $method:ident { $($facts:tt)* }),* $(,)?) => {
        #[test]
        fn every_events_sample_prints_straight_as_its_object_prints() {
            let mut seen = Vec::new();
            $( check::<$name>(); seen.push(EventName::$name); )*
            assert_eq!(seen, EventName::ALL);
        }
    };
}

crate::config::event_name::with_every_event!(every_input);

#[derive(Serialize)]
enum Shape {
    Unit,
    Newtype(f32),
    Tuple(u8, Option<char>),
    Struct { x: i128, y: Vec<u8> },
}

#[derive(Serialize)]
struct Every {
    small: f32,
    big: u128,
    negative: i128,
    nan: f64,
    bytes: serde_bytes_like::Bytes,
    shapes: Vec<Shape>,
    unit: (),
    tuple: (i8, u16, bool),
    letter: char,
    map: std::collections::BTreeMap<String, Option<f64>>,
}

/// `[u8]` through `serialize_bytes`, as a `serde_bytes` field would be.
mod serde_bytes_like {
    pub(super) struct Bytes(pub(super) Vec<u8>);

    impl serde::Serialize for Bytes {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(&self.0)
        }
    }
}

#[test]
fn every_kind_of_value_prints_as_its_object_prints() {
    let every = Every {
        small: 0.1,
        big: u128::from(u64::MAX),
        negative: i128::from(i64::MIN),
        nan: f64::NAN,
        bytes: serde_bytes_like::Bytes(vec![0, 7, 255]),
        shapes: vec![
            Shape::Unit,
            Shape::Newtype(1.5e-7),
            Shape::Tuple(3, Some('\u{2028}')),
            Shape::Tuple(4, None),
            Shape::Struct { x: -1, y: vec![1, 2] },
        ],
        unit: (),
        tuple: (-8, 65535, true),
        letter: '"',
        map: [("a\n".to_owned(), Some(1e300)), ("b".to_owned(), Some(f64::INFINITY))]
            .into_iter()
            .collect(),
    };
    for at in [0, 1, 5, 10, 11, 50] {
        let printed = straight(&every, "E", at).map_err(|e| e.to_string());
        assert_eq!(printed, Ok(through_the_object(&every, "E", at).unwrap_or_default()), "at {at}");
    }
}

#[test]
fn what_the_object_prints_its_own_way_is_left_to_it() {
    // An integer beyond 64 bits, a key that is not a string, a top that is not an object.
    assert!(straight(&json!({"n": 1}).as_object(), "E", 0).is_ok());
    let huge: std::collections::BTreeMap<&str, u128> = [("n", u128::MAX)].into_iter().collect();
    assert!(straight(&huge, "E", 0).is_err());
    let numbered: std::collections::BTreeMap<u8, u8> = [(1, 2)].into_iter().collect();
    assert!(straight(&numbered, "E", 0).is_err());
    assert!(straight(&"text", "E", 0).is_err());
    assert!(straight(&vec![1], "E", 0).is_err());
    assert!(straight(&json!({"raw": 1}), "E", 0).is_ok());
}

/// An input defined outside this crate keeps the default: it is not printed straight, and its
/// bytes come from its object, which keeps the last of two equal keys where the first stood.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
struct Twice {
    #[serde(flatten)]
    base: Base,
    #[serde(flatten)]
    extra: Map<String, Value>,
    hook_event_name: String,
}

impl TypedInput for Twice {
    const EVENT: EventName = EventName::Setup;
    type Decision = crate::ObserveDecision;

    fn base(&self) -> &Base {
        &self.base
    }

    fn base_mut(&mut self) -> &mut Base {
        &mut self.base
    }
}

#[test]
fn an_input_with_keys_twice_prints_through_its_object() {
    let mut extra = Map::new();
    extra.insert("cwd".into(), json!("/other"));
    let twice = Twice { base: Base::new("s", "/t", "/c"), extra, hook_event_name: "Mine".into() };
    assert!(stdin_straight(&twice).is_none());
    let payload = crate::wire::payload::InputObject::of_input(&twice);
    assert_eq!(
        String::from_utf8_lossy(payload.bytes()),
        "{\"session_id\":\"s\",\"transcript_path\":\"/t\",\"cwd\":\"/other\",\"hook_event_name\":\"Setup\"}\n"
    );
}

fn any_base() -> impl Strategy<Value = Base> {
    let text = || proptest::option::of(any::<String>());
    (any::<(String, String, String)>(), text(), text(), text(), text(), text(), text()).prop_map(
        |((session, transcript, cwd), mode, prompt, scratch, effort, agent, kind)| Base {
            permission_mode: mode,
            prompt_id: prompt,
            scratchpad_dir: scratch,
            effort: effort.map(|level| Effort { level }),
            agent_id: agent,
            agent_type: kind,
            ..Base::new(session, transcript, cwd)
        },
    )
}

/// Every top-level field of a printed input reads as its object holds it: a string without an
/// escape where it was printed, any other from the object.
fn same_texts<I: TypedInput>(input: &I) {
    use crate::wire::lookup::Texts;
    let object = payload(input);
    let Some((bytes, entries)) = stdin_straight(input) else { panic!("not printed") };
    let printed = crate::wire::payload::InputObject::of_input(input);
    let keys = object.keys().map(String::as_str).chain(["absent", "hook_event_nam", ""]);
    for key in keys {
        let expected = object.get(key);
        let found = entries.field(&bytes, key);
        match (expected, &found) {
            (None, None) | (Some(Value::String(_)), Some(super::Field::Escaped)) => {}
            (Some(Value::String(s)), Some(super::Field::Text(t))) => assert_eq!(s, t, "{key}"),
            (Some(v), Some(super::Field::Other)) => assert!(!v.is_string(), "{key}"),
            _ => panic!("{key}: {found:?} for {expected:?}"),
        }
        if let Some(Value::String(s)) = expected {
            let plain = !s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\');
            assert_eq!(plain, matches!(found, Some(super::Field::Text(_))), "{key}: {s:?}");
        }
        assert_eq!(printed.text(key), object.text(key), "{key}");
    }
}

fn same_bytes<I: TypedInput>(input: &I) -> Result<(), TestCaseError> {
    let expected = stdin_bytes(&payload(input));
    let straight = stdin_straight(input);
    prop_assert_eq!(straight.as_ref().map(|(b, _)| &**b), Some(expected.as_slice()));
    same_texts(input);
    // The object read back from the bytes is the object, numbers included.
    let printed = crate::wire::payload::InputObject::of_input(input);
    prop_assert_eq!(printed.object(), &payload(input));
    Ok(())
}

proptest! {
    #[test]
    fn any_tool_call_prints_straight_as_its_object_prints(
        base in any_base(),
        tool_name in any::<String>(),
        tool_input in any_value(),
        tool_response in any_value(),
        duration_ms in proptest::option::of(any::<u64>()),
    ) {
        let pre = PreToolUse {
            base: base.clone(),
            tool_name: tool_name.clone(),
            tool_input: tool_input.clone(),
            tool_use_id: "toolu_1".into(),
            ..PreToolUse::default()
        };
        same_bytes(&pre)?;
        let post = PostToolUse {
            base,
            tool_name,
            tool_input,
            tool_response,
            duration_ms,
            ..PostToolUse::default()
        };
        same_bytes(&post)?;
    }

    #[test]
    fn any_session_start_prints_straight_as_its_object_prints(
        base in any_base(),
        seconds in proptest::option::of(any::<f64>()),
        cost in proptest::option::of(any::<f64>()),
        tokens in proptest::option::of(any::<u64>()),
    ) {
        let start = SessionStart {
            base,
            source: "resume".into(),
            seconds_since_last_response: seconds,
            estimated_cache_write_usd: cost,
            context_tokens: tokens,
            ..SessionStart::default()
        };
        same_bytes(&start)?;
    }
}

/// `levels` arrays, one inside the other, around `null`.
fn nested(levels: usize) -> Value {
    (0..levels).fold(Value::Null, |inner, _| Value::Array(vec![inner]))
}

#[test]
fn an_input_nested_too_deep_to_read_back_is_printed_through_its_object() {
    for (levels, straight) in [(99, true), (100, false), (300, false)] {
        let input = PreToolUse { tool_input: nested(levels), ..PreToolUse::default() };
        assert_eq!(stdin_straight(&input).is_some(), straight, "{levels} levels");
        let printed = crate::wire::payload::InputObject::of_input(&input);
        assert_eq!(printed.bytes().as_ref(), stdin_bytes(&payload(&input)).as_slice());
        // Nothing is lost: the object is whole, however deep.
        assert_eq!(printed.object(), &payload(&input), "{levels} levels");
    }
}
