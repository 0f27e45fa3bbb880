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
use std::io::Write as _;

use serde::Serialize;
use serde::ser::{self, Impossible, Serializer};
use serde_json::Number;

use super::compact::write_str;

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
    fn key(
        &mut self,
        print: impl FnOnce(&mut Vec<u8>) -> Result<(), Unprintable>,
    ) -> Result<(), Unprintable> {
        let start = self.out.len();
        print(self.out)?;
        // Inside the quotes (a key always prints as a string).
        self.key = start + 1..self.out.len().saturating_sub(1).max(start + 1);
        self.out.push(b':');
        Ok(())
    }

    fn value<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<(), Unprintable> {
        let start = self.out.len();
        value.serialize(&mut Json(self.out))?;
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

    fn serialize_bool(self, _v: bool) -> Result<Entries, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_i8(self, _v: i8) -> Result<Entries, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_i16(self, _v: i16) -> Result<Entries, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_i32(self, _v: i32) -> Result<Entries, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_i64(self, _v: i64) -> Result<Entries, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_u8(self, _v: u8) -> Result<Entries, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_u16(self, _v: u16) -> Result<Entries, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_u32(self, _v: u32) -> Result<Entries, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_u64(self, _v: u64) -> Result<Entries, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_f32(self, _v: f32) -> Result<Entries, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_f64(self, _v: f64) -> Result<Entries, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_char(self, _v: char) -> Result<Entries, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_str(self, _v: &str) -> Result<Entries, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<Entries, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_none(self) -> Result<Entries, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Entries, Unprintable> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Entries, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Entries, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
    ) -> Result<Entries, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<Entries, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Unprintable> {
        Err(not_an_object())
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Unprintable> {
        Err(not_an_object())
    }
}

impl ser::SerializeMap for TopObject<'_> {
    type Ok = Entries;
    type Error = Unprintable;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Unprintable> {
        self.begin_entry();
        self.key(|out| key.serialize(Key(out)))
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
        self.begin_entry();
        self.key(|out| {
            write_str(key, out);
            Ok(())
        })?;
        self.value(value)
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

/// The serializer of every value below the top.
struct Json<'a>(&'a mut Vec<u8>);

impl Json<'_> {
    fn number(&mut self, n: impl Into<Number>) {
        // Writing into a vector cannot fail.
        let _ = write!(self.0, "{}", n.into());
    }
}

/// An object, array or variant being printed below the top.
struct Compound<'a, 'b> {
    json: &'b mut Json<'a>,
    first: bool,
    /// `}` to close a variant's wrapping object after the inner one.
    variant: bool,
}

impl Compound<'_, '_> {
    fn comma(&mut self) {
        if !self.first {
            self.json.0.push(b',');
        }
        self.first = false;
    }

    fn close(self, bracket: u8) {
        self.json.0.push(bracket);
        if self.variant {
            self.json.0.push(b'}');
        }
    }
}

impl<'a, 'b> Serializer for &'b mut Json<'a> {
    type Ok = ();
    type Error = Unprintable;
    type SerializeSeq = Compound<'a, 'b>;
    type SerializeTuple = Compound<'a, 'b>;
    type SerializeTupleStruct = Compound<'a, 'b>;
    type SerializeTupleVariant = Compound<'a, 'b>;
    type SerializeMap = Compound<'a, 'b>;
    type SerializeStruct = Compound<'a, 'b>;
    type SerializeStructVariant = Compound<'a, 'b>;

