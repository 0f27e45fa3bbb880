//! [`Metadata`]: the free-form data a hook's record keeps for audit, as JSON or as a dialect's
//! own typed record, which becomes JSON only when something asks for it.

use std::any::Any;
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use serde::{Serialize, Serializer};
use serde_json::Value;

/// A dialect's typed record data, kept in [`Metadata`] as it is: the dialect reads it back
/// with [`Metadata::downcast_ref`], and everything else sees its JSON form.
pub trait RecordData: Any + fmt::Debug + Send + Sync {
    /// The data as JSON: what [`Metadata::value`] gives and what a serialized record holds.
    fn to_value(&self) -> Value;
}

/// What a hook returned for its record, kept for audit and never acted on by the core.
///
/// Either a JSON value ([`Metadata::json`], or `From<Value>`) or a dialect's typed record
/// ([`Metadata::typed`]). A typed record costs one allocation where its JSON object would
/// cost one per key; it becomes JSON only when asked ([`value`](Metadata::value),
/// serialization, comparison, `Debug`), and always the same JSON, so the two forms of the same
/// data are equal.
#[derive(Clone)]
pub struct Metadata(Kept);

#[derive(Clone)]
enum Kept {
    Json(Value),
    Typed(Arc<dyn RecordData>),
}

impl Metadata {
    /// Metadata holding a JSON value.
    pub fn json(value: Value) -> Self {
        Self(Kept::Json(value))
    }

    /// Metadata holding a dialect's typed record.
    pub fn typed(data: impl RecordData) -> Self {
        Self(Kept::Typed(Arc::new(data)))
    }

    /// The data as JSON: borrowed when it is JSON, printed from the typed record otherwise.
    pub fn value(&self) -> Cow<'_, Value> {
        match &self.0 {
            Kept::Json(value) => Cow::Borrowed(value),
            Kept::Typed(data) => Cow::Owned(data.to_value()),
        }
    }

    /// The data as JSON, without a copy when it is JSON.
    pub fn into_value(self) -> Value {
        match self.0 {
            Kept::Json(value) => value,
            Kept::Typed(data) => data.to_value(),
        }
    }

    /// The JSON value, when the data was given as JSON.
    pub fn as_json(&self) -> Option<&Value> {
        match &self.0 {
            Kept::Json(value) => Some(value),
            Kept::Typed(_) => None,
        }
    }

    /// The typed record, when the data is a `T`.
    pub fn downcast_ref<T: RecordData>(&self) -> Option<&T> {
        match &self.0 {
            Kept::Json(_) => None,
            Kept::Typed(data) => {
                let data: &dyn Any = &**data;
                data.downcast_ref()
            }
        }
    }
}

impl From<Value> for Metadata {
    fn from(value: Value) -> Self {
        Self::json(value)
    }
}

impl PartialEq for Metadata {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Kept::Typed(a), Kept::Typed(b)) if Arc::ptr_eq(a, b) => true,
            _ => self.value() == other.value(),
        }
    }
}

/// The JSON form's `Debug`, whichever form the data is kept in.
impl fmt::Debug for Metadata {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.value(), f)
    }
}

impl Serialize for Metadata {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value().serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[derive(Debug, PartialEq)]
    struct Record {
        hits: u32,
    }

    impl RecordData for Record {
        fn to_value(&self) -> Value {
            json!({ "hits": self.hits })
        }
    }

    #[test]
    fn a_typed_record_reads_back_as_itself_and_shows_as_its_json() {
        let typed = Metadata::typed(Record { hits: 3 });
        assert_eq!(typed.downcast_ref::<Record>(), Some(&Record { hits: 3 }));
        assert_eq!(typed.as_json(), None);
        assert_eq!(*typed.value(), json!({ "hits": 3 }));
        assert_eq!(serde_json::to_value(&typed).ok(), Some(json!({ "hits": 3 })));
        assert_eq!(format!("{typed:?}"), format!("{:?}", json!({ "hits": 3 })));
        assert_eq!(typed.clone().into_value(), json!({ "hits": 3 }));
    }

    #[test]
    fn both_forms_of_the_same_data_are_equal_and_different_data_is_not() {
        let typed = Metadata::typed(Record { hits: 3 });
        assert_eq!(typed, Metadata::json(json!({ "hits": 3 })));
        assert_eq!(typed, typed.clone());
        assert_ne!(typed, Metadata::typed(Record { hits: 4 }));
        assert_ne!(Metadata::from(json!(1)), Metadata::from(json!(2)));
    }

    #[test]
    fn json_is_kept_as_given_and_is_no_typed_record() {
        let json = Metadata::from(json!({ "rule": "no-rm" }));
        assert_eq!(json.as_json(), Some(&json!({ "rule": "no-rm" })));
        assert!(matches!(json.value(), Cow::Borrowed(_)));
        assert_eq!(json.downcast_ref::<Record>(), None);
    }
}
