//! Finding a field of a small JSON object: what every stage reading a payload or a hook's
//! output does several times per event. A leaf of `wire`: it imports nothing of the crate.

use serde_json::{Map, Value};

/// The size up to which [`field`] scans an object instead of hashing the key: an event's
/// payload has a dozen fields or so, a hook's output fewer.
const SCAN_MAX: usize = 24;

/// A field of an object. A payload's or an output's few fields are scanned, comparing lengths
/// first, which costs less than hashing the key (`serde_json`'s maps hash with SipHash); a
/// large object is looked up.
pub(crate) fn field<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    if map.len() <= SCAN_MAX {
        map.iter().find_map(|(k, v)| (k == key).then_some(v))
    } else {
        map.get(key)
    }
}

/// The top-level string fields of a payload, however it is held: an object, or a
/// [`InputObject`](crate::InputObject) printed from a typed input, which reads them in its
/// bytes without building its object.
pub(crate) trait Texts {
    /// The field `key` (a plain field name) when it is a string.
    fn text(&self, key: &str) -> Option<&str>;
}

impl Texts for Map<String, Value> {
    fn text(&self, key: &str) -> Option<&str> {
        field(self, key).and_then(Value::as_str)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_scan_and_a_lookup_find_the_same_fields() {
        for size in [0, 1, 2, SCAN_MAX, SCAN_MAX + 1, 3 * SCAN_MAX] {
            let map: Map<String, Value> = (0..size).map(|i| (format!("k{i}"), json!(i))).collect();
            for i in 0..size + 2 {
                let key = format!("k{i}");
                assert_eq!(field(&map, &key), map.get(&key), "{key} of {size}");
            }
            assert_eq!(field(&map, ""), None);
        }
    }
}
