//! A typed input's stdin bytes printed straight from the input: the bytes of
//! [`stdin_bytes`](super::stdin_bytes) of its [`payload`](super::payload) object, without
//! building that object (a `serde_json` map of owned keys and values, hashed, then freed).
//!
//! A serde [`Serializer`] that writes compact JSON as [`super::compact`] writes a value: strings
//! through the same block-checked writer, numbers as `serde_json`'s `Number` prints them, and
//! `hook_event_name` placed where [`payload`](super::payload) inserts it, after the common
//! fields. What it cannot print exactly as the object would be printed (a key that is not a
//! string, an integer too large for 64 bits, `serde_json`'s own special structs) is an error,
//! and the caller builds the object instead; a test compares the two on every event's sample
//! and on generated inputs.

use std::fmt::Display;

use serde::Serialize;
use serde::ser::{self, Impossible, Serializer};

use super::compact::write_str;
/// Methods of a [`Serializer`] that refuse what they are given, each returning `Err($err)`:
/// the part of the top-level and key serializers that is not theirs to print.
macro_rules! refuse {
    ($ok:ty, $err:expr; $($method:ident)*) => { $( refuse!(@ $method, $ok, $err); )* };
    (@ serialize_bool, $ok:ty, $err:expr) => { refuse!(@scalar serialize_bool, bool, $ok, $err); };
    (@ serialize_i8, $ok:ty, $err:expr) => { refuse!(@scalar serialize_i8, i8, $ok, $err); };
    (@ serialize_i16, $ok:ty, $err:expr) => { refuse!(@scalar serialize_i16, i16, $ok, $err); };
    (@ serialize_i32, $ok:ty, $err:expr) => { refuse!(@scalar serialize_i32, i32, $ok, $err); };
    (@ serialize_i64, $ok:ty, $err:expr) => { refuse!(@scalar serialize_i64, i64, $ok, $err); };
    (@ serialize_u8, $ok:ty, $err:expr) => { refuse!(@scalar serialize_u8, u8, $ok, $err); };
    (@ serialize_u16, $ok:ty, $err:expr) => { refuse!(@scalar serialize_u16, u16, $ok, $err); };
    (@ serialize_u32, $ok:ty, $err:expr) => { refuse!(@scalar serialize_u32, u32, $ok, $err); };
    (@ serialize_u64, $ok:ty, $err:expr) => { refuse!(@scalar serialize_u64, u64, $ok, $err); };
    (@ serialize_f32, $ok:ty, $err:expr) => { refuse!(@scalar serialize_f32, f32, $ok, $err); };
    (@ serialize_f64, $ok:ty, $err:expr) => { refuse!(@scalar serialize_f64, f64, $ok, $err); };
    (@ serialize_char, $ok:ty, $err:expr) => { refuse!(@scalar serialize_char, char, $ok, $err); };
    (@ serialize_str, $ok:ty, $err:expr) => { refuse!(@scalar serialize_str, &str, $ok, $err); };
    (@ serialize_bytes, $ok:ty, $err:expr) => { refuse!(@scalar serialize_bytes, &[u8], $ok, $err); };
    (@scalar $method:ident, $t:ty, $ok:ty, $err:expr) => {
        fn $method(self, _v: $t) -> Result<$ok, Unprintable> {
            Err($err)
        }
    };
    (@ serialize_none, $ok:ty, $err:expr) => {
        fn serialize_none(self) -> Result<$ok, Unprintable> {
            Err($err)
        }
    };
    (@ serialize_some, $ok:ty, $err:expr) => {
        fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<$ok, Unprintable> {
            Err($err)
        }
    };
    (@ serialize_unit, $ok:ty, $err:expr) => {
        fn serialize_unit(self) -> Result<$ok, Unprintable> {
            Err($err)
        }
    };
    (@ serialize_unit_struct, $ok:ty, $err:expr) => {
        fn serialize_unit_struct(self, _name: &'static str) -> Result<$ok, Unprintable> {
            Err($err)
        }
    };
    (@ serialize_unit_variant, $ok:ty, $err:expr) => {
        fn serialize_unit_variant(
            self,
            _name: &'static str,
            _index: u32,
            _variant: &'static str,
        ) -> Result<$ok, Unprintable> {
            Err($err)
        }
    };
    (@ serialize_newtype_variant, $ok:ty, $err:expr) => {
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _name: &'static str,
            _index: u32,
            _variant: &'static str,
            _value: &T,
        ) -> Result<$ok, Unprintable> {
            Err($err)
        }
    };
    (@ serialize_seq, $ok:ty, $err:expr) => {
        fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Unprintable> {
            Err($err)
        }
    };
    (@ serialize_tuple, $ok:ty, $err:expr) => {
        fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Unprintable> {
            Err($err)
        }
    };
    (@ serialize_tuple_struct, $ok:ty, $err:expr) => {
        fn serialize_tuple_struct(
            self,
            _name: &'static str,
            _len: usize,
        ) -> Result<Self::SerializeTupleStruct, Unprintable> {
            Err($err)
        }
    };
    (@ serialize_tuple_variant, $ok:ty, $err:expr) => {
        fn serialize_tuple_variant(
            self,
            _name: &'static str,
            _index: u32,
            _variant: &'static str,
            _len: usize,
        ) -> Result<Self::SerializeTupleVariant, Unprintable> {
            Err($err)
        }
    };
    (@ serialize_map, $ok:ty, $err:expr) => {
        fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Unprintable> {
            Err($err)
        }
    };
    (@ serialize_struct, $ok:ty, $err:expr) => {
        fn serialize_struct(
            self,
            _name: &'static str,
            _len: usize,
        ) -> Result<Self::SerializeStruct, Unprintable> {
            Err($err)
        }
    };
    (@ serialize_struct_variant, $ok:ty, $err:expr) => {
        fn serialize_struct_variant(
            self,
            _name: &'static str,
            _index: u32,
            _variant: &'static str,
            _len: usize,
        ) -> Result<Self::SerializeStructVariant, Unprintable> {
            Err($err)
        }
    };
}
mod json;
mod key;

