//! A serde serializer that writes nothing and only looks at floats: the path of the first NaN or
//! infinity anywhere in a view model. Allocation-free apart from the path, so a property can check
//! every number of the curves, table and derivation on each of many thousands of cases.

use std::fmt::Display;

use serde::ser::{self, Serialize};

/// The first non-finite float found, with its path (`points.3.step.step_s = NaN`).
#[derive(Debug)]
pub struct NonFinite(pub String);

impl Display for NonFinite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NonFinite {}

impl ser::Error for NonFinite {
    fn custom<T: Display>(msg: T) -> Self {
        NonFinite(msg.to_string())
    }
}

/// One step of a path: a field or variant name, or a position in a sequence.
#[derive(Clone, Copy)]
enum Step {
    Name(&'static str),
    Index(usize),
}

/// Walks a value; `path` says where it is (built into text only for a non-finite float).
struct Walker {
    root: String,
    path: Vec<Step>,
}

impl Walker {
    fn float(&self, x: f64) -> Result<(), NonFinite> {
        if x.is_finite() {
            return Ok(());
        }
        let steps = self.path.iter().map(|s| match s {
            Step::Name(n) => n.to_string(),
            Step::Index(i) => i.to_string(),
        });
        let path: Vec<String> = std::iter::once(self.root.clone()).chain(steps).collect();
        Err(NonFinite(format!("{} = {x}", path.join("."))))
    }

    fn at<T: Serialize + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<(), NonFinite> {
        self.path.push(Step::Name(name));
        value.serialize(&mut *self)?;
        self.path.pop();
        Ok(())
    }
}

/// `Ok` when every float in `value` is finite, else the first that is not, by path under `name`.
pub fn check_finite<T: Serialize + ?Sized>(name: &str, value: &T) -> Result<(), NonFinite> {
    value.serialize(&mut Walker { root: name.to_string(), path: Vec::new() })
}

type R = Result<(), NonFinite>;

/// Leaves and wrappers: floats are checked, everything else passes.
impl ser::Serializer for &mut Walker {
    type Ok = ();
    type Error = NonFinite;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn serialize_f32(self, v: f32) -> R {
        self.float(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> R {
        self.float(v)
    }
    fn serialize_bool(self, _: bool) -> R {
        Ok(())
    }
    fn serialize_i8(self, _: i8) -> R {
        Ok(())
    }
    fn serialize_i16(self, _: i16) -> R {
        Ok(())
    }
    fn serialize_i32(self, _: i32) -> R {
        Ok(())
    }
    fn serialize_i64(self, _: i64) -> R {
        Ok(())
    }
    fn serialize_u8(self, _: u8) -> R {
        Ok(())
    }
    fn serialize_u16(self, _: u16) -> R {
        Ok(())
    }
    fn serialize_u32(self, _: u32) -> R {
        Ok(())
    }
    fn serialize_u64(self, _: u64) -> R {
        Ok(())
    }
    fn serialize_char(self, _: char) -> R {
        Ok(())
    }
    fn serialize_str(self, _: &str) -> R {
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> R {
        Ok(())
    }
    fn serialize_none(self) -> R {
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> R {
        value.serialize(self)
    }
    fn serialize_unit(self) -> R {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> R {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> R {
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> R {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> R {
        self.at(variant, value)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self, NonFinite> {
        self.path.push(Step::Index(0));
        Ok(self)
    }
    fn serialize_tuple(self, len: usize) -> Result<Self, NonFinite> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Self, NonFinite> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        v: &'static str,
        len: usize,
    ) -> Result<Self, NonFinite> {
        self.path.push(Step::Name(v));
        self.serialize_seq(Some(len))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self, NonFinite> {
        self.path.push(Step::Name("value"));
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, NonFinite> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        v: &'static str,
        _: usize,
    ) -> Result<Self, NonFinite> {
        self.path.push(Step::Name(v));
        Ok(self)
    }
}

/// Sequence elements, numbered in the path.
fn element<T: Serialize + ?Sized>(w: &mut Walker, value: &T) -> R {
    value.serialize(&mut *w)?;
    if let Some(Step::Index(i)) = w.path.last_mut() {
        *i += 1;
    }
    Ok(())
}

macro_rules! sequence {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for &mut Walker {
            type Ok = ();
            type Error = NonFinite;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> R {
                element(self, value)
            }
            fn end(self) -> R {
                self.path.pop();
                Ok(())
            }
        }
    )*};
}

sequence!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field
);

impl ser::SerializeTupleVariant for &mut Walker {
    type Ok = ();
    type Error = NonFinite;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> R {
        element(self, value)
    }
    fn end(self) -> R {
        self.path.pop();
        self.path.pop();
        Ok(())
    }
}

impl ser::SerializeMap for &mut Walker {
    type Ok = ();
    type Error = NonFinite;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> R {
        key.serialize(&mut **self)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> R {
        value.serialize(&mut **self)
    }
    fn end(self) -> R {
        self.path.pop();
        Ok(())
    }
}

impl ser::SerializeStruct for &mut Walker {
    type Ok = ();
    type Error = NonFinite;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> R {
        self.at(key, value)
    }
    fn end(self) -> R {
        Ok(())
    }
}

impl ser::SerializeStructVariant for &mut Walker {
    type Ok = ();
    type Error = NonFinite;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> R {
        self.at(key, value)
    }
    fn end(self) -> R {
        self.path.pop();
        Ok(())
    }
}
