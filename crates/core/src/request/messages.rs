//! `messages`, read in the body's one pass: how many there are, the last one's `id`, `role` and
//! `parts`, and the ids of the ones before it (the branch the last one continues: protocol 4,
//! docs/agent-protocol.md, `prompt`). Nothing else of the earlier messages is kept or read twice:
//! the AI SDK sends the whole chat with every POST, so the work done on it is per request and
//! grows with the chat. Their other fields (their parts, above all) are checked to be JSON, as the
//! body's pass checks everything, and skipped.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::ids::{read_id, IdFault};

/// What `messages` holds.
#[derive(Debug)]
pub(super) enum Messages<'a> {
    /// An array: its length, its last element, and the branch before it.
    Array {
        count: usize,
        last: Option<Element<'a>>,
        branch: Branch,
    },
    /// Any other value: for the parser, no array of messages (`missing_messages`), not a
    /// malformed body.
    NotArray,
}

/// One element of `messages`, as far as the parser reads it.
#[derive(Debug, Default)]
pub(super) struct Element<'a> {
    /// Whether it is a JSON object (anything else is a message of no field).
    pub(super) object: bool,
    /// Its `id`, `role` and `parts` as JSON text, when present.
    pub(super) id: Option<&'a RawValue>,
    pub(super) role: Option<&'a RawValue>,
    pub(super) parts: Option<&'a RawValue>,
}

/// The ids of the messages before the last one, oldest first.
#[derive(Debug, Default)]
pub(super) struct Branch {
    /// Their ids as a JSON array, each as the body wrote it (`["m1","m2"]`): copied into the
    /// `prompt` as they are. `None` once a message without an `id` came (the agent then appends).
    pub(super) json: Option<String>,
    /// The position of the first message before the last whose `id` is no id
    /// ([`read_id`]: a malformed request), and why.
    pub(super) bad_id: Option<(usize, IdFault)>,
}

impl Branch {
    /// Adds the message before the last that was at position `index`.
    fn push(&mut self, index: usize, element: &Element<'_>) {
        let Some(id) = element.id.filter(|id| id.get() != "null") else {
            self.json = None;
            return;
        };
        if let Err(fault) = read_id(id) {
            self.bad_id.get_or_insert((index, fault));
            return;
        }
        if let Some(json) = self.json.as_mut() {
            if json.len() > 1 {
                json.push(',');
            }
            json.push_str(id.get());
        }
    }

    /// The branch, its array closed.
    fn finish(mut self) -> Self {
        if let Some(json) = self.json.as_mut() {
            json.push(']');
        }
        self
    }
}

/// A visitor's methods for every JSON scalar (a boolean, a number, a string, `null`), each
/// answering `$value`: what a value that is neither an array nor an object reads as.
macro_rules! any_scalar_is {
    ($value:expr) => {
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok($value)
        }
    };
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
        let mut count = 0;
        let mut last: Option<Element<'a>> = None;
        let mut branch = Branch {
            json: Some(String::from("[")),
            bad_id: None,
        };
        while let Some(message) = seq.next_element::<Element<'a>>()? {
            if let Some(earlier) = last.replace(message) {
                branch.push(count - 1, &earlier);
            }
            count += 1;
        }
        Ok(Messages::Array {
            count,
            last,
            branch: branch.finish(),
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Messages::NotArray)
    }

    any_scalar_is!(Messages::NotArray);
}

/// The fields of a message the parser reads; any other is skipped.
enum Field {
    Id,
    Role,
    Parts,
    Other,
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FieldVisitor;
        impl Visitor<'_> for FieldVisitor {
            type Value = Field;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a field name")
            }
            fn visit_str<E>(self, name: &str) -> Result<Field, E> {
                Ok(match name {
                    "id" => Field::Id,
                    "role" => Field::Role,
                    "parts" => Field::Parts,
                    _ => Field::Other,
                })
            }
        }
        deserializer.deserialize_identifier(FieldVisitor)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Element<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ElementVisitor(PhantomData))
    }
}

struct ElementVisitor<'a>(PhantomData<&'a RawValue>);

impl<'de: 'a, 'a> Visitor<'de> for ElementVisitor<'a> {
    type Value = Element<'a>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut element = Element {
            object: true,
            ..Element::default()
        };
        while let Some(field) = map.next_key::<Field>()? {
            let slot = match field {
                Field::Id => &mut element.id,
                Field::Role => &mut element.role,
                Field::Parts => &mut element.parts,
                Field::Other => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            *slot = Some(map.next_value::<&'a RawValue>()?);
        }
        Ok(element)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Element::default())
    }

    any_scalar_is!(Element::default());
}
