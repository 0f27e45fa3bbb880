//! A map key of a printed input.

use serde::Serialize;
use serde::ser::{Impossible, Serializer};

use super::Unprintable;
use crate::wire::input::compact::write_str;

/// A map key: a string (or a character, or a unit variant's name); any other key is printed
/// through the object, whose rules for them are its own.
pub(super) struct Key<'a>(pub(super) &'a mut Vec<u8>);

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

    refuse! { (), not_a_string_key();
        serialize_bool serialize_i8 serialize_i16 serialize_i32 serialize_i64 serialize_u8
        serialize_u16 serialize_u32 serialize_u64 serialize_f32 serialize_f64 serialize_bytes
        serialize_none serialize_some serialize_unit serialize_unit_struct
        serialize_newtype_variant serialize_seq serialize_tuple serialize_tuple_struct
        serialize_tuple_variant serialize_map serialize_struct serialize_struct_variant
    }
}
