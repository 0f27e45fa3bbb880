//! The serializer of every value below the top of a printed input: compact JSON as
//! [`super::super::compact`] writes a value.

use std::io::Write as _;

use serde::Serialize;
use serde::ser::{self, Serializer};
use serde_json::Number;

use super::{Key, Unprintable, special};
use crate::wire::input::compact::write_str;

/// The serializer of every value below the top: the output, and how many objects and arrays
/// are open around the value (the top-level object counts one).
pub(super) struct Json<'a>(pub(super) &'a mut Vec<u8>, pub(super) usize);

/// The deepest nesting printed straight: the object is read back from the bytes when asked
/// for, and `serde_json` reads at most 128 levels, so anything near that is printed through
/// the object instead, which has no such limit.
const READ_BACK_DEPTH: usize = 100;

impl Json<'_> {
    fn number(&mut self, n: impl Into<Number>) {
        // Writing into a vector cannot fail.
        let _ = write!(self.0, "{}", n.into());
    }

    /// Opens `levels` objects or arrays, refused past [`READ_BACK_DEPTH`].
    fn open(&mut self, levels: usize) -> Result<(), Unprintable> {
        self.1 += levels;
        if self.1 > READ_BACK_DEPTH {
            return Err(Unprintable(format!(
                "nested more than {READ_BACK_DEPTH} levels deep, too deep to read back"
            )));
        }
        Ok(())
    }
}

/// An object, array or variant being printed below the top.
pub(super) struct Compound<'a, 'b> {
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
        self.json.1 -= 1;
        if self.variant {
            self.json.0.push(b'}');
            self.json.1 -= 1;
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
        self.open(1)?;
        self.0.push(b'{');
        write_str(variant, self.0);
        self.0.push(b':');
        value.serialize(&mut *self)?;
        self.0.push(b'}');
        self.1 -= 1;
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a, 'b>, Unprintable> {
        self.open(1)?;
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
        self.open(2)?;
        self.0.push(b'{');
        write_str(variant, self.0);
        self.0.extend_from_slice(b":[");
        Ok(Compound { json: self, first: true, variant: true })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a, 'b>, Unprintable> {
        self.open(1)?;
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
        self.open(2)?;
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