use json::Json;
use key::Key;

/// Why an input could not be printed straight away; the caller then goes through the object.
#[derive(Debug, thiserror::Error)]
#[error("cannot print this input without its object: {0}")]
pub(crate) struct Unprintable(String);

impl ser::Error for Unprintable {
    fn custom<T: Display>(msg: T) -> Self {
        Self(msg.to_string())
    }
}

/// Appends `input`'s compact JSON object with `"hook_event_name":name` inserted before its
/// entry number `at` (after the last when it has fewer), as [`super::payload`] places it, and
/// returns where its entries lie in `out`.
pub(crate) fn write_top<T: Serialize + ?Sized>(
    input: &T,
    name: &str,
    at: usize,
    out: &mut Vec<u8>,
) -> Result<Entries, Unprintable> {
    input.serialize(Top { out, name, at })
}

/// Where each top-level entry of a printed object lies in its bytes: its key (inside the
/// quotes, as printed) and its value (as printed), so that a string field is read without
/// reading the object back.
#[derive(Debug, Clone, Default)]
pub(crate) struct Entries(Vec<Entry>);

#[derive(Debug, Clone)]
struct Entry {
    key: std::ops::Range<usize>,
    value: std::ops::Range<usize>,
}

/// A top-level field of a printed object, as its bytes hold it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Field<'a> {
    /// A string printed without an escape: the string itself.
    Text(&'a str),
    /// A string with an escape in it: read it from the object.
    Escaped,
    /// Not a string.
    Other,
}

impl Entries {
    /// The field `key` of `bytes` (the bytes these entries were recorded in), `None` when the
    /// object has no such key. `key` is a plain field name (no character that prints escaped),
    /// compared with the key as printed.
    pub(crate) fn field<'a>(&self, bytes: &'a [u8], key: &str) -> Option<Field<'a>> {
        let entry = self.0.iter().find(|e| bytes.get(e.key.clone()) == Some(key.as_bytes()))?;
        Some(match bytes.get(entry.value.clone())? {
            [b'"', inner @ .., b'"'] if !inner.contains(&b'\\') => {
                std::str::from_utf8(inner).map_or(Field::Escaped, Field::Text)
            }
            [b'"', ..] => Field::Escaped,
            _ => Field::Other,
        })
    }
}

/// The top-level serializer: only an object is printed (a struct, or a map as
/// `#[serde(flatten)]` makes one).
struct Top<'a> {
    out: &'a mut Vec<u8>,
    name: &'a str,
    at: usize,
}

/// The top-level object being printed: it counts its entries to place `hook_event_name`, and
/// records where each lies.
struct TopObject<'a> {
    out: &'a mut Vec<u8>,
    name: &'a str,
    at: usize,
    recorded: Vec<Entry>,
    /// The key of the entry whose value comes next (a map's key and value come apart).
    key: std::ops::Range<usize>,
    /// The object's own entries begun so far.
    entries: usize,
    /// Whether anything is written inside the braces (the next thing takes a comma).
    wrote: bool,
    placed: bool,
}