    fn serialize_bool(self, v: bool) -> Result<(), Unprintable> {
        self.0.extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Unprintable> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<(), Unprintable> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<(), Unprintable> {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<(), Unprintable> {
        self.number(v);
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<(), Unprintable> {
        if let Ok(v) = u64::try_from(v) {
            self.serialize_u64(v)
        } else if let Ok(v) = i64::try_from(v) {
            self.serialize_i64(v)
        } else {
            Err(Unprintable("number out of range".into()))
        }
    }
    fn serialize_u8(self, v: u8) -> Result<(), Unprintable> {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<(), Unprintable> {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<(), Unprintable> {
        self.serialize_u64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<(), Unprintable> {
        self.number(v);
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), Unprintable> {
        match u64::try_from(v) {
            Ok(v) => self.serialize_u64(v),
            Err(_) => Err(Unprintable("number out of range".into())),
        }
    }
    /// As the object holds it: widened to `f64`.
    fn serialize_f32(self, v: f32) -> Result<(), Unprintable> {
        self.serialize_f64(v.into())
    }
    /// A number when finite, else `null`, as the object holds it.
    fn serialize_f64(self, v: f64) -> Result<(), Unprintable> {
        match Number::from_f64(v) {
            Some(n) => self.number(n),
            None => self.0.extend_from_slice(b"null"),
        }
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Unprintable> {
        write_str(v.encode_utf8(&mut [0; 4]), self.0);
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Unprintable> {
        write_str(v, self.0);
        Ok(())
    }
    /// An array of numbers, as the object holds bytes.
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Unprintable> {
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for b in v {
            ser::SerializeSeq::serialize_element(&mut seq, b)?;
        }
        ser::SerializeSeq::end(seq)
    }
    fn serialize_none(self) -> Result<(), Unprintable> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Unprintable> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Unprintable> {
        self.0.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Unprintable> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Unprintable> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Unprintable> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Unprintable> {
        self.0.push(b'{');
        write_str(variant, self.0);
        self.0.push(b':');
        value.serialize(&mut *self)?;
        self.0.push(b'}');
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a, 'b>, Unprintable> {
        self.0.push(b'[');
        Ok(Compound { json: self, first: true, variant: false })
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, 'b>, Unprintable> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'b>, Unprintable> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'b>, Unprintable> {
        self.0.push(b'{');
        write_str(variant, self.0);
        self.0.extend_from_slice(b":[");
        Ok(Compound { json: self, first: true, variant: true })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a, 'b>, Unprintable> {
        self.0.push(b'{');
        Ok(Compound { json: self, first: true, variant: false })
    }
    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'b>, Unprintable> {
        special(name)?;
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'b>, Unprintable> {
        self.0.push(b'{');
        write_str(variant, self.0);
        self.0.extend_from_slice(b":{");
        Ok(Compound { json: self, first: true, variant: true })
    }
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = Unprintable;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unprintable> {
        self.comma();
        value.serialize(&mut *self.json)
    }

    fn end(self) -> Result<(), Unprintable> {
        self.close(b']');
        Ok(())
    }
}

impl ser::SerializeTuple for Compound<'_, '_> {
    type Ok = ();
    type Error = Unprintable;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unprintable> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Result<(), Unprintable> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Unprintable;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unprintable> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Result<(), Unprintable> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Unprintable;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unprintable> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Result<(), Unprintable> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Unprintable;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Unprintable> {
        self.comma();
        key.serialize(Key(self.json.0))?;
        self.json.0.push(b':');
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unprintable> {
        value.serialize(&mut *self.json)
    }

    fn end(self) -> Result<(), Unprintable> {
        self.close(b'}');
        Ok(())
    }
}

impl ser::SerializeStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Unprintable;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Unprintable> {
        ser::SerializeMap::serialize_entry(self, key, value)
    }

    fn end(self) -> Result<(), Unprintable> {
        self.close(b'}');
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Unprintable;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Unprintable> {
        ser::SerializeMap::serialize_entry(self, key, value)
    }

    fn end(self) -> Result<(), Unprintable> {
        self.close(b'}');
        Ok(())
    }
}

/// A map key: a string (or a character, or a unit variant's name); any other key is printed
/// through the object, whose rules for them are its own.
struct Key<'a>(&'a mut Vec<u8>);

/// A key this writer leaves to the object.
fn not_a_string_key() -> Unprintable {
    Unprintable("a map key that is not a string".into())
}

impl Serializer for Key<'_> {
    type Ok = ();
    type Error = Unprintable;
    type SerializeSeq = Impossible<(), Unprintable>;
    type SerializeTuple = Impossible<(), Unprintable>;
    type SerializeTupleStruct = Impossible<(), Unprintable>;
    type SerializeTupleVariant = Impossible<(), Unprintable>;
    type SerializeMap = Impossible<(), Unprintable>;
    type SerializeStruct = Impossible<(), Unprintable>;
    type SerializeStructVariant = Impossible<(), Unprintable>;

    fn serialize_str(self, v: &str) -> Result<(), Unprintable> {
        write_str(v, self.0);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Unprintable> {
        write_str(v.encode_utf8(&mut [0; 4]), self.0);
        Ok(())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Unprintable> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Unprintable> {
        value.serialize(self)
    }

    fn serialize_bool(self, _v: bool) -> Result<(), Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_i8(self, _v: i8) -> Result<(), Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_i16(self, _v: i16) -> Result<(), Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_i32(self, _v: i32) -> Result<(), Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_i64(self, _v: i64) -> Result<(), Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_u8(self, _v: u8) -> Result<(), Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_u16(self, _v: u16) -> Result<(), Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_u32(self, _v: u32) -> Result<(), Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_u64(self, _v: u64) -> Result<(), Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_f32(self, _v: f32) -> Result<(), Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_f64(self, _v: f64) -> Result<(), Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<(), Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_none(self) -> Result<(), Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<(), Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_unit(self) -> Result<(), Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, Unprintable> {
        Err(not_a_string_key())
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Unprintable> {
        Err(not_a_string_key())
    }
}

#[cfg(test)]
mod tests;
