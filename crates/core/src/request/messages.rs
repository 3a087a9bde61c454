//! `messages`, read in the body's one pass: how many there are and the last one's text. The
//! history before it is checked to be JSON, as the body's pass checks everything, and never
//! kept or read twice: the AI SDK sends the whole chat with every POST, so the work done on it
//! is per request and grows with the chat.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

/// What `messages` holds.
#[derive(Debug)]
pub(super) enum Messages<'a> {
    /// An array: its length and its last element, as JSON text.
    Array {
        count: usize,
        last: Option<&'a RawValue>,
    },
    /// Any other value: for the parser, no array of messages (`missing_messages`), not a
    /// malformed body.
    NotArray,
}

impl<'de: 'a, 'a> Deserialize<'de> for Messages<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(MessagesVisitor(PhantomData))
    }
}

struct MessagesVisitor<'a>(PhantomData<&'a RawValue>);

impl<'de: 'a, 'a> Visitor<'de> for MessagesVisitor<'a> {
    type Value = Messages<'a>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let (mut count, mut last) = (0, None);
        while let Some(message) = seq.next_element::<&'a RawValue>()? {
            count += 1;
            last = Some(message);
        }
        Ok(Messages::Array { count, last })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Messages::NotArray)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Messages::NotArray)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Messages::NotArray)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Messages::NotArray)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Messages::NotArray)
    }

    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Messages::NotArray)
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Messages::NotArray)
    }
}
