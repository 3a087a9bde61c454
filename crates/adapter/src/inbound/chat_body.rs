//! A chat POST's body, read as a stream into the core's [`BodyStream`] (chunk by chunk, each
//! earlier message let go as the next one starts), so that the worker holds at most
//! `MAX_MESSAGE_BYTES` of it whatever its length up to `MAX_BODY_BYTES`. A small body (the usual
//! chat turn) is read in one call, as the runtime then holds it anyway.

use futures::StreamExt;
use worker::ByteStream;

use crate::inbound::body::read_request;
use crate::inbound::drain::DRAIN_BYTES;
use crate::inbound::incoming::RequestIn;
use crate::request::{declared_body_length, BodyStream, ContentLength, Limits, RequestError};
use crate::request_head::Field;

/// Bodies declared at most this long are read in one call (a reader costs a round trip a
/// chunk): 1 MiB, past any chat turn without files, and a fraction of what a body may hold at
/// once (`MAX_MESSAGE_BYTES`, whichever is smaller).
const WHOLE_UP_TO_BYTES: usize = 1024 * 1024;

/// The body, its earlier messages reduced to their ids, for `crate::request::parse_chat_request`;
/// or why it is refused: `body_too_large` (declared or counted past `MAX_BODY_BYTES`),
/// `message_too_large` (more than `MAX_MESSAGE_BYTES` to hold at once), `body_unreadable`.
pub(crate) async fn read_chat_body(
    req: &RequestIn<'_>,
    limits: &Limits,
) -> Result<Vec<u8>, RequestError> {
    let max = limits.max_body_bytes;
    let declared = match declared_body_length(req.header(Field::ContentLength), usize::MAX)? {
        ContentLength::Declared(len) => Some(len),
        ContentLength::Absent => None,
    };
    if declared.is_some_and(|len| len > max) {
        // At once, before a byte of it: a client may declare 200 MB and send nothing.
        return Err(RequestError::TooLarge { limit: max });
    }
    let whole = WHOLE_UP_TO_BYTES.min(limits.max_message_bytes);
    if declared.is_some_and(|len| len <= whole) {
        let read = read_request(req.raw, declared, whole, whole, whole).await;
        return if read.failed {
            Err(RequestError::Unreadable)
        } else {
            Ok(read.kept)
        };
    }
    let Some(body) = req.raw.body() else {
        return Ok(Vec::new());
    };
    let mut stream = BodyStream::new(max, limits.max_message_bytes);
    let mut chunks = ByteStream::from(body);
    while let Some(chunk) = chunks.next().await {
        let Ok(chunk) = chunk else {
            return Err(RequestError::Unreadable);
        };
        if let Err(refused) = stream.push(&chunk) {
            // The rest, read and dropped up to the drain's bound, so that the client reads the
            // answer (crate::inbound::drain).
            let mut drained = 0usize;
            while drained <= DRAIN_BYTES {
                match chunks.next().await {
                    Some(Ok(chunk)) => drained += chunk.len(),
                    _ => break,
                }
            }
            return Err(refused.into());
        }
    }
    Ok(stream.finish())
}