impl TopObject<'_> {
    /// Starts an entry of the input: `hook_event_name` first when its place is here, then the
    /// comma.
    fn begin_entry(&mut self) {
        if !self.placed && self.entries == self.at {
            self.place();
        }
        if self.wrote {
            self.out.push(b',');
        }
        self.wrote = true;
        self.entries += 1;
    }

    fn place(&mut self) {
        if self.wrote {
            self.out.push(b',');
        }
        let key = self.out.len() + 1..self.out.len() + 1 + "hook_event_name".len();
        write_str("hook_event_name", self.out);
        self.out.push(b':');
        let start = self.out.len();
        write_str(self.name, self.out);
        self.recorded.push(Entry { key, value: start..self.out.len() });
        self.wrote = true;
        self.placed = true;
    }

    fn finish(mut self) -> Entries {
        if !self.placed {
            self.place();
        }
        self.out.push(b'}');
        Entries(self.recorded)
    }

    /// Prints a key (after [`TopObject::begin_entry`]) and its colon, and keeps where it is.
    fn key<K: Serialize + ?Sized>(&mut self, key: &K) -> Result<(), Unprintable> {
        let start = self.out.len();
        key.serialize(Key(self.out))?;
        // Inside the quotes (a key always prints as a string).
        self.key = start + 1..self.out.len().saturating_sub(1).max(start + 1);
        self.out.push(b':');
        Ok(())
    }

    fn value<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<(), Unprintable> {
        let start = self.out.len();
        value.serialize(&mut Json(self.out, 1))?;
        self.recorded.push(Entry { key: self.key.clone(), value: start..self.out.len() });
        Ok(())
    }
}

/// Not an object at the top: the caller builds the object (which is then empty).
fn not_an_object() -> Unprintable {
    Unprintable("the input is not an object".into())
}

impl<'a> Serializer for Top<'a> {
    type Ok = Entries;
    type Error = Unprintable;
    type SerializeSeq = Impossible<Entries, Unprintable>;
    type SerializeTuple = Impossible<Entries, Unprintable>;
    type SerializeTupleStruct = Impossible<Entries, Unprintable>;
    type SerializeTupleVariant = Impossible<Entries, Unprintable>;
    type SerializeMap = TopObject<'a>;
    type SerializeStruct = TopObject<'a>;
    type SerializeStructVariant = Impossible<Entries, Unprintable>;

    fn serialize_map(self, _len: Option<usize>) -> Result<TopObject<'a>, Unprintable> {
        self.out.push(b'{');
        Ok(TopObject {
            out: self.out,
            name: self.name,
            at: self.at,
            recorded: Vec::with_capacity(16),
            key: 0..0,
            entries: 0,
            wrote: false,
            placed: false,
        })
    }

    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<TopObject<'a>, Unprintable> {
        special(name)?;
        self.serialize_map(Some(len))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Entries, Unprintable> {
        value.serialize(self)
    }

    /// As the object holds it: the value itself.
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Entries, Unprintable> {
        value.serialize(self)
    }

    refuse! { Entries, not_an_object();
        serialize_bool serialize_i8 serialize_i16 serialize_i32 serialize_i64 serialize_u8
        serialize_u16 serialize_u32 serialize_u64 serialize_f32 serialize_f64 serialize_char
        serialize_str serialize_bytes serialize_none serialize_unit serialize_unit_struct
        serialize_unit_variant serialize_newtype_variant serialize_seq serialize_tuple
        serialize_tuple_struct serialize_tuple_variant serialize_struct_variant
    }
}

impl ser::SerializeMap for TopObject<'_> {
    type Ok = Entries;
    type Error = Unprintable;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Unprintable> {
        self.begin_entry();
        self.key(key)
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unprintable> {
        self.value(value)
    }

    fn end(self) -> Result<Entries, Unprintable> {
        Ok(self.finish())
    }
}

impl ser::SerializeStruct for TopObject<'_> {
    type Ok = Entries;
    type Error = Unprintable;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Unprintable> {
        ser::SerializeMap::serialize_entry(self, key, value)
    }

    fn end(self) -> Result<Entries, Unprintable> {
        Ok(self.finish())
    }
}

/// `serde_json`'s private structs (a raw value, an arbitrary-precision number) are printed
/// through the object, which knows them.
fn special(name: &str) -> Result<(), Unprintable> {
    if name.starts_with("$serde_json") {
        return Err(Unprintable(format!("`{name}` is printed through the object")));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
