//! A body's declared length, its `Content-Length`, read before the body: a body that declares
//! more than the limit is refused at once (413 `body_too_large`), before a byte of it is kept (what
//! the client is still sending is then drained, within a bound, so that it reads the answer: the
//! adapter's `inbound/drain.rs`).

/// What a request's `Content-Length` says of its body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContentLength {
    /// No `Content-Length`: a chunked body, or none; read chunk by chunk, counted as it comes.
    Absent,
    /// A length within the limit.
    Declared(usize),
}

/// Why a `Content-Length` refuses its request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LengthFault {
    /// A length over the limit, however many digits it has (413 `body_too_large`).
    Over,
    /// Not a number (RFC 9110 section 8.6: `1*DIGIT`; `1e12`, `-1`, `0x10`, an empty one, a
    /// list): it frames no body, and RFC 9112 section 6.3 makes it an unrecoverable error the
    /// server answers with a 400 (`body_unreadable`).
    NotANumber,
}

/// Reads `header`, the request's `Content-Length`, against `max`, the body limit.
pub fn read_length(header: Option<&str>, max: usize) -> Result<ContentLength, LengthFault> {
    let Some(value) = header else {
        return Ok(ContentLength::Absent);
    };
    let digits = value.trim_ascii();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(LengthFault::NotANumber);
    }
    // All digits: what does not fit a usize (saturated) is over any limit.
    let len = digits.bytes().fold(0usize, |len, digit| {
        len.saturating_mul(10)
            .saturating_add(usize::from(digit - b'0'))
    });
    if len <= max {
        Ok(ContentLength::Declared(len))
    } else {
        Err(LengthFault::Over)
    }
}

#[cfg(test)]
#[path = "length_tests.rs"]
mod tests;
