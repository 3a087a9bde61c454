//! Reading protocol 6's three frames and their stored parts: one reader of every field the six
//! shapes name, member by member, then the shape's own checks ([`super::parts::DataFields::checked`],
//! [`super::parts::Source::checked`], [`super::parts::read_metadata`]).

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::parts::{fault, read_metadata, DataFields, Source, TurnPart};
use crate::v2::frame_error::{typed, FrameError};

/// The fields of the three frames, and of the stored parts (no `turnId`), in one struct: one
/// reader in the wasm for all six (each frame names its own; the rest stay absent). Read member by
/// member ([`Members`]), which costs the wasm less than a derived reader of eleven fields.
#[derive(Default)]
struct Fields {
    turn_id: Option<String>,
    name: Option<String>,
    id: Option<String>,
    /// Present (`null` too: a value), or absent.
    data: Option<Box<RawValue>>,
    transient: Option<bool>,
    source_id: Option<String>,
    url: Option<String>,
    media_type: Option<String>,
    title: Option<String>,
    filename: Option<String>,
    metadata: Option<Box<RawValue>>,
}

/// A JSON object's members, each value as it is written.
struct Members<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'de: 'a, 'a> Deserialize<'de> for Members<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Self::Value, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry()? {
                    members.push(member);
                }
                Ok(Members(members))
            }
        }
        d.deserialize_map(Visit)
    }
}

impl Fields {
    fn read(text: &str) -> Result<Fields, FrameError> {
        let members: Members<'_> = typed(text)?;
        let mut fields = Fields::default();
        for (key, raw) in members.0 {
            // `null` is absent, as serde reads an optional field; but `data` holds any value.
            if raw.get() == "null" && key != "data" {
                continue;
            }
            let text = |slot: &mut Option<String>| -> Result<(), FrameError> {
                *slot = Some(typed(raw.get())?);
                Ok(())
            };
            match key.as_ref() {
                "turnId" => text(&mut fields.turn_id)?,
                "name" => text(&mut fields.name)?,
                "id" => text(&mut fields.id)?,
                "sourceId" => text(&mut fields.source_id)?,
                "url" => text(&mut fields.url)?,
                "mediaType" => text(&mut fields.media_type)?,
                "title" => text(&mut fields.title)?,
                "filename" => text(&mut fields.filename)?,
                "transient" => fields.transient = Some(typed(raw.get())?),
                "data" => fields.data = Some(raw.to_owned()),
                "metadata" => fields.metadata = Some(raw.to_owned()),
                _ => {}
            }
        }
        Ok(fields)
    }

    /// `T` of the turn the frame names: a frame without `turnId` is no turn event.
    fn of_turn<T>(
        self,
        part: impl FnOnce(Fields) -> Result<T, FrameError>,
    ) -> Result<TurnPart<T>, FrameError> {
        let turn_id = self.turn_id.clone().ok_or_else(|| fault("no turnId"))?;
        Ok(TurnPart {
            turn_id,
            part: part(self)?,
        })
    }

    fn data(self) -> Result<DataFields, FrameError> {
        // `"data": null` is a value; only an absent `data` is none.
        let data = self.data.ok_or_else(|| fault("a data part without data"))?;
        DataFields {
            name: self
                .name
                .ok_or_else(|| fault("a data part without a name"))?,
            id: self.id,
            data,
            transient: self.transient.unwrap_or(false),
        }
        .checked()
    }

    fn source(self) -> Result<Source, FrameError> {
        Source {
            source_id: self
                .source_id
                .ok_or_else(|| fault("a source without a sourceId"))?,
            url: self.url,
            media_type: self.media_type,
            title: self.title,
            filename: self.filename,
        }
        .checked()
    }

    fn metadata(self) -> Result<Box<RawValue>, FrameError> {
        let metadata = self.metadata.ok_or_else(|| fault("no metadata"))?;
        read_metadata(&metadata)?;
        Ok(metadata)
    }
}

/// `message.part.data`, read and checked ([`DataFields::checked`]).
pub fn parse_data(text: &str) -> Result<TurnPart<DataFields>, FrameError> {
    Fields::read(text)?.of_turn(Fields::data)
}

/// `message.part.source`, read and checked ([`Source::checked`]).
pub fn parse_source(text: &str) -> Result<TurnPart<Source>, FrameError> {
    Fields::read(text)?.of_turn(Fields::source)
}

/// `message.metadata`, checked ([`read_metadata`]) and kept as the agent wrote it.
pub fn parse_metadata(text: &str) -> Result<TurnPart<Box<RawValue>>, FrameError> {
    Fields::read(text)?.of_turn(Fields::metadata)
}

/// A stored `data` part: never transient (a `transient` it names is ignored).
pub fn parse_data_part(text: &str) -> Result<DataFields, FrameError> {
    let mut part = Fields::read(text)?.data()?;
    part.transient = false;
    Ok(part)
}

/// A stored `source` part.
pub fn parse_source_part(text: &str) -> Result<Source, FrameError> {
    Fields::read(text)?.source()
}

/// A stored `metadata` part's object, as the agent wrote it.
pub fn parse_metadata_part(text: &str) -> Result<Box<RawValue>, FrameError> {
    Fields::read(text)?.metadata()
}
